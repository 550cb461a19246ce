/**
 * The `assert` step (format 3.1): what each kind checks, how it is shown, and whether an observation of the
 * page satisfies it. Pure: the replayer observes the page and polls `checkAssertion` until the step timeout.
 */
import type { ValidationIssue } from './errors'
import type { Assertion, AssertionKind, AssertionOp, JsonValue } from './types'

/** What the page showed for an assertion's target at one moment. */
export interface AssertionObservation {
  /** An element with the target's identity was found (kinds with a target). */
  found: boolean
  /** The found element is visible (`visible`/`hidden`). */
  visible?: boolean | null
  /** Its visible text (`text`). */
  text?: string | null
  /** Its form value (`value`). */
  value?: string | null
  /** Its checked state (`checked`). */
  checked?: boolean | null
  /** The page's URL (`url`). */
  url?: string | null
  /** How many elements carry the target's identity (`count`, and visible ones for `hidden`). */
  count?: number | null
  /** The value of the expression (`expression`), as JSON. */
  expressionValue?: JsonValue
  /** The expression threw, or the element could not be read. */
  error?: string | null
}

export interface AssertionCheck {
  holds: boolean
  /** What was expected, in words: `text equals "3 items"`. */
  expected: string
  /** What the page showed, in words: `"2 items"`, `not found`. */
  actual: string
}

/** The kinds that have a target element (all but `url` and `expression`). */
export const TARGETED_ASSERTION_KINDS: readonly AssertionKind[] = [
  'visible',
  'hidden',
  'text',
  'value',
  'checked',
  'count',
]

/** The comparison operators each kind accepts; the first is its default. */
export const ASSERTION_OPS_BY_KIND: Readonly<Record<AssertionKind, readonly AssertionOp[]>> = {
  visible: [],
  hidden: [],
  text: ['equals', 'contains', 'matches'],
  value: ['equals', 'contains', 'matches'],
  checked: [],
  url: ['equals', 'contains', 'matches'],
  count: ['equals', 'at_least', 'at_most'],
  expression: [],
}

export const hasAssertionTarget = (kind: AssertionKind): boolean => TARGETED_ASSERTION_KINDS.includes(kind)

/** Text as an assertion compares it: Unicode NFC (Hangul typed as jamo equals its syllables), runs of white space as one space, trimmed. */
export function normalizeAssertedText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\s\u200b]+/g, ' ')
    .trim()
}

/** `expected` of a `matches` assertion as a RegExp: `/pattern/flags`, or the whole text as the pattern. */
export function assertionPattern(expected: string): RegExp {
  const literal = /^\/(.+)\/([dgimsuyv]*)$/s.exec(expected)
  return literal ? new RegExp(literal[1] as string, literal[2]) : new RegExp(expected)
}

export const assertionOp = (a: Pick<Assertion, 'kind' | 'op'>): AssertionOp | null =>
  a.op ?? ASSERTION_OPS_BY_KIND[a.kind][0] ?? null

const quoted = (s: string) => JSON.stringify(s)
const OP_WORDS: Record<AssertionOp, string> = {
  equals: 'equals',
  contains: 'contains',
  matches: 'matches',
  at_least: 'at least',
  at_most: 'at most',
}

/** What the assertion expects, in words: `text contains "3 items"`, `count at least 2`, `visible`. */
export function describeExpectation(a: Assertion): string {
  const op = assertionOp(a)
  switch (a.kind) {
    case 'visible':
      return 'visible'
    case 'hidden':
      return 'hidden or gone'
    case 'checked':
      return a.expected === false ? 'not checked' : 'checked'
    case 'count':
      return `count ${OP_WORDS[op ?? 'equals']} ${Number(a.expected ?? 0)}`
    case 'expression':
      return `expression ${String(a.expected ?? '')} is truthy`
    default:
      return `${a.kind} ${OP_WORDS[op ?? 'equals']} ${quoted(String(a.expected ?? ''))}`
  }
}

/** A step description: `Assert text of button "Cart" contains "3 items"`, `Assert URL matches "/cart$"`. */
export function describeAssertion(a: Assertion, target?: string | null): string {
  const expectation = describeExpectation(a)
  if (a.kind === 'url') return `Assert URL ${expectation.slice('url '.length)}`
  if (a.kind === 'expression') return `Assert ${expectation}`
  if (!target) return `Assert ${expectation}`
  switch (a.kind) {
    case 'visible':
    case 'hidden':
    case 'checked':
      return `Assert ${target} is ${expectation}`
    case 'count':
      return `Assert ${expectation.replace(/^count/, `count of ${target}`)}`
    default:
      return `Assert ${a.kind} of ${target} ${expectation.slice(a.kind.length + 1)}`
  }
}

