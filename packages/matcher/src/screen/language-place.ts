import type { BoundingBox } from '@qa/model'
import { centerOf, isBox } from '../image/geometry'
import type { Frame } from '../image/match-template'
import { FLAT_SPREAD, lumaSpread, regionOf } from '../image/resample'
import type { CascadeStep } from '../internal/cascade'
import { comparisonKey } from '../text/text-similarity'
import { fmt, type ScreenContext } from './context'
import type { UiElement } from './find-matching-element'
import type { OcrWord, ScreenSource } from './types'

/** The window must keep its width and height within this (2 %): a relaid-out window moves its items. */
const SAME_SIZE = 0.02
/** The item's shape (edges of the crop outside its label's rows) must agree this well at the window's place. */
const SHAPE_BAR = 0.85
/** Below this standard deviation the shape rows' edges are flat: nothing there to call a shape. */
const FLAT_EDGES = 4
/** Pixels around the window's place searched (a theme's anti-aliasing, a 1–2 px shift of a longer label). */
const SHAPE_RADIUS = 2
/** Pixels above and below the recorded label's box that belong to its rows (the glyphs' ascenders, descenders). */
const LABEL_PAD = 3
/** Words of the window (outside the item) the recorded screen must show to tell a language from a relabel. */
const MIN_WORDS = 3
/** At most this share (1/3) of the window's recorded words may still be on it: the program's text changed as a whole. */
const KEPT_AT_MOST = 1 / 3
/** A word read below this confidence (0.6, the trusted-label bar) is not counted. */
const WORD_CONFIDENCE = 0.6

/**
 * The rows of a crop that hold its label (crop coordinates, `bottom` exclusive): the recorded label's box
 * (`textBox`, screen coordinates) widened by `LABEL_PAD`, when it lies in the crop; else the middle half, where
 * the click and so the label is. Pure.
 */
export function labelRows(
  cropBox: BoundingBox,
  textBox: BoundingBox | null | undefined,
): { top: number; bottom: number } {
  const h = cropBox.height
  if (isBox(textBox) && textBox.height > 0) {
    const top = Math.max(0, Math.floor(textBox.y - cropBox.y - LABEL_PAD))
    const bottom = Math.min(h, Math.ceil(textBox.y + textBox.height - cropBox.y + LABEL_PAD))
    if (bottom - top >= 2 && top < h && bottom > 0 && bottom - top <= (3 * h) / 4) return { top, bottom }
  }
  return { top: Math.round(h / 4), bottom: Math.round((3 * h) / 4) }
}

/**
 * NCC of two grey frames (`a` whole, `b` at `at`, `a`'s size) over every row but `skip`'s: the item's shape
 * without its label. `flat` when `a`'s rows there have no edges to compare (standard deviation < `FLAT_EDGES`).
 * 0 when the box leaves `b`. Pure.
 */
export function shapeAgreement(
  a: Frame,
  b: Frame,
  at: { x: number; y: number },
  skip: { top: number; bottom: number },
): { score: number; flat: boolean } {
  if (a.channels !== 1 || b.channels !== 1) throw new Error('shapeAgreement takes grey (structure) frames')
  if (at.x < 0 || at.y < 0 || at.x + a.width > b.width || at.y + a.height > b.height) return { score: 0, flat: false }
  let n = 0
  let sa = 0
  let sb = 0
  let saa = 0
  let sbb = 0
  let sab = 0
  for (let j = 0; j < a.height; j++) {
    if (j >= skip.top && j < skip.bottom) continue
    for (let i = 0; i < a.width; i++) {
      const p = a.data[j * a.width + i] as number
      const q = b.data[(at.y + j) * b.width + at.x + i] as number
      n++
      sa += p
      sb += q
      saa += p * p
      sbb += q * q
      sab += p * q
    }
  }
  if (n === 0) return { score: 0, flat: true }
  const va = saa / n - (sa / n) ** 2
  const vb = sbb / n - (sb / n) ** 2
  if (Math.sqrt(Math.max(0, va)) < FLAT_EDGES) return { score: 0, flat: true }
  if (vb <= 1e-9) return { score: 0, flat: false }
  return { score: (sab / n - (sa / n) * (sb / n)) / Math.sqrt(va * vb), flat: false }
}

/**
 * The words (comparison keys of at least 3 letters) of OCR phrases read with trusted confidence, leaving out those
 * whose centre lies in `exclude` (the item's own text). Pure.
 */
export function wordsOf(words: readonly OcrWord[], exclude: BoundingBox | null): Set<string> {
  const out = new Set<string>()
  for (const w of words) {
    if ((w.confidence ?? 1) < WORD_CONFIDENCE || !isBox(w.boundingBox)) continue
    if (exclude) {
      const c = centerOf(w.boundingBox)
      if (c.x >= exclude.x && c.x <= exclude.x + exclude.width && c.y >= exclude.y && c.y <= exclude.y + exclude.height)
        continue
    }
    for (const part of w.text.split(/\s+/)) {
      const key = comparisonKey(part)
      if ((key.match(/\p{L}/gu)?.length ?? 0) >= 3) out.add(key)
    }
  }
  return out
}

/**
 * Whether the program's text changed as a whole (another language), from the words its window showed when
 * recorded (outside the item) and shows now: at least `MIN_WORDS` recorded, at most `KEPT_AT_MOST` of them still
 * there, and the window still shows text (half as many words). A single relabelled button (a dialog whose
 * "Archive" became "Open") keeps its neighbours' words: not a language. Pure.
 */
