import { markRootCause } from './root-cause'
import { randomUUID } from 'node:crypto'
import { isAbsolute, resolve } from 'node:path'
import {
  type Action,
  computeAccuracyStats,
  countVerdicts,
  determineTestResult,
  type Platform,
  type ReplayReport,
  type ReplayResult,
  type VerificationResult,
  type VisionUsage,
} from '@qa/model'
import type { Rect } from './compare-screenshots'
import type { ScreenshotInput } from './decode-screenshot'
import type { Displacement, WindowPlace } from './expected-change'
import { createScreenshotCache } from './screenshot-cache'
import { type ActualScreenshot, type VerifierIO, verifyStep } from './verify-step'

/** What the replay knows about a step beyond its action: lets the verdict look at what the step changed. */
export interface StepContext {
  /** The screen just before the replayed step ran. */
  actualBefore?: ScreenshotInput | null
  /** Replayed point − recorded point (the target moved): the expected region moves with it. */
  displacement?: Displacement | null
  /**
   * The program's scale now against the recording (the template match's scale; a replay screen of another size),
   * about `anchor`, the recorded point of the step that measured it: the expected region is scaled too.
   */
  scale?: number | null
  anchor?: Displacement | null
  /** The case's previous action: its after-screenshot is this step's "before" when the step recorded none. */
  previousAction?: Action | null
  /** The located element's box on the current screen (its hover or focus look is no change elsewhere). */
  actualTargetBox?: Rect | null
  /**
   * The box on the current screen of an element the step brought under the resting pointer (not its target): its
   * hover look is compared through a colour map of its own (`ExpectedChangeInput.restingHover`).
   */
  restingHoverBox?: Rect | null
  /**
   * The step's program window on the recorded screen and where it is now (desktop): a window laid out again at
   * another size has the step's change compared item by item inside it.
   */
  window?: WindowPlace | null
  /**
   * Windows the step opened (desktop: a menu or a drop-down's list, the window the next step was recorded in), as
   * recorded and now: what changed inside them now is their appearing, not a change elsewhere.
   */
  opened?: readonly WindowPlace[]
  /**
   * The program window the step's own window (a menu, a list) was opened over, recorded and now (desktop: the previous
   * step's window, when the step's lies over it): the step acts on it.
   */
  parentWindow?: WindowPlace | null
}

export interface ReplayVerifierOptions extends VerifierIO {
  testCaseName: string
  /** Default: a new id from the start time and a random suffix. */
  sessionId?: string
  /** Folder the actions' screenshot paths are relative to (the test case's folder). Default: the current folder. */
  baseDir?: string
  testCasePath?: string | null
  platform?: Platform | null
  /** Clock, for tests. */
  now?: () => Date
}

export interface BuildReportOptions {
  endTime?: Date
  visionUsage?: VisionUsage | null
  /** The failure limit the replay ran with (`--max-failures`), reported with how many steps were not run. */
  maxFailures?: number | null
}

/** Collects a replay's verification results (never stopping at a failure) and builds its ReplayReport. */
export interface ReplayVerifier {
  readonly sessionId: string
  readonly results: readonly VerificationResult[]
  readonly replayResults: readonly ReplayResult[]
  /** Verifies an action after it ran against its recorded after-screenshot; records the result. */
  verifyAction(
    actionIndex: number,
    action: Action,
    actual: ActualScreenshot,
    context?: StepContext,
    /** What the replay learnt about the step beyond its screen: a click at the recorded coordinates (web). */
    ran?: { coordinateWarning?: string | null },
  ): Promise<VerificationResult>
  /**
   * Verifies an action of a coordinate replay, one with no semantic_info: only its screenshot_path is used
   *; records the result.
   */
  verifyCoordinateAction(
    actionIndex: number,
    action: Action,
    currentScreenshot: ActualScreenshot,
  ): Promise<VerificationResult>
  /** Records a result produced elsewhere. */
  recordResult(result: VerificationResult): void
  /** Records how the action was located (healing method), shown in reports and accuracy statistics. */
  recordReplayResult(result: ReplayResult): void
  /** Decodes every action's expected screenshot ahead of time (missing files are reported when verified). */
  preload(actions: readonly Action[]): Promise<void>
  /** true when no recorded action failed. */
  determineTestResult(): boolean
  buildReport(opts?: BuildReportOptions): ReplayReport
}

/**
 * A step's verification result when no screenshot is compared: a step that did not run (`fail`), an assertion
 * (its condition decides), a step replayed without --verify. One shape for every replayer.
 */
export function resultWithoutScreenshot(opts: {
  actionIndex: number
  action: Pick<Action, 'description' | 'screenshotPath'>
  finalResult: VerificationResult['finalResult']
  reason: string
  /** Name the recorded after-screenshot in the result (default false). */
  withExpected?: boolean
}): VerificationResult {
  return {
    actionIndex: opts.actionIndex,
    actionDescription: opts.action.description,
    screenshotMatch: false,
    screenshotSimilarity: 0,
    visionVerified: false,
    visionMatch: false,
    finalResult: opts.finalResult,
    reason: opts.reason,
    ...(opts.withExpected && opts.action.screenshotPath ? { expectedScreenshot: opts.action.screenshotPath } : {}),
  }
}

