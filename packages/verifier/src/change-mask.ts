import type { Rect } from './compare-screenshots'
import type { RgbaImage } from './rgba-image'
import { maxDeltaOf, yiqDelta } from './yiq'

/** Default colour threshold 0–1 as in pixelmatch (YIQ distance). */
export const DEFAULT_THRESHOLD = 0.1

export interface ChangeMaskOptions {
  /** Colour threshold 0–1 as in pixelmatch (YIQ distance); smaller is stricter. Default 0.1. */
  threshold?: number
  /** Rectangles (in `a`'s pixels) never counted as changed: clocks, counters, carets. */
  ignore?: readonly Rect[]
}

export interface ChangedRegionOptions {
  /** Side of the grid cells changed pixels are grouped by (default 8 px). */
  cellSize?: number
  /** Changed cells at most this many cells apart form one region (default 2). */
  gapCells?: number
  /** At most this many regions; the smallest are merged into one box (default 8). */
  maxRegions?: number
}

/** Integer bounds [x0, y0, x1, y1) of a rectangle clipped to w×h. */
export function bounds(r: Rect, w: number, h: number): [number, number, number, number] {
  const x0 = Math.max(0, Math.floor(r.x))
  const y0 = Math.max(0, Math.floor(r.y))
  const x1 = Math.min(w, Math.ceil(r.x + r.width))
  const y1 = Math.min(h, Math.ceil(r.y + r.height))
  return [x0, y0, Math.max(x0, x1), Math.max(y0, y1)]
}

export function paint(mask: Uint8Array, w: number, h: number, rects: readonly Rect[], value: number): void {
  for (const r of rects) {
    const [x0, y0, x1, y1] = bounds(r, w, h)
    for (let y = y0; y < y1; y++) mask.fill(value, y * w + x0, y * w + x1)
  }
}

/** The bytes as 32-bit words when they start on a word boundary (else null): one compare per RGBA pixel. */
function wordsOf(bytes: Uint8Array, count: number): Uint32Array | null {
  return bytes.byteOffset % 4 === 0 && bytes.length >= count * 4
    ? new Uint32Array(bytes.buffer, bytes.byteOffset, count)
    : null
}

/**
 * Calls `visit(i)` for every set index of a mask, in order, skipping its zero runs four bytes at a time (a change
 * mask of a whole screen is mostly zeros). `visit` may clear the index it is given.
 */
export function forEachSet(mask: Uint8Array, visit: (i: number) => void): void {
  const n = mask.length
  const words = wordsOf(mask, n >> 2)
  let i = 0
  if (words) {
    for (let k = 0; k < words.length; k++) {
      if (words[k] === 0) continue
      for (let j = k * 4; j < k * 4 + 4; j++) if (mask[j]) visit(j)
    }
    i = words.length * 4
  }
  for (; i < n; i++) if (mask[i]) visit(i)
}

/** 1 where the two same-sized images differ in colour (pixelmatch's YIQ distance above the threshold). Pure. */
export function changeMask(a: RgbaImage, b: RgbaImage, opts: ChangeMaskOptions = {}): Uint8Array {
  if (a.width !== b.width || a.height !== b.height)
    throw new RangeError(`changeMask: sizes differ (${a.width}×${a.height} vs ${b.width}×${b.height})`)
  const { width: w, height: h } = a
  const n = w * h
  const mask = new Uint8Array(n)
  const maxDelta = maxDeltaOf(opts.threshold ?? DEFAULT_THRESHOLD)
  const A = a.data
  const B = b.data
  // the same pixel bytes (most of two screens) are passed over with one compare
  const A32 = wordsOf(A, n)
  const B32 = wordsOf(B, n)
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    if (A32 && B32 && A32[i] === B32[i]) continue
    if (A[p] === B[p] && A[p + 1] === B[p + 1] && A[p + 2] === B[p + 2]) continue
    if (yiqDelta(A, p, B, p) > maxDelta) mask[i] = 1
  }
  if (opts.ignore?.length) paint(mask, w, h, opts.ignore, 0)
  return mask
}

/**
 * Groups the set pixels of a mask into boxes: pixels in grid cells at most `gapCells` apart belong together
 * (a changed label and its caret are one region; a menu across the screen is another). Largest first. Pure.
 */
