import type { BoundingBox } from '@qa/model'
import { centerOf, isBox, type XY } from '../image/geometry'
import type { Frame } from '../image/match-template'
import { scoreResampled } from '../image/resample'
import type { StepOutcome } from '../internal/cascade'
import { comparisonKey, textSimilarity } from '../text/text-similarity'
import { fmt, type ScreenContext } from './context'
import type { UiElement } from './find-matching-element'
import type { OcrWord, ScreenSource } from './types'

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

const contains = (b: BoundingBox, p: XY, margin: number): boolean =>
  p.x >= b.x - margin && p.x <= b.x + b.width + margin && p.y >= b.y - margin && p.y <= b.y + b.height + margin

/**
 * How well the structure (edges) of the recorded crop must agree with the place its label points at (0.5): an
 * empty entry restyled or in a larger font keeps its outline; a label left beside nothing, or beside another kind
 * of widget, does not.
 */
const ANCHORED_STRUCTURE_AGREEMENT = 0.5

/**
 * A text-less element (an empty entry, an icon) by the label beside or above it on the recorded screen (see
 * `labelAnchorOf`): found again by OCR now, the element is at the recorded offset from it, scaled as the
 * label's text was. The element itself must still be there: its structure (edges, whatever the colours) at that
 * place agrees with the crop's (`ANCHORED_STRUCTURE_AGREEMENT`).
 */
export async function locateByAnchor(ctx: ScreenContext): Promise<StepOutcome<UiElement>> {
  const { step, source, crop, cropBox, anchorFrame, screen, structureOf } = ctx
  const ocr = source.ocr as NonNullable<ScreenSource['ocr']>
  const recordedWords = await ocr(anchorFrame as Frame)
  // an element with text of its own, read too poorly to trust, is not named by its neighbour: in its place
  // another button beside the same neighbour would pass for it
  const own = recordedWords.find((w) => isBox(w.boundingBox) && contains(w.boundingBox, step.original, 2))
  if (own)
    return {
      outcome: 'none',
      candidates: 0,
      detail: `its own text on the recorded screen ("${own.text.slice(0, 40)}") is not a label to click on alone`,
    }
  const anchor = labelAnchorOf(recordedWords, step.original, cropBox as BoundingBox)
  if (!anchor)
    return { outcome: 'none', candidates: 0, detail: 'no target text recorded, and no label beside or above it' }
  const wordsNow = await ocr(await screen())
  const placed = placeByAnchor(anchor, step.original, wordsNow, ctx.ocrThreshold)
  if (placed.point === null)
    return { outcome: 'none', candidates: 0, detail: `no target text recorded; ${placed.reason}` }
  const { point, scale } = placed
  // the same text in another font is not wider by the font's ratio alone: the crop is compared at the width
  // ratio, the height ratio and 1, a few pixels up or down (the label and the element share a row, not a baseline)
  const heightRatio = placed.word.boundingBox.height / anchor.box.height
  const nowStructure = structureOf(await screen())
  const cropStructure = structureOf(crop as Frame)
  let best = { agreement: -1, box: { x: 0, y: 0, width: 0, height: 0 }, dy: 0 }
  for (const s of new Set([scale, heightRatio, 1].map((v) => Math.round(v * 100) / 100))) {
    for (let dy = -4; dy <= 4; dy++) {
      const box = {
        x: Math.round(point.x - (step.original.x - (cropBox as BoundingBox).x) * s),
        y: Math.round(point.y + dy - (step.original.y - (cropBox as BoundingBox).y) * s),
        width: Math.round((crop as Frame).width * s),
        height: Math.round((crop as Frame).height * s),
      }
      const agreement = scoreResampled(nowStructure, cropStructure, box)
      if (agreement > best.agreement) best = { agreement, box, dy }
    }
  }
  const { agreement, box } = best
  // the element had no text of its own; one that shows text now is not it (an empty cell filled in)
  const shown = wordsNow.find(
    (w) => isBox(w.boundingBox) && contains(w.boundingBox, { x: point.x, y: point.y + best.dy }, 2),
  )
  if (shown)
    return {
      outcome: 'none',
      candidates: 1,
      detail: `beside its label "${anchor.text}", the place now shows text ("${shown.text.slice(0, 40)}"), which the recorded element had none of`,
    }
  const where = `beside its label "${anchor.text}" (${anchor.side}, scale ${scale.toFixed(2)})`
  if (agreement < ANCHORED_STRUCTURE_AGREEMENT)
    return {
      outcome: 'below_threshold',
      candidates: 1,
      confidence: Math.max(0, agreement),
      detail: `${where}: the element's structure there agrees only ${fmt(agreement)} < ${fmt(ANCHORED_STRUCTURE_AGREEMENT)}`,
    }
  return {
    outcome: 'matched',
    element: { type: step.target?.type ?? 'unknown', text: null, boundingBox: box, confidence: agreement },
    point: { x: point.x, y: point.y + best.dy },
    scale,
    confidence: agreement,
    candidates: 1,
    detail: `${where}; its structure there ${fmt(agreement)}`,
  }
}
