import {
  describeKind,
  k,
  type Kind,
  opt,
  parseJsonText,
  req,
  schema,
  validateAgainst,
  type ValidationIssue,
} from '@qa/model'
import { WebError } from './errors'

/**
 * A scripted recording: raw inputs dispatched as real input events and recorded through the same path as a
 * person's input (SPEC §4). Coordinates are viewport CSS pixels.
 */
export type ScriptStep =
  | { type: 'click'; x: number; y: number; button?: 'left' | 'right' | 'middle'; clickCount?: number }
  | { type: 'type'; text: string }
  | { type: 'press'; key: string }
  | { type: 'scroll'; dx?: number; dy: number; x?: number; y?: number }
  | { type: 'wait'; ms: number }
  | { type: 'navigate'; url: string }
  | { type: 'select'; x: number; y: number; value: string }

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
} as const
const STEP_TYPES = Object.keys(STEP_SCHEMAS)

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
    for (const issue of validateAgainst(step, stepSchema)) {
      issues.push({ ...issue, path: issue.path === '$' ? path : `${path}.${issue.path}` })
    }
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
      hint: 'Steps look like {"type":"click","x":10,"y":20}, {"type":"type","text":"hi"}, {"type":"press","key":"Enter"}, {"type":"scroll","dy":300}, {"type":"wait","ms":500}.',
    })
  }
  return (Array.isArray(raw) ? raw : (raw as { steps: unknown[] }).steps) as ScriptStep[]
}
