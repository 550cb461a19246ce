/**
 * The `qa` configuration: `qa.config.json` < `QA_*` environment variables < command-line flags < defaults
 * underneath all. Pure: the apps read the file and the environment and pass them in.
 */
import { renderValue } from './codec'
import type { ValidationIssue } from './errors'

export type VisionProviderName = 'bedrock' | 'openai' | 'ocr' | 'none'
export type ReportFormatName = 'json' | 'txt' | 'html' | 'junit'

export interface MaskRect {
  x: number
  y: number
  width: number
  height: number
}

export interface QaConfig {
  verify: {
    /** Similarity 0–1 a step needs to pass (seed 000 threshold). */
    passSimilarity: number
    /** Below passSimilarity and without a vision answer: warning at or above this, else fail. */
    fallbackSimilarity: number
    /** Ignore-masks for dynamic regions (clocks, counters), in screenshot pixels. */
    masks: MaskRect[]
  }
  vision: {
    provider: VisionProviderName
    fallback: VisionProviderName[] | null
    bedrockModel: string | null
    region: string | null
    openaiBaseUrl: string | null
    openaiModel: string | null
    timeoutMs: number
    cacheDir: string | null
  }
  replay: {
    /** Time an element gets to become actionable. */
    actionTimeoutMs: number
    /** Desktop: semantic match confidence needed to move the click (seed 001 P3). */
    matchThreshold: number
    /**
     * Desktop: click the recorded point when no strategy finds the target (coordinate-only legacy cases).
     * Off by default: such a step fails with "not found". `qa replay --allow-coordinates` turns it on.
     */
    allowCoordinates: boolean
    reportDir: string
    reportFormats: ReportFormatName[]
    /** Web: the folder with the files steps choose in a file chooser (by recorded name); null: the case's folder. */
    filesDir: string | null
  }
  browser: {
    chromiumPath: string
    headless: boolean
    viewport: { width: number; height: number } | null
  }
  record: {
    /** Wait after an input before the after-screenshot. */
    settleMs: number
    /** Desktop frame ring buffer interval. */
    frameIntervalMs: number
    stopHotkey: string
  }
}

export const DEFAULT_CONFIG: QaConfig = Object.freeze({
  verify: { passSimilarity: 0.95, fallbackSimilarity: 0.7, masks: [] },
  vision: {
    provider: 'ocr',
    fallback: null,
    bedrockModel: null,
    region: null,
    openaiBaseUrl: null,
    openaiModel: null,
    timeoutMs: 30_000,
    cacheDir: null,
  },
  replay: {
    actionTimeoutMs: 5_000,
    matchThreshold: 0.7,
    allowCoordinates: false,
    reportDir: 'qa-reports',
    reportFormats: ['json', 'txt', 'html'],
    filesDir: null,
  },
  browser: { chromiumPath: '/usr/bin/chromium', headless: true, viewport: null },
  record: { settleMs: 500, frameIntervalMs: 100, stopHotkey: 'F10' },
}) as QaConfig

type Check = (value: unknown) => string | null

const ratio: Check = (v) => (typeof v === 'number' && v >= 0 && v <= 1 ? null : 'a number from 0 to 1')
const positiveInt: Check = (v) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? null : 'a positive integer')
const nonEmpty: Check = (v) => (typeof v === 'string' && v.trim() !== '' ? null : 'a non-empty string')
const nullableString: Check = (v) =>
  v === null || (typeof v === 'string' && v.trim() !== '') ? null : 'a non-empty string or null'
const bool: Check = (v) => (typeof v === 'boolean' ? null : 'true or false')
const PROVIDERS: readonly VisionProviderName[] = ['bedrock', 'openai', 'ocr', 'none']
const FORMATS: readonly ReportFormatName[] = ['json', 'txt', 'html', 'junit']
const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? null : `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`
const listOf =
  (values: readonly string[], nullable = false): Check =>
  (v) =>
    (nullable && v === null) || (Array.isArray(v) && v.every((x) => typeof x === 'string' && values.includes(x)))
      ? null
      : `${nullable ? 'null or ' : ''}a list of ${values.map((x) => JSON.stringify(x)).join(', ')}`
