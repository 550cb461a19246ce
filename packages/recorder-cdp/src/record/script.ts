import {
  ASSERTION_KINDS,
  ASSERTION_OPS,
  type AssertionKind,
  type AssertionOp,
  describeKind,
  k,
  type Kind,
  opt,
  parseJsonText,
  req,
  schema,
  validateAgainst,
  type ValidationIssue,
  assertionIssues,
  hasAssertionTarget,
} from '@qa/model'
import { WebError } from '../errors'

/**
 * A scripted recording: raw inputs dispatched as real input events and recorded through the same path as a
 * person's input. Coordinates are viewport CSS pixels.
 */
export type ScriptStep =
  | { type: 'click'; x: number; y: number; button?: 'left' | 'right' | 'middle'; clickCount?: number }
  | { type: 'type'; text: string }
  | { type: 'press'; key: string }
  | { type: 'scroll'; dx?: number; dy: number; x?: number; y?: number }
  | { type: 'wait'; ms: number }
  | { type: 'navigate'; url: string }
  | { type: 'select'; x: number; y: number; value: string }
  | ScriptAssertStep

/**
 * An assertion: the target is the element under `x, y` (captured like a click's, never clicked) or the one a
 * DevTools-style `selector` names (`#cart`, `.item`, `aria/Cart`, `text/…`, `xpath/…`; for `count` and
 * `hidden`, the elements it matches). `url` and `expression` have no target. Without `expected`, text and
 * value are read from the page as it is now.
 */
export interface ScriptAssertStep {
  type: 'assert'
  kind: AssertionKind
  x?: number
  y?: number
  selector?: string
  op?: AssertionOp
  expected?: string | number | boolean
}

const coordinate: Kind = k.number(0)
const STEP_SCHEMAS = {
  click: schema('click step', [
    req('type', k.enum(['click'])),
    req('x', coordinate),
    req('y', coordinate),
    opt('button', k.enum(['left', 'right', 'middle'])),
    opt('clickCount', k.integer(1, 3), 'clickCount'),
  ]),
  type: schema('type step', [req('type', k.enum(['type'])), req('text', k.string())]),
  press: schema('press step', [req('type', k.enum(['press'])), req('key', k.string(1))]),
  scroll: schema('scroll step', [
    req('type', k.enum(['scroll'])),
    req('dy', k.number()),
    opt('dx', k.number()),
    opt('x', coordinate),
    opt('y', coordinate),
  ]),
  wait: schema('wait step', [req('type', k.enum(['wait'])), req('ms', k.number(0, 600_000))]),
  navigate: schema('navigate step', [req('type', k.enum(['navigate'])), req('url', k.string(1))]),
  select: schema('select step', [
    req('type', k.enum(['select'])),
    req('x', coordinate),
    req('y', coordinate),
    req('value', k.string()),
  ]),
  assert: schema('assert step', [
    req('type', k.enum(['assert'])),
    req('kind', k.enum(ASSERTION_KINDS)),
    opt('x', coordinate),
    opt('y', coordinate),
    opt('selector', k.string(1)),
    opt('op', k.enum(ASSERTION_OPS)),
    opt('expected', k.union(k.string(), k.number(), k.boolean())),
  ]),
} as const
const STEP_TYPES = Object.keys(STEP_SCHEMAS)

/** What an assert step needs beyond its fields' types: a target for the kinds that have one, `expected` of its type. */
function assertStepIssues(step: Record<string, unknown>, path: string): ValidationIssue[] {
  const kind = step.kind as AssertionKind
  const issues: ValidationIssue[] = []
  const hasPoint = typeof step.x === 'number' && typeof step.y === 'number'
  if (hasAssertionTarget(kind) && !hasPoint && typeof step.selector !== 'string')
    issues.push({ path, expected: `"x" and "y", or "selector": the target of a ${kind} assertion`, got: 'neither' })
  if (kind === 'expression' && (typeof step.expected !== 'string' || step.expected === ''))
    issues.push({
      path: `${path}.expected`,
      expected: 'the JavaScript expression to check',
      got: String(step.expected),
    })
  // the rest is the case file's rule: build the assertion as it will be saved and check it
  const prefilled = kind === 'text' || kind === 'value' || kind === 'url' ? '' : kind === 'count' ? 0 : undefined
  const assertion = { kind, op: step.op, expected: step.expected ?? prefilled }
  if (kind !== 'expression' && !(kind === 'url' && step.expected === undefined))
    issues.push(
      ...assertionIssues('assert', assertion, path).map((i) => ({ ...i, path: i.path.replace('.assertion', '') })),
    )
  return issues
}

/** Every problem of a script, with paths like `steps[2].x`. */
export function validateScript(raw: unknown): ValidationIssue[] {
  const steps = Array.isArray(raw)
    ? raw
    : typeof raw === 'object' && raw !== null
      ? (raw as { steps?: unknown }).steps
      : undefined
  const base = Array.isArray(raw) ? '' : 'steps'
  if (!Array.isArray(steps)) {
    return [
      {
        path: '$',
        expected: 'an array of steps, or an object with a "steps" array',
        got: Array.isArray(raw) ? 'array' : typeof raw,
      },
    ]
  }
  const issues: ValidationIssue[] = []
  steps.forEach((step, i) => {
    const path = `${base}[${i}]`
    const type = typeof step === 'object' && step !== null ? (step as { type?: unknown }).type : undefined
    const stepSchema = typeof type === 'string' ? STEP_SCHEMAS[type as keyof typeof STEP_SCHEMAS] : undefined
    if (!stepSchema) {
      issues.push({
        path: `${path}.type`,
        expected: describeKind(k.enum(STEP_TYPES)),
        got: type === undefined ? 'missing' : JSON.stringify(type),
      })
      return
    }
    const own = validateAgainst(step, stepSchema)
    for (const issue of own) {
      issues.push({ ...issue, path: issue.path === '$' ? path : `${path}.${issue.path}` })
    }
    if (type === 'assert' && own.length === 0) issues.push(...assertStepIssues(step as Record<string, unknown>, path))
  })
  return issues
}

/** Parses a steps.json text; throws WebError WEB_BAD_SCRIPT naming the file and every problem. */
export function parseScript(text: string, file = 'steps.json'): ScriptStep[] {
  const raw = parseJsonText(text, { file })
  const issues = validateScript(raw)
  if (issues.length > 0) {
    const lines = issues.map((i) => `  ${file}: ${i.path}: expected ${i.expected}, got ${i.got}`)
    throw new WebError('WEB_BAD_SCRIPT', `${file} is not a valid recording script:\n${lines.join('\n')}`, {
      hint: 'Steps look like {"type":"click","x":10,"y":20}, {"type":"type","text":"hi"}, {"type":"press","key":"Enter"}, {"type":"scroll","dy":300}, {"type":"wait","ms":500}, {"type":"assert","kind":"text","x":10,"y":20,"expected":"3 items"}.',
    })
  }
  return (Array.isArray(raw) ? raw : (raw as { steps: unknown[] }).steps) as ScriptStep[]
}
