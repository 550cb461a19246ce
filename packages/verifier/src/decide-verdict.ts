import type { Verdict } from '@qa/model'
import type { Rect, SizeMismatch } from './compare-screenshots'
import { sizeMismatchReason } from './compare-screenshots'
import type { RelaidOutResult } from './window-layout'
import { TRANSITION_AGREEMENT } from './dealt-content'

/** Thresholds of the verdict flow. */
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
  /** Set when the screenshots could not be compared (unreadable, undecodable): the reason. */
  compareError?: string | null
  /** 0–1 similarity of the screenshots. */
  similarity?: number
  sizeMismatch?: SizeMismatch
  /** The re-verifier's answer, when it was asked. */
  vision?: VisionOutcome
  /**
   * What the step was meant to change: when given, the verdict is decided on this region, and the
   * whole-screen similarity is only reported.
   */
  region?: RegionEvidence
  /**
   * Why the step's target was not really located (a click at the recorded coordinates for want of a real target):
   * a step without an expected screenshot is then a `warning`, not a pass nobody checked.
   */
  coordinateWarning?: string | null
}

/** The expected-change check of a step (an ExpectedChangeResult fits). */
export interface RegionEvidence {
  /** 0–1: how well the expected region of the current screen agrees with the recorded after-frame. */
  regionSimilarity: number
  /** The recorded change did not happen: the region still looks as before the step. */
  expectedChangeMissing?: boolean
  /** The step changed the screen somewhere else, unlike the recording. */
  changedElsewhere?: boolean
  unexpectedPixels?: number
  unexpectedRegions?: readonly Rect[]
  /** false when the recorded step changed (almost) nothing: then only a change elsewhere can show a wrong click. */
  hadExpectedChange?: boolean
  /** Of the pixels the recorded step changed, the share that still look as before it (null: it changed none). */
  unchangedShare?: number | null
  /** The colour map the regions were compared through (a palette or theme change), when one was learned. */
  palette?: { applied: boolean; colours: number; explained: number } | null
  /**
   * The step's window was laid out again at another size: its change compared item by item inside the window (an
   * ExpectedChangeResult's `relaidOut` fits). Decides when the pixels of the regions do not pass cleanly.
   */
  relaidOut?: RelaidOutEvidence | null
  /**
   * The program showed other content before the step than when recorded (a new deal), and the step's change compared
   * as a change (an ExpectedChangeResult's `dealt` fits): when `alike`, a step whose pixels do not match is a warning.
   */
  dealt?: {
    alike: boolean
    otherContentShare: number
    changeRatio: number
    transitionAgreement: number
    /** Under another palette: the agreement of the colours' roles (see `DealtContentResult`). */
    paletteAgreement?: number | null
  } | null
}

/** The item-by-item comparison of a step in a window laid out again (see `compareRelaidOut`). */
export interface RelaidOutEvidence extends Omit<RelaidOutResult, 'recordedBox' | 'actualBox'> {
  /** Changed outside the current window, unlike the recording. */
  changedElsewhere: boolean
  unexpectedPixels: number
  unexpectedRegions?: readonly Rect[]
}

/** A step's verdict, decided. */
export interface VerdictOutcome {
  status: Verdict
  reason: string
  /** true when verification was skipped (no expected screenshot). */
  skipped: boolean
  visionVerified: boolean
  visionMatch: boolean
}

/** The pixels fall short and no vision answer was given yet: ask the re-verifier, then decide again with it. */
export interface AskVision {
  status: 'ask-vision'
  similarity: number
  /** What the second opinion should see: the step's changed items in the relaid-out window (default: the regions). */
  on?: 'relaid-out'
}

export type VerdictDecision = VerdictOutcome | AskVision

/**
 * Inputs that always decide (no `ask-vision`): no expected screenshot, a failed capture, or a vision answer given.
 */
export type DecidingVerdictInput = VerdictInput &
  ({ hasExpected: false } | { captureError: string } | { compareError: string } | { vision: VisionOutcome })

const pct = (x: number) => `${(x * 100).toFixed(2)}%`

/**
 * The screenshot verdict flow, as a pure function (`decideStepVerdict` is the whole step's): no expected screenshot
 * → pass, not compared (skipped; a warning when the step was clicked at the recorded coordinates); capture failed or
 * screenshots not comparable → fail; similarity ≥ passSimilarity → pass; otherwise `ask-vision` until a vision outcome is given; then match →
 * warning, mismatch → fail; vision unavailable → similarity ≥ fallbackSimilarity → warning, else fail.
 */
