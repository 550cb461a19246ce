import type {
  BoundingBox,
  ElementIdentity,
  Extra,
  HealingRecord,
  JsonObject,
  Platform,
  Point,
  Selectors,
  Size,
  StrategyAttempt,
} from './case-types'

/**
 * The in-memory model (camelCase) of replay and verification results and of the report, with the conventions of
 * `case-types.ts` (optional fields absent, `null` or a value; `extra` keeps unknown file fields).
 */

/**
 * How an action's target was found on replay.
 * desktop: direct (fast path) · semantic · template · ocr · coordinate
 * web: role · aria_label · name · test_id · css · xpath · text · similarity · visual · coordinate
 * none: the action needs no target (wait, navigate, key press) · failed: not found.
 */
export type ReplayMethod =
  | 'direct'
  | 'semantic'
  | 'template'
  | 'ocr'
  | 'role'
  | 'aria_label'
  | 'name'
  | 'test_id'
  | 'css'
  | 'xpath'
  | 'text'
  | 'similarity'
  | 'visual'
  | 'coordinate'
  | 'none'
  | 'failed'
export const REPLAY_METHODS: readonly ReplayMethod[] = [
  'direct',
  'semantic',
  'template',
  'ocr',
  'role',
  'aria_label',
  'name',
  'test_id',
  'css',
  'xpath',
  'text',
  'similarity',
  'visual',
  'coordinate',
  'none',
  'failed',
]

export interface ReplayResult {
  actionId: string
  actionIndex?: number | null
  success: boolean
  method: ReplayMethod
  originalCoords: Point
  actualCoords?: Point | null
  coordinateChange?: Point | null
  /** 0–1. */
  matchConfidence: number
  screenTransitionVerified: boolean
  errorMessage: string
  strategiesTried?: StrategyAttempt[] | null
  durationMs?: number | null
  /**
   * The step ran, but not as recorded or not in a way the report may call right without saying so: e.g. the
   * recorded target was not a real target (body, html, no identity), so it was replayed by coordinates.
   */
  warning?: string | null
  /** The accessible name (else label or text) the step's element was recorded with, when it had a target. */
  recordedName?: string | null
  /** The name (accessible name, else label or text) of the element found now: `Login → Sign in` in a report. */
  foundName?: string | null
  /** Where the found element was on the page (viewport pixels = screenshot pixels): the report's element crop. */
  foundBox?: BoundingBox | null
  /** A crop of the screen at `foundBox`, taken before the step's input (the report's "Element found"). */
  foundCrop?: string | null
  /**
   * Located once, without the settle-and-locate-again wait: the step came after a "not found" step, on a page
   * that had not changed since.
   */
  quickLocate?: boolean | null
  /**
   * What the replay waited for after the step's input (web): `full` a settle (load, a quiet DOM, finite
   * animations: after a failure, or before a verified screenshot), `loaded` the new document's DOM (after a
   * navigation, unverified: the next step settles itself when its element is not there at once), `requests` the
   * requests the step started, `none` nothing (nothing could be pending). With `settleMs`, the time it took (part of `durationMs`).
   */
  settle?: ReplaySettle | null
  settleMs?: number | null
  extra?: Extra
}

export type ReplaySettle = 'full' | 'loaded' | 'requests' | 'none'
export const REPLAY_SETTLES: readonly ReplaySettle[] = ['full', 'loaded', 'requests', 'none']

export type Verdict = 'pass' | 'fail' | 'warning'
export const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'warning']

/** `VerificationResult`, plus the artefacts a report shows. */
export interface VerificationResult {
  actionIndex: number
  actionDescription: string
  screenshotMatch: boolean
  /** 0–1: 1 − differing pixels / pixels. */
  screenshotSimilarity: number
  visionVerified: boolean
  visionMatch: boolean
  finalResult: Verdict
  /** Why the verdict is what it is, in one sentence. */
  reason?: string | null
  expectedScreenshot?: string | null
  actualScreenshot?: string | null
  diffScreenshot?: string | null
  durationMs?: number | null
  /**
   * 0–1: how well the step's expected region (what changed between the recorded before and after frames, plus
   * the target's box) agrees between the recorded after-frame and the current screen; the verdict's score when
   * set. `screenshotSimilarity` stays the whole-screen figure.
   */
  regionSimilarity?: number | null
  /** The expected region on the recorded screen (bounding box of what the step changed and its target). */
  expectedRegion?: BoundingBox | null
  /** The same region on the current screen, moved by the step's displacement. */
  actualRegion?: BoundingBox | null
  details?: JsonObject | null
  /** The step number people read (`action_index` + 1). */
  step?: number | null
  /** The first failed step of the replay: the likely cause of the failures after it. */
  firstCause?: boolean | null
  /** The step ran after the first cause failed: its step number (the failure may follow from it). */
  afterFirstCause?: number | null
  /** The step was not run: the replay stopped early (`--max-failures`). Counted as failed; no similarity. */
  notRun?: boolean | null
  extra?: Extra
}