function compareText(op: AssertionOp, actual: string, expected: string, normalize: boolean): boolean {
  const a = normalize ? normalizeAssertedText(actual) : actual
  if (op === 'matches') return assertionPattern(expected).test(a)
  const e = normalize ? normalizeAssertedText(expected) : expected
  return op === 'contains' ? a.includes(e) : a === e
}

function compareCount(op: AssertionOp, actual: number, expected: number): boolean {
  if (op === 'at_least') return actual >= expected
  if (op === 'at_most') return actual <= expected
  return actual === expected
}

/**
 * Whether the observation satisfies the assertion, with expected and actual in words. `hidden` holds when the
 * target is gone (`found: false`) as well as when it is there but not visible; `count` of a target that is gone
 * is 0.
 */
export function checkAssertion(a: Assertion, o: AssertionObservation): AssertionCheck {
  const expected = describeExpectation(a)
  const op = assertionOp(a) ?? 'equals'
  const fail = (actual: string): AssertionCheck => ({ holds: false, expected, actual })
  const result = (holds: boolean, actual: string): AssertionCheck => ({ holds, expected, actual })
  if (o.error && a.kind !== 'hidden' && a.kind !== 'count') return fail(o.error)
  switch (a.kind) {
    case 'visible':
      if (!o.found) return fail('not found')
      return result(o.visible !== false, o.visible === false ? 'present but not visible' : 'visible')
    case 'hidden':
      if (!o.found || (o.count ?? 1) === 0) return result(true, 'gone')
      return result(o.visible === false, o.visible === false ? 'present but not visible' : 'visible')
    case 'text':
    case 'value': {
      if (!o.found) return fail('not found')
      const actual = (a.kind === 'text' ? o.text : o.value) ?? ''
      return result(compareText(op, actual, String(a.expected ?? ''), true), quoted(normalizeAssertedText(actual)))
    }
    case 'checked': {
      if (!o.found) return fail('not found')
      const want = a.expected !== false
      return result(o.checked === want, o.checked ? 'checked' : 'not checked')
    }
    case 'url': {
      const actual = o.url ?? ''
      return result(compareText(op, actual, String(a.expected ?? ''), false), quoted(actual))
    }
    case 'count': {
      const actual = o.found ? (o.count ?? 0) : 0
      return result(compareCount(op, actual, Number(a.expected ?? 0)), String(actual))
    }
    case 'expression': {
      const v = o.expressionValue
      return result(Boolean(v), v === undefined ? 'undefined' : JSON.stringify(v))
    }
  }
}

/**
 * The issues of one assert action's assertion (file document), beyond its schema: an assert step needs one,
 * `expected` has the kind's type, the operator is one the kind knows, a `matches` pattern compiles.
 */
export function assertionIssues(actionType: unknown, assertion: unknown, path: string): ValidationIssue[] {
  const show = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v))
  if (actionType !== 'assert') return []
  if (typeof assertion !== 'object' || assertion === null || Array.isArray(assertion))
    return [{ path: `${path}.assertion`, expected: 'object (Assertion) on an assert action', got: show(assertion) }]
  const a = assertion as { kind?: unknown; op?: unknown; expected?: unknown }
  const kind = a.kind as AssertionKind
  const ops = ASSERTION_OPS_BY_KIND[kind]
  if (!ops) return [] // the schema reports the kind
  const issues: ValidationIssue[] = []
  if (a.op !== undefined && a.op !== null && !ops.includes(a.op as AssertionOp)) {
    issues.push({
      path: `${path}.assertion.op`,
      expected: ops.length
        ? `one of ${ops.map(quoted).join(', ')} for a ${kind} assertion`
        : `none for a ${kind} assertion`,
      got: show(a.op),
    })
  }
  const e = a.expected
  const absent = e === undefined || e === null
  const bad = (want: string) => issues.push({ path: `${path}.assertion.expected`, expected: want, got: show(e) })
  switch (kind) {
    case 'text':
    case 'value':
      if (typeof e !== 'string') bad(`string for a ${kind} assertion`)
      break
    case 'url':
    case 'expression':
      if (typeof e !== 'string' || e.length === 0) bad(`non-empty string for a ${kind} assertion`)
      break
    case 'checked':
      if (!absent && typeof e !== 'boolean') bad('boolean for a checked assertion')
      break
    case 'count':
      if (typeof e !== 'number' || !Number.isInteger(e) || e < 0) bad('integer ≥ 0 for a count assertion')
      break
    default:
      if (!absent) bad(`nothing for a ${kind} assertion`)
  }
  if (a.op === 'matches' && typeof e === 'string') {
    try {
      assertionPattern(e)
    } catch (err) {
      issues.push({
        path: `${path}.assertion.expected`,
        expected: 'a regular expression',
        got: `${show(e)} (${err instanceof Error ? err.message : String(err)})`,
      })
    }
  }
  return issues
}
