import { isQaError, type JsonObject, type VerificationResult } from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import { join } from 'node:path'
import {
  type CompareOptions,
  type CompareResult,
  compareScreenshots,
  encodePng,
  type Rect,
} from './compare-screenshots'
import {
  type DecodedScreenshot,
  decodeScreenshot,
  isRawFrame,
  normalizeRawFrame,
  readImageFile,
  type ScreenshotInput,
} from './decode-screenshot'
import { DEFAULT_PASS_SIMILARITY, type VerdictOutcome, type VerdictPolicy, type VisionOutcome } from './decide-verdict'
import { bounds, changedRegions, changeMask } from './change-mask'
import { decideStepVerdict } from './step-verdict'
import {
  assessExpectedChange,
  type Displacement,
  type ExpectedChangeResult,
  type RgbaImage,
  type WindowPlace,
} from './expected-change'
import type { ScreenshotCache } from './screenshot-cache'

/** The re-verifier port (owned here; @qa/vision implements it): do these two screens show the same outcome? */
export interface VisionReverifier {
  compareScreens(
    expected: Uint8Array,
    actual: Uint8Array,
    intent: string,
    /** `expectedText`: the text the step typed, which the actual region should show (never a secret). */
    opts?: { signal?: AbortSignal; expectedText?: string },
  ): Promise<{ match: boolean; reason: string; confidence?: number }>
}

/** The current screen: a screenshot, or a function that captures it (throwing or returning null = capture failed). */
export type ActualScreenshot =
  | ScreenshotInput
  | null
  | undefined
  | (() => ScreenshotInput | null | undefined | Promise<ScreenshotInput | null | undefined>)

export interface VerifyStepInput {
  actionIndex: number
  description: string
  /** The recorded after-screenshot; absent → `warning` (skipped). */
  expected?: ScreenshotInput | DecodedScreenshot | null
  actual: ActualScreenshot
  /** What the action was meant to do, for the re-verifier. Default: the description. */
  intent?: string
  /** The text the step typed (never a secret's value): a re-verifier may look for it in the actual region. */
  expectedText?: string | null
  /** How the expected screenshot is named in the result (default: `expected` when it is a path). */
  expectedPath?: string | null
  /**
   * The recorded frame before the step (its before-screenshot, or the previous step's after-screenshot): with it
   * the verdict is decided on what the step changed (the expected region), not on the whole screen.
   */
  recordedBefore?: ScreenshotInput | DecodedScreenshot | null
  /** The screen just before the replayed step ran (to see a change somewhere else instead). */
  actualBefore?: ScreenshotInput | null
  /** Replayed point − recorded point: the expected region moves with it (the window moved). */
  displacement?: Displacement | null
  /** The program's scale now against the recording, about `anchor` (the recorded point): the region scales too. */
  scale?: number | null
  anchor?: Displacement | null
  /** The target element's box on the recorded screen; part of the expected region. */
  targetBox?: Rect | null
  /** The located element's box on the current screen: its own look may change during the step. */
  actualTargetBox?: Rect | null
  /**
   * The step's program window on the recorded screen and now: a window laid out again at another size has its
   * change compared item by item inside it (`ExpectedChangeInput.window`).
   */
  window?: WindowPlace | null
  /**
   * Windows the step opened (a menu, a drop-down's list) as recorded and now: what changed inside them now is their
   * appearing, not a change elsewhere (`ExpectedChangeInput.opened`).
   */
  opened?: readonly WindowPlace[]
  /** The program window the step's own window was opened over (`ExpectedChangeInput.parentWindow`). */
  parentWindow?: WindowPlace | null
  /** Recorded-screen boxes whose change is not this step's effect (the previous target losing its hover). */
  notEffects?: readonly Rect[]
  /**
   * Recorded-screen boxes of elements the step brought under the resting pointer: compared through their own
   * colour map (a hover look the browser may or may not have drawn yet), see `ExpectedChangeInput.restingHover`.
   */
  restingHover?: readonly Rect[]
  /**
   * Recorded-screen boxes whose pixels are unknown (the case's `unknown_regions`: the recorder had no clean view
   * there): never compared, like the ignore masks of `io.compare`.
   */
  unknownRegions?: readonly Rect[]
  /**
   * Why the step's target was not really located (clicked at the recorded coordinates): without an expected
   * screenshot the step is then a `warning` (`VerdictInput.coordinateWarning`).
   */
  coordinateWarning?: string | null
}