const region: Check = (v) =>
  v === null || (typeof v === 'string' && /^[a-z]{2}(-gov)?-[a-z]+-\d$/.test(v))
    ? null
    : 'an AWS region like "us-east-1"'
const url: Check = (v) => {
  if (v === null) return null
  try {
    return typeof v === 'string' && /^https?:$/.test(new URL(v).protocol) ? null : 'an http(s) URL'
  } catch {
    return 'an http(s) URL'
  }
}
const isRect = (r: unknown): boolean =>
  typeof r === 'object' &&
  r !== null &&
  ['x', 'y', 'width', 'height'].every((k) => Number.isInteger((r as Record<string, unknown>)[k])) &&
  (r as MaskRect).x >= 0 &&
  (r as MaskRect).y >= 0 &&
  (r as MaskRect).width > 0 &&
  (r as MaskRect).height > 0 &&
  Object.keys(r as object).length === 4
const masks: Check = (v) =>
  Array.isArray(v) && v.every(isRect) ? null : 'a list of {x, y, width, height} with non-negative integers'
const viewport: Check = (v) =>
  v === null ||
  (typeof v === 'object' &&
    v !== null &&
    Number.isInteger((v as { width?: unknown }).width) &&
    Number.isInteger((v as { height?: unknown }).height) &&
    (v as { width: number }).width > 0 &&
    (v as { height: number }).height > 0 &&
    Object.keys(v).length === 2)
    ? null
    : 'null or {width, height} with positive integers'

/** Every key of the config with its check; a key not listed here is an error. */
const SCHEMA: Record<keyof QaConfig, Record<string, Check>> = {
  verify: { passSimilarity: ratio, fallbackSimilarity: ratio, masks },
  vision: {
    provider: oneOf(PROVIDERS),
    fallback: listOf(PROVIDERS, true),
    bedrockModel: nullableString,
    region,
    openaiBaseUrl: url,
    openaiModel: nullableString,
    timeoutMs: positiveInt,
    cacheDir: nullableString,
  },
  replay: {
    actionTimeoutMs: positiveInt,
    matchThreshold: ratio,
    allowCoordinates: bool,
    reportDir: nonEmpty,
    reportFormats: listOf(FORMATS),
    filesDir: nullableString,
  },
  browser: { chromiumPath: nonEmpty, headless: bool, viewport },
  record: { settleMs: positiveInt, frameIntervalMs: positiveInt, stopHotkey: nonEmpty },
}

/**
 * The environment variables `qa` reads, declared once: name → config path and how the text becomes a value.
 * (AWS_* credentials and AWS_ENDPOINT_URL_BEDROCK_RUNTIME are read by the AWS SDK itself.)
 */
export const CONFIG_ENV_VARS: Readonly<
  Record<string, { path: string; parse: (text: string) => unknown; description: string }>
> = Object.freeze({
  QA_THRESHOLD: { path: 'verify.passSimilarity', parse: Number, description: 'similarity a step needs to pass (0–1)' },
  QA_FALLBACK_THRESHOLD: {
    path: 'verify.fallbackSimilarity',
    parse: Number,
    description: 'warning floor without vision (0–1)',
  },
  QA_VISION: { path: 'vision.provider', parse: (t) => t.toLowerCase(), description: 'bedrock | openai | ocr | none' },
  QA_VISION_FALLBACK: {
    path: 'vision.fallback',
    parse: (t) =>
      t
        .split(/[,>\s]+/)
        .filter(Boolean)
        .map((s) => s.toLowerCase()),
    description: 'providers tried in order when the first fails, e.g. ocr,none',
  },
  QA_BEDROCK_MODEL: {
    path: 'vision.bedrockModel',
    parse: String,
    description: 'Bedrock model or inference profile id',
  },
  AWS_REGION: { path: 'vision.region', parse: String, description: 'AWS region of Bedrock' },
  QA_OPENAI_BASE_URL: {
    path: 'vision.openaiBaseUrl',
    parse: String,
    description: 'OpenAI-compatible endpoint (vLLM, Ollama, LM Studio)',
  },
  QA_OPENAI_MODEL: { path: 'vision.openaiModel', parse: String, description: 'model name at that endpoint' },
  QA_VISION_TIMEOUT_MS: { path: 'vision.timeoutMs', parse: Number, description: 'per-call vision timeout' },
  QA_VISION_CACHE_DIR: { path: 'vision.cacheDir', parse: String, description: 'folder of cached vision answers' },
  QA_ACTION_TIMEOUT_MS: {
    path: 'replay.actionTimeoutMs',
    parse: Number,
    description: 'time an element gets to become actionable',
  },
  QA_REPORT_DIR: { path: 'replay.reportDir', parse: String, description: 'where reports go' },
  QA_CHROMIUM: { path: 'browser.chromiumPath', parse: String, description: 'Chromium binary' },
})

