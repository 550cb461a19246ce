/**
 * One importer per DevTools step type (the rules at the top of `import.ts`): each turns its step into actions
 * through the `StepImport` it is handed, which holds the state of the whole import (start page, viewport, scroll
 * positions, keys held down).
 */
import {
  type Action,
  type Assertion,
  type ElementIdentity,
  elementLabel,
  type JsonObject,
  type KeyModifier,
  type MouseButton,
  type Selectors,
} from '@qa/model'
import { assertionFromExpression, assertionFromWaitForElement } from './assertions'
import { identityFromDevtoolsSelectors, type ImportedTarget } from './identity'
import { omit } from './kept'
import { MODIFIERS, matchChord, releasedLater } from './keys'
import { isPasswordField, MASK, secretSlug } from './secret'
import { normalizePath } from './selectors'
import { timerExpressionMs } from './timer'
import type { DEVTOOLS_STEP_TYPES, DevtoolsRecording, DevtoolsStep } from './types'

/** A modifier key pressed alone (`keyDown Shift` with no chord), waiting for the clicks and hovers before its keyUp. */
export interface HeldModifier {
  key: KeyModifier
  used: boolean
  step: DevtoolsStep
  index: number
  /** Where in the actions it was pressed (its key press goes there when no click used it and it is never released). */
  at: number
}

/** What the import knows so far, shared by the importers of every step. */
export interface ImportState {
  readonly recording: DevtoolsRecording
  readonly steps: readonly DevtoolsStep[]
  readonly now: number
  readonly secretPrefix: string
  readonly warnings: string[]
  readonly actions: Action[]
  readonly caseExtra: JsonObject
  startUrl: string | null
  viewport: { width: number; height: number } | null
  /** The last position of each scroller (DevTools writes absolute positions; an action scrolls by a difference). */
  scrollPositions: Map<string, { x: number; y: number }>
  /** keyDowns whose keyUp is still to come. */
  readonly held: string[]
  /** Modifier keys held down (`keyDown Shift` with no chord): the clicks and hovers until their keyUp get them. */
  readonly heldModifiers: HeldModifier[]
}

/** One step being imported: the step, its index, and what an importer may do with it. */
export interface StepImport {
  readonly state: ImportState
  readonly step: DevtoolsStep
  readonly i: number
  /** A warning naming this step. */
  warn(what: string): void
  /** A step with no equivalent: an action in its place that fails on replay with the reason, exported back as is. */
  keep(why: string): void
  /** A step the replay honours itself (network conditions, a viewport change, closing a page): kept whole. */
  passThrough(description: string, fields?: JsonObject): void
  /** An action of this step; `kept` are the step's fields it does not represent (`extra.devtools`). */
  push(action: Omit<Action, 'timestamp'>, kept: JsonObject): void
  /** The element the step's selectors name (a warning when none is usable). */
  targetOf(): ImportedTarget
  pushAssertion(assertion: Assertion, target: ImportedTarget | null, kept: JsonObject): void
  /** The modifier keys held down now (marked used), or null. */
  modifiersNow(): KeyModifier[] | null
  /** Whether an action happened yet (steps kept to run before the start page do not count). */
  hasActed(): boolean
}

/** Imports one step; returns how many of the steps after it it took too (a key chord). */
export type StepImporter = (s: StepImport) => number | undefined

/** How a step description names its element: role and name, else role and CSS. */
export function label(identity: ElementIdentity, sel: Selectors): string {
  const text = elementLabel(identity)
  const role = identity.axRole || (identity.tagName !== 'unknown' ? identity.tagName : '')
  if (text) return `${role ? `${role} ` : ''}${text}`
  return role && sel.css ? `${role} ${sel.css}` : (sel.css ?? sel.xpath ?? (role || 'element'))
}

const setViewport: StepImporter = (s) => {
  const st = s.state
  const step = s.step
  if (st.viewport === null && !s.hasActed()) {
    st.viewport = { width: Math.round(step.width as number), height: Math.round(step.height as number) }
    const rest = omit(step, ['type', 'width', 'height'])
    if (Object.keys(rest).length > 0) st.caseExtra.viewportStep = rest
  } else
    s.passThrough(`Resize the viewport to ${Math.round(step.width as number)}×${Math.round(step.height as number)}`)
  return undefined
}

const navigate: StepImporter = (s) => {
  const st = s.state
  const step = s.step
  st.scrollPositions = new Map()
  const url = step.url as string
  if (st.startUrl === null && !s.hasActed()) {
    st.startUrl = url
    const rest = omit(step, ['type', 'url'])
    if (Object.keys(rest).length > 0) st.caseExtra.startStep = rest
  } else s.push({ actionType: 'navigate', x: 0, y: 0, url, description: `Go to ${url}` }, omit(step, ['type', 'url']))
  return undefined
}