function defaultSessionId(d: Date): string {
  const stamp = d.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15)
  return `${stamp}_${randomUUID().slice(0, 8)}`
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`

/**
 * The steps (action indices) that ran but whose screen was not compared, because the recording holds no
 * screenshot of them (`details.skipped`). Pure.
 */
export function unverifiedSteps(results: readonly Pick<VerificationResult, 'actionIndex' | 'details'>[]): number[] {
  return results.filter((r) => r.details?.skipped === true).map((r) => r.actionIndex)
}

/** The human summary line of a report; the steps without a recorded screenshot are named once, here. */
export function summarizeResults(
  results: readonly (Pick<VerificationResult, 'finalResult'> &
    Partial<Pick<VerificationResult, 'actionIndex' | 'details'>>)[],
): string {
  const c = countVerdicts(results)
  const verdict = determineTestResult(results) ? 'PASSED' : 'FAILED'
  const line = `Test ${verdict}: ${c.totalActions} actions, ${c.passedCount} passed, ${c.failedCount} failed, ${c.warningCount} warnings (success rate ${pct(c.successRate)}).`
  const unverified = unverifiedSteps(
    results.map((r, i) => ({ actionIndex: r.actionIndex ?? i, ...(r.details ? { details: r.details } : {}) })),
  )
  if (unverified.length === 0) return line
  const steps = unverified.map((i) => `#${i + 1}`).join(', ')
  return `${line} ${unverified.length === 1 ? '1 step' : `${unverified.length} steps`} ran without a recorded screenshot (the recording could not capture one) and ${unverified.length === 1 ? 'was' : 'were'} not compared: ${steps}.`
}

