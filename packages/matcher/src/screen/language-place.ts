import type { BoundingBox } from '@qa/model'
import { centerOf, clipToFrame, isBox } from '../image/geometry'
import { lumaAt } from '../image/grey'
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

/**
 * Whether the program's text changed as a whole around an item found at `at` (its crop's top-left now, the crop
 * recorded at `cropBox`): the words of its window on the recorded and the current screen, read by OCR, the item's
 * own text (its recorded label's box, else the crop) left out (`textChangedAsAWhole`).
 */
export async function windowTextChanged(
  ocr: NonNullable<ScreenSource['ocr']>,
  recordedFrame: Frame,
  now: Frame,
  window: { recorded: BoundingBox; now: BoundingBox },
  cropBox: BoundingBox,
  label: BoundingBox | null | undefined,
  at: { x: number; y: number },
): Promise<{ changed: boolean; detail: string }> {
  const wasBox = clipToFrame(window.recorded, recordedFrame)
  const isBox_ = clipToFrame(window.now, now)
  if (!wasBox || !isBox_) return { changed: false, detail: 'the window lies off the screen' }
  const [recordedWords, nowWords] = [await ocr(regionOf(recordedFrame, wasBox)), await ocr(regionOf(now, isBox_))]
  const own = isBox(label) ? label : cropBox
  const ownIn = (origin: BoundingBox, shift: { x: number; y: number }) => ({
    x: own.x + shift.x - origin.x,
    y: own.y + shift.y - origin.y,
    width: own.width,
    height: own.height,
  })
  return textChangedAsAWhole(
    wordsOf(recordedWords, ownIn(wasBox, { x: 0, y: 0 })),
    wordsOf(nowWords, ownIn(isBox_, { x: at.x - cropBox.x, y: at.y - cropBox.y })),
  )
}

type Placed = { at: { x: number; y: number }; score: number; bar: number; what: string } | { refused: string }

/** The crop's shape outside its label's rows, searched `SHAPE_RADIUS` around `mapped` (a window of the same size). */
function placeByShape(
  cropEdges: Frame,
  nowEdges: Frame,
  mapped: { x: number; y: number },
  rows: { top: number; bottom: number },
): Placed {
  let best = { score: -2, at: mapped }
  for (let dy = -SHAPE_RADIUS; dy <= SHAPE_RADIUS; dy++) {
    for (let dx = -SHAPE_RADIUS; dx <= SHAPE_RADIUS; dx++) {
      const at = { x: mapped.x + dx, y: mapped.y + dy }
      const s = shapeAgreement(cropEdges, nowEdges, at, rows)
      if (s.flat) return { refused: 'the crop has no edges outside its label: no shape to go by' }
      if (s.score > best.score) best = { score: s.score, at }
    }
  }
  return { ...best, bar: SHAPE_BAR, what: 'shape outside its label' }
}

/**
 * A row profile (each row's strongest vertical stroke) must agree this well: the rows of a menu or list, not their
 * words.
 */
const ROWS_BAR = 0.9
/** Below this standard deviation a row profile is flat: no rows to go by. */
const FLAT_ROWS = 2

/** Rows each side a row profile is averaged over (3): where a line of text lies, not its ascenders and descenders. */
const PROFILE_SMOOTHING = 3
/**
 * A stroke this strong (a luma step of 48) counts as text, however much stronger: white on a lit row's blue steps
 * about 140, black on the list's grey about 220, and the rows must agree by where text lies, not how dark it is.
 */
const STROKE_SATURATION = 48

/**
 * Each row's strongest vertical stroke over `box` (the largest luma step between a pixel's left and right
 * neighbours, counted up to `STROKE_SATURATION`), averaged over `PROFILE_SMOOTHING` rows each side: the bands of a
 * list's rows of text, whatever the words and however long (a "g" reaches lower than an "H", "Schwierig" is wider
 * than "Hard"), dark on light or light on dark. Horizontal lines add nothing: the bar that lights the row under the
 * pointer (or the current entry) is drawn with them, and it lights one row at recording and another at replay
 * (KMines' difficulty list). Pure.
 */
