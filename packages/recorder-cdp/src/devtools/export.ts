/**
 * Chrome DevTools Recorder export: a web test case becomes a recording DevTools can replay (Recorder → Import), and a
 * case imported from one gives back the recording it came from. Pure: the CLI does the file IO.
 *
 * Rules (also in the README):
 * - An action whose identity came from the recording (never measured on a page) gets back exactly the
 *   recording's selectors, nothing guessed from them. Otherwise selectors most stable first — aria, data-testid, id, stored CSS, CSS fallbacks, XPath, text, then
 *   the original DevTools selectors kept at import. Offsets are `x, y` minus the identity box when the box is
 *   known, else the kept offsets. Passwords export an empty value with a warning (never the secret, never the
 *   mask). `wait` → a timer `waitForExpression`. Steps without any selector (coordinate-only clicks, drags, typing
 *   with no known field) are skipped with a warning — DevTools cannot act on a bare coordinate; typing without
 *   an identity right after a click on an identified element uses that element's selectors (with a warning).
 */
import type { Action, ElementIdentity, JsonObject, JsonValue, Selectors, TestCase } from '@qa/model'
import { assertionToDevtools } from './assertions'
import { devtoolsSelectorsFor } from './identity'
import { devtoolsExtra, hasNavigation, isObject, keptSelectors } from './kept'
import { CHORD_RE, MODIFIERS } from './keys'
import { MASK } from './secret'
import { FRAME_RE, normalizePath } from './selectors'
import { timerExpression } from './timer'
import type { DevtoolsExportResult, DevtoolsRecording, DevtoolsStep } from './types'

const isBox = (b: ElementIdentity['boundingBox'] | null | undefined) => !!b && b.width > 0 && b.height > 0
const round2 = (v: number) => Math.round(v * 100) / 100
/**
 * Converts a web test case into a Chrome DevTools Recorder recording (the rules above).
 * Never writes a secret or its mask; warnings name the actions that were skipped or changed.
 */
