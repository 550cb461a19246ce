/**
 * Chrome DevTools Recorder import: a recording exported from DevTools → Recorder → Export as JSON (the
 * `@puppeteer/replay` `UserFlow` schema) becomes a web test case of the current format. Pure: the CLI does the file IO.
 *
 * Rules (also in the README):
 * - The first `setViewport` before any action → `viewport`; the first `navigate` before any action → `start_url`;
 *   later `navigate` steps → `navigate` actions.
 * - `click`/`doubleClick` → `click` (primary, or `button: middle | back | forward`), `right_click` (secondary),
 *   `double_click`; `hover` → `hover`. `change` → `type` (`text` = value), or `select` when a selector names a
 *   `<select>` (the replay selects the option of a `type` whose element is a `<select>`).
 *   `keyDown` → `key_press` (its `keyUp` is dropped; `keyDown Control, keyDown a, keyUp a, keyUp Control` becomes
 *   one `key_press "Control+a"`); a modifier held around clicks/hovers → their `modifiers`, else a key press at
 *   its keyUp. A keyUp with no keyDown before it, and a keyDown never released, are kept whole and replayed
 *   alone (the key released or pressed, as the reference does). `scroll` (absolute position) → `scroll` by the difference to the previous position of the same
 *   scroller (positions restart at 0 after a navigation); without selectors it scrolls the window. A
 *   `waitForExpression` that is a plain timer → `wait`. `waitForElement`, other `waitForExpression`s and asserted
 *   navigations with a URL → `assert` actions (`assertions.ts`); every asserted navigation is awaited.
 * - `target` (a popup's URL) is kept: the replay runs the step in the page at that URL (`devtoolsReplayPlan`).
 * - `emulateNetworkConditions`, a mid-flow `setViewport` and `close` become `wait` actions of 0 ms carrying the
 *   step, honoured by the replay and written back in place (network conditions before the first navigate go
 *   back before it). Steps with no equivalent (customStep, waitForElement with attributes, unknown types)
 *   produce a warning and such an action marked `unsupported`: it fails on replay with the reason.
 * - The element identity comes from the selectors: `aria/Name[role="r"]` → ax_name + ax_role, `text/…` →
 *   text_content, `xpath/…` → xpath, plain CSS → the attributes it names (#id, .class, [name], [data-testid],
 *   [aria-label], [placeholder], [type], [href]). The tag is the CSS type selector, else the last XPath step,
 *   else the tag the ARIA role implies (button, link → a, textbox/searchbox/checkbox/radio → input, img), else
 *   "unknown". A selector path with several entries (shadow DOM) gives `shadow_path` = the hosts and
 *   `css` = the last entry (Playwright CSS pierces open shadow roots). `frame: [i, j]` → `frame_path`
 *   `["iframe >> nth=i", "iframe >> nth=j"]`. The box is unknown (zeros); the click point `x, y` is the DevTools
 *   offset inside the element, and the exact step fields not represented otherwise (offsets, target, frame,
 *   assertedEvents, timeout, the original selectors) are kept in the action's `extra.devtools`.
 * - A `change` into a password field (CSS `[type=password]`, or an aria name/id/name like password/비밀번호)
 */
import {
  type Action,
  type Assertion,
  CURRENT_FORMAT_VERSION,
  describeAssertion,
  type JsonObject,
  type JsonValue,
  type TestCase,
} from '@qa/model'
import { identityFromDevtoolsSelectors, type ImportedTarget } from './identity'
import { type ImportState, label, type StepImport, stepImporter } from './import-steps'
import { hasNavigation, isObject, omit } from './kept'
import { DEFAULT_SECRET_PREFIX } from './secret'
import type { DevtoolsImportOptions, DevtoolsImportResult, DevtoolsStep } from './types'
import { assertDevtoolsRecording } from './validation'

/**
 * Converts a Chrome DevTools Recorder export into a format-3.0 web test case. Throws `DevtoolsError`
 * (`WEB_BAD_DEVTOOLS_RECORDING`) naming the file, JSON path and expectation on bad input. Warnings name the
 * steps that have no equivalent or lost something.
 */