export interface VerifierIO {
  reverifier?: VisionReverifier | null
  policy?: VerdictPolicy
  compare?: Omit<CompareOptions, 'diffImage' | 'passSimilarity'>
  /** Decoded expected screenshots, shared over the replay. */
  cache?: ScreenshotCache
  /** Time the re-verifier gets before it counts as unavailable. Default 60 000 ms. */
  reverifyTimeoutMs?: number
  /** Folder for the actual and diff PNGs of steps that did not pass (shown in reports). None: nothing is written. */
  artifactDir?: string | null
  /** Keep the actual screenshot of every step (`always`) or only of steps that did not pass (default). */
  keepActual?: 'always' | 'non-pass'
  /**
   * When the expected region does not match at once, capture the screen again every `intervalMs` for up to
   * `timeoutMs` and keep the best (a slow program, a blinking caret). Needs `actual` to be a capture function.
   * Default: no recheck.
   */
  recheck?: { timeoutMs: number; intervalMs?: number } | null
}

const DEFAULT_REVERIFY_TIMEOUT_MS = 60_000

function message(e: unknown): string {
  if (isQaError(e)) return e.message
  return e instanceof Error ? e.message : String(e)
}

async function capture(actual: ActualScreenshot): Promise<ScreenshotInput> {
  const value = typeof actual === 'function' ? await actual() : actual
  if (value === null || value === undefined) throw new Error('no screenshot was returned')
  return value
}

/** Encoded bytes of a screenshot, for the re-verifier and for artefacts. */
async function bytesOf(input: ScreenshotInput | DecodedScreenshot): Promise<Uint8Array> {
  if (typeof input === 'string') return readImageFile(input)
  if (isRawFrame(input)) {
    const d = input as DecodedScreenshot
    if (d.bytes) return d.bytes
    if (input.channels === 4) return encodePng(input.data, input.width, input.height)
    const n = normalizeRawFrame(input)
    return encodePng(n.data, n.width, n.height)
  }
  return input
}

async function askVision(
  reverifier: VisionReverifier | null | undefined,
  expected: ScreenshotInput | DecodedScreenshot | (() => Promise<Uint8Array>),
  actual: ScreenshotInput | (() => Promise<Uint8Array>),
  intent: string,
  timeoutMs: number,
  expectedText?: string | null,
): Promise<VisionOutcome> {
  if (!reverifier) return { status: 'unavailable', reason: 'no vision re-verifier is configured' }
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  try {
    const bytes = (x: ScreenshotInput | DecodedScreenshot | (() => Promise<Uint8Array>)) =>
      typeof x === 'function' ? x() : bytesOf(x)
    const [e, a] = await Promise.all([bytes(expected), bytes(actual)])
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`no answer within ${timeoutMs} ms`))
        controller.abort()
      }, timeoutMs)
    })
    const answer = await Promise.race([
      reverifier.compareScreens(e, a, intent, {
        signal: controller.signal,
        ...(expectedText ? { expectedText } : {}),
      }),
      timeout,
    ])
    if (!answer || typeof answer.match !== 'boolean') throw new Error('the answer had no boolean `match`')
    const reason = typeof answer.reason === 'string' && answer.reason.trim() ? answer.reason.trim() : 'no reason given'
    return {
      status: answer.match ? 'match' : 'mismatch',
      reason,
      ...(typeof answer.confidence === 'number' ? { confidence: answer.confidence } : {}),
    }
  } catch (e) {
    return { status: 'unavailable', reason: message(e) }
  } finally {
    if (timer) clearTimeout(timer)
  }
}

function diffDetails(diff: CompareResult | undefined): JsonObject {
  if (!diff) return {}
  return {
    diff_pixels: diff.diffPixels,
    total_pixels: diff.totalPixels,
    width: diff.width,
    height: diff.height,
    ...(diff.byteIdentical ? { byte_identical: true } : {}),
    ...(diff.sizeMismatch
      ? {
          size_mismatch: {
            expected: { width: diff.sizeMismatch.expected.width, height: diff.sizeMismatch.expected.height },
            actual: { width: diff.sizeMismatch.actual.width, height: diff.sizeMismatch.actual.height },
          },
        }
      : {}),
  }
}

