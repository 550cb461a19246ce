/**
 * One label read again on its own: the box of its glyphs on the screen (`labelInkBox`), that box alone enlarged with
 * its contrast stretched (`labelReadImage`), and the words read there mapped back (`labelReadOf`). The recorder
 * settles a label its two reads disagree on by it; the OCR strategy finds a label a read of the whole screen glued
 * to its neighbours ("Mines: 0/10 Time: 00:00 Easy") by it. All pure.
 */
import type { BoundingBox } from '@qa/model'
import type { Frame } from './frame'

/**
 * A vertical stroke: the luma step (0–255) between a pixel's left and right neighbours. Glyphs are made of them, in
 * either polarity; a lit bar's top and bottom edges (horizontal) are not.
 */
const STROKE = 48
/** The read's image is enlarged until its text is about this high (px), as Tesseract reads best. */
const READ_TEXT_HEIGHT = 32
/** At most this much enlargement (a 10 px label → 4×). */
const MAX_READ_SCALE = 4
/** Blank margin (px of the enlarged image) put around the label, which Tesseract needs to see a word's edges. */
const READ_PAD = 16

function luma(f: Frame, x: number, y: number): number {
  const i = (y * f.width + x) * f.channels
  if (f.channels === 1) return f.data[i] as number
  return 0.299 * (f.data[i] as number) + 0.587 * (f.data[i + 1] as number) + 0.114 * (f.data[i + 2] as number)
}

/** Column `x` has a vertical stroke on row `y` (the frame's edge has none). */
function strokeAt(f: Frame, x: number, y: number): boolean {
  if (x < 1 || x >= f.width - 1 || y < 0 || y >= f.height) return false
  return Math.abs(luma(f, x + 1, y) - luma(f, x - 1, y)) >= STROKE
}

/** Column `x` is stroked on every row `y0..y1`. */
function fullColumn(f: Frame, x: number, y0: number, y1: number): boolean {
  for (let y = y0; y <= y1; y++) if (!strokeAt(f, x, y)) return false
  return true
}

/**
 * What column `x` holds on rows `y0..y1`: `line` (a stroke on every row and past one end, row `y0 − 2` or
 * `y1 + 2`: a frame's border, a list's edge, which runs on above or below the text, where no glyph of it reaches),
 * `ink` (a stroke on some row) or nothing.
 */
function columnKind(f: Frame, x: number, y0: number, y1: number): 'ink' | 'line' | null {
  let rows = 0
  for (let y = y0; y <= y1; y++) if (strokeAt(f, x, y)) rows++
  if (rows === 0) return null
  if (rows === y1 - y0 + 1 && (strokeAt(f, x, y0 - 2) || strokeAt(f, x, y1 + 2))) return 'line'
  return 'ink'
}

/**
 * The box of the text a read found, widened over the glyphs that continue it. First the rows its glyphs span (a
 * read's box may hold a field's frame above and below the text): the rows where the seed's own columns have
 * vertical strokes, a column stroked on every row (a border inside the box) left out. Then left and right from
 * `seed` (a read's box of the text, or of part of it), column by column over those rows, as long as the next glyph
 * stroke lies within half the text's height (letters of one word, words of one label) and no line runs through (a
 * frame's border, a list's edge), by at most twice the text's height on each side. A read cut short ("fficulty" of
 * "Difficulty") gets its missing letters back; the next menu item, a wider gap away, stays out. Pure.
 */
export function labelInkBox(frame: Frame, seed: BoundingBox): BoundingBox {
  const sy0 = Math.max(0, Math.round(seed.y))
  const sy1 = Math.min(frame.height - 1, Math.round(seed.y + seed.height) - 1)
  const sx0 = Math.max(0, Math.round(seed.x))
  const sx1 = Math.min(frame.width - 1, Math.round(seed.x + seed.width) - 1)
  let y0 = sy1
  let y1 = sy0
  for (let x = sx0; x <= sx1; x++) {
    let first = -1
    let last = -1
    for (let y = sy0; y <= sy1; y++)
      if (strokeAt(frame, x, y)) {
        if (first < 0) first = y
        last = y
      }
    if (first < 0 || fullColumn(frame, x, sy0, sy1)) continue
    y0 = Math.min(y0, first)
    y1 = Math.max(y1, last)
  }
  if (y1 < y0) {
    y0 = sy0
    y1 = sy1
  }
  const h = y1 - y0 + 1
  const gap = Math.max(3, Math.round(h / 2))
  const reach = 2 * h
  const grow = (from: number, step: -1 | 1): number => {
    let edge = from
    for (let x = from + step; Math.abs(x - from) <= reach && x >= 0 && x < frame.width; x += step) {
      const kind = columnKind(frame, x, y0, y1)
      if (kind === 'line') break
      if (kind === 'ink') edge = x
      else if (Math.abs(x - edge) > gap) break
    }
    return edge
  }
  const left = grow(sx0, -1)
  const right = grow(sx1, 1)
  return { x: left, y: y0, width: right - left + 1, height: h }
}

