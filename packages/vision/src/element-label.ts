import type { UiElement } from './types'

/** A label below this score is stored as low-confidence and never used alone to click. */
export const TRUSTED_LABEL_SCORE = 0.6

/** What a lone letter's plausibility is (0.7): read at confidence 0.86 or more it reaches the trusted score. */
const LONE_LETTER = 0.7

/** Characters OCR makes of bitmap-font edges and borders, rare in real UI labels. */
const JUNK = /[|[\]{}\\~^`_<>"]/u
const LETTER = /[\p{L}\p{N}]/u
const UI_PUNCT = /[\s.,:;!?'&%+\-*/=#@()$€£¥₩·…]/u

/** A token mixing lower and upper case inside it ("LoLo", "JeFe"), which real labels rarely do. */
function mixedCase(token: string): boolean {
  const letters = token.replace(/[^\p{L}]/gu, '')
  if (letters.length < 3) return false
  const inner = letters.slice(1)
  return (
    /\p{Lu}/u.test(inner) &&
    /\p{Ll}/u.test(inner) &&
    !/^\p{Lu}+\p{Ll}+$/u.test(inner) &&
    !/^\p{Ll}+\p{Lu}+$/u.test(inner)
  )
}

/** A token gluing letters and digits the way misread glyphs do ("l0l", "S3t"); "F10", "v2", "3D" are kept. */
function glued(token: string): boolean {
  const t = token.replace(/[^\p{L}\p{N}]/gu, '')
  return t.length >= 3 && /\p{L}\p{N}+\p{L}/u.test(t)
}

/**
 * How much a piece of OCR text looks like a real label, 0–1, by character classes: the share of letters,
 * digits and common UI punctuation, with penalties for the characters OCR makes of borders (`|`, `[`, `]`, …),
 * for case changing inside a word and for letters and digits glued together. "OK", "7", "설정 열기" → 1;
 * "Lolo Jefe]" → low. Pure.
 */
export function labelPlausibility(text: string | null | undefined): number {
  const s = (text ?? '').trim()
  if (!s) return 0
  const chars = Array.from(s)
  let ok = 0
  let junk = 0
  let letters = 0
  for (const c of chars) {
    if (LETTER.test(c)) {
      ok++
      letters++
    } else if (JUNK.test(c)) junk++
    else if (UI_PUNCT.test(c)) ok++
  }
  // "*", "=", "+/-" are real keypad labels; a longer run of symbols is not
  if (letters === 0) return ok === chars.length ? (chars.length <= 3 ? 1 : 0.3) : 0
  let score = ok / chars.length
  score *= 0.5 ** junk
  // a lone letter is as often a border or a grid line read as "l", "I" or "이" as a real key ("C", "예"): it needs
  // a confident read to be trusted (a digit, "7" on a keypad, stays as it is)
  if (chars.length === 1 && !/\p{N}/u.test(s)) score *= LONE_LETTER
  const tokens = s.split(/\s+/)
  const odd = tokens.filter((t) => mixedCase(t) || glued(t)).length
  score *= 1 - 0.6 * (odd / tokens.length)
  return Math.max(0, Math.min(1, score))
}

export interface LabelCandidate {
  element: UiElement
  /** OCR confidence × plausibility × how much of the word lies in the element's box × its nearness to the point. */
  score: number
  plausibility: number
  overlap: number
  /** 1 for a word on the click's own line, less the farther its line is above or below the point. */
  nearness: number
}

export interface PickLabelOptions {
  /** The element's box (else a 96×40 box around the point, the recorder's element crop). */
  box?: { x: number; y: number; width: number; height: number } | null
}

function overlapShare(w: UiElement['boundingBox'], b: NonNullable<PickLabelOptions['box']>): number {
  const x0 = Math.max(w.x, b.x)
  const y0 = Math.max(w.y, b.y)
  const x1 = Math.min(w.x + w.width, b.x + b.width)
  const y1 = Math.min(w.y + w.height, b.y + b.height)
  const area = Math.max(1, w.width * w.height)
  return x1 <= x0 || y1 <= y0 ? 0 : ((x1 - x0) * (y1 - y0)) / area
}

/**
 * How near a word's line is to the point, 0–1: 1 when the point is within the word's height (a 2 px
 * margin, the gap between lines of a tight menu), falling to 0 at one of the word's heights above or below. Menu
 * items stacked 17 px apart all overlap a 40 px element box; the one under the pointer, drawn highlighted and read
 * less surely, must still win over its neighbour. Only the vertical distance counts: a click lands anywhere along
 * a label's line, often between its words. Pure.
 */
export function lineNearness(w: UiElement['boundingBox'], y: number): number {
  const gap = Math.max(0, w.y - y, y - (w.y + w.height)) - 2
  if (gap <= 0) return 1
  return Math.max(0, 1 - gap / Math.max(8, w.height))
}

/**
 * The label of the element at (x, y) from OCR words: only words inside or overlapping the
 * element's box count (never the nearest word of another element), each scored OCR confidence × plausibility ×
 * the share of the word inside the box × the nearness of its line to the point (a neighbouring menu item's label
 * loses to the one under the point); the best is returned with its score (null when no word overlaps).
 * Callers store a label under TRUSTED_LABEL_SCORE as low-confidence. Pure.
 */
export function pickElementLabel(
  words: readonly UiElement[],
  x: number,
  y: number,
  opts: PickLabelOptions = {},
): LabelCandidate | null {
  const box = opts.box ?? { x: x - 48, y: y - 20, width: 96, height: 40 }
  let best: LabelCandidate | null = null
  for (const element of words) {
    if (!element?.boundingBox || !element.text?.trim()) continue
    const overlap = overlapShare(element.boundingBox, box)
    if (overlap <= 0) continue
    const plausibility = labelPlausibility(element.text)
    const confidence = typeof element.confidence === 'number' ? element.confidence : 0.5
    const nearness = lineNearness(element.boundingBox, y)
    if (nearness <= 0) continue
    const score = confidence * plausibility * overlap * nearness
    if (!best || score > best.score) best = { element, score, plausibility, overlap, nearness }
  }
  return best
}