export function rowProfile(f: Frame, box: BoundingBox): number[] {
  const raw: number[] = []
  const x0 = Math.max(1, box.x)
  const x1 = Math.min(f.width - 1, box.x + box.width)
  for (let j = 0; j < box.height; j++) {
    const row = (box.y + j) * f.width
    let most = 0
    for (let x = x0; x < x1; x++)
      most = Math.max(most, Math.abs(lumaAt(f.data, f.channels, row + x + 1) - lumaAt(f.data, f.channels, row + x - 1)))
    raw.push(Math.min(most, STROKE_SATURATION))
  }
  return raw.map((_, j) => {
    const from = Math.max(0, j - PROFILE_SMOOTHING)
    const to = Math.min(raw.length, j + PROFILE_SMOOTHING + 1)
    let sum = 0
    for (let k = from; k < to; k++) sum += raw[k] as number
    return sum / (to - from)
  })
}

/** NCC of two equal-length profiles, and the first one's standard deviation. Pure. */
export function profileAgreement(a: readonly number[], b: readonly number[]): { score: number; spread: number } {
  const n = a.length
  if (n === 0 || b.length !== n) return { score: 0, spread: 0 }
  const ma = a.reduce((s, v) => s + v, 0) / n
  const mb = b.reduce((s, v) => s + v, 0) / n
  let sab = 0
  let saa = 0
  let sbb = 0
  for (let i = 0; i < n; i++) {
    const p = (a[i] as number) - ma
    const q = (b[i] as number) - mb
    sab += p * q
    saa += p * p
    sbb += q * q
  }
  const spread = Math.sqrt(saa / n)
  return { score: saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0, spread }
}

/**
 * A menu or drop-down list whose window kept its height (its rows) and changed its width with its longest label:
 * the crop's part inside the recorded window, placed by the window's left edge, compared by its row profile
 * (where its rows of text and its separators lie, not what they say), searched `SHAPE_RADIUS` rows up and down.
 */
function placeByRows(
  recordedFrame: Frame,
  nowFrame: Frame,
  cropBox: BoundingBox,
  was: BoundingBox,
  is: BoundingBox,
): Placed {
  const x0 = Math.max(cropBox.x, was.x + WINDOW_EDGE)
  const x1 = Math.min(cropBox.x + cropBox.width, was.x + was.width - WINDOW_EDGE)
  const y0 = Math.max(cropBox.y, was.y + WINDOW_EDGE)
  const y1 = Math.min(cropBox.y + cropBox.height, was.y + was.height - WINDOW_EDGE)
  const nowX0 = is.x + (x0 - was.x)
  const width = Math.min(x1 - x0, is.x + is.width - WINDOW_EDGE - nowX0)
  if (width < 8 || y1 - y0 < 8) return { refused: 'too little of the crop lies inside the window' }
  const part = { x: x0, y: y0, width, height: y1 - y0 }
  if (part.x + part.width > recordedFrame.width || part.y + part.height > recordedFrame.height)
    return { refused: 'the window lies off the recorded screen' }
  const recordedRows = rowProfile(recordedFrame, part)
  let best = { score: -2, at: { x: 0, y: 0 } }
  for (let dy = -SHAPE_RADIUS; dy <= SHAPE_RADIUS; dy++) {
    const box = { x: nowX0, y: is.y + (y0 - was.y) + dy, width, height: part.height }
    if (box.x < 0 || box.y < 0 || box.x + box.width > nowFrame.width || box.y + box.height > nowFrame.height) continue
    const s = profileAgreement(recordedRows, rowProfile(nowFrame, box))
    if (s.spread < FLAT_ROWS) return { refused: 'the crop has no rows to go by (its row profile is flat)' }
    if (s.score > best.score)
      best = { score: s.score, at: { x: is.x + (cropBox.x - was.x), y: is.y + (cropBox.y - was.y) + dy } }
  }
  if (best.score === -2) return { refused: 'the window lies off the screen' }
  return { ...best, bar: ROWS_BAR, what: 'rows (its row profile inside the window, placed by its left edge)' }
}