/**
 * Verifies one step by the verdict flow (`decideStepVerdict`), and never throws for a failing step: the failure is the result
 * (so a replay always continues). Reads screenshots, may ask the re-verifier, may write artefacts.
 */
export async function verifyStep(step: VerifyStepInput, io: VerifierIO = {}): Promise<VerificationResult> {
  const started = performance.now()
  const policy = io.policy ?? {}
  const expectedPath = step.expectedPath ?? (typeof step.expected === 'string' ? step.expected : null)
  const finish = (
    decision: VerdictOutcome,
    similarity: number,
    extra: {
      actualPath?: string | null
      diffPath?: string | null
      details?: JsonObject
      region?: ExpectedChangeResult
    } = {},
  ): VerificationResult => ({
    actionIndex: step.actionIndex,
    actionDescription: step.description,
    screenshotMatch: similarity >= (policy.passSimilarity ?? DEFAULT_PASS_SIMILARITY) && decision.status === 'pass',
    screenshotSimilarity: similarity,
    visionVerified: decision.visionVerified,
    visionMatch: decision.visionMatch,
    finalResult: decision.status,
    reason: decision.reason,
    expectedScreenshot: expectedPath,
    actualScreenshot: extra.actualPath ?? null,
    diffScreenshot: extra.diffPath ?? null,
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    ...(extra.region
      ? {
          regionSimilarity: extra.region.regionSimilarity,
          expectedRegion: extra.region.expectedRegion,
          actualRegion: extra.region.actualRegion,
        }
      : {}),
    details: { skipped: decision.skipped === true, ...(extra.details ?? {}) },
  })

  if (step.expected === null || step.expected === undefined || step.expected === '') {
    return finish(
      decideStepVerdict(
        { kind: 'screenshot', hasExpected: false, coordinateWarning: step.coordinateWarning ?? null },
        policy,
      ),
      0,
    )
  }
  let actual: ScreenshotInput
  try {
    actual = await capture(step.actual)
  } catch (e) {
    return finish(decideStepVerdict({ kind: 'screenshot', captureError: message(e) }, policy), 0)
  }
  const ignore = [...(io.compare?.ignore ?? []), ...(step.unknownRegions ?? [])]
  let diff: CompareResult
  let region: ExpectedChangeResult | undefined
  let expectedFrame: DecodedScreenshot | undefined
  let actualFrame: DecodedScreenshot | undefined
  /** The parts of the screen that changed by themselves while rechecked (recorded-screen boxes), not compared. */
  let learntMoving: Rect[] = []
  /** How many more screenshots the recheck took (0: the first look decided). */
  let looksAgain = 0
  try {
    if (step.recordedBefore != null || step.targetBox != null) {
      expectedFrame = await decodeExpected(step.expected, io.cache)
      actualFrame = await decodeScreenshot(actual, 'actual screenshot')
      const recordedBefore = step.recordedBefore
        ? await decodeExpected(step.recordedBefore, io.cache).catch(() => null)
        : null
      const actualBefore = step.actualBefore
        ? await decodeScreenshot(step.actualBefore, 'screen before the step').catch(() => null)
        : null
      const recorded = expectedFrame
      const assess = (now: RgbaImage, moving: readonly Rect[] = []) =>
        assessExpectedChange({
          recordedBefore,
          recordedAfter: recorded,
          actualAfter: now,
          actualBefore,
          displacement: step.displacement ?? null,
          scale: step.scale ?? null,
          anchor: step.anchor ?? null,
          targetBox: step.targetBox ?? null,
          actualTargetBox: step.actualTargetBox ?? null,
          ...(step.window ? { window: step.window } : {}),
          ...(step.opened?.length ? { opened: step.opened } : {}),
          ...(step.parentWindow ? { parentWindow: step.parentWindow } : {}),
          ...(step.notEffects?.length ? { notEffects: step.notEffects } : {}),
          ...(step.restingHover?.length ? { restingHover: step.restingHover } : {}),
          ...(ignore.length || moving.length ? { ignore: [...ignore, ...moving] } : {}),
          ...(io.compare?.threshold !== undefined ? { threshold: io.compare.threshold } : {}),
        })
      region = assess(actualFrame)
      const statusOf = (r: ExpectedChangeResult) => decideStepVerdict({ kind: 'screenshot', region: r }, policy).status
      const passes = (r: ExpectedChangeResult) => statusOf(r) === 'pass'
      // a later look is kept when its verdict is better (a window compared item by item, content dealt anew: their
      // verdict is not the pixels' similarity), else when its region is closer to the recording
      const better = (next: ExpectedChangeResult, best: ExpectedChangeResult) => {
        const [a, b] = [STATUS_RANK[statusOf(next)] ?? 0, STATUS_RANK[statusOf(best)] ?? 0]
        return a !== b ? a > b : regionScore(next) > regionScore(best)
      }
      if (io.recheck && typeof step.actual === 'function' && !passes(region)) {
        const deadline = performance.now() + io.recheck.timeoutMs
        const moving = createMovingPixels(actualFrame, step.displacement ?? null, step.scale ?? null)
        // at least two more looks, however slow the machine: one look is not enough to see what moves
        let looks = 0
        while ((performance.now() < deadline || looks < 2) && !passes(region)) {
          looks++
          looksAgain = looks
          await new Promise((r) => setTimeout(r, io.recheck?.intervalMs ?? 150))
          let again: ScreenshotInput
          try {
            again = await capture(step.actual)
          } catch {
            break
          }
          const frame = await decodeScreenshot(again, 'actual screenshot')
          // what changed by itself between two looks, with no input in between, is no evidence of the step
          moving.see(frame)
          const selfMoving = moving.regions(region)
          const next = assess(frame, selfMoving)
          if (better(next, region)) {
            region = next
            actualFrame = frame
            actual = again
            learntMoving = selfMoving
          }
        }
      }
    }
    const ignoredNow = [...ignore, ...learntMoving]
    diff = await compareScreenshots(step.expected, actualFrame ?? actual, {
      ...io.compare,
      ...(ignoredNow.length ? { ignore: ignoredNow } : {}),
      ...(io.cache ? { cache: io.cache } : {}),
      diffImage: io.artifactDir ? 'on-failure' : 'never',
      passSimilarity: policy.passSimilarity ?? DEFAULT_PASS_SIMILARITY,
    })
  } catch (e) {
    // an unreadable expected or actual screenshot fails this step; the replay goes on
    return finish(decideStepVerdict({ kind: 'screenshot', compareError: message(e) }, policy), 0, {
      details: isQaError(e) ? { error_code: e.code } : {},
    })
  }
  const verdictInput = { kind: 'screenshot' as const, ...diff, ...(region ? { region } : {}) }
  const first = decideStepVerdict(verdictInput, policy)
  let vision: VisionOutcome | undefined
  let decision: VerdictOutcome
  if (first.status === 'ask-vision') {
    // the second opinion sees what the step was meant to change, not the whole screen: in a window laid out
    // again, the items of the step's change inside each window
    const relaid = first.on === 'relaid-out' ? region?.relaidOut : null
    const expectedBox = relaid ? (relaid.recordedBox ?? relaid.recordedWindow) : region?.expectedRegion
    const actualBox = relaid ? (relaid.actualBox ?? relaid.currentWindow) : region?.actualRegion
    const e = expectedBox && expectedFrame ? cropOf(expectedFrame, expectedBox) : null
    const a = actualBox && actualFrame ? cropOf(actualFrame, actualBox) : null
    vision = await askVision(
      io.reverifier,
      e ? () => encodePng(e.data, e.width, e.height) : step.expected,
      a ? () => encodePng(a.data, a.width, a.height) : actual,
      step.intent ?? step.description,
      io.reverifyTimeoutMs ?? DEFAULT_REVERIFY_TIMEOUT_MS,
      step.expectedText,
    )
    decision = decideStepVerdict({ ...verdictInput, vision }, policy)
  } else decision = first

  let actualPath = typeof actual === 'string' ? actual : null
  let diffPath: string | null = null
  if (io.artifactDir) {
    const stem = join(io.artifactDir, `step-${String(step.actionIndex).padStart(3, '0')}`)
    if (diff.diffImage) {
      diffPath = `${stem}-diff.png`
      await writeFileAtomic(diffPath, diff.diffImage, { overwrite: true })
    }
    if (!actualPath && (decision.status !== 'pass' || io.keepActual === 'always')) {
      actualPath = `${stem}-actual.png`
      await writeFileAtomic(actualPath, await bytesOf(actual), { overwrite: true })
    }
  }
  const details: JsonObject = diffDetails(diff)
  if (vision) {
    details.vision = {
      status: vision.status,
      reason: vision.reason,
      ...('confidence' in vision && typeof vision.confidence === 'number' ? { confidence: vision.confidence } : {}),
    }
  }
  if (region) details.region = regionDetails(region)
  if (learntMoving.length) details.animated_regions = learntMoving.map((r) => ({ ...r }))
  if (looksAgain > 0) details.looks_again = looksAgain
  return finish(decision, diff.similarity, {
    actualPath,
    diffPath,
    details,
    region,
  })
}

