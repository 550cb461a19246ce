import { isAbsolute, resolve } from 'node:path'
import {
  type Action,
  type BoundingBox,
  type DesktopWindow,
  type HealingRecord,
  isClickLike,
  type ReplayReport,
  type ReplayResult,
  type StrategyAttempt,
  type TestCase,
  type VerificationResult,
  type VisionUsage,
} from '@qa/model'
import {
  describeAttempts,
  type LocateOnScreenOptions,
  locateOnScreen,
  type OcrWord,
  toHealingRecord,
  type UiAnalysis,
} from '@qa/matcher'
import {
  createReplayVerifier,
  createStepBook,
  decideStepVerdict,
  stepTimer,
  type VerdictPolicy,
  type VisionReverifier,
} from '@qa/verifier'
import { DesktopError } from './errors'
import { regionalTransition } from './regional-transition'
import { clipBox, cropFrame, decodeImage, framesEqual, type RgbaFrame } from './frame'
import type { KeyboardInput, PointerInput, ScreenCapture } from './ports'

export interface SettleOptions {
  /** Give up waiting for a still screen after this long and use the latest frame (default 3000 ms). */
  timeoutMs?: number
  /** Time between the two grabs compared (default 60 ms). */
  pollMs?: number
}

export interface DesktopReplayOptions {
  /** Folder the case's screenshot and crop paths are relative to. */
  caseDir: string
  caseFile?: string
  screen: ScreenCapture
  input: PointerInput & KeyboardInput
  /** Semantic analysis of the current screen (a Vision LLM); asked only when the fast path fails. */
  analyze?: ((frame: RgbaFrame) => Promise<UiAnalysis>) | null
  /** OCR of the current screen (offline text search). */
  ocr?: ((frame: RgbaFrame) => Promise<OcrWord[]>) | null
  /**
   * Where a recorded program window is now (`WindowLocator.find`): a click recorded with its `window` is looked
   * for, last, where that window puts it (moved, resized). Absent: no window prior.
   */
  findWindow?: ((recorded: DesktopWindow) => Promise<BoundingBox | null>) | null
  /** Compare each step's screen with its recorded after-screenshot. */
  verify?: boolean
  reverifier?: VisionReverifier | null
  policy?: VerdictPolicy
  artifactDir?: string | null
  locate?: LocateOnScreenOptions
  /**
   * Click the recorded point when no strategy finds the target (default false: such a step fails with "not
   * found" and the strategies tried). For coordinate-only legacy cases; those clicks are reported with method
   * `coordinate` and a warning, never as located. Same as `locate.allowCoordinateFallback`.
   */
  allowCoordinates?: boolean
  settle?: SettleOptions
  /** How long the pointer rests on a near miss before the second look (default 150 ms). */
  hoverSettleMs?: number
  /**
   * When a step's expected region does not match at once, look again for up to this long (a slow program, a
   * blinking caret). Default 1500 ms; 0 turns it off.
   */
  recheckMs?: number
  /**
   * Decide each step's verdict on its expected region (default true): what changed between the
   * recorded before and after frames plus the target's box, moved by the step's displacement. false: the
   * whole-screen comparison alone, for a restyled and rescaled program that no pixel region can confirm without
   * a vision provider (the desktop demo's v2).
   */
  verifyRegion?: boolean
  /** Masks (recorded-screen pixels) never compared: clocks, counters. */
  compareIgnore?: { x: number; y: number; width: number; height: number }[]
  /**
   * Learn heals (`qa replay --save-heals`): a click found by another strategy than the first one tried (the target
   * moved or changed) whose step then passed verification yields its new point and a crop cut at the new place.
   */
  learnHeals?: boolean
  /** Values of `secret_env` variables for masked typing. */
  env?: Record<string, string | undefined>
  /** Vision calls made during the replay, for the report. */
  visionUsage?: () => VisionUsage | null
  onStep?: (step: DesktopStepEvent) => void
  sessionId?: string
  /**
   * Stop the case once this many steps failed (`--max-failures`); the steps after it are reported as not run.
   * Default: every step runs, whatever fails before it.
   */
  maxFailures?: number | null
}

export interface DesktopStepEvent {
  index: number
  total: number
  action: Action
  result: ReplayResult
  verification?: VerificationResult
}

