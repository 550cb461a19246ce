import { assertionIssues } from './assertion'
import { decodeObject, encodeObject } from './codec'
import { invalidError, type ParseOptions, parseJsonText, stringifyDocument, validateAgainst } from './codecs'
import { ModelError, type ValidationIssue } from './errors'
import { legacyTestCaseSchema, testCaseSchema } from './schemas'
import { CURRENT_FORMAT_VERSION, type JsonObject, SUPPORTED_MAJOR_VERSIONS, type TestCase } from './types'

export interface ParsedTestCase {
  testCase: TestCase
  /** The version the file was written in (`1.0` when it had none). */
  sourceVersion: string
  /** True when the file was an older version and was migrated in memory (the file itself is untouched). */
  migrated: boolean
  /** What each migration step did, for `qa validate` and logs. */
  migrationNotes: string[]
}

const VERSION_PATTERN = /^(\d+)\.(\d+)$/

/** The format version a test-case document claims (`1.0` when it has none), or an issue. */
export function detectFormatVersion(
  raw: Record<string, unknown>,
): { version: string; major: number; minor: number } | ValidationIssue {
  if (!Object.hasOwn(raw, 'version') || raw.version === null) return { version: '1.0', major: 1, minor: 0 }
  const v = raw.version
  const match = typeof v === 'string' ? VERSION_PATTERN.exec(v) : null
  if (!match) {
    return {
      path: 'version',
      expected: 'a version string like "3.0"',
      got: typeof v === 'string' ? JSON.stringify(v) : String(v),
    }
  }
  return { version: v as string, major: Number(match[1]), minor: Number(match[2]) }
}

const [CURRENT_MAJOR, CURRENT_MINOR] = CURRENT_FORMAT_VERSION.split('.').map(Number) as [number, number]

/** The migration note of 3.1 → 3.2. */
const V31_TO_V32 =
  '3.1 → 3.2: adds hover steps, file choices, drop targets, held keys and side buttons; nothing else changes'

/** An older version than the current one: loading migrates it in memory. */
const isOlder = (major: number, minor: number) =>
  major < CURRENT_MAJOR || (major === CURRENT_MAJOR && minor < CURRENT_MINOR)

/**
 * Migrates a test-case document (file format, snake_case) to the current version, step by step.
 * Pure: returns a new document and notes; the input is not modified.
 *
 * 1.0 → 2.0: coordinate-only cases; nothing to add (semantic fields are optional), only the version.
 * 2.0 → 3.0: 3.0 adds web cases and requires `platform`; a 2.0 case is desktop unless an action carries a
 *            web `identity`.
 * 3.0 → 3.1: 3.1 adds the `assert` action type and its `assertion`; nothing of a 3.0 case changes but the
 *            version.
 * 3.1 → 3.2: 3.2 adds the `hover` action type, file choices (`files`), drop targets (`drop_identity`,
 *            `drop_selectors`), held keys (`modifiers`) and the side buttons `back`/`forward`; nothing of a 3.1
 *            case changes but the version.
 *
 * `from` is the document's version (`"3.0"`), or its major version alone (minor 0).
 */
export function migrateTestCaseDocument(
  doc: JsonObject,
  from: number | string,
): { document: JsonObject; notes: string[] } {
  const [fromMajor = 1, fromMinor = 0] = typeof from === 'number' ? [from, 0] : from.split('.').map(Number)
  let out: JsonObject = structuredClone(doc)
  const notes: string[] = []
  if (fromMajor <= 1) {
    out = { ...out, version: '2.0' }
    notes.push('1.0 → 2.0: coordinate-only case; semantic fields stay empty until `qa enrich`')
  }
  if (fromMajor <= 2) {
    const actions = Array.isArray(out.actions) ? out.actions : []
    const looksWeb = actions.some((a) => typeof a === 'object' && a !== null && !Array.isArray(a) && a.identity)
    const platform = typeof out.platform === 'string' ? out.platform : looksWeb ? 'web' : 'desktop'
    out = { ...out, version: '3.0', platform }
    notes.push(`2.0 → 3.0: platform set to "${platform}"`)
  }
  if (isOlder(fromMajor, fromMinor)) {
    out = { ...out, version: CURRENT_FORMAT_VERSION }
    if (fromMajor < 3 || fromMinor < 1) notes.push('3.0 → 3.1: adds the assert action type; nothing else changes')
    notes.push(V31_TO_V32)
  }
  return { document: out, notes }
}

