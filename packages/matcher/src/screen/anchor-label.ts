import type { BoundingBox } from '@qa/model'
import { centerOf, isBox, type XY } from '../image/geometry'
import type { OcrWord } from './locate-on-screen'
import { comparisonKey, textSimilarity } from '../text/text-similarity'

/**
 * The text a person names a text-less element by (an empty entry is "the Name field"): on the recorded screen,
 * the nearest trusted phrase left of the element on its row, else the nearest one above it, within a few of
 * the phrase's own heights. With it, the element's place is the anchor's place now plus the recorded offset,
 * scaled as the anchor's text was (a larger font moves and grows both together).
 */
export interface LabelAnchor {
  text: string
  /** The anchor's box on the recorded screen. */
  box: BoundingBox
  side: 'left' | 'above'
}

/** A phrase must be read at least this well (0.6, the trusted-label bar) to name an element. */
const ANCHOR_MIN_CONFIDENCE = 0.6
/** Letters and digits an anchor needs: one or two are a glyph, not a label (3). */
const ANCHOR_MIN_KEY = 3
/** Letters an anchor needs (2): a run of digits is content (a sudoku row "934"), not what names a field. */
const ANCHOR_MIN_LETTERS = 2

/**
 * The anchor of a text-less element clicked at `point` whose crop is `cropBox`, from the OCR of the recorded
 * screen; null when no phrase qualifies. Left: a phrase whose vertical centre lies within the crop's middle half
 * and which ends left of the point, within 20 of its heights; the one ending nearest wins. Above: a phrase
 * overlapping the crop's columns, ending above the crop, within 3 of its heights; the lowest wins. Phrases inside
 * the crop are the element's own text, not an anchor. Pure.
 */
export function labelAnchorOf(words: readonly OcrWord[], point: XY, cropBox: BoundingBox): LabelAnchor | null {
  const insideCrop = (b: BoundingBox) => {
    const c = centerOf(b)
    return c.x >= cropBox.x && c.x <= cropBox.x + cropBox.width && c.y >= cropBox.y && c.y <= cropBox.y + cropBox.height
  }
  const usable = words.filter(
    (w) =>
      isBox(w.boundingBox) &&
      !insideCrop(w.boundingBox) &&
      w.boundingBox.height > 0 &&
      (w.confidence ?? 1) >= ANCHOR_MIN_CONFIDENCE &&
      Array.from(comparisonKey(w.text)).length >= ANCHOR_MIN_KEY &&
      (w.text.match(/\p{L}/gu)?.length ?? 0) >= ANCHOR_MIN_LETTERS,
  )
  const rowTop = cropBox.y + cropBox.height / 4
  const rowBottom = cropBox.y + (cropBox.height * 3) / 4
  const left = usable
    .filter((w) => {
      const b = w.boundingBox
      const c = centerOf(b)
      const gap = point.x - (b.x + b.width)
      return c.y >= rowTop && c.y <= rowBottom && gap > 0 && gap <= 20 * b.height
    })
    .sort((a, b) => b.boundingBox.x + b.boundingBox.width - (a.boundingBox.x + a.boundingBox.width))[0]
  if (left) return { text: left.text, box: { ...left.boundingBox }, side: 'left' }
  const above = usable
    .filter((w) => {
      const b = w.boundingBox
      const gap = cropBox.y - (b.y + b.height)
      return b.x < cropBox.x + cropBox.width && b.x + b.width > cropBox.x && gap >= 0 && gap <= 3 * b.height
    })
    .sort((a, b) => b.boundingBox.y + b.boundingBox.height - (a.boundingBox.y + a.boundingBox.height))[0]
  return above ? { text: above.text, box: { ...above.boundingBox }, side: 'above' } : null
}

/**
 * Where the element is now, by its anchor: the phrase on the current screen that reads as the anchor (exactly,
 * letters and digits, when the anchor is short; else similarity ≥ `threshold`), read with trusted confidence,
 * and the only such phrase unless one is clearly nearer the anchor's recorded place (1.5×). The offset from the
 * anchor's near edge is scaled by the phrase's width ratio (the same text in a larger font is wider by the
 * font's ratio). Returns the point and the scale, or why not. Pure.
 */
export function placeByAnchor(
  anchor: LabelAnchor,
  recordedPoint: XY,
  wordsNow: readonly OcrWord[],
  threshold: number,
): { point: XY; scale: number; word: OcrWord } | { point: null; reason: string } {
  const short = Array.from(comparisonKey(anchor.text)).length < 8
  const bar = short ? 1 : threshold
  const hits = wordsNow
    .filter((w) => isBox(w.boundingBox) && w.boundingBox.width > 0 && (w.confidence ?? 1) >= ANCHOR_MIN_CONFIDENCE)
    .map((w) => ({ w, s: textSimilarity(anchor.text, w.text) }))
    .filter((r) => r.s >= bar)
    .sort((a, b) => b.s - a.s)
  if (hits.length === 0) return { point: null, reason: `its label "${anchor.text}" is not on the screen` }
  const d = (w: OcrWord) => {
    const a = centerOf(anchor.box)
    const b = centerOf(w.boundingBox)
    return Math.hypot(a.x - b.x, a.y - b.y)
  }
  const byDistance = [...hits].sort((a, b) => d(a.w) - d(b.w))
  const [nearest, next] = byDistance as [(typeof hits)[number], (typeof hits)[number] | undefined]
  if (next && d(next.w) < 1.5 * d(nearest.w) + 1)
    return { point: null, reason: `its label "${anchor.text}" appears more than once` }
  const now = nearest.w.boundingBox
  const scale = now.width / anchor.box.width
  if (!(scale >= 0.5 && scale <= 2))
    return { point: null, reason: `its label "${anchor.text}" is read at ${scale.toFixed(2)}× its recorded width` }
  const point =
    anchor.side === 'left'
      ? {
          x: now.x + now.width + (recordedPoint.x - (anchor.box.x + anchor.box.width)) * scale,
          y: now.y + now.height / 2 + (recordedPoint.y - (anchor.box.y + anchor.box.height / 2)) * scale,
        }
      : {
          x: now.x + (recordedPoint.x - anchor.box.x) * scale,
          y: now.y + now.height + (recordedPoint.y - (anchor.box.y + anchor.box.height)) * scale,
        }
  return { point, scale, word: nearest.w }
}
