import { isQaError, type JsonObject, type VerificationResult } from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import { join } from 'node:path'
import { type CompareOptions, type CompareResult, compareScreenshots, encodePng } from './compare-screenshots'
import {
  type DecodedScreenshot,
  isRawFrame,
  normalizeRawFrame,
  readImageFile,
  type ScreenshotInput,
} from './decode-screenshot'
import { DEFAULT_PASS_SIMILARITY, decideVerdict, type VerdictPolicy, type VisionOutcome } from './decide-verdict'
import type { ScreenshotCache } from './screenshot-cache'

/** The re-verifier port (owned here; @qa/vision implements it): do these two screens show the same outcome? */
export interface VisionReverifier {
  compareScreens(
    expected: Uint8Array,
    actual: Uint8Array,
    intent: string,
    opts?: { signal?: AbortSignal },
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
  /** How the expected screenshot is named in the result (default: `expected` when it is a path). */
  expectedPath?: string | null
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
  expected: ScreenshotInput | DecodedScreenshot,
  actual: ScreenshotInput,
  intent: string,
  timeoutMs: number,
): Promise<VisionOutcome> {
  if (!reverifier) return { status: 'unavailable', reason: 'no vision re-verifier is configured' }
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  try {
    const [e, a] = await Promise.all([bytesOf(expected), bytesOf(actual)])
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`no answer within ${timeoutMs} ms`))
        controller.abort()
      }, timeoutMs)
    })
    const answer = await Promise.race([reverifier.compareScreens(e, a, intent, { signal: controller.signal }), timeout])
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
 * Verifies one step exactly as seed 000 says, and never throws for a failing step: the failure is the result
 * (so a replay always continues). Reads screenshots, may ask the re-verifier, may write artefacts.
 */
export async function verifyStep(step: VerifyStepInput, io: VerifierIO = {}): Promise<VerificationResult> {
  const started = performance.now()
  const policy = io.policy ?? {}
  const expectedPath = step.expectedPath ?? (typeof step.expected === 'string' ? step.expected : null)
  const finish = (
    decision: {
      status: VerificationResult['finalResult']
      reason: string
      visionVerified: boolean
      visionMatch: boolean
      skipped?: boolean
    },
    similarity: number,
    extra: { actualPath?: string | null; diffPath?: string | null; details?: JsonObject } = {},
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
    details: { skipped: decision.skipped === true, ...(extra.details ?? {}) },
  })

  if (step.expected === null || step.expected === undefined || step.expected === '') {
    const d = decideVerdict({ hasExpected: false }, policy)
    if (d.status === 'ask-vision') throw new Error('unreachable')
    return finish(d, 0)
  }
  let actual: ScreenshotInput
  try {
    actual = await capture(step.actual)
  } catch (e) {
    const d = decideVerdict({ captureError: message(e) }, policy)
    if (d.status === 'ask-vision') throw new Error('unreachable')
    return finish(d, 0)
  }
  let diff: CompareResult
  try {
    diff = await compareScreenshots(step.expected, actual, {
      ...io.compare,
      ...(io.cache ? { cache: io.cache } : {}),
      diffImage: io.artifactDir ? 'on-failure' : 'never',
      passSimilarity: policy.passSimilarity ?? DEFAULT_PASS_SIMILARITY,
    })
  } catch (e) {
    // an unreadable expected or actual screenshot fails this step; the replay goes on
    return finish(
      {
        status: 'fail',
        reason: `The screenshots could not be compared: ${message(e)}`,
        visionVerified: false,
        visionMatch: false,
      },
      0,
      { details: isQaError(e) ? { error_code: e.code } : {} },
    )
  }
  let decision = decideVerdict(diff, policy)
  let vision: VisionOutcome | undefined
  if (decision.status === 'ask-vision') {
    vision = await askVision(
      io.reverifier,
      step.expected,
      actual,
      step.intent ?? step.description,
      io.reverifyTimeoutMs ?? DEFAULT_REVERIFY_TIMEOUT_MS,
    )
    decision = decideVerdict({ ...diff, vision }, policy)
  }
  if (decision.status === 'ask-vision') throw new Error('unreachable')

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
  return finish(decision, diff.similarity, { actualPath, diffPath, details })
}