async function decodeExpected(
  input: ScreenshotInput | DecodedScreenshot,
  cache: ScreenshotCache | undefined,
): Promise<DecodedScreenshot> {
  if (typeof input === 'string' && cache) return cache.get(input)
  return decodeScreenshot(input, typeof input === 'string' ? input : 'expected screenshot')
}

/**
 * At most this share of the step's expected change may be left out as moving by itself: a change that is mostly
 * still moving is the step's own effect under way (a slide, a fade), judged as it is, not left out.
 */
const MAX_MOVING_SHARE = 0.35
/** Pixels around what was seen moving that are left out with it. */
const MOVING_MARGIN_PX = 4

/**
 * The pixels of the screen now that change from one look to the next with no input in between (a spinner drawn
 * by an animated image, a video, a canvas, a carousel), gathered over the rechecks; `regions` gives them as
 * recorded-screen boxes (moved back by the displacement) to leave out of the comparison, none when they would
 * leave out more than `MAX_MOVING_SHARE` of the step's expected change or the screen is scaled.
 */
export function createMovingPixels(
  first: RgbaImage,
  displacement: Displacement | null,
  scale: number | null,
): { see(frame: RgbaImage): void; regions(region: ExpectedChangeResult): Rect[] } {
  const { width: w, height: h } = first
  const mask = new Uint8Array(w * h)
  let last = first
  let any = false
  return {
    see(frame) {
      if (frame.width !== w || frame.height !== h) return
      const now = changeMask(last, frame)
      for (let i = 0; i < now.length; i++)
        if (now[i]) {
          mask[i] = 1
          any = true
        }
      last = frame
    },
    regions(region) {
      if (!any || (scale !== null && scale !== 1)) return []
      const inExpected = region.actualRegion ? pixelsIn(mask, w, h, region.actualRegion) : 0
      if (region.expectedChangedPixels > 0 && inExpected > MAX_MOVING_SHARE * region.expectedChangedPixels) return []
      const boxes = changedRegions(mask, w, h, { cellSize: 4, gapCells: 1, maxRegions: 16 })
      // widened: what moved between two looks is part of what moves (a spinner's arm, not the whole spinner)
      const dx = (displacement?.x ?? 0) + MOVING_MARGIN_PX
      const dy = (displacement?.y ?? 0) + MOVING_MARGIN_PX
      const grow = 2 * MOVING_MARGIN_PX
      return boxes.map((b) => ({ x: b.x - dx, y: b.y - dy, width: b.width + grow, height: b.height + grow }))
    },
  }
}

