/**
 * `@qa/model/testing`: fast-check arbitraries for every type of the model, generated from the same schemas that
 * validate and (de)serialize files — so every field, absent vs null vs value, unknown fields, Hangul text, empty
 * strings and huge coordinates are all covered. Requires `fast-check` (an optional peer dependency).
 */
import fc from 'fast-check'
import { decodeObject } from './codec'
import type { Kind, ObjectSchema } from './schema'
import {
  accuracyStatsSchema,
  actionSchema,
  elementIdentitySchema,
  enrichmentResultSchema,
  healingRecordSchema,
  replayReportSchema,
  replayResultSchema,
  testCaseSchema,
  verificationResultSchema,
} from './schemas'
import {
  ACTION_TYPES,
  type Action,
  type ActionType,
  type ElementIdentity,
  type HealingRecord,
  type JsonObject,
  type JsonValue,
  type ReplayReport,
  type ReplayResult,
  type TestCase,
  type Verdict,
  type VerificationResult,
} from './types'

const HANGUL_WORDS = [
  '시작',
  '시작하기',
  '설정',
  '확인',
  '취소',
  '게임 입장',
  '로그인',
  '아이디 입력',
  '비밀번호',
  '검색',
]

/** Text as test cases contain it: ASCII labels, Hangul words and syllables, empty strings, any Unicode. */
export function arbText(opts: { minLength?: number } = {}): fc.Arbitrary<string> {
  const min = opts.minLength ?? 0
  const hangulSyllable = fc.integer({ min: 0xac00, max: 0xd7a3 }).map((c) => String.fromCharCode(c))
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
      { weight: 3, arbitrary: fc.constantFrom(...HANGUL_WORDS) },
      { weight: 2, arbitrary: fc.array(hangulSyllable, { maxLength: 8 }).map((cs) => cs.join('')) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
      { weight: 1, arbitrary: fc.constant('') },
    )
    .filter((s) => s.length >= min)
}

const finite = (min?: number, max?: number) =>
  fc
    .double({
      noNaN: true,
      noDefaultInfinity: true,
      min: min ?? -1e9,
      max: max ?? 1e9,
    })
    .map((x) => (x === 0 ? 0 : x)) // no -0: JSON cannot keep it

function arbKind(kind: Kind, depth: number): fc.Arbitrary<unknown> {
  switch (kind.t) {
    case 'string':
      return arbText({ minLength: kind.minLength ?? 0 })
    case 'integer': {
      const min = kind.min ?? -(2 ** 31)
      const max = kind.max ?? 2 ** 31 - 1
      // Small values mostly, huge ones (multi-monitor, 8K, overflowed recorders) sometimes.
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: Math.max(min, -100), max: Math.min(max, 4000) }) },
        { weight: 1, arbitrary: fc.integer({ min, max }) },
      )
    }
    case 'number':
      return finite(kind.min, kind.max)
    case 'boolean':
      return fc.boolean()
    case 'enum':
      return fc.constantFrom(...kind.values)
    case 'object':
      return arbDocument(kind.schema, { depth: depth + 1 })
    case 'array':
      return fc.array(arbKind(kind.of, depth + 1), { maxLength: depth > 2 ? 1 : 3 })
    case 'record':
      return fc.dictionary(
        fc.oneof(
          fc.string({ maxLength: 8 }).filter((key) => key !== '__proto__'),
          fc.constantFrom('색상', 'shape', 'icon'),
        ),
        arbKind(kind.of, depth + 1),
        {
          maxKeys: 3,
        },
      )
    case 'json':
      return arbJsonValue()
    case 'union':
      return fc.oneof(...kind.of.map((k) => arbKind(k, depth)))
    case 'casePath':
      return arbCasePath()
  }
}