export function textChangedAsAWhole(recorded: Set<string>, now: Set<string>): { changed: boolean; detail: string } {
  let kept = 0
  for (const w of recorded) if (now.has(w)) kept++
  const counts = `${kept} of the window's ${recorded.size} recorded words still on it, ${now.size} words now`
  if (recorded.size < MIN_WORDS)
    return { changed: false, detail: `too few words on the recorded window to tell (${recorded.size} < ${MIN_WORDS})` }
  if (now.size < recorded.size / 2) return { changed: false, detail: `${counts}: the window shows too little text` }
  if (kept > KEPT_AT_MOST * recorded.size)
    return { changed: false, detail: `${counts}: the program's text is the same, the item itself changed` }
  return { changed: true, detail: `${counts}: the program's text changed as a whole (another language)` }
}

const clipTo = (b: BoundingBox, f: Frame): BoundingBox | null => {
  const x = Math.max(0, Math.round(b.x))
  const y = Math.max(0, Math.round(b.y))
  const width = Math.min(f.width, Math.round(b.x + b.width)) - x
  const height = Math.min(f.height, Math.round(b.y + b.height)) - y
  return width > 0 && height > 0 ? { x, y, width, height } : null
}

/**
 * The item in another language, last of all: a label that reads otherwise now ("Game" → "Spiel") is still the
 * item where its window puts it when (1) the window kept its size (a relaid-out window moves its items: no place
 * to go by), (2) the item's shape — the edges of the crop outside its label's rows: a button's outline, a row's
 * height, a drop-down's frame — agrees there (≥ `SHAPE_BAR`) and is not flat, (3) its label's rows show text
 * there now, and (4) the program's text changed as a whole: the window's other words, read on the recorded and
 * the current screen, are mostly gone (`textChangedAsAWhole`). A dialog whose one button was relabelled keeps
 * its other words and is refused; a program of another class is no window of the step's. Needs the recorded
 * screen, the window and OCR.
 */
export function languagePlaceStrategy(ctx: ScreenContext): CascadeStep<UiElement> | null {
  const { crop, cropBox, step, source, screen, structureOf, cropFoundAt, anchorFrame } = ctx
  if (!crop || !cropBox || !step.window || !anchorFrame || !source.ocr) return null
  const ocr = source.ocr as NonNullable<ScreenSource['ocr']>
  const window = step.window
  return {
    method: 'template',
    run: async () => {
      const now = await screen()
      const { recorded: was, now: is } = window
      const sizes = `${was.width}×${was.height} → ${is.width}×${is.height}`
      const none = (detail: string) => ({
        outcome: 'none' as const,
        candidates: 0,
        detail: `in another language, at the window's place: ${detail}`,
      })
      if (
        !(was.width > 0 && was.height > 0) ||
        Math.abs(is.width / was.width - 1) > SAME_SIZE ||
        Math.abs(is.height / was.height - 1) > SAME_SIZE
      )
        return none(`the window's size changed (${sizes}): its items moved, no place to go by`)
      const rows = labelRows(cropBox, step.target?.boundingBox)
      // the recorded screen's edges where the crop was cut (the crop's own would invent edges at its border)
      const cropEdges = regionOf(structureOf(anchorFrame), cropBox)
      const nowEdges = structureOf(now)
      const mapped = { x: Math.round(is.x + cropBox.x - was.x), y: Math.round(is.y + cropBox.y - was.y) }
      let best = { score: -2, at: mapped, flat: false }
      for (let dy = -SHAPE_RADIUS; dy <= SHAPE_RADIUS; dy++) {
        for (let dx = -SHAPE_RADIUS; dx <= SHAPE_RADIUS; dx++) {
          const at = { x: mapped.x + dx, y: mapped.y + dy }
          const s = shapeAgreement(cropEdges, nowEdges, at, rows)
          if (s.flat) return none('the crop has no edges outside its label: no shape to go by')
          if (s.score > best.score) best = { score: s.score, at, flat: false }
        }
      }
      const where = `at (${best.at.x}, ${best.at.y})`
      if (best.score < SHAPE_BAR)
        return none(`${where} the item's shape (outside its label) agrees ${fmt(best.score)} < ${fmt(SHAPE_BAR)}`)
      const band = regionOf(now, {
        x: best.at.x,
        y: best.at.y + rows.top,
        width: crop.width,
        height: Math.max(1, rows.bottom - rows.top),
      })
      const spread = lumaSpread(band)
      if (spread < 2 * FLAT_SPREAD)
        return none(`${where} its label's rows are empty now (luma spread ${spread.toFixed(1)}): nothing like the item`)
      const wasBox = clipTo(was, anchorFrame)
      const isBox_ = clipTo(is, now)
      if (!wasBox || !isBox_) return none('the window lies off the screen')
      const [recordedWords, nowWords] = [await ocr(regionOf(anchorFrame, wasBox)), await ocr(regionOf(now, isBox_))]
      const own = (origin: BoundingBox, box: { x: number; y: number }) => ({
        x: box.x - origin.x,
        y: box.y - origin.y,
        width: crop.width,
        height: crop.height,
      })
      const text = textChangedAsAWhole(
        wordsOf(recordedWords, own(wasBox, cropBox)),
        wordsOf(nowWords, own(isBox_, best.at)),
      )
      if (!text.changed) return none(text.detail)
      return cropFoundAt(
        { box: { x: best.at.x, y: best.at.y, width: crop.width, height: crop.height }, scale: 1, score: best.score },
        `in another language, at the window's place (${sizes}) ${where}: its shape outside the label agrees ${fmt(best.score)}; ${text.detail}`,
      )
    },
  }
}