/** How many pixels of a w×h mask are set inside `r`. */
function pixelsIn(mask: Uint8Array, w: number, h: number, r: Rect): number {
  const [x0, y0, x1, y1] = bounds(r, w, h)
  let n = 0
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) n += mask[y * w + x] as number
  return n
}

/** Orders rechecked samples by the verdict their region alone gives: a pass, a warning, a second opinion's, a failure. */
const STATUS_RANK: Record<string, number> = { pass: 3, warning: 2, 'ask-vision': 1, fail: 0 }

/** Orders rechecked samples of the same verdict: no hard failure first, then the higher region similarity. */
function regionScore(r: ExpectedChangeResult): number {
  return (r.changedElsewhere ? 0 : 1) + (r.expectedChangeMissing ? 0 : 2) + r.regionSimilarity
}

const VISION_MARGIN_PX = 24

/** The region (with a margin for context) cut out of a frame, or null when it lies outside. */
function cropOf(frame: RgbaImage, r: Rect): RgbaImage | null {
  const x0 = Math.max(0, Math.floor(r.x - VISION_MARGIN_PX))
  const y0 = Math.max(0, Math.floor(r.y - VISION_MARGIN_PX))
  const x1 = Math.min(frame.width, Math.ceil(r.x + r.width + VISION_MARGIN_PX))
  const y1 = Math.min(frame.height, Math.ceil(r.y + r.height + VISION_MARGIN_PX))
  if (x1 <= x0 || y1 <= y0) return null
  const width = x1 - x0
  const height = y1 - y0
  const data = new Uint8Array(width * height * 4)
  for (let y = y0; y < y1; y++)
    data.set(frame.data.subarray((y * frame.width + x0) * 4, (y * frame.width + x1) * 4), (y - y0) * width * 4)
  return { width, height, data }
}