/** A path as recorders store them: relative to the case's folder and inside it (Hangul, spaces, `./`, empty). */
export function arbCasePath(): fc.Arbitrary<string> {
  const segment = fc
    .oneof(
      fc.constantFrom('login', 'shots', '스크린샷', 'a b', '.', 'step-000-after.png'),
      fc.string({ minLength: 1, maxLength: 8 }),
    )
    .filter((s) => s !== '..' && !/[/\\\0:]/.test(s))
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 4, arbitrary: fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')) },
  )
}

/** Any JSON value (no -0, no non-finite numbers), small. */
export function arbJsonValue(): fc.Arbitrary<JsonValue> {
  // no "__proto__" key: a document with one is refused by design (JavaScript reads it as a prototype)
  return fc
    .jsonValue({ maxDepth: 2 })
    .map((v) => JSON.parse(JSON.stringify(v)) as JsonValue)
    .filter((v) => !JSON.stringify(v).includes('"__proto__"'))
}

const UNKNOWN_KEYS = ['x_custom', 'recorder_build', 'game_build', 'notes', 'extra', '메모']

export interface ArbDocumentOptions {
  /** Replace the arbitrary of some top-level fields (by file name). */
  overrides?: Record<string, fc.Arbitrary<unknown>>
  /** Include unknown fields sometimes (default true). */
  unknownFields?: boolean
  depth?: number
}

/**
 * A valid file-format document (snake_case JSON) of a schema: required fields present, each optional field
 * absent, null or a value, sometimes unknown fields too.
 */
export function arbDocument(schema: ObjectSchema, opts: ArbDocumentOptions = {}): fc.Arbitrary<JsonObject> {
  const depth = opts.depth ?? 0
  const known = new Set(schema.fields.map((f) => f.file))
  const parts: Record<string, fc.Arbitrary<unknown>> = {}
  const requiredKeys: string[] = []
  for (const field of schema.fields) {
    const value = opts.overrides?.[field.file] ?? arbKind(field.kind, depth)
    if (field.required) {
      parts[field.file] = value
      requiredKeys.push(field.file)
    } else {
      parts[field.file] = fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: value })
    }
  }
  const base = fc.record(parts, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>
  const unknown =
    opts.unknownFields === false
      ? fc.constant({})
      : fc.dictionary(fc.constantFrom(...UNKNOWN_KEYS.filter((key) => !known.has(key))), arbJsonValue(), {
          maxKeys: depth === 0 ? 2 : 1,
        })
  return fc
    .tuple(base, fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: unknown }))
    .map(([doc, extra]) => ({ ...extra, ...doc }) as JsonObject)
}

const decodeWith =
  <T>(schema: ObjectSchema) =>
  (doc: JsonObject): T =>
    decodeObject(doc, schema) as T

/** A valid `assertion` document: `expected` of the kind's type, an operator the kind knows. */
export function arbAssertionDocument(): fc.Arbitrary<JsonObject> {
  const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null })
  const textOps = fc.constantFrom('equals', 'contains')
  const byKind: fc.Arbitrary<JsonObject>[] = [
    fc.constantFrom<JsonObject>({ kind: 'visible' }, { kind: 'hidden' }, { kind: 'visible', op: null }),
    fc.record({ kind: fc.constantFrom('text', 'value'), op: nullable(textOps), expected: arbText() }),
    fc.record({
      kind: fc.constant('text'),
      op: fc.constant('matches'),
      expected: fc.constantFrom('^\\d+ items$', '/장바구니/i', 'a|b'),
    }),
    fc.record({ kind: fc.constant('checked'), expected: nullable(fc.boolean()) }),
    fc.record({ kind: fc.constant('url'), op: nullable(textOps), expected: arbText({ minLength: 1 }) }),
    fc.record({
      kind: fc.constant('count'),
      op: nullable(fc.constantFrom('equals', 'at_least', 'at_most')),
      expected: fc.integer({ min: 0, max: 50 }),
    }),
    fc.record({ kind: fc.constant('expression'), expected: fc.constantFrom('document.title === "장바구니"', '1') }),
  ]
  return fc
    .tuple(fc.oneof(...byKind), fc.oneof(fc.constant({}), fc.constant({ x_custom: '메모' })))
    .map(([a, extra]) => ({ ...extra, ...a }) as JsonObject)
}

