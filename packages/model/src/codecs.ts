import { decodeObject, encodeObject, renderValue, validateObject } from './codec'
import { formatIssue, ModelError, type ValidationIssue } from './errors'
import { locateJsonError } from './json-locate'
import type { ObjectSchema } from './schema'
import {
  accuracyStatsSchema,
  actionSchema,
  assertionSchema,
  elementIdentitySchema,
  enrichmentResultSchema,
  healingRecordSchema,
  replayReportSchema,
  replayResultSchema,
  verificationResultSchema,
} from './schemas'
import type {
  AccuracyStats,
  Action,
  Assertion,
  ElementIdentity,
  EnrichmentResult,
  HealingRecord,
  JsonObject,
  ReplayReport,
  ReplayResult,
  VerificationResult,
} from './types'

export interface ParseOptions {
  /** Named in error messages. */
  file?: string
}

/** Validate, decode and encode one object type of the file format. */
export interface Codec<T> {
  readonly schema: ObjectSchema
  /** Every issue, empty when valid. */
  validate(raw: unknown): ValidationIssue[]
  /** File format (snake_case) → model; throws ModelError `MODEL_INVALID` listing every issue. */
  parse(raw: unknown, opts?: ParseOptions): T
  /** Model → file format (snake_case), unknown fields written back. */
  serialize(value: T): JsonObject
}

export function validateAgainst(raw: unknown, schema: ObjectSchema): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    issues.push({ path: '$', expected: `object (${schema.name})`, got: renderValue(raw) })
    return issues
  }
  validateObject(raw as Record<string, unknown>, schema, '$', issues)
  return issues
}

export function invalidError(
  what: string,
  issues: readonly ValidationIssue[],
  file?: string,
  hint = 'Fix the fields listed above; the file was not changed.',
): ModelError {
  const where = file ? `${file}: ` : ''
  const lines = issues.slice(0, 50).map((i) => `  ${where}${formatIssue(i)}`)
  if (issues.length > 50) lines.push(`  … and ${issues.length - 50} more`)
  return new ModelError(
    'MODEL_INVALID',
    `${file ?? 'The input'} is not a valid ${what} (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${lines.join('\n')}`,
    { file, issues, hint },
  )
}

export function createCodec<T>(schema: ObjectSchema): Codec<T> {
  return {
    schema,
    validate: (raw) => validateAgainst(raw, schema),
    parse(raw, opts = {}) {
      const issues = validateAgainst(raw, schema)
      if (issues.length > 0) throw invalidError(schema.name, issues, opts.file)
      return decodeObject(raw as Record<string, unknown>, schema) as T
    },
    serialize: (value) => encodeObject(value as unknown as Record<string, unknown>, schema) as JsonObject,
  }
}

export const actionCodec = createCodec<Action>(actionSchema)
export const assertionCodec = createCodec<Assertion>(assertionSchema)
export const elementIdentityCodec = createCodec<ElementIdentity>(elementIdentitySchema)
export const healingRecordCodec = createCodec<HealingRecord>(healingRecordSchema)
export const replayResultCodec = createCodec<ReplayResult>(replayResultSchema)
export const verificationResultCodec = createCodec<VerificationResult>(verificationResultSchema)
export const accuracyStatsCodec = createCodec<AccuracyStats>(accuracyStatsSchema)
export const replayReportCodec = createCodec<ReplayReport>(replayReportSchema)
export const enrichmentResultCodec = createCodec<EnrichmentResult>(enrichmentResultSchema)

export const parseAction = (raw: unknown, opts?: ParseOptions) => actionCodec.parse(raw, opts)
export const serializeAction = (value: Action) => actionCodec.serialize(value)
export const parseReplayReport = (raw: unknown, opts?: ParseOptions) => replayReportCodec.parse(raw, opts)
export const serializeReplayReport = (value: ReplayReport) => replayReportCodec.serialize(value)
export const parseVerificationResult = (raw: unknown, opts?: ParseOptions) => verificationResultCodec.parse(raw, opts)
export const serializeVerificationResult = (value: VerificationResult) => verificationResultCodec.serialize(value)
export const parseReplayResult = (raw: unknown, opts?: ParseOptions) => replayResultCodec.parse(raw, opts)
export const serializeReplayResult = (value: ReplayResult) => replayResultCodec.serialize(value)
export const parseEnrichmentResult = (raw: unknown, opts?: ParseOptions) => enrichmentResultCodec.parse(raw, opts)
export const serializeEnrichmentResult = (value: EnrichmentResult) => enrichmentResultCodec.serialize(value)

/** Deepest nesting of objects and arrays a file of ours may have (every format is far shallower). */
export const MAX_JSON_DEPTH = 64

/** The offset of the bracket that opens level `limit + 1`, or -1. Linear, no recursion; skips strings. */
function tooDeepAt(text: string, limit: number): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return i
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return -1
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset)
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`
}

/**
 * JSON.parse with an error that names the file, line and column. Documents nested deeper than MAX_JSON_DEPTH are
 * refused before parsing: no stack overflow, and nothing is accepted that validation would reject later. A
 * "__proto__" key anywhere is refused, naming its path: no file of ours has one, and code that copies it with `obj[key] =`
 * would change a prototype.
 */
export function parseJsonText(text: string, opts: ParseOptions = {}): unknown {
  const deep = tooDeepAt(text, MAX_JSON_DEPTH)
  if (deep >= 0) {
    throw new ModelError(
      'MODEL_INVALID_JSON',
      `${opts.file ?? 'The input'} is nested deeper than ${MAX_JSON_DEPTH} levels (at ${lineColumn(text, deep)}).`,
      {
        file: opts.file,
        hint: `Objects and arrays may nest at most ${MAX_JSON_DEPTH} levels; the file was not changed.`,
      },
    )
  }
  let value: unknown
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause)
    const offset = locateJsonError(text)
    let where = ''
    if (offset >= text.length) {
      where = ' (the file ends too early; it may be truncated)'
    } else if (offset >= 0) {
      where = ` at ${lineColumn(text, offset)}`
    }
    throw new ModelError('MODEL_INVALID_JSON', `${opts.file ?? 'The input'} is not valid JSON${where}: ${detail}`, {
      file: opts.file,
      cause,
      hint: 'Check that the file is complete JSON; the file was not changed.',
    })
  }
  const proto = protoKeyAt(value)
  if (proto !== null) {
    const issue = {
      path: proto,
      expected: 'no "__proto__" key (JavaScript reads it as an object\'s prototype)',
      got: 'one',
    }
    throw new ModelError('MODEL_INVALID', `${opts.file ?? 'The input'}: ${formatIssue(issue)}`, {
      file: opts.file,
      issues: [issue],
      hint: 'Remove the "__proto__" key; no file of ours has one, and the file was not changed.',
    })
  }
  return value
}

/** The JSON path of the first "__proto__" key in a parsed document (JSON.parse keeps it as an own key), or null. */
function protoKeyAt(root: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value: root, path: '' }]
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string }
    if (typeof value !== 'object' || value === null) continue
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: `${path}[${i}]` })
      continue
    }
    if (Object.hasOwn(value, '__proto__')) return path ? `${path}.__proto__` : '__proto__'
    for (const [key, child] of Object.entries(value).reverse())
      stack.push({ value: child, path: path ? `${path}.${key}` : key })
  }
  return null
}

/** Pretty JSON with a trailing newline, the form every file of ours is written in. */
export function stringifyDocument(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`
}