export function createReplayVerifier(opts: ReplayVerifierOptions): ReplayVerifier {
  const now = opts.now ?? (() => new Date())
  const startTime = now()
  const sessionId = opts.sessionId ?? defaultSessionId(startTime)
  const io: VerifierIO = { ...opts, cache: opts.cache ?? createScreenshotCache() }
  const results: VerificationResult[] = []
  const replayResults: ReplayResult[] = []
  const baseDir = opts.baseDir ?? process.cwd()
  const pathOf = (p: string | null | undefined) => (p ? (isAbsolute(p) ? p : resolve(baseDir, p)) : null)

  const run = async (
    actionIndex: number,
    action: Action,
    actual: ActualScreenshot,
    intent: string,
    context?: StepContext,
    coordinateWarning?: string | null,
  ) => {
    const expected = pathOf(action.screenshotPath)
    const recordedBefore = context
      ? pathOf(action.screenshotBeforePath ?? context.previousAction?.screenshotPath ?? null)
      : null
    const targetBox = context ? recordedTargetBox(action) : null
    // the previous target losing its hover or focus look is not this step's effect; but typing and keys act on
    // that very target (the digit typed into the cell just clicked), so their effect is never masked out
    const actsOnFocus = action.actionType === 'type' || action.actionType === 'key_press'
    const previousBox = context?.previousAction && !actsOnFocus ? recordedTargetBox(context.previousAction) : null
    // the recorded pixels nobody saw cleanly (the recorder's toolbar in a frame) are compared in neither image
    // and the parts of the screen that kept moving by themselves while it was recorded (sprites, carets, clocks:
    // `animated_regions`, the same place in both screenshots) are not evidence either
    const unknownRegions = [
      ...(action.animatedRegions ?? []),
      ...(action.unknownRegions?.after ?? []),
      ...(action.screenshotBeforePath
        ? (action.unknownRegions?.before ?? [])
        : (context?.previousAction?.unknownRegions?.after ?? [])),
    ]
    const result = await verifyStep(
      {
        actionIndex,
        description: action.description,
        expected,
        actual,
        intent,
        // the text a typing step typed, for a second opinion to look for (a secret's value never leaves the step)
        ...(action.actionType === 'type' && action.text && !action.secretEnv ? { expectedText: action.text } : {}),
        expectedPath: action.screenshotPath ?? null,
        ...(recordedBefore && recordedBefore !== expected ? { recordedBefore } : {}),
        ...(targetBox ? { targetBox } : {}),
        ...(context?.actualBefore ? { actualBefore: context.actualBefore } : {}),
        ...(context?.displacement ? { displacement: context.displacement } : {}),
        ...(context?.scale && context.scale !== 1 ? { scale: context.scale, anchor: context.anchor ?? null } : {}),
        ...(context?.actualTargetBox ? { actualTargetBox: context.actualTargetBox } : {}),
        ...(context?.window ? { window: context.window } : {}),
        ...(context?.opened?.length ? { opened: context.opened } : {}),
        ...(context?.parentWindow ? { parentWindow: context.parentWindow } : {}),
        ...(previousBox ? { notEffects: [previousBox] } : {}),
        ...(context?.restingHoverBox ? { restingHover: [recordedPlace(context.restingHoverBox, context)] } : {}),
        ...(unknownRegions.length ? { unknownRegions } : {}),
        ...(coordinateWarning ? { coordinateWarning } : {}),
      },
      io,
    )
    // the report outlines them on the recorded screenshot
    // (with those the recheck saw moving by themselves)
    if (action.animatedRegions?.length) {
      const learnt = Array.isArray(result.details?.animated_regions) ? result.details.animated_regions : []
      result.details = {
        ...(result.details ?? {}),
        animated_regions: [
          ...action.animatedRegions.map((b) => ({ x: b.x, y: b.y, width: b.width, height: b.height })),
          ...learnt,
        ],
      }
    }
    results.push(result)
    return result
  }

  return {
    sessionId,
    results,
    replayResults,
    verifyAction(actionIndex, action, actual, context, ran) {
      const s = action.semanticInfo
      const intent = [s?.intent, s?.targetElement?.description ?? s?.targetElement?.text, action.description]
        .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
        .join(' — ')
      return run(actionIndex, action, actual, intent || action.description, context, ran?.coordinateWarning)
    },
    verifyCoordinateAction(actionIndex, action, currentScreenshot) {
      return run(actionIndex, action, currentScreenshot, action.description)
    },
    recordResult(result) {
      results.push(result)
    },
    recordReplayResult(result) {
      replayResults.push(result)
    },
    async preload(actions) {
      const cache = io.cache
      if (!cache) return
      for (const a of actions) {
        const p = pathOf(a.screenshotPath)
        if (p) await cache.get(p).catch(() => undefined)
      }
    },
    determineTestResult: () => determineTestResult(results),
    buildReport(o = {}) {
      const counts = countVerdicts(results)
      const marked = markRootCause(results)
      const report: ReplayReport = {
        testCaseName: opts.testCaseName,
        sessionId,
        startTime: startTime.toISOString(),
        endTime: (o.endTime ?? now()).toISOString(),
        ...counts,
        passed: determineTestResult(results),
        verificationResults: marked.results,
        summary: summarizeResults(results),
      }
      if (marked.firstCause) report.firstCause = marked.firstCause
      if (o.maxFailures) {
        report.maxFailures = o.maxFailures
        report.notRunCount = results.filter((r) => r.notRun).length
      }
      const unverified = unverifiedSteps(results)
      if (unverified.length > 0) report.unverifiedSteps = unverified
      if (replayResults.length > 0) {
        report.replayResults = [...replayResults]
        report.accuracyStats = computeAccuracyStats(replayResults)
      }
      if (o.visionUsage) report.visionUsage = o.visionUsage
      if (opts.testCasePath) report.testCasePath = opts.testCasePath
      if (opts.platform) report.platform = opts.platform
      return report
    },
  }
}

const finiteBox = (b: unknown): Rect | null => {
  if (!b || typeof b !== 'object') return null
  const { x, y, width, height } = b as Record<string, unknown>
  if (![x, y, width, height].every((v) => typeof v === 'number' && Number.isFinite(v))) return null
  if ((width as number) <= 0 || (height as number) <= 0) return null
  return { x: x as number, y: y as number, width: width as number, height: height as number }
}

const holds = (b: Rect, x: number, y: number, slack: number) =>
  x >= b.x - slack && x <= b.x + b.width + slack && y >= b.y - slack && y <= b.y + b.height + slack

/** Where a box of the current screen was on the recorded one: moved back by the step's displacement and scale. */
function recordedPlace(box: Rect, context: StepContext): Rect {
  const d = context.displacement ?? { x: 0, y: 0 }
  const scale = context.scale && Number.isFinite(context.scale) && context.scale > 0 ? context.scale : 1
  const a = context.anchor ?? { x: 0, y: 0 }
  const back = (v: number, anchor: number, offset: number) => anchor + (v - anchor - offset) / scale
  return {
    x: back(box.x, a.x, d.x),
    y: back(box.y, a.y, d.y),
    width: box.width / scale,
    height: box.height / scale,
  }
}

/**
 * The box of the element a step acted on, on the recorded screen: the web identity's box; on the desktop the
 * analysed target's box when it holds the click point, else the element crop's box. Null for steps without a
 * target (typing, keys). Pure.
 */
export function recordedTargetBox(action: Action): Rect | null {
  const { x, y } = action
  const web = finiteBox(action.identity?.boundingBox)
  if (web && holds(web, x, y, 2)) return web
  const analysed = finiteBox(action.semanticInfo?.targetElement?.boundingBox)
  if (analysed && holds(analysed, x, y, 4)) return analysed
  return finiteBox(action.elementCropBox ?? action.extra?.element_crop_box)
}