/** An action document whose `assertion` agrees with its type: one (valid) on an assert step, none elsewhere. */
function arbActionDocumentOf(actionTypes?: readonly ActionType[]): fc.Arbitrary<JsonObject> {
  const overrides: Record<string, fc.Arbitrary<unknown>> = actionTypes
    ? { action_type: fc.constantFrom(...actionTypes) }
    : {}
  return fc
    .tuple(arbDocument(actionSchema, { depth: 1, overrides }), arbAssertionDocument())
    .map(([doc, assertion]) => {
      const { assertion: _drop, ...rest } = doc
      return (doc.action_type === 'assert' ? { ...rest, assertion } : rest) as JsonObject
    })
}

/**
 * A test-case file document of the current major version that loads unmigrated: version 3.2 (current) or 3.3
 * (a newer minor that uses nothing this version does not know).
 */
export function arbTestCaseDocument(opts: { actionTypes?: readonly ActionType[] } = {}): fc.Arbitrary<JsonObject> {
  return arbDocument(testCaseSchema, {
    overrides: {
      version: fc.constantFrom('3.2', '3.2', '3.3'),
      actions: fc.array(arbActionDocumentOf(opts.actionTypes), { maxLength: 6 }),
    },
  })
}

/** A format 3.0 document (before assertions): every action type but `assert`. */
export function arbTestCaseDocumentV30(): fc.Arbitrary<JsonObject> {
  return arbDocument(testCaseSchema, {
    overrides: {
      version: fc.constant('3.0'),
      actions: fc.array(arbActionDocumentOf(ACTION_TYPES.filter((t) => t !== 'assert')), { maxLength: 6 }),
    },
  })
}

export const arbTestCase = (opts?: { actionTypes?: readonly ActionType[] }): fc.Arbitrary<TestCase> =>
  arbTestCaseDocument(opts).map(decodeWith<TestCase>(testCaseSchema))
export const arbActionDocument = (): fc.Arbitrary<JsonObject> => arbActionDocumentOf()
export const arbAction = (): fc.Arbitrary<Action> => arbActionDocument().map(decodeWith<Action>(actionSchema))
export const arbElementIdentity = (): fc.Arbitrary<ElementIdentity> =>
  arbDocument(elementIdentitySchema).map(decodeWith<ElementIdentity>(elementIdentitySchema))
export const arbHealingRecord = (): fc.Arbitrary<HealingRecord> =>
  arbDocument(healingRecordSchema).map(decodeWith<HealingRecord>(healingRecordSchema))
export const arbReplayResult = (): fc.Arbitrary<ReplayResult> =>
  arbDocument(replayResultSchema).map(decodeWith<ReplayResult>(replayResultSchema))
export const arbVerificationResultDocument = (): fc.Arbitrary<JsonObject> => arbDocument(verificationResultSchema)
export const arbVerificationResult = (
  opts: { verdict?: fc.Arbitrary<Verdict> } = {},
): fc.Arbitrary<VerificationResult> =>
  arbDocument(verificationResultSchema, opts.verdict ? { overrides: { final_result: opts.verdict } } : {}).map(
    decodeWith<VerificationResult>(verificationResultSchema),
  )
export const arbReplayReportDocument = (): fc.Arbitrary<JsonObject> => arbDocument(replayReportSchema)
export const arbReplayReport = (): fc.Arbitrary<ReplayReport> =>
  arbReplayReportDocument().map(decodeWith<ReplayReport>(replayReportSchema))
export const arbAccuracyStatsDocument = (): fc.Arbitrary<JsonObject> => arbDocument(accuracyStatsSchema)
export const arbEnrichmentResultDocument = (): fc.Arbitrary<JsonObject> => arbDocument(enrichmentResultSchema)

export const arbVerdict = (): fc.Arbitrary<Verdict> => fc.constantFrom<Verdict>('pass', 'fail', 'warning')
