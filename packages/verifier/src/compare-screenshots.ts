import {
  type DecodedScreenshot,
  decodeImageBytes,
  decodeScreenshot,
  isRawFrame,
  normalizeRawFrame,
  readFileIfSize,
  readImageFile,
  type ScreenshotInput,
} from './decode-screenshot'
import { VerifierError } from './errors'
import { diffBands, drawUnchangedRows } from './internal/fast-diff'
import { loadSharp } from './internal/lazy-sharp'
import type { ScreenshotCache } from './screenshot-cache'

/** A rectangle in pixels of the expected screenshot. */
export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export interface Size {
  width: number
  height: number
}

export interface CompareOptions {
  /** pixelmatch colour threshold 0–1; smaller is stricter. Default 0.1. */
  threshold?: number
  /** Count anti-aliased pixels as differences. Default false (anti-aliasing ignored). */
  includeAA?: boolean
  /** Rectangles to ignore (clocks, counters, carets): their pixels are neither compared nor counted. */
  ignore?: readonly Rect[]
  /** A mask image the size of the expected screenshot: pixels that are bright (max(R,G,B) ≥ 128) and opaque are ignored. */
  maskImage?: ScreenshotInput
  /** Compare only this rectangle (e.g. around the acted element); clipped to the image. */
  region?: Rect
  /** What to do when the sizes differ: `fail` (default; similarity 0 with a clear reason) or `resize` the actual. */
  sizeMismatch?: 'fail' | 'resize'
  /** Produce a PNG diff image: never (default), always, or only when similarity < passSimilarity. */
  diffImage?: boolean | 'never' | 'always' | 'on-failure'
  /** Similarity under which `diffImage: 'on-failure'` draws the diff. Default 0.95. */
  passSimilarity?: number
  /** Decoded expected screenshots are taken from (and kept in) this cache when `expected` is a path. */
  cache?: ScreenshotCache
}

export interface SizeMismatch {
  expected: Size
  actual: Size
}

export interface CompareResult {
  /** 0–1: 1 − diffPixels / totalPixels. */
  similarity: number
  diffPixels: number
  /** Pixels compared (region minus ignored pixels). */
  totalPixels: number
  /** Size of the compared area. */
  width: number
  height: number
  /** PNG bytes of the diff (pixelmatch colours: red differs, yellow anti-aliasing, blue ignored), when asked for. */
  diffImage?: Uint8Array
  /** Set when the images have different sizes and the policy is `fail`. */
  sizeMismatch?: SizeMismatch
  /** Why the comparison failed outright (size mismatch), in one sentence. */
  reason?: string
  /** The encoded files were byte-identical (no pixel was decoded). */
  byteIdentical?: boolean
}

const DEFAULT_THRESHOLD = 0.1
const MASK_FILL = 0xff00ff00 // both images get the same opaque colour under a mask

const scratch: { buf?: Buffer } = {}

function isDecoded(x: unknown): x is DecodedScreenshot {
  return isRawFrame(x) && x.channels === 4
}

async function resolveExpected(input: ScreenshotInput, cache?: ScreenshotCache): Promise<DecodedScreenshot> {
  if (typeof input === 'string' && cache) return cache.get(input)
  if (isDecoded(input)) return normalizeRawFrame(input, input.source ?? 'expected frame')
  return decodeScreenshot(input, 'expected screenshot')
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)
}

/** Resolves the actual screenshot; returns 'identical' when its encoded bytes equal the expected's. */
async function resolveActual(
  input: ScreenshotInput,
  expected: DecodedScreenshot,
): Promise<DecodedScreenshot | 'identical'> {
  if (typeof input === 'string') {
    if (expected.bytes) {
      const same = readFileIfSize(input, expected.bytes.length, scratch)
      if (same && sameBytes(same, expected.bytes)) return 'identical'
      if (same) return decodeImageBytes(Buffer.from(same), input)
    }
    return decodeImageBytes(await readImageFile(input), input)
  }
  if (isRawFrame(input)) return normalizeRawFrame(input, 'actual frame')
  if (input instanceof Uint8Array) {
    if (expected.bytes && sameBytes(input, expected.bytes)) return 'identical'
    return decodeImageBytes(input, 'actual screenshot')
  }
  return decodeScreenshot(input, 'actual screenshot')
}