/** Pixels of a window's edge left out: its border is drawn by the theme, and a wider list moves its right one. */
const WINDOW_EDGE = 4

/**
 * The item in another language, last of all: a label that reads otherwise now ("Game" → "Spiel") is still the
 * item where its window puts it when (1) the window kept its height (a relaid-out window moves its items: no place
 * to go by), (2) the item's shape agrees there: in a window of the same size, the edges of the crop outside its
 * label's rows — a button's outline, a drop-down's frame, a menu bar's band — (≥ `SHAPE_BAR`, not flat); in a
 * menu or list that grew or shrank sideways with its longest label, the rows of the crop's part inside the window
 * placed by its left edge (their row profile ≥ `ROWS_BAR`), (3) its label's rows show something there now, and
 * (4) the program's text changed as a whole: the window's other words, read on the recorded and the current
 * screen, are mostly gone (`textChangedAsAWhole`). A window whose one item was relabelled keeps its other words
 * and is refused; a program of another class is no window of the step's. Needs the recorded screen, the window
 * and OCR.
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
      if (!(was.width > 0 && was.height > 0)) return none('the window has no size')
      const sameWidth = Math.abs(is.width / was.width - 1) <= SAME_SIZE
      const sameHeight = Math.abs(is.height / was.height - 1) <= SAME_SIZE
      if (!sameHeight) return none(`the window's height changed (${sizes}): its items moved, no place to go by`)
      const rows = labelRows(cropBox, step.target?.boundingBox)
      // the recorded screen's edges where the crop was cut (the crop's own would invent edges at its border)
      const recordedEdges = structureOf(anchorFrame)
      const nowEdges = structureOf(now)
      // the place by the window's left edge (a menu or list grows sideways from it, rows and padding kept)
      const mapped = { x: Math.round(is.x + cropBox.x - was.x), y: Math.round(is.y + cropBox.y - was.y) }
      const found = sameWidth
        ? placeByShape(regionOf(recordedEdges, cropBox), nowEdges, mapped, rows)
        : placeByRows(anchorFrame, now, cropBox, was, is)
      if ('refused' in found) return none(found.refused)
      const best = found
      const where = `at (${best.at.x}, ${best.at.y})`
      if (best.score < found.bar)
        return none(`${where} the item's ${found.what} agrees ${fmt(best.score)} < ${fmt(found.bar)}`)
      const bandX = Math.max(best.at.x, is.x)
      const bandRight = Math.min(best.at.x + crop.width, is.x + is.width, now.width)
      const band =
        bandRight - bandX >= 4 && best.at.y + rows.top >= 0 && best.at.y + rows.bottom <= now.height
          ? regionOf(now, {
              x: bandX,
              y: best.at.y + rows.top,
              width: bandRight - bandX,
              height: Math.max(1, rows.bottom - rows.top),
            })
          : null
      const spread = band ? lumaSpread(band) : 0
      if (spread < 2 * FLAT_SPREAD)
        return none(`${where} its label's rows are empty now (luma spread ${spread.toFixed(1)}): nothing like the item`)
      const point = { x: best.at.x + step.original.x - cropBox.x, y: best.at.y + step.original.y - cropBox.y }
      if (point.x < is.x || point.x >= is.x + is.width || point.y < is.y || point.y >= is.y + is.height)
        return none(`${where} the click point (${Math.round(point.x)}, ${Math.round(point.y)}) leaves the window`)
      const text = await windowTextChanged(ocr, anchorFrame, now, window, cropBox, step.target?.boundingBox, best.at)
      if (!text.changed) return none(text.detail)
      return cropFoundAt(
        { box: { x: best.at.x, y: best.at.y, width: crop.width, height: crop.height }, scale: 1, score: best.score },
        `in another language, at the window's place (${sizes}) ${where}: its ${found.what} agrees ${fmt(best.score)}; ${text.detail}`,
      )
    },
  }
}