export function exportDevtoolsRecording(testCase: TestCase): DevtoolsExportResult {
  const warnings: string[] = []
  const steps: DevtoolsStep[] = []
  const caseKept = devtoolsExtra(testCase.extra)
  const warn = (k: number, a: Action, what: string) => warnings.push(`actions[${k}] (${a.actionType}): ${what}`)
  if (testCase.platform !== 'web')
    warnings.push(`the case is a ${testCase.platform} case; only web actions with an element identity can be exported`)

  if (testCase.viewport) {
    const vs = isObject(caseKept.viewportStep) ? (caseKept.viewportStep as JsonObject) : {}
    steps.push({
      type: 'setViewport',
      width: testCase.viewport.width,
      height: testCase.viewport.height,
      deviceScaleFactor: 1,
      isMobile: false,
      hasTouch: false,
      isLandscape: false,
      ...vs,
    })
  }
  // steps imported from before the first navigate (network conditions) go back before it
  const beforeStart = new Set<number>()
  for (const [k, a] of testCase.actions.entries()) {
    const kept = devtoolsExtra(a.extra)
    if (kept.beforeStart !== true || !isObject(kept.step)) break
    steps.push(kept.step as DevtoolsStep)
    beforeStart.add(k)
  }
  if (testCase.startUrl) {
    const ss = isObject(caseKept.startStep) ? (caseKept.startStep as JsonObject) : {}
    steps.push({ type: 'navigate', url: testCase.startUrl, ...ss })
  } else warnings.push('the case has no start_url: the recording starts on whatever page is open')

  const unsupported = (Array.isArray(caseKept.unsupportedSteps) ? caseKept.unsupportedSteps : []).filter(
    (u): u is JsonObject => isObject(u) && isObject(u.step) && typeof u.step.type === 'string',
  )
  const restoreBefore = (k: number, last: boolean) => {
    for (const u of unsupported) {
      const before = typeof u.before === 'number' ? u.before : Number.POSITIVE_INFINITY
      if (before === k || (last && before > k)) steps.push(u.step as DevtoolsStep)
    }
  }

  let scrollPositions = new Map<string, { x: number; y: number }>()
  const actions = testCase.actions
  for (let k = 0; k < actions.length; k++) {
    restoreBefore(k, false)
    if (beforeStart.has(k)) continue
    const a = actions[k] as Action
    const kept = devtoolsExtra(a.extra)
    // markers of the import, not step fields
    const {
      selectors: _originals,
      step: _step,
      unsupported: _unsupported,
      beforeStart: _beforeStart,
      awaitsNavigation: _awaits,
      scrolls: _scrolls,
      ...keptFields
    } = kept
    if (isObject(kept.step) && typeof kept.step.type === 'string') {
      // a step kept whole at import (no equivalent, or honoured by the replay itself): written back as it was
      steps.push(kept.step as DevtoolsStep)
      continue
    }
    const base = (type: string): DevtoolsStep => ({
      type,
      ...keptFields,
      target: (kept.target as string | undefined) ?? 'main',
    })
    const selectorsOf = (identity: ElementIdentity | null | undefined, sel: Selectors | null | undefined) => {
      const originals = keptSelectors(kept)
      // an identity the import derived from the recording's selectors (no box was ever measured) knows nothing
      // they do not say: only they are written, never a `#id` or `[data-testid]` guessed from them
      if (originals.length > 0 && (!identity || !isBox(identity.boundingBox))) return originals.map(normalizePath)
      return devtoolsSelectorsFor(identity, sel, originals)
    }
    const withFrame = (step: DevtoolsStep, identity: ElementIdentity | null | undefined) => {
      if (!identity) return step // keep the frame kept at import, if any
      const framePath = identity.framePath ?? []
      if (framePath.length === 0) {
        delete step.frame
        return step
      }
      const parsed = framePath.map((f) => FRAME_RE.exec(f))
      if (parsed.every((m) => m !== null)) step.frame = parsed.map((m) => Number((m as RegExpExecArray)[1]))
      else if (Array.isArray(kept.frame) && kept.frame.length === framePath.length) step.frame = kept.frame
      else {
        step.frame = framePath.map(() => 0)
        warn(
          k,
          a,
          `iframe path ${JSON.stringify(framePath)} has no DevTools frame index; assumed the first iframe at each level`,
        )
      }
      return step
    }
    let step: DevtoolsStep | null = null

    switch (a.actionType) {
      case 'click':
      case 'double_click':
      case 'right_click': {
        const selectors = selectorsOf(a.identity, a.selectors)
        if (selectors.length === 0) {
          warn(
            k,
            a,
            'has no element identity or selector (a coordinate-only step); DevTools cannot click a bare point — skipped',
          )
          break
        }
        const box = a.identity?.boundingBox
        const realBox = box && box.width > 0 && box.height > 0
        const offsetX = realBox ? a.x - box.x : ((kept.offsetX as number | undefined) ?? a.x - (box?.x ?? 0))
        const offsetY = realBox ? a.y - box.y : ((kept.offsetY as number | undefined) ?? a.y - (box?.y ?? 0))
        step = base(a.actionType === 'double_click' ? 'doubleClick' : 'click')
        step.selectors = selectors
        step.offsetX = round2(offsetX)
        step.offsetY = round2(offsetY)
        if (a.actionType === 'right_click') step.button = 'secondary'
        else if (a.button === 'middle') step.button = 'auxiliary'
        else if (a.button === 'right' && a.actionType === 'click') step.button = 'secondary'
        else if ((a.button === 'back' || a.button === 'forward') && a.actionType === 'click') step.button = a.button
        withFrame(step, a.identity)
        if (a.opensPage)
          warn(
            k,
            a,
            'opens a new page (tab or window); DevTools names such a page by its URL as the `target` of the steps after it, which the case does not keep: they are exported for the main page',
          )
        break
      }
      case 'type':
      case 'select': {
        let identity = a.identity
        let sel = a.selectors
        if (!identity && !sel?.css && !sel?.xpath) {
          const prev = actions[k - 1]
          if (prev && ['click', 'double_click'].includes(prev.actionType) && (prev.identity || prev.selectors)) {
            identity = prev.identity
            sel = prev.selectors
            warn(k, a, `has no element identity; assumed it types into the element clicked in actions[${k - 1}]`)
          }
        }
        const selectors = selectorsOf(identity, sel)
        if (selectors.length === 0) {
          warn(k, a, 'has no element identity or selector; a DevTools change step needs one — skipped')
          break
        }
        step = base('change')
        step.selectors = selectors
        const secret = a.actionType === 'type' && (!!a.secretEnv || identity?.type === 'password' || a.text === MASK)
        if (secret) {
          step.value = ''
          warn(
            k,
            a,
            `is a password step: exported with an empty value${a.secretEnv ? ` (the secret is supplied from ${a.secretEnv} at replay)` : ''}; fill it in before replaying in DevTools`,
          )
        } else step.value = (a.actionType === 'select' ? a.value : a.text) ?? ''
        withFrame(step, identity)
        break
      }
      case 'key_press': {
        if (!a.key) {
          warn(k, a, 'has no key — skipped')
          break
        }
        const chord = CHORD_RE.exec(a.key)
        const mods = chord ? (chord[1] as string).split('+').filter(Boolean) : []
        const key = chord ? (chord[2] as string) : a.key
        const target = (kept.target as string | undefined) ?? 'main'
        for (const m of mods) steps.push({ type: 'keyDown', target, key: m })
        steps.push({ ...base('keyDown'), key })
        steps.push({ type: 'keyUp', target, key })
        for (const m of [...mods].reverse()) steps.push({ type: 'keyUp', target, key: m })
        break
      }
      case 'scroll': {
        const scroller = a.identity || a.selectors ? selectorsOf(a.identity, a.selectors) : []
        step = base('scroll')
        if (scroller.length > 0) step.selectors = scroller
        withFrame(step, a.identity)
        const posKey = JSON.stringify([
          step.frame ?? [],
          scroller.length > 0 ? keptSelectorsOrSelf(kept, scroller) : null,
        ])
        const prev = scrollPositions.get(posKey) ?? { x: 0, y: 0 }
        const pos = { x: prev.x + (a.scrollDx ?? 0), y: prev.y + (a.scrollDy ?? 0) }
        scrollPositions.set(posKey, pos)
        step.x = pos.x
        step.y = pos.y
        break
      }
      case 'navigate': {
        if (!a.url) {
          warn(k, a, 'has no url — skipped')
          break
        }
        step = { ...base('navigate'), url: a.url }
        scrollPositions = new Map()
        break
      }
      case 'wait': {
        step = { ...base('waitForExpression'), expression: timerExpression(Math.round(a.durationMs ?? 0)) }
        break
      }
      case 'assert': {
        if (!a.assertion) {
          warn(k, a, 'has no assertion — skipped')
          break
        }
        const event = kept.assertedEvent
        const last = steps.at(-1)
        if (isObject(event) && last && last.type !== 'navigate' && last.type !== 'setViewport') {
          // imported from the step before's asserted navigation: it goes back there
          last.assertedEvents = [...(Array.isArray(last.assertedEvents) ? last.assertedEvents : []), event]
          break
        }
        const { assertedEvent: _event, ...rest } = keptFields
        const out = assertionToDevtools(a.assertion, selectorsOf(a.identity, a.selectors))
        if ('skipped' in out) {
          warn(k, a, `${out.skipped} — skipped`)
          break
        }
        step = { ...rest, target: (kept.target as string | undefined) ?? 'main', ...out.step }
        if (out.step.type === 'waitForElement') withFrame(step, a.identity)
        break
      }
      case 'hover': {
        const selectors = selectorsOf(a.identity, a.selectors)
        if (selectors.length === 0) {
          warn(k, a, 'has no element identity or selector; a DevTools hover step needs one — skipped')
          break
        }
        step = base('hover')
        step.selectors = selectors
        withFrame(step, a.identity)
        break
      }
      case 'drag':
        warn(k, a, 'dragging has no DevTools Recorder step — skipped')
        break
      default:
        warn(k, a, 'has no DevTools Recorder step — skipped')
    }
    if (step) {
      step = ordered(step)
      // keys held during the step: pressed before it, released after it, as DevTools records them
      const held = (a.modifiers ?? []).filter((m) => MODIFIERS.has(m))
      const target = step.target as string
      for (const m of held) steps.push({ type: 'keyDown', target, key: m })
      steps.push(step)
      for (const m of [...held].reverse()) steps.push({ type: 'keyUp', target, key: m })
      if (hasNavigation(step.assertedEvents)) scrollPositions = new Map()
    }
  }
  restoreBefore(actions.length, true)

  const recordingKept = isObject(caseKept.recording) ? (caseKept.recording as JsonObject) : {}
  const recording: DevtoolsRecording = { title: testCase.name, ...recordingKept, steps }
  return { recording, warnings }
}

const STEP_KEY_ORDER = [
  'type',
  'target',
  'frame',
  'selectors',
  'offsetX',
  'offsetY',
  'button',
  'value',
  'key',
  'url',
  'x',
  'y',
  'expression',
  'operator',
  'count',
  'visible',
  'properties',
]

/** Step fields in the order DevTools writes them (type, target, selectors, offsets, …), the rest after. */
function ordered(step: DevtoolsStep): DevtoolsStep {
  const out: Record<string, JsonValue | undefined> = {}
  for (const k of STEP_KEY_ORDER) if (step[k] !== undefined) out[k] = step[k]
  for (const [k, v] of Object.entries(step)) if (!(k in out) && v !== undefined) out[k] = v
  return out as DevtoolsStep
}

/** The scroller key import used (the original selectors), so positions add up the same way both directions. */
function keptSelectorsOrSelf(kept: JsonObject, fallback: string[][]): string[][] {
  const originals = keptSelectors(kept)
  return originals.length > 0 ? originals.map(normalizePath) : fallback
}