export function decideVerdict(input: DecidingVerdictInput, policy?: VerdictPolicy): VerdictOutcome
export function decideVerdict(input: VerdictInput, policy?: VerdictPolicy): VerdictDecision
export function decideVerdict(input: VerdictInput, policy: VerdictPolicy = {}): VerdictDecision {
  const pass = policy.passSimilarity ?? DEFAULT_PASS_SIMILARITY
  const fallback = policy.fallbackSimilarity ?? DEFAULT_FALLBACK_SIMILARITY
  const base = { skipped: false, visionVerified: false, visionMatch: false }
  if (input.hasExpected === false) {
    // a step replayed by coordinates for want of a real target is not called a pass without a screen check
    if (input.coordinateWarning) {
      return {
        status: 'warning',
        reason: `The step ran, but ${input.coordinateWarning}; the recording holds no screenshot of it to compare.`,
        ...base,
        skipped: true,
      }
    }
    // a step the recorder could not capture is said once in the report (`unverified_steps`), not a
    // warning per step
    return {
      status: 'pass',
      reason: 'The step ran; the recording holds no screenshot of it, so its screen was not compared.',
      ...base,
      skipped: true,
    }
  }
  if (input.captureError != null) {
    return { status: 'fail', reason: `The current screen could not be captured: ${input.captureError}`, ...base }
  }
  if (input.compareError != null) {
    return { status: 'fail', reason: `The screenshots could not be compared: ${input.compareError}`, ...base }
  }
  if (input.region) return withPaletteNote(decideOnRegion(input, input.region, pass, fallback, base), input.region)
  const similarity = Number.isFinite(input.similarity) ? Math.min(1, Math.max(0, input.similarity as number)) : 0
  const sizeNote = input.sizeMismatch ? `${sizeMismatchReason(input.sizeMismatch)} ` : ''
  if (!input.sizeMismatch && similarity >= pass) {
    return { status: 'pass', reason: `Screenshots match: similarity ${pct(similarity)} ≥ ${pct(pass)}.`, ...base }
  }
  const below = `${sizeNote}Similarity ${pct(similarity)} < ${pct(pass)}`
  return byVisionOrFallback(input, { similarity, below, fallback, base, compared: 'screens', measure: 'similarity' })
}

/**
 * Once the pixels fall short: vision's word (match → warning, mismatch → fail), else the fallback floor
 * (≥ → warning, else fail); without a vision answer yet, ask for one.
 */
function byVisionOrFallback(
  input: VerdictInput,
  o: {
    similarity: number
    below: string
    fallback: number
    base: { skipped: boolean; visionVerified: boolean; visionMatch: boolean }
    compared: 'screens' | 'regions'
    measure: 'similarity' | 'region similarity' | 'layout similarity'
  },
): VerdictDecision {
  const vision = input.vision
  if (!vision) return { status: 'ask-vision', similarity: o.similarity }
  if (vision.status === 'match') {
    return {
      status: 'warning',
      reason: `${o.below}, but vision judged the ${o.compared} equivalent: ${vision.reason}`,
      ...o.base,
      visionVerified: true,
      visionMatch: true,
    }
  }
  if (vision.status === 'mismatch') {
    return {
      status: 'fail',
      reason: `${o.below} and vision judged the ${o.compared} different: ${vision.reason}`,
      ...o.base,
      visionVerified: true,
    }
  }
  const ok = o.similarity >= o.fallback
  return {
    status: ok ? 'warning' : 'fail',
    reason: `${o.below}; vision was unavailable (${vision.reason}), and the ${o.measure} is ${ok ? '≥' : '<'} the fallback threshold ${pct(o.fallback)}.`,
    ...o.base,
  }
}

/** A verdict decided on regions compared through a learned colour map says so. */
function withPaletteNote(decision: VerdictDecision, region: RegionEvidence): VerdictDecision {
  const palette = region.palette
  if (decision.status === 'ask-vision' || !palette?.applied) return decision
  const stop = /[.!?]$/.test(decision.reason) ? '' : '.'
  return {
    ...decision,
    reason: `${decision.reason}${stop} Compared after the palette change (${palette.colours} colours mapped, the screen before explained at ${(palette.explained * 100).toFixed(0)} %).`,
  }
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0)
const box = (r: Rect) => `${r.width}×${r.height} at (${r.x}, ${r.y})`
const where = (region: RegionEvidence) =>
  region.unexpectedRegions?.length ? `: ${region.unexpectedRegions.slice(0, 3).map(box).join(', ')}` : ''