/** The first failed step of a replay: the one to look at first. */
export interface FirstCause {
  /** The step number people read (action index + 1). */
  step: number
  actionIndex: number
  description: string
  reason: string
  extra?: Extra
}

/** Replay statistics per method; the per-method counts plus failures always sum to the total. */
export interface AccuracyStats {
  totalActions: number
  successCount: number
  failedCount: number
  /** Successful actions located by anything but raw coordinates. */
  semanticMatchCount: number
  /** Successful actions replayed at their recorded coordinates. */
  coordinateMatchCount: number
  /** Successful actions per method. */
  byMethod: Record<string, number>
  /** Failures per reason (`element_not_found`, `unexpected_transition`, …). */
  failureReasons: Record<string, number>
  averageMatchConfidence: number
  /** Mean distance in pixels between recorded and replayed coordinates. */
  averageCoordinateShift: number
  extra?: Extra
}

/** Vision calls made for a report (cost control). */
export interface VisionUsage {
  provider: string
  calls: number
  cacheHits: number
  inputTokens?: number | null
  outputTokens?: number | null
  totalLatencyMs?: number | null
  extra?: Extra
}

/** `ReplayReport`, plus replay results and accuracy statistics. */
export interface ReplayReport {
  testCaseName: string
  sessionId: string
  startTime: string
  endTime: string
  totalActions: number
  passedCount: number
  failedCount: number
  warningCount: number
  /** (passed + warning) / total; 0 when there are no actions. */
  successRate: number
  /** The test's result: no action failed. */
  passed?: boolean | null
  verificationResults: VerificationResult[]
  replayResults?: ReplayResult[] | null
  accuracyStats?: AccuracyStats | null
  visionUsage?: VisionUsage | null
  testCasePath?: string | null
  platform?: Platform | null
  /** The replay screen is not the size the case was recorded on (desktop): both sizes, and what that means. */
  screenSizeChange?: ScreenSizeChange | null
  /** The first failed step, named as the first cause; absent when no step failed. */
  firstCause?: FirstCause | null
  /** The failure limit the replay ran with (`--max-failures`); the steps after it are `not_run`. */
  maxFailures?: number | null
  /** How many steps were not run because the failure limit was reached. */
  notRunCount?: number | null
  /**
   * Steps (`action_index`, 0-based) that ran but whose screen was not compared: the recording holds no screenshot
   * of them (the recorder could not capture one). Said once here and in the summary, not as a warning per step.
   */
  unverifiedSteps?: number[] | null
  summary: string
  /**
   * What `qa accept` needs to make this replay's look the case's new baseline (web, `--verify` with a report
   * folder): the case's content hash at replay time and, per replayed and located step, the screenshots taken.
   */
  acceptance?: ReplayAcceptance | null
  extra?: Extra
}

/** A replay's evidence for accepting its steps as the new baseline (`qa accept`, `--update-baselines`). */
export interface ReplayAcceptance {
  /** The case file the replay ran (absolute when written by the CLI). */
  caseFile: string
  /** SHA-256 (hex) of the case file's bytes when the replay read it: a case changed since is refused. */
  caseSha256: string
  /** One entry per step that ran and was located; a step that did not run or was not found has none. */
  steps: AcceptanceStep[]
  extra?: Extra
}

/** One replayed, located step: the new look and where its element was found. */
export interface AcceptanceStep {
  /** 0-based, as `action_index`. */
  actionIndex: number
  /** The screen just before the step, PNG; a path relative to the report file's folder (or absolute). */
  screenshotBefore?: string | null
  screenshotBeforeSha256?: string | null
  /** The screen the step was verified on, PNG; relative to the report file's folder (or absolute). */
  screenshotAfter?: string | null
  screenshotAfterSha256?: string | null
  /** The located element's box on the replay screen (CSS pixels); none for steps without a target. */
  elementBox?: BoundingBox | null
  /** Where the input went (the located point). */
  actualCoords?: Point | null
  /** The live identity and selectors of the element the step healed to (only when it healed). */
  identity?: ElementIdentity | null
  selectors?: Selectors | null
  /** The heal, when another strategy than the recorded locator found the element. */
  healing?: HealingRecord | null
  /** The step's verdict in this replay. */
  verdict?: Verdict | null
  extra?: Extra
}

/** A desktop replay on a screen of another size than the recording's. */
export interface ScreenSizeChange {
  recorded: Size
  replayed: Size
  /** For people: what differs and how the replay deals with it. */
  message: string
  extra?: Extra
}

/** `EnrichmentResult`. */
export interface EnrichmentResult {
  totalActions: number
  enrichedCount: number
  skippedCount: number
  failedCount: number
  version: string
  extra?: Extra
}