export interface DesktopReplayOutcome {
  report: ReplayReport
  results: ReplayResult[]
  verifications: VerificationResult[]
  /** Every step ran and (with verification) none failed. */
  passed: boolean
  /** Things the person should know about this run (the screen size differs from the recorded one); also in the summary. */
  warnings: string[]
  /** Verified heals (only with `learnHeals`), in step order. */
  heals: DesktopHeal[]
}

/** A verified heal of one click: where its target is now and how it looks there. */
export interface DesktopHeal {
  index: number
  point: { x: number; y: number }
  /** The element crop cut at the new place from the screen before the click (null when the step had no crop). */
  crop: RgbaFrame | null
  cropBox: BoundingBox | null
  record: HealingRecord
}

/** The warning when the replay screen is not the recorded size, or null. Pure. */
export function screenSizeWarning(
  recorded: { width: number; height: number } | null | undefined,
  current: { width: number; height: number },
): string | null {
  if (!recorded || (recorded.width === current.width && recorded.height === current.height)) return null
  return `The screen is ${current.width}×${current.height} now and was ${recorded.width}×${recorded.height} when recorded: elements may be elsewhere or scaled (template matching searches 0.5–2×, and each step's expected region is compared where, and at the scale, its target was found), and whole-screen comparisons cannot match.`
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Time a toolkit gets to draw the hover look after the pointer came to rest (150 ms). */
const HOVER_SETTLE_MS = 150
/** What a match needs on the second look, with the pointer resting on it (0.95, the fast path's bar). */
const HOVERED_MATCH_THRESHOLD = 0.95
/** A near miss scoring at least this (0.6) is worth a second look with the pointer resting on it. */
const HOVER_RECHECK_MIN = 0.6

/**
 * Where to rest the pointer for a second look, or null: only after a pixel strategy (direct, template) saw a
 * candidate it did not take, scoring at least `HOVER_RECHECK_MIN`, and only with an input that can move. Pure.
 */
export function hoverRecheckTarget(
  located: { status: string; nearMiss?: { strategy: string; point: { x: number; y: number }; confidence: number } },
  input: { move?: unknown },
): { x: number; y: number } | null {
  if (located.status === 'found' || typeof input.move !== 'function' || !located.nearMiss) return null
  const { strategy, point, confidence } = located.nearMiss
  if ((strategy !== 'direct' && strategy !== 'template') || confidence < HOVER_RECHECK_MIN) return null
  return point
}
const round = (v: number) => Math.round(v)

/** Waits until two grabs `pollMs` apart are identical (or the timeout passes); returns the last grab. */
export async function waitForStableScreen(screen: ScreenCapture, opts: SettleOptions = {}): Promise<RgbaFrame> {
  const timeoutMs = opts.timeoutMs ?? 3000
  const pollMs = opts.pollMs ?? 60
  const end = performance.now() + timeoutMs
  let prev = await screen.capture()
  for (;;) {
    await sleep(pollMs)
    const next = await screen.capture()
    if (framesEqual(prev, next) || performance.now() >= end) return next
    prev = next
  }
}

/**
 * The screen after a step that changed it when it was recorded: waits until it differs from `before` as the
 * recording measured the change (`regionalTransition`), then until it is still; returns the last grab. A program
 * busy on a loaded machine repaints late, and two equal grabs taken before it does are not its answer (a popup
 * still open under its close button's click). When no change comes within the timeout, the still screen is
 * returned and the verdict judges it.
 */
export async function waitForChangedScreen(
  screen: ScreenCapture,
  before: RgbaFrame,
  opts: SettleOptions = {},
): Promise<RgbaFrame> {
  const timeoutMs = opts.timeoutMs ?? 3000
  const pollMs = opts.pollMs ?? 60
  const end = performance.now() + timeoutMs
  for (;;) {
    const now = await screen.capture()
    if (regionalTransition(before, now).changed || performance.now() >= end) break
    await sleep(pollMs)
  }
  return waitForStableScreen(screen, opts)
}

function cropBoxOf(action: Action): BoundingBox | null {
  if (action.elementCropBox) return action.elementCropBox
  // Cases recorded before element_crop_box was a field kept it among the unknown fields.
  const b = action.extra?.element_crop_box as Record<string, unknown> | undefined
  if (!b || typeof b !== 'object') return null
  const { x, y, width, height } = b
  return [x, y, width, height].every((v) => typeof v === 'number' && Number.isFinite(v))
    ? { x: x as number, y: y as number, width: width as number, height: height as number }
    : null
}

/**
 * How far a step's point was moved by verified heals (`--save-heals`) since its screenshots were taken: the sum of
 * their coordinate changes. Pure.
 */
export function healedShift(a: Action): { x: number; y: number } {
  let x = 0
  let y = 0
  for (const h of a.healingHistory ?? []) {
    if (h.verified !== true || !h.coordinateChange) continue
    x += h.coordinateChange.x
    y += h.coordinateChange.y
  }
  return { x, y }
}

/** What a desktop step's target was, for messages: `button "OK" at (120, 300)`. */
function targetLabel(a: Action): string {
  const t = a.semanticInfo?.targetElement
  const text = t?.text?.trim()
  const what = t ? `${t.type || 'element'}${text ? ` "${text.slice(0, 50)}"` : ''}` : 'the target'
  return `${what} at (${a.x}, ${a.y})`
}

/** A window opened by a step keeps its recorded height within this share (2 %, as `pickWindow` finds a popup). */
const OPENED_HEIGHT_AGREEMENT = 0.02

/**
 * The window a step opened, as recorded and now: the window the next step was recorded in, when it is not the step's
 * own window (another box of the same program) and the program shows it now with its recorded height (within 2 %)
 * somewhere else than the step's own window. Null otherwise (the next step acts in the same window, or nothing of
 * that height is open).
 */
export async function openedWindow(
  action: Action,
  next: Action | null,
  ownNow: BoundingBox | null,
  findWindow: (recorded: DesktopWindow) => Promise<BoundingBox | null>,
): Promise<{ recorded: BoundingBox; now: BoundingBox } | null> {
  const own = action.window
  const theirs = next?.window
  if (!own || !theirs?.className || theirs.className !== own.className) return null
  const same = (a: BoundingBox, b: BoundingBox) =>
    a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height
  if (same(own.box, theirs.box) || theirs.box.height <= 0) return null
  const now = await findWindow(theirs).catch(() => null)
  if (!now || (ownNow && same(now, ownNow))) return null
  if (Math.abs(now.height / theirs.box.height - 1) > OPENED_HEIGHT_AGREEMENT) return null
  return { recorded: theirs.box, now }
}

/**
 * The program window a step's own window was opened over, as recorded and now: the previous step's window, when the
 * step's is another box that lies over it (a menu opened from its menu bar, a drop-down's list from its status bar),
 * where the program shows it now. Null otherwise.
 */
export async function parentWindowOf(
  action: Action,
  previous: Action | null,
  findWindow: (recorded: DesktopWindow) => Promise<BoundingBox | null>,
): Promise<{ recorded: BoundingBox; now: BoundingBox } | null> {
  const own = action.window?.box
  const parent = previous?.window
  if (!own || !parent) return null
  const p = parent.box
  const same = own.x === p.x && own.y === p.y && own.width === p.width && own.height === p.height
  const over =
    Math.min(own.x + own.width, p.x + p.width) > Math.max(own.x, p.x) &&
    Math.min(own.y + own.height, p.y + p.height) > Math.max(own.y, p.y)
  if (same || !over) return null
  const now = await findWindow(parent).catch(() => null)
  return now ? { recorded: p, now } : null
}

/**
 * Replays a desktop case with the healing cascade: per click, fast path (recorded crop still at the recorded place, no vision
 * call) → semantic match on the screen analysis (≥ 0.7) → multi-scale template match of the crop → OCR text
 * search, then clicks with synthetic input. When none finds the target the step fails with "not found" and
 * the strategies tried; only with `allowCoordinates` is the recorded point clicked instead (method
 * `coordinate`, with a warning). Never stops at a failing step; with `verify` every step is checked against
 * its recorded after-screenshot.
 */
export async function replayDesktopCase(tc: TestCase, opts: DesktopReplayOptions): Promise<DesktopReplayOutcome> {
  if (tc.platform !== 'desktop')
    throw new DesktopError('DESKTOP_NOT_DESKTOP_CASE', `"${tc.name}" is a ${tc.platform} case, not a desktop one.`, {
      hint: 'Replay web cases with `qa replay <case> --url …`.',
    })
  const pathOf = (p: string) => (isAbsolute(p) ? p : resolve(opts.caseDir, p))
  const verifier = createReplayVerifier({
    testCaseName: tc.name,
    baseDir: opts.caseDir,
    testCasePath: opts.caseFile ?? null,
    platform: 'desktop',
    ...(opts.sessionId ? { sessionId: opts.sessionId } : {}),
    ...(opts.reverifier ? { reverifier: opts.reverifier } : {}),
    ...(opts.policy ? { policy: opts.policy } : {}),
    ...(opts.compareIgnore ? { compare: { ignore: opts.compareIgnore } } : {}),
    artifactDir: opts.artifactDir ?? null,
    recheck: (opts.recheckMs ?? 1500) > 0 ? { timeoutMs: opts.recheckMs ?? 1500 } : null,
  })
  if (opts.verify) await verifier.preload(tc.actions)
  // root cause first: the first failure is named, the failures after it say so; --max-failures stops
  const book = createStepBook<Omit<DesktopHeal, 'index'>>({
    verifier,
    verify: opts.verify === true,
    maxFailures: opts.maxFailures ?? null,
  })
  const settle = () => waitForStableScreen(opts.screen, opts.settle)
  const total = tc.actions.length
  const allowCoordinates = opts.allowCoordinates ?? opts.locate?.allowCoordinateFallback ?? false
  const warnings: string[] = []
  const screenNow = await opts.screen.info()
  const sizeWarning = screenSizeWarning(tc.screen, screenNow)
  if (sizeWarning) warnings.push(sizeWarning)
  /** How far the last located target had moved: typing and keys after it act in the same (moved) window. */
  let displacement: { x: number; y: number } = { x: 0, y: 0 }
  /** Whether a click step located its target yet (its displacement and scale then hold for the keys after it). */
  let clickLocated = false
  /** The scale the last located target was found at (template match), about its recorded point. */
  let scale = 1
  let anchor: { x: number; y: number } = { x: 0, y: 0 }
  /** The scale of this step's located target (set by runAction). */
  let stepScale = 1
  /** This step's heal, kept when its verification passes. */
  let stepHeal: Omit<DesktopHeal, 'index'> | null = null
  /** This step's program window as recorded and where it is now (set by runAction for a click; by the keys below). */
  let stepWindow: { recorded: BoundingBox; now: BoundingBox } | null = null
  /** The last click-like step, when it found nothing: text typed now would land wherever the focus happens to be. */
  let unfocusedBy: number | null = null

  for (const [index, action] of tc.actions.entries()) {
    if (!book.plan(null).run) {
      const { verification, result } = book.notRun(index, action, `action_${String(index).padStart(4, '0')}`)
      opts.onStep?.({ index, total, action, result, verification })
      continue
    }
    const elapsed = stepTimer()
    const base = {
      actionId: `action_${String(index).padStart(4, '0')}`,
      actionIndex: index,
      originalCoords: { x: action.x, y: action.y },
    }
    let result: ReplayResult
    let before: RgbaFrame | null = null
    try {
      before = await settle()
      stepScale = 1
      stepHeal = null
      stepWindow = null
      result = await runAction(action, before)
    } catch (error) {
      result = {
        ...base,
        success: false,
        method: 'failed',
        matchConfidence: 0,
        screenTransitionVerified: false,
        errorMessage: error instanceof Error ? error.message : String(error),
      }
    }
    // keys and typing act in the window holding the focus: until a click located its target (which says more: the
    // scale too), where that window is now moves their expected region (a keyboard-driven menu has no click)
    if (
      !clickLocated &&
      result.success &&
      (action.actionType === 'key_press' || action.actionType === 'type') &&
      action.window &&
      opts.findWindow
    ) {
      const now = await opts.findWindow(action.window).catch(() => null)
      if (now) displacement = { x: now.x - action.window.box.x, y: now.y - action.window.box.y }
      if (now) stepWindow = { recorded: action.window.box, now }
    }
    // a window laid out again at another size has the step's change compared item by item inside it
    if (opts.verify && result.success && !stepWindow && action.window && opts.findWindow) {
      const now = await opts.findWindow(action.window).catch(() => null)
      if (now) stepWindow = { recorded: action.window.box, now }
    }
    let after: RgbaFrame | null = null
    try {
      after =
        result.success && before && action.screenTransition?.changed === true
          ? await waitForChangedScreen(opts.screen, before, opts.settle)
          : await settle()
    } catch {
      after = null
    }
    // the window the step opened (a menu, a drop-down's list): the one the next step was recorded in, when it is
    // another window of the program and is open now with its recorded height (a menu keeps its rows and grows
    // sideways with its labels)
    const opened =
      opts.verify && result.success && opts.findWindow
        ? await openedWindow(action, tc.actions[index + 1] ?? null, stepWindow?.now ?? null, opts.findWindow)
        : null
    // the program window the step's own window (a menu, a list) was opened over: the previous step's, when the
    // step's lies over it
    const parentWindow =
      opts.verify && result.success && opts.findWindow
        ? await parentWindowOf(action, index > 0 ? (tc.actions[index - 1] ?? null) : null, opts.findWindow)
        : null
    if (isClickLike(action)) unfocusedBy = result.success ? null : index
    if (result.success && result.coordinateChange && isClickLike(action)) {
      // the screenshots show the target where it was recorded, before any heal moved the step's point
      const shift = healedShift(action)
      displacement = { x: result.coordinateChange.x + shift.x, y: result.coordinateChange.y + shift.y }
      clickLocated = true
      scale = stepScale
      anchor = { x: action.x - shift.x, y: action.y - shift.y }
    }
    if (!opts.verify && result.success && before && after && action.screenTransition?.changed != null) {
      const changed = regionalTransition(before, after).changed
      result.screenTransitionVerified = changed === action.screenTransition.changed
    }
    result.durationMs = elapsed()
    let verification: VerificationResult | undefined
    if (opts.verify && !result.success) {
      // as on the web: a step that did not run fails, whatever the screen looks like
      verification = book.decided(
        index,
        action,
        decideStepVerdict({ kind: 'did-not-run', error: result.errorMessage, firstCause: book.firstCause }),
      )
    } else if (opts.verify) {
      // the settled after-frame first; a recheck captures the screen again
      let first: RgbaFrame | null = after
      const actual = async () => {
        const f = first ?? (await opts.screen.capture())
        first = null
        return f
      }
      verification =
        opts.verifyRegion === false
          ? await verifier.verifyAction(index, action, actual)
          : await verifier.verifyAction(index, action, actual, {
              actualBefore: before,
              displacement,
              ...(scale !== 1 ? { scale, anchor } : {}),
              previousAction: index > 0 ? (tc.actions[index - 1] ?? null) : null,
              ...(stepWindow ? { window: stepWindow } : {}),
              ...(opened ? { opened: [opened] } : {}),
              ...(parentWindow ? { parentWindow } : {}),
            })
      // the transition the step was meant to make is what the expected region shows
      result.screenTransitionVerified = verification.regionSimilarity != null && verification.finalResult !== 'fail'
    }
    book.done(index, { result, verification, notFound: false, fingerprint: null })
    // a heal is learnt only when the step is proven right
    book.learn(index, result, verification, () => stepHeal as Omit<DesktopHeal, 'index'> | null) // set inside runAction
    opts.onStep?.({ index, total, action, result, ...(verification ? { verification } : {}) })

    async function runAction(a: Action, frame: RgbaFrame): Promise<ReplayResult> {
      const ok = (method: ReplayResult['method'], extra: Partial<ReplayResult> = {}): ReplayResult => ({
        ...base,
        success: true,
        method,
        matchConfidence: 0,
        screenTransitionVerified: false,
        errorMessage: '',
        ...extra,
      })
      if (isClickLike(a)) {
        const crop = a.elementCropPath ? await decodeImage(pathOf(a.elementCropPath)).catch(() => null) : null
        // the recorded screen the crop was cut from: what the crop's look-alikes score there, and its surroundings
        const recordedFrame =
          crop && a.screenshotBeforePath ? await decodeImage(pathOf(a.screenshotBeforePath)).catch(() => null) : null
        const windowNow = a.window && opts.findWindow ? await opts.findWindow(a.window).catch(() => null) : null
        const window = a.window && windowNow ? { recorded: a.window.box, now: windowNow } : null
        stepWindow = window
        const locateOn = (screenNow: RgbaFrame, allowFallback: boolean, hovered = false) =>
          locateOnScreen(
            {
              original: { x: a.x, y: a.y },
              target: a.semanticInfo?.targetElement ?? null,
              crop,
              cropBox: crop ? cropBoxOf(a) : null,
              recordedFrame,
              window,
              animated: a.animatedRegions ?? null,
            },
            {
              capture: async () => screenNow,
              // the second look is about pixels only: hovering changes no text
              ...(opts.analyze && !hovered ? { analyze: opts.analyze as (f: unknown) => Promise<UiAnalysis> } : {}),
              ...(opts.ocr && !hovered ? { ocr: opts.ocr as (f: unknown) => Promise<OcrWord[]> } : {}),
            },
            {
              ...opts.locate,
              allowCoordinateFallback: allowFallback,
              // under the pointer any same-style button takes the hover look a crop cut in that state shows (an
              // xmessage "Rename" hovered scored 0.90 against "Cancel"'s crop): only a near-exact match counts
              ...(hovered
                ? { templateThreshold: Math.max(opts.locate?.templateThreshold ?? 0, HOVERED_MATCH_THRESHOLD) }
                : {}),
            },
          )
        const canHover = typeof opts.input.move === 'function'
        let located = await locateOn(frame, canHover ? false : allowCoordinates)
        // a toolkit that highlights on hover drew the recorded crop one way and shows the
        // element another while the pointer is elsewhere. Rest the pointer on the best near miss and look once
        // more, with every check as before; the coordinate fallback (if allowed) only after that second look.
        const hover = hoverRecheckTarget(located, opts.input)
        if (hover && opts.input.move) {
          await opts.input.move(round(hover.x), round(hover.y))
          await sleep(opts.hoverSettleMs ?? HOVER_SETTLE_MS)
          const second = await locateOn(await settle(), allowCoordinates, true)
          const note = `after resting the pointer on (${round(hover.x)}, ${round(hover.y)}): `
          located = {
            ...second,
            attempts: [
              ...located.attempts.filter((t) => t.strategy !== 'coordinate'),
              ...second.attempts.map((t) => ({ ...t, detail: `${note}${t.detail ?? t.outcome}` })),
            ],
          }
        } else if (canHover && located.status !== 'found' && allowCoordinates) located = await locateOn(frame, true)
        const attempts: StrategyAttempt[] = located.attempts
        if (located.status !== 'found' || !located.point) {
          const searchable = attempts.some((t) => t.strategy !== 'coordinate' && t.outcome !== 'skipped')
          return {
            ...base,
            success: false,
            method: 'failed',
            matchConfidence: 0,
            screenTransitionVerified: false,
            errorMessage: searchable
              ? `Element not found: ${targetLabel(a)} (tried ${describeAttempts(attempts, { skipped: true })}).`
              : `Element not found: the step has only its recorded coordinates (${a.x}, ${a.y}), nothing to search for (${describeAttempts(attempts, { skipped: true })}). Replay with --allow-coordinates to click the recorded point, or enrich the case first (qa enrich).`,
            strategiesTried: attempts,
          }
        }
        const x = round(located.point.x)
        const y = round(located.point.y)
        // the target was found drawn larger or smaller (a template match at another scale, a label read wider): the
        // step's expected region scales with it
        if (located.scale !== undefined && Number.isFinite(located.scale) && located.scale > 0)
          stepScale = located.scale
        if (opts.learnHeals) {
          const record = toHealingRecord(located, { original: { x: a.x, y: a.y }, verified: true })
          const recordedBox = crop ? (cropBoxOf(a) ?? null) : null
          const newBox = recordedBox
            ? clipBox(
                { ...recordedBox, x: recordedBox.x + x - a.x, y: recordedBox.y + y - a.y },
                frame.width,
                frame.height,
              )
            : null
          if (record)
            stepHeal = { point: { x, y }, record, cropBox: newBox, crop: newBox ? cropFrame(frame, newBox) : null }
        }
        const button = a.button ?? (a.actionType === 'right_click' ? 'right' : 'left')
        if (a.actionType === 'double_click') await opts.input.doubleClick(x, y, button)
        else await opts.input.click(x, y, button)
        return ok(located.strategy, {
          actualCoords: { x, y },
          coordinateChange: { x: x - a.x, y: y - a.y },
          matchConfidence: located.confidence,
          strategiesTried: attempts,
          ...(located.coordinateFallback
            ? { warning: 'no strategy found the target; clicked the recorded coordinates (--allow-coordinates)' }
            : {}),
        })
      }
      switch (a.actionType) {
        case 'type': {
          // typing is aimed by the click before it: with that target not found, the text would go wherever the
          // focus is (another field) — as blind as a click at the recorded pixel, so it is not typed
          if (unfocusedBy !== null)
            throw new DesktopError(
              'DESKTOP_FIELD_NOT_FOUND',
              `Not typed: the field it goes into (step ${unfocusedBy + 1}) was not found, so the text would land wherever the focus is.`,
              { hint: 'Fix or heal the click that focuses the field; the typing follows it.' },
            )
          const text = a.secretEnv ? opts.env?.[a.secretEnv] : a.text
          if (text === undefined || text === null)
            throw new DesktopError(
              'DESKTOP_BAD_OPTION',
              `Step ${index + 1} types a secret from ${a.secretEnv}, which is not set.`,
              {
                hint: `Set ${a.secretEnv} in the environment.`,
              },
            )
          await opts.input.type(text)
          return ok('none')
        }
        case 'key_press':
          await opts.input.press(a.key ?? '')
          return ok('none')
        case 'scroll':
          await opts.input.scroll(a.x, a.y, a.scrollDx ?? 0, a.scrollDy ?? 0)
          return ok('coordinate', { actualCoords: { x: a.x, y: a.y }, coordinateChange: { x: 0, y: 0 } })
        case 'drag':
          await opts.input.drag(a.x, a.y, a.endX ?? a.x, a.endY ?? a.y, a.button ?? 'left')
          return ok('coordinate', { actualCoords: { x: a.x, y: a.y }, coordinateChange: { x: 0, y: 0 } })
        case 'wait':
          await sleep(Math.min(a.durationMs ?? 0, 60_000))
          return ok('none')
        default:
          return ok('none', { errorMessage: `${a.actionType} has no meaning on the desktop; skipped` })
      }
    }
  }

  const verifications = [...book.verifications]
  const results = [...book.replayResults]
  const stepsOk = results.every((r) => r.success)
  const passed = stepsOk && (!opts.verify || verifier.determineTestResult())
  const report = verifier.buildReport({
    visionUsage: opts.visionUsage?.() ?? null,
    ...(opts.maxFailures ? { maxFailures: opts.maxFailures } : {}),
  })
  report.passed = passed
  if (sizeWarning && tc.screen)
    report.screenSizeChange = {
      recorded: { width: tc.screen.width, height: tc.screen.height },
      replayed: { width: screenNow.width, height: screenNow.height },
      message: sizeWarning,
    }
  const failed = results.filter((r) => !r.success).length
  const notFound = results.filter((r) => r.errorMessage?.startsWith('Element not found')).length
  const blind = results.filter((r, i) => r.method === 'coordinate' && isClickLike(tc.actions[i] as Action)).length
  const notes = [
    notFound ? `${notFound} target(s) not found` : '',
    blind ? `${blind} click(s) at the recorded coordinates, not located` : '',
  ]
    .filter(Boolean)
    .join('; ')
  if (!opts.verify) {
    report.summary = `Test ${passed ? 'PASSED' : 'FAILED'}: ${total} actions replayed, ${failed} could not be executed${notes ? ` (${notes})` : ''} (not verified: run with --verify to compare screenshots).`
  } else {
    if (!stepsOk)
      report.summary = `${report.summary.replace('Test PASSED', 'Test FAILED')} ${failed} step(s) could not be executed.`
    if (notes) report.summary = `${report.summary} ${notes[0]?.toUpperCase()}${notes.slice(1)}.`
  }
  if (warnings.length) report.summary = `${report.summary} Warning: ${warnings.join(' ')}`
  return { report, results, verifications, passed, warnings, heals: [...book.heals] }
}