export function changedRegions(
  mask: Uint8Array,
  width: number,
  height: number,
  opts: ChangedRegionOptions = {},
): (Rect & { pixels: number })[] {
  const cell = Math.max(1, Math.floor(opts.cellSize ?? 8))
  const gap = Math.max(0, Math.floor(opts.gapCells ?? 2))
  const maxRegions = Math.max(1, Math.floor(opts.maxRegions ?? 8))
  const cw = Math.ceil(width / cell)
  const ch = Math.ceil(height / cell)
  // per cell: pixel count and tight bounds of its set pixels
  const count = new Int32Array(cw * ch)
  const minX = new Int32Array(cw * ch).fill(width)
  const minY = new Int32Array(cw * ch).fill(height)
  const maxX = new Int32Array(cw * ch).fill(-1)
  const maxY = new Int32Array(cw * ch).fill(-1)
  forEachSet(mask.length > width * height ? mask.subarray(0, width * height) : mask, (i) => {
    const x = i % width
    const y = (i - x) / width
    const c = Math.floor(y / cell) * cw + Math.floor(x / cell)
    count[c] = (count[c] as number) + 1
    if (x < (minX[c] as number)) minX[c] = x
    if (x > (maxX[c] as number)) maxX[c] = x
    if (y < (minY[c] as number)) minY[c] = y
    if (y > (maxY[c] as number)) maxY[c] = y
  })
  const seen = new Uint8Array(cw * ch)
  const regions: (Rect & { pixels: number })[] = []
  const stack: number[] = []
  for (let start = 0; start < cw * ch; start++) {
    if (!count[start] || seen[start]) continue
    seen[start] = 1
    stack.push(start)
    let pixels = 0
    let x0 = width
    let y0 = height
    let x1 = -1
    let y1 = -1
    while (stack.length) {
      const c = stack.pop() as number
      pixels += count[c] as number
      x0 = Math.min(x0, minX[c] as number)
      y0 = Math.min(y0, minY[c] as number)
      x1 = Math.max(x1, maxX[c] as number)
      y1 = Math.max(y1, maxY[c] as number)
      const cx = c % cw
      const cy = (c - cx) / cw
      for (let ny = Math.max(0, cy - gap); ny <= Math.min(ch - 1, cy + gap); ny++) {
        for (let nx = Math.max(0, cx - gap); nx <= Math.min(cw - 1, cx + gap); nx++) {
          const n = ny * cw + nx
          if (count[n] && !seen[n]) {
            seen[n] = 1
            stack.push(n)
          }
        }
      }
    }
    regions.push({ x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, pixels })
  }
  regions.sort((a, b) => b.pixels - a.pixels)
  if (regions.length <= maxRegions) return regions
  const kept = regions.slice(0, maxRegions - 1)
  const rest = regions.slice(maxRegions - 1)
  kept.push({ ...unionBox(rest), pixels: rest.reduce((s, r) => s + r.pixels, 0) })
  return kept
}

/** The bounding box of rectangles (null for none). Pure. */
export function unionBox(rects: readonly Rect[]): Rect {
  let x0 = Number.POSITIVE_INFINITY
  let y0 = Number.POSITIVE_INFINITY
  let x1 = Number.NEGATIVE_INFINITY
  let y1 = Number.NEGATIVE_INFINITY
  for (const r of rects) {
    x0 = Math.min(x0, r.x)
    y0 = Math.min(y0, r.y)
    x1 = Math.max(x1, r.x + r.width)
    y1 = Math.max(y1, r.y + r.height)
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

/**
 * The set pixels of a mask that form text carets: connected runs at most `maxWidth` pixels wide and `minHeight` to
 * `maxHeight` tall (a caret is a thin vertical bar the height of a line; a glyph is wider or has other parts). Pure.
 */
export function caretPixels(
  mask: Uint8Array,
  w: number,
  h: number,
  maxWidth = 2,
  minHeight = 8,
  maxHeight = 80,
): number {
  const seen = new Uint8Array(mask.length)
  let total = 0
  const stack: number[] = []
  forEachSet(mask, (start) => {
    if (seen[start]) return
    let x0 = w
    let x1 = -1
    let y0 = h
    let y1 = -1
    let n = 0
    stack.push(start)
    seen[start] = 1
    while (stack.length) {
      const i = stack.pop() as number
      const x = i % w
      const y = (i - x) / w
      n++
      if (x < x0) x0 = x
      if (x > x1) x1 = x
      if (y < y0) y0 = y
      if (y > y1) y1 = y
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx
          const ny = y + dy
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue
          const j = ny * w + nx
          if (mask[j] && !seen[j]) {
            seen[j] = 1
            stack.push(j)
          }
        }
    }
    const width = x1 - x0 + 1
    const height = y1 - y0 + 1
    if (width <= maxWidth && height >= minHeight && height <= maxHeight) total += n
  })
  return total
}
