import type { QaConfig } from '@qa/model'
import type { BedrockOptions } from './providers/bedrock'
import type { OcrOptions } from './providers/ocr'
import type { OpenAiOptions } from './providers/openai'
import type { VisionProvider } from './types'

export const PROVIDER_NAMES = ['bedrock', 'openai', 'ocr', 'none'] as const
export type ProviderName = (typeof PROVIDER_NAMES)[number]

export interface VisionConfig {
  /** The first provider asked (config vision.provider, QA_VISION). A VisionProvider object plugs in your own or a fake. */
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

/** Secrets the vision providers need that are never part of the config (the AWS SDK finds its own). */
export interface VisionSecrets {
  /** Bearer token of the OpenAI-compatible endpoint (the app reads QA_OPENAI_API_KEY). */
  openaiApiKey?: string | undefined
}

/**
 * The vision settings of a resolved `QaConfig` (`@qa/model`'s `resolveConfig`, which declares and checks every
 * `QA_*` variable) in this library's terms. The library reads no environment: apps resolve the config once and
 * pass the secrets they hold.
 */
export function visionConfigFromQa(vision: QaConfig['vision'], secrets: VisionSecrets = {}): VisionConfig {
  const out: VisionConfig = { provider: vision.provider, timeoutMs: vision.timeoutMs }
  if (vision.fallback) out.fallback = vision.fallback
  if (vision.cacheDir) out.cacheDir = vision.cacheDir
  if (vision.provider === 'bedrock' || vision.fallback?.includes('bedrock') || vision.bedrockModel)
    out.bedrock = {
      ...(vision.bedrockModel ? { modelId: vision.bedrockModel } : {}),
      ...(vision.region ? { region: vision.region } : {}),
    }
  if (vision.openaiBaseUrl && vision.openaiModel)
    out.openai = {
      baseUrl: vision.openaiBaseUrl,
      model: vision.openaiModel,
      ...(secrets.openaiApiKey ? { apiKey: secrets.openaiApiKey } : {}),
    }
  return out
}
