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
    /** Similarity 0–1 a step needs to pass. */
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
    /** Desktop: semantic match confidence needed to move the click. */
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
    /**
     * Stop a case once this many steps failed (`--max-failures`, Playwright's name); the steps after it are
     * reported as not run. null: every step runs.
     */
    maxFailures: number | null
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
    maxFailures: null,
  },
  browser: { chromiumPath: '/usr/bin/chromium', headless: true, viewport: null },
  record: { settleMs: 500, frameIntervalMs: 100, stopHotkey: 'F10' },
}) as QaConfig

type Check = (value: unknown) => string | null

/** A JSON Schema fragment (draft-07), as written into `qa.config.schema.json`. */
export type JsonSchema = { [key: string]: unknown }

/** One config key: its check (error text: what was expected) and the same rule as JSON Schema. */
interface Rule {
  check: Check
  schema: JsonSchema
}

const ratio: Rule = {
  check: (v) => (typeof v === 'number' && v >= 0 && v <= 1 ? null : 'a number from 0 to 1'),
  schema: { type: 'number', minimum: 0, maximum: 1 },
}
const positiveInt: Rule = {
  check: (v) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? null : 'a positive integer'),
  schema: { type: 'integer', exclusiveMinimum: 0 },
}
const nonEmpty: Rule = {
  check: (v) => (typeof v === 'string' && v.trim() !== '' ? null : 'a non-empty string'),
  schema: { type: 'string', pattern: '\\S' },
}
const nullableString: Rule = {
  check: (v) => (v === null || (typeof v === 'string' && v.trim() !== '') ? null : 'a non-empty string or null'),
  schema: { type: ['string', 'null'], pattern: '\\S' },
}
const nullablePositiveInt: Rule = {
  check: (v) =>
    v === null || (typeof v === 'number' && Number.isInteger(v) && v > 0) ? null : 'a positive integer or null',
  schema: { type: ['integer', 'null'], exclusiveMinimum: 0 },
}
const bool: Rule = { check: (v) => (typeof v === 'boolean' ? null : 'true or false'), schema: { type: 'boolean' } }
const PROVIDERS: readonly VisionProviderName[] = ['bedrock', 'openai', 'ocr', 'none']
const FORMATS: readonly ReportFormatName[] = ['json', 'txt', 'html', 'junit']
const quoted = (values: readonly string[]) => values.map((x) => JSON.stringify(x)).join(', ')
const oneOf = (values: readonly string[]): Rule => ({
  check: (v) => (typeof v === 'string' && values.includes(v) ? null : `one of ${quoted(values)}`),
  schema: { enum: [...values] },
})
const listOf = (values: readonly string[], nullable = false): Rule => ({
  check: (v) =>
    (nullable && v === null) || (Array.isArray(v) && v.every((x) => typeof x === 'string' && values.includes(x)))
      ? null
      : `${nullable ? 'null or ' : ''}a list of ${quoted(values)}`,
  schema: { type: nullable ? ['array', 'null'] : 'array', items: { enum: [...values] } },
})
/** An AWS region name: `us-east-1`, `ap-northeast-2`, `us-gov-west-1`. */
const AWS_REGION_PATTERN = /^[a-z]{2}(-gov)?-[a-z]+-\d$/
const region: Rule = {
  check: (v) =>
    v === null || (typeof v === 'string' && AWS_REGION_PATTERN.test(v)) ? null : 'an AWS region like "us-east-1"',
  schema: { type: ['string', 'null'], pattern: AWS_REGION_PATTERN.source },
}
const url: Rule = {
  check: (v) => {
    if (v === null) return null
    try {
      return typeof v === 'string' && /^https?:$/.test(new URL(v).protocol) ? null : 'an http(s) URL'
    } catch {
      return 'an http(s) URL'
    }
  },
  schema: { type: ['string', 'null'], pattern: '^https?://' },
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
const masks: Rule = {
  check: (v) =>
    Array.isArray(v) && v.every(isRect) ? null : 'a list of {x, y, width, height} with non-negative integers',
  schema: {
    type: 'array',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['x', 'y', 'width', 'height'],
      properties: {
        x: { type: 'integer', minimum: 0 },
        y: { type: 'integer', minimum: 0 },
        width: { type: 'integer', exclusiveMinimum: 0 },
        height: { type: 'integer', exclusiveMinimum: 0 },
      },
    },
  },
}
const viewport: Rule = {
  check: (v) =>
    v === null ||
    (typeof v === 'object' &&
      v !== null &&
      Number.isInteger((v as { width?: unknown }).width) &&
      Number.isInteger((v as { height?: unknown }).height) &&
      (v as { width: number }).width > 0 &&
      (v as { height: number }).height > 0 &&
      Object.keys(v).length === 2)
      ? null
      : 'null or {width, height} with positive integers',
  schema: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['width', 'height'],
    properties: { width: { type: 'integer', exclusiveMinimum: 0 }, height: { type: 'integer', exclusiveMinimum: 0 } },
  },
}

type KeySpec = { rule: Rule; description: string }
const key = (rule: Rule, description: string): KeySpec => ({ rule, description })

/**
 * Every key of the config with its rule and what it means, the one definition behind `resolveConfig` and
 * `configJsonSchema`; a key not listed here is an error.
 */