/** Below this share of the recorded change still looking as before, a region that matches nothing was restyled (0.2). */
const RESTYLED_SHARE = 0.2

const size = (r: Rect) => `${r.width}×${r.height}`

/**
 * The flow on a relaid-out window's items: the replayed step changed (almost) nothing in its window → fail; a change
 * outside the window unlike the recording, with the items not all paired → fail; layout similarity ≥ pass → pass (a
 * warning with a change outside the window); below fallback → fail (too few items paired: another screen);
 * in between, the second opinion on the changed items (match → warning, mismatch → fail), or without one a warning.
 */
function decideOnRelaidOut(
  input: VerdictInput,
  relaid: RelaidOutEvidence & { score: number },
  pass: number,
  fallback: number,
  base: { skipped: boolean; visionVerified: boolean; visionMatch: boolean },
  whole: string,
): VerdictDecision {
  const t = clamp01(relaid.score)
  const sameSize =
    Math.abs(relaid.recordedWindow.width - relaid.currentWindow.width) <= 2 &&
    Math.abs(relaid.recordedWindow.height - relaid.currentWindow.height) <= 2
  const win = sameSize
    ? `the window was laid out again at its size (${size(relaid.currentWindow)}: other labels, its items elsewhere than recorded)`
    : `the window was laid out again at another size (${size(relaid.recordedWindow)} recorded, ${size(relaid.currentWindow)} now)`
  const items = `${relaid.matchedItems} of the step's ${relaid.recordedItems} recorded items paired with the replay's ${relaid.actualItems}`
  const outside = `${relaid.unexpectedPixels} px${where({ unexpectedRegions: relaid.unexpectedRegions ?? [], regionSimilarity: t })}`
  if (relaid.changeMissing) {
    return {
      status: 'fail',
      reason: `The expected change did not happen: ${win}, and the step changed ${pct(relaid.actualChangeShare)} of it where the recording changed ${pct(relaid.recordedChangeShare)} of it${whole}.`,
      ...base,
    }
  }
  if (relaid.changedElsewhere && t < pass) {
    return {
      status: 'fail',
      reason: `The step changed the screen outside its window, unlike the recording (${outside}); ${win}, layout similarity ${pct(t)} (${items})${whole}.`,
      ...base,
    }
  }
  if (t >= pass) {
    return {
      status: relaid.changedElsewhere ? 'warning' : 'pass',
      reason: relaid.changedElsewhere
        ? `The step's change matches item by item (${win}; layout similarity ${pct(t)} ≥ ${pct(pass)}, ${items}${whole}), but the step also changed the screen outside its window, unlike the recording (${outside}).`
        : `The step's change matches item by item: ${win}; layout similarity ${pct(t)} ≥ ${pct(pass)} (${items})${whole}.`,
      ...base,
    }
  }
  // the items' comparison already allows for what a relayout does: too few paired is another screen, whatever a
  // second opinion reading the same words on it would say (a board of 30 × 16 for 16 × 16 under the same buttons)
  if (t < fallback) {
    return {
      status: 'fail',
      reason: `The step's change does not match item by item: ${win}, layout similarity ${pct(t)} < ${pct(fallback)} (${items})${whole}.`,
      ...base,
    }
  }
  const decision = byVisionOrFallback(input, {
    similarity: t,
    below: `${win[0]?.toUpperCase()}${win.slice(1)}: layout similarity ${pct(t)} < ${pct(pass)} (${items})${whole}`,
    fallback,
    base,
    compared: 'regions',
    measure: 'layout similarity',
  })
  return decision.status === 'ask-vision' ? { ...decision, on: 'relaid-out' } : decision
}

/**
 * The flow on the step's expected region: a change somewhere else (unlike the recording) or a change
 * that did not happen → fail; region similarity ≥ pass → pass; otherwise vision on the region (match → warning,
 * mismatch → fail), or without vision region similarity ≥ fallback → warning, else fail.
 */