export type ConfigOverrides = { [K in keyof QaConfig]?: Partial<QaConfig[K]> }

export interface ConfigResult {
  config: QaConfig
  issues: ValidationIssue[]
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Merges defaults < file < env < flags and checks every key: unknown keys and bad values are issues naming
 * the key (`replay.actionTimeoutMs: expected a positive integer, got -1`), environment values name the
 * variable (`QA_THRESHOLD (verify.passSimilarity): …`).
 */
export function resolveConfig(
  file: unknown,
  env: Readonly<Record<string, string | undefined>>,
  flags: ConfigOverrides = {},
): ConfigResult {
  const issues: ValidationIssue[] = []
  const config = structuredClone(DEFAULT_CONFIG) as unknown as Record<string, Record<string, unknown>>
  const apply = (layer: unknown, label: (path: string) => string) => {
    if (layer === undefined || layer === null) return
    if (!isObject(layer)) {
      issues.push({ path: label('$'), expected: 'an object', got: renderValue(layer) })
      return
    }
    for (const [section, values] of Object.entries(layer)) {
      const keys = SCHEMA[section as keyof QaConfig]
      if (!keys) {
        issues.push({
          path: label(section),
          expected: `one of the sections ${Object.keys(SCHEMA).join(', ')}`,
          got: 'an unknown key',
        })
        continue
      }
      if (!isObject(values)) {
        issues.push({ path: label(section), expected: 'an object', got: renderValue(values) })
        continue
      }
      for (const [key, value] of Object.entries(values)) {
        if (value === undefined) continue
        const check = keys[key]
        const path = `${section}.${key}`
        if (!check) {
          issues.push({
            path: label(path),
            expected: `one of ${Object.keys(keys)
              .map((k) => `${section}.${k}`)
              .join(', ')}`,
            got: 'an unknown key',
          })
          continue
        }
        const problem = check(value)
        if (problem) issues.push({ path: label(path), expected: problem, got: renderValue(value) })
        else (config[section] as Record<string, unknown>)[key] = structuredClone(value)
      }
    }
  }
  apply(file, (p) => p)
  const fromEnv: Record<string, Record<string, unknown>> = {}
  const envLabels = new Map<string, string>()
  for (const [name, spec] of Object.entries(CONFIG_ENV_VARS)) {
    const text = env[name]
    if (text === undefined || text.trim() === '') continue
    const [section, key] = spec.path.split('.') as [string, string]
    fromEnv[section] ??= {}
    fromEnv[section][key] = spec.parse(text.trim())
    envLabels.set(spec.path, name)
  }
  apply(fromEnv, (p) => (envLabels.has(p) ? `${envLabels.get(p)} (${p})` : p))
  apply(flags, (p) => `--${p}`)
  if ((config.verify as QaConfig['verify']).fallbackSimilarity > (config.verify as QaConfig['verify']).passSimilarity) {
    issues.push({
      path: 'verify.fallbackSimilarity',
      expected: `at most verify.passSimilarity (${(config.verify as QaConfig['verify']).passSimilarity})`,
      got: String((config.verify as QaConfig['verify']).fallbackSimilarity),
    })
  }
  return { config: config as unknown as QaConfig, issues }
}