const rect = (r: Rect): JsonObject => ({ x: r.x, y: r.y, width: r.width, height: r.height })
const ratio4 = (x: number) => Math.round(x * 10_000) / 10_000

function regionDetails(r: ExpectedChangeResult): JsonObject {
  return {
    expected_regions: r.expectedRegions.map(rect),
    displacement: { x: r.displacement.x, y: r.displacement.y },
    ...(r.scale !== 1 ? { scale: ratio4(r.scale) } : {}),
    compared_pixels: r.comparedPixels,
    expected_changed_pixels: r.expectedChangedPixels,
    differing_pixels: r.differingPixels,
    pixel_similarity: ratio4(r.pixelSimilarity),
    change_similarity: r.changeSimilarity === null ? null : ratio4(r.changeSimilarity),
    unchanged_share: r.unchangedShare === null ? null : ratio4(r.unchangedShare),
    expected_change_missing: r.expectedChangeMissing,
    unexpected_pixels: r.unexpectedPixels,
    unexpected_regions: r.unexpectedRegions.map(rect),
    changed_elsewhere: r.changedElsewhere,
    ...(r.openedWindows.length ? { opened_windows: r.openedWindows.map(rect) } : {}),
    ...(r.dealt
      ? {
          dealt: {
            alike: r.dealt.alike,
            other_content_share: ratio4(r.dealt.otherContentShare),
            change_ratio: ratio4(r.dealt.changeRatio),
            transition_agreement: ratio4(r.dealt.transitionAgreement),
            ...(r.dealt.paletteAgreement != null ? { palette_agreement: ratio4(r.dealt.paletteAgreement) } : {}),
          },
        }
      : {}),
    ...(r.relaidOut
      ? {
          relaid_out: {
            recorded_window: rect(r.relaidOut.recordedWindow),
            current_window: rect(r.relaidOut.currentWindow),
            recorded_change_share: ratio4(r.relaidOut.recordedChangeShare),
            actual_change_share: ratio4(r.relaidOut.actualChangeShare),
            recorded_items: r.relaidOut.recordedItems,
            actual_items: r.relaidOut.actualItems,
            matched_items: r.relaidOut.matchedItems,
            score: r.relaidOut.score === null ? null : ratio4(r.relaidOut.score),
            change_missing: r.relaidOut.changeMissing,
            unexpected_pixels: r.relaidOut.unexpectedPixels,
            unexpected_regions: r.relaidOut.unexpectedRegions.map(rect),
            changed_elsewhere: r.relaidOut.changedElsewhere,
          },
        }
      : {}),
    ...(r.palette
      ? {
          palette: {
            applied: r.palette.applied,
            explained: ratio4(r.palette.explained),
            as_is: ratio4(r.palette.asIs),
            colours: r.palette.colours,
            pixels: r.palette.pixels,
          },
        }
      : {}),
  }
}