/** Every problem of a test-case document, whatever its version (empty when it loads). */
export function validateTestCase(raw: unknown): ValidationIssue[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return validateAgainst(raw, testCaseSchema)
  const detected = detectFormatVersion(raw as Record<string, unknown>)
  if ('path' in detected)
    return [detected, ...validateAgainst(raw, legacyTestCaseSchema).filter((i) => i.path !== 'version')]
  if (detected.major > 3) return []
  const issues = validateAgainst(raw, detected.major >= 3 ? testCaseSchema : legacyTestCaseSchema)
  const actions = (raw as { actions?: unknown }).actions
  if (Array.isArray(actions)) {
    actions.forEach((a, i) => {
      if (typeof a === 'object' && a !== null && !Array.isArray(a))
        issues.push(...assertionIssues((a as JsonObject).action_type, (a as JsonObject).assertion, `actions[${i}]`))
    })
  }
  return issues
}

/** File document (any supported version) → current model. Throws ModelError naming the file and every issue. */
export function parseTestCase(raw: unknown, opts: ParseOptions = {}): ParsedTestCase {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const detected = detectFormatVersion(raw as Record<string, unknown>)
    if (!('path' in detected) && !(SUPPORTED_MAJOR_VERSIONS as readonly number[]).includes(detected.major)) {
      throw new ModelError(
        'MODEL_VERSION_UNSUPPORTED',
        `${opts.file ?? 'The test case'} has format version ${detected.version}, which this qa cannot read (it reads 1.x, 2.x and 3.x).`,
        {
          file: opts.file,
          hint:
            detected.major > 3
              ? 'It was written by a newer qa: upgrade qa to read it. The file was not changed.'
              : 'Check the "version" field. The file was not changed.',
        },
      )
    }
  }
  const issues = validateTestCase(raw)
  if (issues.length > 0) {
    const detected = detectFormatVersion(raw as Record<string, unknown>)
    // a newer minor version may use what this qa does not know yet (an action type, an assertion kind)
    const newer = !('path' in detected) && detected.major === CURRENT_MAJOR && detected.minor > CURRENT_MINOR
    throw invalidError(
      'test case',
      issues,
      opts.file,
      newer
        ? `It is in format ${detected.version}, newer than this qa's ${CURRENT_FORMAT_VERSION}: upgrade qa to read it, or fix the fields listed above. The file was not changed.`
        : undefined,
    )
  }
  const doc = raw as JsonObject
  const {
    version: sourceVersion,
    major,
    minor,
  } = detectFormatVersion(doc) as { version: string; major: number; minor: number }
  const migrated = isOlder(major, minor)
  const { document, notes } = migrated ? migrateTestCaseDocument(doc, sourceVersion) : { document: doc, notes: [] }
  const testCase = decodeObject(document, testCaseSchema) as unknown as TestCase
  return { testCase, sourceVersion, migrated, migrationNotes: notes }
}

export function parseTestCaseJson(text: string, opts: ParseOptions = {}): ParsedTestCase {
  return parseTestCase(parseJsonText(text, opts), opts)
}

/** Model → file document of the current version. Unknown fields are written back. */
export function serializeTestCase(testCase: TestCase): JsonObject {
  const doc = encodeObject(testCase as unknown as Record<string, unknown>, testCaseSchema) as JsonObject
  return doc
}

export function stringifyTestCase(testCase: TestCase): string {
  return stringifyDocument(serializeTestCase(testCase))
}

/** A new, empty test case of the current version. */
export function createTestCase(init: Pick<TestCase, 'name' | 'platform'> & Partial<TestCase>): TestCase {
  return { version: CURRENT_FORMAT_VERSION, createdAt: new Date().toISOString(), actions: [], ...init }
}
