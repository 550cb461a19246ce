import type { Verdict } from '@qa/model'
import type { SizeMismatch } from './compare-screenshots'
import { sizeMismatchReason } from './compare-screenshots'

/** Thresholds of the verdict flow (SPEC §6, seed 000). */
export interface VerdictPolicy {
  /** Similarity at or above which a step passes without asking vision. Default 0.95. */
  passSimilarity?: number
  /** When vision cannot answer: similarity at or above this gives `warning`, below gives `fail`. Default 0.7. */
  fallbackSimilarity?: number
}

export const DEFAULT_PASS_SIMILARITY = 0.95
export const DEFAULT_FALLBACK_SIMILARITY = 0.7

/** What the vision re-verifier said, once asked. */
export type VisionOutcome =
  | { status: 'match' | 'mismatch'; reason: string; confidence?: number }
  | { status: 'unavailable'; reason: string }

/** Everything the verdict depends on. A CompareResult fits `similarity` and `sizeMismatch`. */
export interface VerdictInput {
  /** false when the action has no expected screenshot (no screenshot_path). Default true. */
  hasExpected?: boolean
  /** Set when capturing the current screen failed: the reason. */
  captureError?: string | null
  /** 0–1 similarity of the screenshots. */
  similarity?: number
  sizeMismatch?: SizeMismatch
  /** The re-verifier's answer, when it was asked. */
  vision?: VisionOutcome
}

export type VerdictDecision =
  | {
      status: Verdict
      reason: string
      /** true when verification was skipped (no expected screenshot). */
      skipped: boolean
      visionVerified: boolean
      visionMatch: boolean
    }
  | { status: 'ask-vision'; similarity: number }

const pct = (x: number) => `${(x * 100).toFixed(2)}%`

/**
 * The verdict flow of seed 000, as a pure function: no expected screenshot → warning (skipped); capture failed →
 * fail; similarity ≥ passSimilarity → pass; otherwise `ask-vision` until a vision outcome is given; then match →
 * warning, mismatch → fail; vision unavailable → similarity ≥ fallbackSimilarity → warning, else fail.
 */
export function decideVerdict(input: VerdictInput, policy: VerdictPolicy = {}): VerdictDecision {
  const pass = policy.passSimilarity ?? DEFAULT_PASS_SIMILARITY
  const fallback = policy.fallbackSimilarity ?? DEFAULT_FALLBACK_SIMILARITY
  const base = { skipped: false, visionVerified: false, visionMatch: false }
  if (input.hasExpected === false) {
    return {
      status: 'warning',
      reason: 'No expected screenshot recorded for this action; verification skipped.',
      ...base,
      skipped: true,
    }
  }
  if (input.captureError != null) {
    return { status: 'fail', reason: `The current screen could not be captured: ${input.captureError}`, ...base }
  }
  const similarity = Number.isFinite(input.similarity) ? Math.min(1, Math.max(0, input.similarity as number)) : 0
  const sizeNote = input.sizeMismatch ? `${sizeMismatchReason(input.sizeMismatch)} ` : ''
  if (!input.sizeMismatch && similarity >= pass) {
    return { status: 'pass', reason: `Screenshots match: similarity ${pct(similarity)} ≥ ${pct(pass)}.`, ...base }
  }
  const vision = input.vision
  if (!vision) return { status: 'ask-vision', similarity }
  const below = `${sizeNote}Similarity ${pct(similarity)} < ${pct(pass)}`
  if (vision.status === 'match') {
    return {
      status: 'warning',
      reason: `${below}, but vision judged the screens equivalent: ${vision.reason}`,
      ...base,
      visionVerified: true,
      visionMatch: true,
    }
  }
  if (vision.status === 'mismatch') {
    return {
      status: 'fail',
      reason: `${below} and vision judged the screens different: ${vision.reason}`,
      ...base,
      visionVerified: true,
    }
  }
  const ok = similarity >= fallback
  return {
    status: ok ? 'warning' : 'fail',
    reason: `${below}; vision was unavailable (${vision.reason}), and the similarity is ${ok ? '≥' : '<'} the fallback threshold ${pct(fallback)}.`,
    ...base,
  }
}