function assertRect(r: Rect, what: string): void {
  for (const k of ['x', 'y', 'width', 'height'] as const) {
    if (typeof r[k] !== 'number' || !Number.isFinite(r[k])) {
      throw new VerifierError('VERIFIER_BAD_OPTION', `${what}: ${k} must be a number, got ${JSON.stringify(r[k])}.`, {
        hint: 'Give rectangles as { x, y, width, height } in pixels (CLI: --mask x,y,w,h).',
      })
    }
  }
  if (r.width < 0 || r.height < 0) {
    throw new VerifierError(
      'VERIFIER_BAD_OPTION',
      `${what}: width and height must not be negative (${r.width}×${r.height}).`,
      {
        hint: 'Give rectangles as { x, y, width, height } with the top-left corner first.',
      },
    )
  }
}

/** Clips a rectangle to the image; returns integer bounds [x0, y0, x1, y1) (possibly empty). */
function clip(r: Rect, w: number, h: number): [number, number, number, number] {
  const x0 = Math.max(0, Math.floor(r.x))
  const y0 = Math.max(0, Math.floor(r.y))
  const x1 = Math.min(w, Math.ceil(r.x + r.width))
  const y1 = Math.min(h, Math.ceil(r.y + r.height))
  return [x0, y0, Math.max(x0, x1), Math.max(y0, y1)]
}

async function buildMask(size: Size, opts: CompareOptions): Promise<Uint8Array | undefined> {
  const rects = opts.ignore ?? []
  if (rects.length === 0 && opts.maskImage === undefined) return undefined
  const { width: w, height: h } = size
  const mask = new Uint8Array(w * h)
  rects.forEach((r, i) => {
    assertRect(r, `ignore[${i}]`)
    const [x0, y0, x1, y1] = clip(r, w, h)
    for (let y = y0; y < y1; y++) mask.fill(1, y * w + x0, y * w + x1)
  })
  if (opts.maskImage !== undefined) {
    const m = await decodeScreenshot(opts.maskImage, typeof opts.maskImage === 'string' ? opts.maskImage : 'mask image')
    if (m.width !== w || m.height !== h) {
      throw new VerifierError(
        'VERIFIER_BAD_OPTION',
        `The mask image is ${m.width}×${m.height} but the expected screenshot is ${w}×${h}.`,
        { hint: 'Make the mask image exactly the size of the expected screenshot.' },
      )
    }
    const d = m.data
    for (let i = 0, p = 0; i < w * h; i++, p += 4) {
      if ((d[p + 3] as number) >= 128 && Math.max(d[p] as number, d[p + 1] as number, d[p + 2] as number) >= 128)
        mask[i] = 1
    }
  }
  return mask
}

/** Copy of `data` with every masked pixel set to the same colour (so neither image's masked content matters). */
function applyMask(data: Uint8Array, mask: Uint8Array): Uint8Array {
  const out = new Uint8Array(data)
  const u32 = new Uint32Array(out.buffer, out.byteOffset, mask.length)
  for (let i = 0; i < mask.length; i++) if (mask[i]) u32[i] = MASK_FILL
  return out
}

function cropRows(data: Uint8Array, w: number, [x0, y0, x1, y1]: [number, number, number, number]): Uint8Array {
  const cw = x1 - x0
  if (x0 === 0 && cw === w) return data.subarray(y0 * w * 4, y1 * w * 4)
  const out = new Uint8Array(cw * (y1 - y0) * 4)
  for (let y = y0; y < y1; y++) out.set(data.subarray((y * w + x0) * 4, (y * w + x1) * 4), (y - y0) * cw * 4)
  return out
}

function cropMask(mask: Uint8Array, w: number, [x0, y0, x1, y1]: [number, number, number, number]): Uint8Array {
  const cw = x1 - x0
  const out = new Uint8Array(cw * (y1 - y0))
  for (let y = y0; y < y1; y++) out.set(mask.subarray(y * w + x0, y * w + x1), (y - y0) * cw)
  return out
}

function countMasked(mask: Uint8Array | undefined): number {
  if (!mask) return 0
  let n = 0
  for (let i = 0; i < mask.length; i++) n += mask[i] as number
  return n
}

async function resizeTo(frame: DecodedScreenshot, size: Size): Promise<DecodedScreenshot> {
  const sharp = await loadSharp()
  const data = await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 4 } })
    .resize(size.width, size.height, { fit: 'fill' })
    .raw()
    .toBuffer()
  return normalizeRawFrame({ width: size.width, height: size.height, channels: 4, data })
}