function decideOnRegion(
  input: VerdictInput,
  region: RegionEvidence,
  pass: number,
  fallback: number,
  base: { skipped: boolean; visionVerified: boolean; visionMatch: boolean },
): VerdictDecision {
  const s = clamp01(region.regionSimilarity)
  const whole = Number.isFinite(input.similarity)
    ? input.sizeMismatch
      ? ` (whole screen not comparable: ${sizeMismatchReason(input.sizeMismatch)})`
      : ` (whole screen ${pct(clamp01(input.similarity as number))})`
    : ''
  // a window laid out again keeps its widgets' look, not their places: unless the pixels pass as they are, the
  // step's change is judged item by item inside the window
  const relaid = region.relaidOut
  const clean = s >= pass && !region.changedElsewhere && !region.expectedChangeMissing
  if (relaid && relaid.score !== null && !clean)
    return decideOnRelaidOut(input, { ...relaid, score: relaid.score }, pass, fallback, base, whole)
  // content the program dealt anew (a random puzzle): no pixel of it can be as recorded, so the step is judged by its
  // change (as much, from and to the same colours); at best a warning, as the places are not compared
  const dealt = region.dealt
  if (!clean && dealt?.alike) {
    return {
      status: 'warning',
      reason: `The program showed other content before the step than when recorded (${pct(dealt.otherContentShare)} of the step's area differed: dealt anew), so its pixels cannot match the recording (region similarity ${pct(s)}${whole}); the step changed it as the recorded step changed its own: ${dealt.changeRatio.toFixed(2)}× as many pixels, ${dealt.transitionAgreement >= TRANSITION_AGREEMENT || dealt.paletteAgreement == null ? `from and to the same colours (agreement ${pct(dealt.transitionAgreement)})` : `from and to the same colours of its window's palette, which is another now (agreement by the colours' roles ${pct(dealt.paletteAgreement)}; as they are ${pct(dealt.transitionAgreement)})`}.`,
      ...base,
    }
  }
  // a change elsewhere fails the step when it came instead of the expected one (the region does not match, or
  // the recorded step changed nothing to look for); alongside the expected change it is a warning
  const instead = region.changedElsewhere && (s < pass || region.hadExpectedChange === false)
  // a restyled or relaid-out program: the region looks neither as the recording left it nor as it was before the
  // step, so no pixel is "as recorded" anywhere and every change the step made reads as one elsewhere. The second
  // opinion decides on the region then; a region still showing the recorded before (a wrong click) fails at once.
  const restyled = s < fallback && region.hadExpectedChange === true && (region.unchangedShare ?? 1) < RESTYLED_SHARE
  if (instead && restyled) {
    return byVisionOrFallback(input, {
      similarity: s,
      below: `The step changed the screen outside its expected region (${region.unexpectedPixels ?? 0} px${where(region)}), but the region looks neither as recorded nor as before the step (similarity ${pct(s)}${whole}: restyled or relaid out)`,
      fallback,
      base,
      compared: 'regions',
      measure: 'region similarity',
    })
  }
  if (instead) {
    return {
      status: 'fail',
      reason: `The step changed the screen outside its expected region, unlike the recording (${region.unexpectedPixels ?? 0} px${where(region)}); expected region similarity ${pct(s)}${whole}.`,
      ...base,
    }
  }
  if (region.expectedChangeMissing) {
    return {
      status: 'fail',
      reason: `The expected change did not happen: the expected region still looks as before the step (region similarity ${pct(s)})${whole}.`,
      ...base,
    }
  }
  if (s >= pass && region.changedElsewhere) {
    return {
      status: 'warning',
      reason: `The expected region matches (similarity ${pct(s)} ≥ ${pct(pass)}${whole}), but the step also changed the screen elsewhere, unlike the recording (${region.unexpectedPixels ?? 0} px${where(region)}).`,
      ...base,
    }
  }
  if (s >= pass) {
    return {
      status: 'pass',
      reason: `The expected region matches: similarity ${pct(s)} ≥ ${pct(pass)}${whole}.`,
      ...base,
    }
  }
  const below = `Expected region similarity ${pct(s)} < ${pct(pass)}${whole}`
  return byVisionOrFallback(input, {
    similarity: s,
    below,
    fallback,
    base,
    compared: 'regions',
    measure: 'region similarity',
  })
}
