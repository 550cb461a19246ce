/** Validation of a DevTools recording: every problem listed with its JSON path, what was expected and what was found. */
import { DevtoolsError } from './errors'
import { isFiniteNumber, isObject } from './kept'
import type { DevtoolsRecording } from './types'

const SELECTOR_STEPS = new Set(['click', 'doubleClick', 'change', 'hover', 'waitForElement'])
const BUTTONS = ['primary', 'auxiliary', 'secondary', 'back', 'forward']

function show(v: unknown): string {
  if (v === undefined) return 'nothing'
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 40 ? `${s.slice(0, 37)}...` : s
}

/**
 * Checks that `json` is a DevTools recording and returns it typed; throws `DevtoolsError`
 * (`WEB_BAD_DEVTOOLS_RECORDING`) listing every problem with its JSON path, what was expected and what was found.
 */
export function assertDevtoolsRecording(json: unknown, file = 'recording'): DevtoolsRecording {
  const issues: string[] = []
  const bad = (path: string, expected: string, got: unknown) =>
    issues.push(`${path}: expected ${expected}, got ${show(got)}`)
  if (!isObject(json)) {
    bad('(root)', 'an object with "title" and "steps" (a Chrome DevTools Recorder JSON export)', json)
  } else {
    if (json.title !== undefined && typeof json.title !== 'string') bad('title', 'string', json.title)
    if (json.timeout !== undefined && !isFiniteNumber(json.timeout)) bad('timeout', 'number', json.timeout)
    if (json.selectorAttribute !== undefined && typeof json.selectorAttribute !== 'string')
      bad('selectorAttribute', 'string', json.selectorAttribute)
    if (!Array.isArray(json.steps)) bad('steps', 'array of steps', json.steps)
    else for (const [i, step] of json.steps.entries()) checkStep(step, `steps[${i}]`, bad)
  }
  if (issues.length > 0) {
    const shown = issues.slice(0, 20).map((i) => `${file}: ${i}`)
    if (issues.length > 20) shown.push(`… and ${issues.length - 20} more problems`)
    throw new DevtoolsError('WEB_BAD_DEVTOOLS_RECORDING', shown.join('\n'), {
      hint: 'Export the recording again from Chrome DevTools (Recorder → Export → JSON). The file was not changed.',
    })
  }
  return json as unknown as DevtoolsRecording
}

function checkStep(step: unknown, path: string, bad: (path: string, expected: string, got: unknown) => void): void {
  if (!isObject(step)) {
    bad(path, 'a step object', step)
    return
  }
  const type = step.type
  if (typeof type !== 'string' || type === '') {
    bad(`${path}.type`, 'a step type such as "click"', type)
    return
  }
  const optNumber = (field: string) => {
    if (step[field] !== undefined && !isFiniteNumber(step[field])) bad(`${path}.${field}`, 'number', step[field])
  }
  const reqString = (field: string, nonEmpty = false) => {
    const v = step[field]
    if (typeof v !== 'string' || (nonEmpty && v === ''))
      bad(`${path}.${field}`, nonEmpty ? 'non-empty string' : 'string', v)
  }
  if (step.target !== undefined && typeof step.target !== 'string') bad(`${path}.target`, 'string', step.target)
  if (
    step.frame !== undefined &&
    !(Array.isArray(step.frame) && step.frame.every((f) => Number.isInteger(f) && f >= 0))
  )
    bad(`${path}.frame`, 'array of frame indices (non-negative integers)', step.frame)
  if (step.assertedEvents !== undefined && !Array.isArray(step.assertedEvents))
    bad(`${path}.assertedEvents`, 'array', step.assertedEvents)
  optNumber('timeout')
  if (step.selectors !== undefined || SELECTOR_STEPS.has(type)) {
    const sel = step.selectors
    if (!Array.isArray(sel)) bad(`${path}.selectors`, 'array of arrays of strings', sel)
    else
      for (const [j, s] of sel.entries()) {
        const ok =
          (typeof s === 'string' && s !== '') ||
          (Array.isArray(s) && s.length > 0 && s.every((p) => typeof p === 'string' && p !== ''))
        if (!ok) bad(`${path}.selectors[${j}]`, 'array of non-empty strings (or a string)', s)
      }
  }
  switch (type) {
    case 'click':
    case 'doubleClick':
      optNumber('offsetX')
      optNumber('offsetY')
      optNumber('duration')
      if (step.button !== undefined && !BUTTONS.includes(step.button as string))
        bad(`${path}.button`, `one of ${BUTTONS.join(', ')}`, step.button)
      break
    case 'change':
      reqString('value')
      break
    case 'keyDown':
    case 'keyUp':
      reqString('key', true)
      break
    case 'navigate':
      reqString('url', true)
      break
    case 'setViewport':
      for (const f of ['width', 'height'])
        if (!isFiniteNumber(step[f]) || (step[f] as number) <= 0) bad(`${path}.${f}`, 'positive number', step[f])
      optNumber('deviceScaleFactor')
      break
    case 'scroll':
      optNumber('x')
      optNumber('y')
      break
    case 'waitForExpression':
      reqString('expression')
      break
  }
}