export async function encodePng(data: Uint8Array, width: number, height: number): Promise<Buffer> {
  const sharp = await loadSharp()
  return sharp(data, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer()
}

function wantsDiff(opts: CompareOptions): 'never' | 'always' | 'on-failure' {
  const d = opts.diffImage
  if (d === true) return 'always'
  if (d === false || d === undefined) return 'never'
  return d
}

export function sizeMismatchReason(m: SizeMismatch): string {
  return `Screenshot sizes differ: expected ${m.expected.width}×${m.expected.height}, actual ${m.actual.width}×${m.actual.height}.`
}

/**
 * Compares an actual screenshot with the expected one: similarity = 1 − differing pixels / compared pixels,
 * counted exactly as pixelmatch counts them (anti-aliased pixels not counted unless includeAA).
 *
 * Fast paths: byte-identical encoded files return without decoding; identical frames cost one memcmp; otherwise only
 * the bands of changed rows go through pixelmatch. Pass a DecodedScreenshot (decodeScreenshot) or a cache as
 * `expected` to decode each expected screenshot once per replay.
 */
export async function compareScreenshots(
  expected: ScreenshotInput | DecodedScreenshot,
  actual: ScreenshotInput,
  options: CompareOptions = {},
): Promise<CompareResult> {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new VerifierError('VERIFIER_BAD_OPTION', `threshold must be between 0 and 1, got ${threshold}.`, {
      hint: 'Use the pixelmatch colour threshold, e.g. 0.1 (smaller is stricter).',
    })
  }
  const diffMode = wantsDiff(options)
  const exp = await resolveExpected(expected, options.cache)
  let act = await resolveActual(actual, exp)
  const full: Size = { width: exp.width, height: exp.height }
  if (options.region) assertRect(options.region, 'region')
  const regionBounds: [number, number, number, number] = options.region
    ? clip(options.region, full.width, full.height)
    : [0, 0, full.width, full.height]
  const [rx0, ry0, rx1, ry1] = regionBounds
  const cw = rx1 - rx0
  const ch = ry1 - ry0
  if (cw === 0 || ch === 0) {
    throw new VerifierError(
      'VERIFIER_BAD_OPTION',
      `The region lies outside the ${full.width}×${full.height} screenshot.`,
      {
        hint: 'Give a region { x, y, width, height } that overlaps the expected screenshot.',
      },
    )
  }
  const mask = await buildMask(full, options)
  const regionMask = mask && (options.region ? cropMask(mask, full.width, regionBounds) : mask)
  const totalPixels = cw * ch - countMasked(regionMask)
  const similarityOf = (diff: number) => (totalPixels === 0 ? 1 : 1 - diff / totalPixels)

  if (act === 'identical' && diffMode !== 'always') {
    return { similarity: 1, diffPixels: 0, totalPixels, width: cw, height: ch, byteIdentical: true }
  }
  if (act === 'identical') act = exp
  if (act.width !== full.width || act.height !== full.height) {
    const sizeMismatch = { expected: full, actual: { width: act.width, height: act.height } }
    if ((options.sizeMismatch ?? 'fail') === 'fail') {
      return {
        similarity: 0,
        diffPixels: totalPixels,
        totalPixels,
        width: cw,
        height: ch,
        sizeMismatch,
        reason: sizeMismatchReason(sizeMismatch),
      }
    }
    act = await resizeTo(act, full)
  }

  let a = mask ? applyMask(exp.data, mask) : exp.data
  let b = mask ? applyMask(act.data, mask) : act.data
  if (options.region) {
    a = cropRows(a, full.width, regionBounds)
    b = cropRows(b, full.width, regionBounds)
  }
  const coreOpts = { threshold, includeAA: options.includeAA ?? false }
  // with a diff image possible, pixelmatch draws the changed bands in the same pass; the rest is drawn only if wanted
  const out = diffMode === 'never' ? undefined : Buffer.allocUnsafeSlow(cw * ch * 4)
  const { diffPixels, bands } = diffBands(a, b, cw, ch, coreOpts, out)
  const similarity = similarityOf(diffPixels)
  const result: CompareResult = { similarity, diffPixels, totalPixels, width: cw, height: ch }
  if (out && (diffMode === 'always' || similarity < (options.passSimilarity ?? 0.95))) {
    drawUnchangedRows(a, out, bands, cw, ch)
    if (regionMask) {
      for (let i = 0, p = 0; i < regionMask.length; i++, p += 4) {
        if (regionMask[i]) {
          out[p] = 120
          out[p + 1] = 170
          out[p + 2] = 255
        }
      }
    }
    result.diffImage = await encodePng(out, cw, ch)
  }
  return result
}
