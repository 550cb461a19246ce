import pixelmatch from 'pixelmatch'

export interface DiffCoreOptions {
  /** pixelmatch colour threshold 0–1 (smaller is stricter). */
  threshold: number
  /** Count anti-aliased pixels too (pixelmatch `includeAA`). */
  includeAA: boolean
}

/** Rows around a changed run that pixelmatch's anti-aliasing detector reads (3×3 neighbours of 3×3 neighbours). */
const AA_REACH_ROWS = 2

function asBuffer(a: Uint8Array): Buffer {
  return Buffer.isBuffer(a) ? a : Buffer.from(a.buffer, a.byteOffset, a.byteLength)
}

/** Runs [firstRow, lastRow] of rows whose bytes differ, found with native memcmp per row. */
export function changedRowRuns(a: Uint8Array, b: Uint8Array, width: number, height: number): [number, number][] {
  const A = asBuffer(a)
  const B = asBuffer(b)
  const runs: [number, number][] = []
  if (A.equals(B)) return runs
  const rowBytes = width * 4
  let start = -1
  let last = -1
  for (let y = 0, off = 0; y < height; y++, off += rowBytes) {
    if (A.compare(B, off, off + rowBytes, off, off + rowBytes) === 0) continue
    // keep a gap of at least 2 * AA_REACH_ROWS identical rows between runs so that crops never share a changed row
    if (start >= 0 && y - last - 1 < 2 * AA_REACH_ROWS) {
      last = y
      continue
    }
    if (start >= 0) runs.push([start, last])
    start = y
    last = y
  }
  if (start >= 0) runs.push([start, last])
  return runs
}

/**
 * pixelmatch's background for similar pixels: the expected image in grey, blended with white (same arithmetic and
 * truncation as pixelmatch's drawGrayPixel). Screens are mostly flat, so each run of equal pixels is computed once and
 * written with a native fill.
 */
function drawGrayRows(img: Uint8Array, output: Uint8Array, from: number, to: number, alpha: number): void {
  // Int32 views keep every value a small integer for the JIT (little-endian: bytes R,G,B,A = bits 0–31)
  const src = new Int32Array(img.buffer, img.byteOffset + from, (to - from) >> 2)
  const dst = new Int32Array(output.buffer, output.byteOffset + from, (to - from) >> 2)
  const n = src.length
  let i = 0
  while (i < n) {
    const px = src[i] as number
    const pos = from + i * 4
    const val =
      (255 +
        (((img[pos] as number) * 0.29889531 +
          (img[pos + 1] as number) * 0.58662247 +
          (img[pos + 2] as number) * 0.11448223 -
          255) *
          alpha *
          (img[pos + 3] as number)) /
          255) &
      255
    const grey = -16777216 | (val << 16) | (val << 8) | val
    let j = i + 1
    while (j < n && src[j] === px) j++
    if (j - i > 16) dst.fill(grey, i, j)
    else for (let k = i; k < j; k++) dst[k] = grey
    i = j
  }
}

const DIFF_ALPHA = 0.1

/** Row ranges [firstRow, lastRow] that pixelmatch ran on (changed rows plus their anti-aliasing reach). */
export type Bands = [number, number][]

/**
 * Counts differing pixels exactly as `pixelmatch(a, b, output, width, height, opts)` does, but runs pixelmatch only
 * on bands of changed rows (plus the 2 rows its anti-aliasing check reads), found with native memcmp. Rows that are
 * byte-identical cannot contain a differing pixel, and every pixel of a band sees the same neighbours as in the full
 * image, so the count is the same. `a` and `b` must be 4-byte aligned RGBA of the same size. With `output`, only the
 * bands are drawn: call drawUnchangedRows to complete the diff image (only when it is wanted).
 */
export function diffBands(
  a: Uint8Array,
  b: Uint8Array,
  width: number,
  height: number,
  opts: DiffCoreOptions,
  output?: Uint8Array,
): { diffPixels: number; bands: Bands } {
  const runs = changedRowRuns(a, b, width, height)
  const rowBytes = width * 4
  const pmOpts = { threshold: opts.threshold, includeAA: opts.includeAA, alpha: DIFF_ALPHA }
  let diffPixels = 0
  const bands: Bands = []
  for (const [r0, r1] of runs) {
    const y0 = Math.max(0, r0 - AA_REACH_ROWS)
    const y1 = Math.min(height - 1, r1 + AA_REACH_ROWS)
    const from = y0 * rowBytes
    const to = (y1 + 1) * rowBytes
    diffPixels += pixelmatch(
      a.subarray(from, to),
      b.subarray(from, to),
      output?.subarray(from, to),
      width,
      y1 - y0 + 1,
      pmOpts,
    )
    bands.push([y0, y1])
  }
  return { diffPixels, bands }
}

/** Draws pixelmatch's grey background on every row outside `bands`, completing a diff image started by diffBands. */
export function drawUnchangedRows(
  a: Uint8Array,
  output: Uint8Array,
  bands: Bands,
  width: number,
  height: number,
): void {
  const rowBytes = width * 4
  let drawnTo = 0
  for (const [y0, y1] of bands) {
    if (y0 * rowBytes > drawnTo) drawGrayRows(a, output, drawnTo, y0 * rowBytes, DIFF_ALPHA)
    drawnTo = (y1 + 1) * rowBytes
  }
  if (drawnTo < height * rowBytes) drawGrayRows(a, output, drawnTo, height * rowBytes, DIFF_ALPHA)
}

/** diffBands + drawUnchangedRows: the count (and, with `output`, the full diff image) of pixelmatch. */
export function countDiffPixels(
  a: Uint8Array,
  b: Uint8Array,
  width: number,
  height: number,
  opts: DiffCoreOptions,
  output?: Uint8Array,
): number {
  const { diffPixels, bands } = diffBands(a, b, width, height, opts, output)
  if (output) drawUnchangedRows(a, output, bands, width, height)
  return diffPixels
}