/** `click` and `doubleClick`. */
const click: StepImporter = (s) => {
  const step = s.step
  const t = s.targetOf()
  const button = (step.button as string | undefined) ?? 'primary'
  const consumed = ['type']
  let actionType: Action['actionType'] = step.type === 'doubleClick' ? 'double_click' : 'click'
  let mouse: MouseButton = 'left'
  if (button === 'secondary' && step.type === 'click') {
    actionType = 'right_click'
    mouse = 'right'
    consumed.push('button')
  } else if (button === 'auxiliary' && step.type === 'click') {
    mouse = 'middle'
    consumed.push('button')
  } else if ((button === 'back' || button === 'forward') && step.type === 'click') {
    mouse = button
    consumed.push('button')
  } else if (button === 'primary') consumed.push('button')
  else s.warn(`a double click with the "${button}" mouse button has no equivalent; replayed with the left button`)
  const modifiers = s.modifiersNow()
  const verb =
    actionType === 'right_click'
      ? 'Right-click'
      : actionType === 'double_click'
        ? 'Double-click'
        : mouse === 'back' || mouse === 'forward' || mouse === 'middle'
          ? `Click (${mouse} button)`
          : 'Click'
  s.push(
    {
      actionType,
      x: Math.round((step.offsetX as number | undefined) ?? 0),
      y: Math.round((step.offsetY as number | undefined) ?? 0),
      button: mouse,
      ...(modifiers ? { modifiers } : {}),
      description: `${modifiers ? `${modifiers.join('+')}+` : ''}${verb} ${label(t.identity, t.selectors)}`,
      identity: t.identity,
      selectors: t.selectors,
    },
    omit(step, consumed),
  )
  return undefined
}

/** `change`: typing, a `<select>`'s option, or a password (never stored in clear). */
const change: StepImporter = (s) => {
  const step = s.step
  const t = s.targetOf()
  const value = step.value as string
  const kept = omit(step, ['type', 'value'])
  const target = { identity: t.identity, selectors: t.selectors }
  if (t.identity.tagName === 'select') {
    s.push(
      {
        actionType: 'select',
        x: 0,
        y: 0,
        value,
        description: `Select "${value}" in ${label(t.identity, t.selectors)}`,
        ...target,
      },
      kept,
    )
  } else if (isPasswordField(t.identity)) {
    const secretEnv = secretSlug(s.state.secretPrefix, t.identity)
    s.warn(`looks like a password field: the value was not stored; set ${secretEnv} when replaying`)
    s.push(
      {
        actionType: 'type',
        x: 0,
        y: 0,
        text: MASK,
        secretEnv,
        description: `Type password into ${label(t.identity, t.selectors)}`,
        ...target,
      },
      kept,
    )
  } else {
    s.push(
      {
        actionType: 'type',
        x: 0,
        y: 0,
        text: value,
        description: `Type into ${label(t.identity, t.selectors)}`,
        ...target,
      },
      kept,
    )
  }
  return undefined
}

const keyDown: StepImporter = (s) => {
  const st = s.state
  const step = s.step
  const chord = matchChord(st.steps, s.i)
  if (chord) {
    s.push(
      { actionType: 'key_press', x: 0, y: 0, key: chord.key, description: `Press ${chord.key}` },
      omit(step, ['type', 'key']),
    )
    return chord.length - 1
  }
  const key = step.key as string
  if (MODIFIERS.has(key) && !st.heldModifiers.some((m) => m.key === key)) {
    // held for the clicks until its keyUp; pressed alone (at the keyUp) when no click used it
    st.heldModifiers.push({ key: key as KeyModifier, used: false, step, index: s.i, at: st.actions.length })
    return undefined
  }
  if (!releasedLater(st.steps, s.i, key)) {
    // a key held down to the end (or pressed again before released): only its keyDown, as the reference sends
    s.passThrough(`Hold down ${key}`)
    return undefined
  }
  st.held.push(key)
  s.push({ actionType: 'key_press', x: 0, y: 0, key, description: `Press ${key}` }, omit(step, ['type', 'key']))
  return undefined
}

const keyUp: StepImporter = (s) => {
  const st = s.state
  const step = s.step
  const mod = st.heldModifiers.findIndex((m) => m.key === step.key)
  if (mod >= 0) {
    const [m] = st.heldModifiers.splice(mod, 1)
    if (m && !m.used)
      s.push(
        { actionType: 'key_press', x: 0, y: 0, key: m.key, description: `Press ${m.key}` },
        omit(m.step, ['type', 'key']),
      )
    return undefined
  }
  const at = st.held.lastIndexOf(step.key as string)
  if (at >= 0) st.held.splice(at, 1)
  // a keyUp with no keyDown before it (the key was down when recording started): only its keyUp, as the
  // reference sends
  else s.passThrough(`Release ${String(step.key)}`)
  return undefined
}

