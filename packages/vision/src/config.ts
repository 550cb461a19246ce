import { VisionError } from './errors'
import { type BedrockOptions, DEFAULT_BEDROCK_MODEL } from './providers/bedrock'
import type { OcrOptions } from './providers/ocr'
import type { OpenAiOptions } from './providers/openai'
import type { VisionProvider } from './types'

export const PROVIDER_NAMES = ['bedrock', 'openai', 'ocr', 'none'] as const
export type ProviderName = (typeof PROVIDER_NAMES)[number]

export interface VisionConfig {
  /** The first provider asked (QA_VISION). A VisionProvider object plugs in your own or a fake. */
  provider: ProviderName | VisionProvider
  /** Asked in order when the provider fails. Default: LLMs → ['ocr', 'none'], ocr → ['none'], none → []. */
  fallback?: (ProviderName | VisionProvider)[]
  bedrock?: BedrockOptions
  openai?: OpenAiOptions
  ocr?: OcrOptions
  /** Per-call limit (QA_VISION_TIMEOUT_MS, default 30 000). */
  timeoutMs?: number
  /** Retries on throttling/5xx/timeouts (default 3). */
  maxRetries?: number
  /** First backoff delay (default 500); doubles per retry, with jitter, capped by retryMaxDelayMs (8 000). */
  retryBaseDelayMs?: number
  retryMaxDelayMs?: number
  /** Folder for cached answers (QA_VISION_CACHE_DIR), e.g. next to the test case. Memory-only cache without it. */
  cacheDir?: string
  /** Set false to never cache (default true). */
  cache?: boolean
  /** Half-size of the crop around a click sent with the whole screen (default 150 px). */
  elementRadiusPx?: number
}

/** What the default fallback chain is for a provider. */
export function defaultFallback(provider: ProviderName | VisionProvider): ProviderName[] {
  const name = typeof provider === 'string' ? provider : provider.name
  if (name === 'none') return []
  if (name === 'ocr') return ['none']
  return ['ocr', 'none']
}

export type Env = Record<string, string | undefined>

/**
 * Reads the vision settings from environment variables (apps pass `process.env`; the library never reads
 * it). QA_VISION=bedrock|openai|ocr|none (default ocr: offline, no credentials), QA_VISION_FALLBACK=ocr,none,
 * QA_BEDROCK_MODEL, AWS_REGION (AWS_DEFAULT_REGION), QA_OPENAI_BASE_URL, QA_OPENAI_MODEL, QA_OPENAI_API_KEY,
 * QA_VISION_TIMEOUT_MS, QA_VISION_CACHE_DIR. The endpoint override AWS_ENDPOINT_URL_BEDROCK_RUNTIME is
 * left to the AWS SDK. Throws VISION_BAD_CONFIG listing every problem.
 */
export function visionConfigFromEnv(env: Env, base: Partial<VisionConfig> = {}): VisionConfig {
  const issues: string[] = []
  const get = (key: string) => {
    const v = env[key]?.trim()
    return v === undefined || v === '' ? undefined : v
  }
  const isName = (v: string): v is ProviderName => (PROVIDER_NAMES as readonly string[]).includes(v)
  const expected = `one of ${PROVIDER_NAMES.join(', ')}`

  let provider: ProviderName | VisionProvider = base.provider ?? 'ocr'
  const rawProvider = get('QA_VISION')?.toLowerCase()
  if (rawProvider !== undefined) {
    if (isName(rawProvider)) provider = rawProvider
    else issues.push(`QA_VISION: expected ${expected}, got "${env.QA_VISION}"`)
  }

  let fallback = base.fallback
  const rawFallback = get('QA_VISION_FALLBACK')
  if (rawFallback !== undefined) {
    const names = rawFallback
      .split(/[,>\s]+/)
      .filter(Boolean)
      .map((s) => s.toLowerCase())
    const bad = names.filter((n) => !isName(n))
    if (bad.length) issues.push(`QA_VISION_FALLBACK: expected a comma list of ${expected}, got "${rawFallback}"`)
    else fallback = names as ProviderName[]
  }

  const config: VisionConfig = { ...base, provider }
  if (fallback) config.fallback = fallback

  const timeout = get('QA_VISION_TIMEOUT_MS')
  if (timeout !== undefined) {
    const n = Number(timeout)
    if (!Number.isInteger(n) || n <= 0)
      issues.push(`QA_VISION_TIMEOUT_MS: expected a positive integer (ms), got "${timeout}"`)
    else config.timeoutMs = n
  }
  const cacheDir = get('QA_VISION_CACHE_DIR')
  if (cacheDir !== undefined) config.cacheDir = cacheDir

  const uses = (name: ProviderName) => provider === name || (fallback ?? []).includes(name)
  const region = get('AWS_REGION') ?? get('AWS_DEFAULT_REGION')
  const modelId = get('QA_BEDROCK_MODEL')
  if (uses('bedrock') || modelId || base.bedrock) {
    config.bedrock = {
      ...base.bedrock,
      modelId: modelId ?? base.bedrock?.modelId ?? DEFAULT_BEDROCK_MODEL,
      ...(region ? { region } : {}),
    }
    if (region !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region))
      issues.push(`AWS_REGION: expected an AWS region like "us-east-1", got "${region}"`)
  }
  const baseUrl = get('QA_OPENAI_BASE_URL') ?? base.openai?.baseUrl
  const model = get('QA_OPENAI_MODEL') ?? base.openai?.model
  const apiKey = get('QA_OPENAI_API_KEY') ?? base.openai?.apiKey
  if (uses('openai') || baseUrl || model) {
    if (!baseUrl) issues.push('QA_OPENAI_BASE_URL: expected a URL like "http://127.0.0.1:11434/v1", got nothing')
    else if (!/^https?:\/\//.test(baseUrl)) issues.push(`QA_OPENAI_BASE_URL: expected an http(s) URL, got "${baseUrl}"`)
    if (!model)
      issues.push('QA_OPENAI_MODEL: expected a model name that accepts images (e.g. "qwen2.5vl:7b"), got nothing')
    if (baseUrl && model) config.openai = { ...base.openai, baseUrl, model, ...(apiKey ? { apiKey } : {}) }
  }
  if (issues.length)
    throw new VisionError('VISION_BAD_CONFIG', `The vision settings are invalid:\n  ${issues.join('\n  ')}`, {
      hint: 'Fix the environment variables above (see the @qa/vision README, "Configuring providers").',
    })
  return config
}