export function importDevtoolsRecording(json: unknown, opts: DevtoolsImportOptions = {}): DevtoolsImportResult {
  const recording = assertDevtoolsRecording(json, opts.file)
  const now = opts.now ?? Date.now()
  const state: ImportState = {
    recording,
    steps: recording.steps,
    now,
    secretPrefix: opts.secretEnvPrefix ?? DEFAULT_SECRET_PREFIX,
    warnings: [],
    actions: [],
    caseExtra: {},
    startUrl: null,
    viewport: null,
    scrollPositions: new Map(),
    held: [],
    heldModifiers: [],
  }
  const { steps, actions, warnings, caseExtra } = state

  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as DevtoolsStep
    const timestamp = now + i
    const before = actions.length
    i += stepImporter(step.type)(stepImport(state, step, i)) ?? 0
    // a navigation the step must cause, with its URL: an assertion of that URL right after the step
    const acted = actions.length > before ? actions[actions.length - 1] : undefined
    const events = Array.isArray(step.assertedEvents) ? step.assertedEvents : []
    if (acted && events.length > 0) {
      const kept = (acted.extra?.devtools ?? {}) as JsonObject
      const left: JsonValue[] = []
      const checks: JsonObject[] = []
      for (const e of events) {
        if (isObject(e) && e.type === 'navigation' && typeof e.url === 'string' && e.url !== '')
          checks.push(e as JsonObject)
        else left.push(e)
      }
      if (left.length > 0) {
        warnings.push(
          `steps[${i}] (${step.type}): an asserted event without a URL is not checked on replay (kept for export)`,
        )
        kept.assertedEvents = left
      } else delete kept.assertedEvents
      if (Object.keys(kept).length > 0) acted.extra = { ...(acted.extra ?? {}), devtools: kept }
      else if (acted.extra) {
        const { devtools: _gone, ...rest } = acted.extra
        if (Object.keys(rest).length > 0) acted.extra = rest
        else delete acted.extra
      }
      for (const event of checks) {
        const assertion: Assertion = { kind: 'url', expected: event.url as string }
        actions.push({
          timestamp,
          actionType: 'assert',
          x: 0,
          y: 0,
          description: describeAssertion(assertion),
          assertion,
          extra: { devtools: { assertedEvent: event } },
        })
      }
    }
  }
  // a modifier never released and used by no click: its keyDown alone, where it was (as the reference sends it)
  for (const m of [...state.heldModifiers].reverse())
    if (!m.used)
      actions.splice(m.at, 0, {
        timestamp: now + m.index,
        actionType: 'wait',
        x: 0,
        y: 0,
        durationMs: 0,
        description: `Hold down ${m.key}`,
        extra: { devtools: { step: omit(m.step, []) } },
      })
  if (state.startUrl === null)
    warnings.push(
      'the recording has no navigate step before its first action: the case has no start_url (replay with --url)',
    )

  const recordingRest = omit(recording, ['title', 'steps'])
  if (Object.keys(recordingRest).length > 0) caseExtra.recording = recordingRest
  const testCase: TestCase = {
    name: recording.title || opts.name || 'DevTools recording',
    version: CURRENT_FORMAT_VERSION,
    platform: 'web',
    createdAt: new Date(now).toISOString(),
    description: `Imported from a Chrome DevTools Recorder export${opts.file ? ` (${opts.file})` : ''}.`,
    actions,
  }
  if (state.startUrl !== null) testCase.startUrl = state.startUrl
  if (state.viewport) testCase.viewport = state.viewport
  if (Object.keys(caseExtra).length > 0) testCase.extra = { devtools: caseExtra }
  return { testCase, warnings }
}

/** What the importer of step `i` may do, over the import's state. */
function stepImport(state: ImportState, step: DevtoolsStep, i: number): StepImport {
  const { actions, recording } = state
  const timestamp = state.now + i
  const warn = (what: string) => state.warnings.push(`steps[${i}] (${step.type}): ${what}`)
  const push = (action: Omit<Action, 'timestamp'>, kept: JsonObject) => {
    const a: Action = { timestamp, ...action }
    // the page must navigate because of this step (DevTools waits for it): replay checks that it did
    if (hasNavigation(step.assertedEvents)) kept.awaitsNavigation = true
    if (Object.keys(kept).length > 0) a.extra = { ...(a.extra ?? {}), devtools: kept }
    actions.push(a)
    if (hasNavigation(step.assertedEvents)) state.scrollPositions = new Map()
  }
  return {
    state,
    step,
    i,
    warn,
    keep: (why) => {
      warn(`${why}; the step fails on replay (kept in the case for export)`)
      actions.push({
        timestamp,
        actionType: 'wait',
        x: 0,
        y: 0,
        durationMs: 0,
        description: `DevTools ${step.type} step (not replayed: ${why})`,
        extra: { devtools: { step: omit(step, []), unsupported: why } },
      })
    },
    passThrough: (description, fields = {}) => {
      actions.push({
        timestamp,
        actionType: 'wait',
        x: 0,
        y: 0,
        durationMs: 0,
        description,
        extra: { devtools: { step: omit(step, []), ...fields } },
      })
    },
    push,
    targetOf: () => {
      const t = identityFromDevtoolsSelectors(step.selectors ?? [], {
        frame: (step.frame as number[] | undefined) ?? [],
        ...(recording.selectorAttribute ? { selectorAttribute: recording.selectorAttribute } : {}),
      })
      if (t.empty) warn('has no usable selector; replay cannot find its element')
      return t
    },
    pushAssertion: (assertion: Assertion, t: ImportedTarget | null, kept: JsonObject) => {
      const action: Omit<Action, 'timestamp'> = {
        actionType: 'assert',
        x: Math.round((step.offsetX as number | undefined) ?? 0),
        y: Math.round((step.offsetY as number | undefined) ?? 0),
        description: describeAssertion(assertion, t ? label(t.identity, t.selectors) : null),
        assertion,
      }
      if (t) {
        action.identity = t.identity
        action.selectors = t.selectors
      }
      push(action, kept)
    },
    modifiersNow: () => {
      if (state.heldModifiers.length === 0) return null
      for (const m of state.heldModifiers) m.used = true
      return state.heldModifiers.map((m) => m.key)
    },
    hasActed: () => actions.some((a) => (a.extra?.devtools as JsonObject | undefined)?.beforeStart !== true),
  }
}