/** `scroll` (an absolute position) → a scroll by the difference to the same scroller's previous position. */
const scroll: StepImporter = (s) => {
  const st = s.state
  const step = s.step
  const scroller = step.selectors && step.selectors.length > 0 ? s.targetOf() : null
  const key = JSON.stringify([step.frame ?? [], scroller ? (step.selectors ?? []).map(normalizePath) : null])
  const prev = st.scrollPositions.get(key) ?? { x: 0, y: 0 }
  const pos = {
    x: Math.round((step.x as number | undefined) ?? 0),
    y: Math.round((step.y as number | undefined) ?? 0),
  }
  st.scrollPositions.set(key, pos)
  const dx = pos.x - prev.x
  const dy = pos.y - prev.y
  const vx = st.viewport ? Math.round(st.viewport.width / 2) : 0
  const vy = st.viewport ? Math.round(st.viewport.height / 2) : 0
  const action: Omit<Action, 'timestamp'> = {
    actionType: 'scroll',
    x: vx,
    y: vy,
    scrollDx: dx,
    scrollDy: dy,
    description: scroller ? `Scroll ${label(scroller.identity, scroller.selectors)} by ${dy} px` : `Scroll by ${dy} px`,
  }
  const kept = omit(step, ['type', 'x', 'y'])
  if (scroller) {
    action.identity = scroller.identity
    action.selectors = scroller.selectors
  } else kept.scrolls = 'window'
  s.push(action, kept)
  return undefined
}

/** A plain timer → `wait`; any other expression → an assertion polled until it holds. */
const waitForExpression: StepImporter = (s) => {
  const step = s.step
  const ms = timerExpressionMs(step.expression as string)
  if (ms !== null) {
    s.push(
      { actionType: 'wait', x: 0, y: 0, durationMs: ms, description: `Wait ${ms} ms` },
      omit(step, ['type', 'expression']),
    )
    return undefined
  }
  // a condition: an assertion polled until it holds (our own exports come back as what they were)
  const { assertion, selectors } = assertionFromExpression(step.expression as string)
  const selectorAttribute = s.state.recording.selectorAttribute
  const t =
    selectors.length > 0
      ? identityFromDevtoolsSelectors(selectors, {
          frame: (step.frame as number[] | undefined) ?? [],
          ...(selectorAttribute ? { selectorAttribute } : {}),
        })
      : null
  s.pushAssertion(assertion, t, omit(step, ['type', 'expression']))
  return undefined
}

const hover: StepImporter = (s) => {
  const step = s.step
  const t = s.targetOf()
  const modifiers = s.modifiersNow()
  s.push(
    {
      actionType: 'hover',
      x: Math.round((step.offsetX as number | undefined) ?? 0),
      y: Math.round((step.offsetY as number | undefined) ?? 0),
      ...(modifiers ? { modifiers } : {}),
      description: `Hover over ${label(t.identity, t.selectors)}`,
      identity: t.identity,
      selectors: t.selectors,
    },
    omit(step, ['type']),
  )
  return undefined
}

const waitForElement: StepImporter = (s) => {
  const assertion = assertionFromWaitForElement(s.step)
  if ('unsupported' in assertion) {
    s.keep(assertion.unsupported)
    return undefined
  }
  s.pushAssertion(
    assertion,
    s.targetOf(),
    omit(s.step, ['type', 'operator', 'count', 'visible', 'properties', 'attributes']),
  )
  return undefined
}

const close: StepImporter = (s) => {
  const target = s.step.target
  s.passThrough(`Close the page${target && target !== 'main' ? ` ${String(target)}` : ''}`)
  return undefined
}

const customStep: StepImporter = (s) => {
  s.keep(`the custom step "${String(s.step.name ?? '')}" has no equivalent`)
  return undefined
}

const emulateNetworkConditions: StepImporter = (s) => {
  const step = s.step
  // before the first navigate: exported back before it (the replay applies it right after the start page)
  s.passThrough(
    `Emulate network conditions (download ${String(step.download ?? '-')} B/s, latency ${String(step.latency ?? 0)} ms)`,
    s.state.startUrl === null && !s.hasActed() ? { beforeStart: true } : {},
  )
  return undefined
}

/** The importer of each step type of the `@puppeteer/replay` schema. */
export const STEP_IMPORTERS: Readonly<Record<(typeof DEVTOOLS_STEP_TYPES)[number], StepImporter>> = {
  setViewport,
  navigate,
  click,
  doubleClick: click,
  change,
  keyDown,
  keyUp,
  scroll,
  hover,
  waitForElement,
  waitForExpression,
  close,
  customStep,
  emulateNetworkConditions,
}

/** The importer of a step type; an unknown type is kept as a step that fails on replay. */
export function stepImporter(type: string): StepImporter {
  return Object.hasOwn(STEP_IMPORTERS, type)
    ? STEP_IMPORTERS[type as keyof typeof STEP_IMPORTERS]
    : (s) => {
        s.keep('unknown step type')
        return undefined
      }
}