const SCHEMA: { [S in keyof QaConfig]: { [K in keyof QaConfig[S]]-?: KeySpec } } = {
  verify: {
    passSimilarity: key(ratio, 'Similarity 0–1 a step needs to pass.'),
    fallbackSimilarity: key(ratio, 'Below passSimilarity and without a vision answer: warning at or above this.'),
    masks: key(masks, 'Ignore-masks for dynamic regions (clocks, counters), in screenshot pixels.'),
  },
  vision: {
    provider: key(oneOf(PROVIDERS), 'The vision provider asked first.'),
    fallback: key(listOf(PROVIDERS, true), 'Providers tried in order when the first fails (null: the default chain).'),
    bedrockModel: key(nullableString, 'Bedrock model or inference profile id.'),
    region: key(region, 'AWS region of Bedrock.'),
    openaiBaseUrl: key(url, 'OpenAI-compatible endpoint (vLLM, Ollama, LM Studio).'),
    openaiModel: key(nullableString, 'Model name at that endpoint (one that accepts images).'),
    timeoutMs: key(positiveInt, 'Per-call vision timeout in milliseconds.'),
    cacheDir: key(nullableString, 'Folder of cached vision answers (null: memory only).'),
  },
  replay: {
    actionTimeoutMs: key(positiveInt, 'Milliseconds an element gets to become actionable.'),
    matchThreshold: key(ratio, 'Desktop: semantic match confidence needed to move the click.'),
    allowCoordinates: key(
      bool,
      'Click the recorded point when no strategy finds the target (desktop; web: steps imported from DevTools).',
    ),
    reportDir: key(nonEmpty, 'Folder the reports are written to.'),
    reportFormats: key(listOf(FORMATS), 'Report files written into reportDir.'),
    filesDir: key(
      nullableString,
      "Web: folder with the files steps choose in a file chooser (null: the case's folder).",
    ),
    maxFailures: key(
      nullablePositiveInt,
      'Stop a case after this many failed steps; the rest are reported as not run (null: every step runs).',
    ),
  },
  browser: {
    chromiumPath: key(nonEmpty, 'Chromium binary.'),
    headless: key(bool, 'Run the browser without a window.'),
    viewport: key(viewport, 'Viewport {width, height} when the case recorded none (null: the browser default).'),
  },
  record: {
    settleMs: key(positiveInt, 'Desktop: wait after an input before the after-screenshot.'),
    frameIntervalMs: key(positiveInt, 'Desktop: screen grab interval of the frame ring buffer.'),
    stopHotkey: key(nonEmpty, 'Desktop: the key that stops recording, e.g. F10.'),
  },
}

/**
 * The JSON Schema (draft-07) of `qa.config.json`, generated from the same definition `resolveConfig` checks
 * with: every section and key, its type, its default and what it means. `@qa/model` ships it as
 * `qa.config.schema.json`; a config file may name it in `"$schema"` for editor completion.
 */
export function configJsonSchema(): JsonSchema {
  const sections: Record<string, JsonSchema> = {}
  for (const [section, keys] of Object.entries(SCHEMA) as [keyof QaConfig, Record<string, KeySpec>][]) {
    const properties: Record<string, JsonSchema> = {}
    for (const [name, spec] of Object.entries(keys))
      properties[name] = {
        description: spec.description,
        ...spec.rule.schema,
        default: (DEFAULT_CONFIG[section] as unknown as Record<string, unknown>)[name],
      }
    sections[section] = { type: 'object', additionalProperties: false, properties }
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'qa.config.json',
    description:
      'Configuration of the qa command (semantic record & replay). QA_* environment variables override it, flags override both.',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string', description: 'The JSON Schema of this file, for editor completion.' },
      ...sections,
    },
  }
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
  AWS_DEFAULT_REGION: { path: 'vision.region', parse: String, description: 'AWS region of Bedrock (AWS_REGION wins)' },
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
      // own keys only: "__proto__", "constructor" or "toString" are unknown keys, never Object.prototype's
      const keys = Object.hasOwn(SCHEMA, section) ? SCHEMA[section as keyof QaConfig] : undefined
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
        const spec = Object.hasOwn(keys, key) ? (keys as Record<string, KeySpec | undefined>)[key] : undefined
        const path = `${section}.${key}`
        if (!spec) {
          issues.push({
            path: label(path),
            expected: `one of ${Object.keys(keys)
              .map((k) => `${section}.${k}`)
              .join(', ')}`,
            got: 'an unknown key',
          })
          continue
        }
        const problem = spec.rule.check(value)
        if (problem) issues.push({ path: label(path), expected: problem, got: renderValue(value) })
        else (config[section] as Record<string, unknown>)[key] = structuredClone(value)
      }
    }
  }
  let settings = file
  if (isObject(file) && '$schema' in file) {
    // the file may name its JSON Schema for editors; it is not a setting
    const { $schema, ...rest } = file
    if (typeof $schema !== 'string' || $schema.trim() === '')
      issues.push({ path: '$schema', expected: 'the path or URL of qa.config.schema.json', got: renderValue($schema) })
    settings = rest
  }
  apply(settings, (p) => p)
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
  const vision = config.vision as QaConfig['vision']
  if (vision.provider === 'openai' || vision.fallback?.includes('openai')) {
    for (const [field, variable] of [
      ['openaiBaseUrl', 'QA_OPENAI_BASE_URL'],
      ['openaiModel', 'QA_OPENAI_MODEL'],
    ] as const)
      if (vision[field] === null)
        issues.push({
          path: `vision.${field} (${variable})`,
          expected: `a value when the openai provider is used (${field === 'openaiBaseUrl' ? 'e.g. "http://127.0.0.1:11434/v1"' : 'a model that accepts images, e.g. "qwen2.5vl:7b"'})`,
          got: 'nothing',
        })
  }
  return { config: config as unknown as QaConfig, issues }
}