/** The image a label is read again from, and where its pixels come from. */
export interface LabelReadImage {
  /** RGBA, grey. */
  image: { width: number; height: number; data: Uint8Array; channels: 4 }
  /** The frame's part shown (without the margin). */
  region: BoundingBox
  /** Enlargement: pixel (px, py) of the image shows (region.x + ⌊(px − pad) / scale⌋, …). */
  scale: number
  pad: number
}

/**
 * The label's own box alone (a quarter of its height above and below), in grey with its luma stretched to the full
 * 0–255, enlarged (nearest neighbour: bitmap glyphs keep their strokes) until the text is about 32 px high, in a
 * blank margin of the box's own background (its border pixels' median): one label on a plain ground, as a
 * restyled, lit or recoloured item's label reads best. Pure.
 */
export function labelReadImage(frame: Frame, box: BoundingBox): LabelReadImage {
  const my = Math.max(2, Math.round(box.height / 4))
  const x0 = Math.max(0, Math.round(box.x) - 1)
  const y0 = Math.max(0, Math.round(box.y) - my)
  const x1 = Math.max(x0 + 1, Math.min(frame.width, Math.round(box.x + box.width) + 1))
  const y1 = Math.max(y0 + 1, Math.min(frame.height, Math.round(box.y + box.height) + my))
  const w = x1 - x0
  const h = y1 - y0
  const grey = new Float32Array(w * h)
  let lo = 255
  let hi = 0
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const l = luma(frame, x0 + x, y0 + y)
      grey[y * w + x] = l
      if (l < lo) lo = l
      if (l > hi) hi = l
    }
  const stretched = (i: number) => Math.round((255 * ((grey[i] as number) - lo)) / Math.max(1, hi - lo))
  const border: number[] = []
  for (let x = 0; x < w; x++) border.push(stretched(x), stretched((h - 1) * w + x))
  for (let y = 0; y < h; y++) border.push(stretched(y * w), stretched(y * w + w - 1))
  border.sort((a, b) => a - b)
  const paper = border[border.length >> 1] as number
  const scale = Math.max(1, Math.min(MAX_READ_SCALE, Math.ceil(READ_TEXT_HEIGHT / Math.max(1, box.height))))
  const width = w * scale + 2 * READ_PAD
  const height = h * scale + 2 * READ_PAD
  const data = new Uint8Array(width * height * 4).fill(255)
  for (let py = 0; py < height; py++)
    for (let px = 0; px < width; px++) {
      const sx = Math.floor((px - READ_PAD) / scale)
      const sy = Math.floor((py - READ_PAD) / scale)
      const inside = px >= READ_PAD && py >= READ_PAD && sx < w && sy < h
      const v = inside ? stretched(sy * w + sx) : paper
      const o = (py * width + px) * 4
      data[o] = v
      data[o + 1] = v
      data[o + 2] = v
    }
  return {
    image: { width, height, data, channels: 4 },
    region: { x: x0, y: y0, width: w, height: h },
    scale,
    pad: READ_PAD,
  }
}

/** A text read, with its box and confidence (0–1). */
export interface LabelRead {
  text: string
  boundingBox: BoundingBox
  confidence: number
}

/**
 * The words read on `read`'s image that lie on the label's own rows (`label`, the box it was cut around), in
 * reading order, as one read: their text joined, their box mapped back to the frame, the least sure word's
 * confidence (0.5 for a word read without one). Null when none. Pure.
 */
export function labelReadOf(
  words: readonly { text?: string | null; boundingBox: BoundingBox; confidence?: number | null }[],
  read: LabelReadImage,
  label: BoundingBox,
): LabelRead | null {
  const toFrame = (v: number, origin: number) => origin + (v - read.pad) / read.scale
  const own = words
    .filter((w) => w.text?.trim() && w.boundingBox)
    .map((w) => ({
      w,
      box: {
        x: toFrame(w.boundingBox.x, read.region.x),
        y: toFrame(w.boundingBox.y, read.region.y),
        width: w.boundingBox.width / read.scale,
        height: w.boundingBox.height / read.scale,
      },
    }))
    .filter(({ box }) => {
      const cy = box.y + box.height / 2
      return cy >= label.y && cy <= label.y + label.height
    })
    .sort((a, b) => a.box.x - b.box.x)
  if (!own.length) return null
  const x0 = Math.min(...own.map((o) => o.box.x))
  const y0 = Math.min(...own.map((o) => o.box.y))
  const x1 = Math.max(...own.map((o) => o.box.x + o.box.width))
  const y1 = Math.max(...own.map((o) => o.box.y + o.box.height))
  const confidence = Math.min(...own.map(({ w }) => (typeof w.confidence === 'number' ? w.confidence : 0.5)))
  return {
    text: own.map(({ w }) => (w.text as string).trim()).join(' '),
    boundingBox: {
      x: Math.floor(x0),
      y: Math.floor(y0),
      width: Math.ceil(x1) - Math.floor(x0),
      height: Math.ceil(y1) - Math.floor(y0),
    },
    confidence: Math.round(confidence * 1000) / 1000,
  }
}
