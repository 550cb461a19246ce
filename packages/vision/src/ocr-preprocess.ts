/**
 * Preparing a screenshot for Tesseract (OCR on dark themes and small UI fonts): greyscale, light text
 * turned into dark text on white region by region, the blank margin around the ink cropped, and thin UI text
 * (x-height 6–8 px) upscaled so that it reaches a height Tesseract reads well. Boxes found on the prepared image
 * map back to the original's pixels with `toOriginalBox`.
 */

/** The side of the blocks whose median is a block's background (pixels). */
const BLOCK = 4
/**
 * The background of a pixel is the median of the block medians this many blocks around it (a 28×28 px window):
 * wide enough that the strokes of bold 40 px headings stay under half of it, narrow enough for a 24 px button.
 */
const NEIGHBOURHOOD_BLOCKS = 3
/** A background darker than this (0–255) has light text on it. */
const DARK_BACKGROUND = 128
/** Below this mean stray from the background per block (0–255), a neighbourhood is blank. */
const FLAT_CONTRAST = 8
/** On a lighter background, text is light when its pixels stray this many times further up than down. */
const LIGHT_TEXT_DOMINANCE = 2
/** Images up to this many pixels are upscaled 2× when their text is thin (a 1920×1200 screen and smaller). */
const MAX_UPSCALED_SOURCE_PIXELS = 1920 * 1200
/** Text whose median stroke (horizontal ink run) is at most this wide (px) is small UI text, upscaled 2×. */
const THIN_STROKE = 2
/** A pixel darker than this (0–255) after normalisation is ink; the paper is near 255. */
const INK = 200
/** Blank pixels kept around the ink, so that Tesseract sees a margin around the outermost text. */
const INK_MARGIN = 8

export interface PolarityResult {
  /** Greyscale, dark text on a light background everywhere. */
  data: Uint8Array
  /** The share of pixels that were inverted (0 on a light screen, about 1 on a dark theme). */
  invertedShare: number
}

/** The median of the first `count` values of `scratch` (sorted in place). */
function medianOf(scratch: Uint8Array, count: number): number {
  const part = scratch.subarray(0, count).sort()
  return part[count >> 1] as number
}

/**
 * Turns every region into dark text on white: a region whose text is lighter than its background is inverted,
 * and each pixel is divided by its background. The background of a pixel is the median over a 28×28 px
 * neighbourhood of 4×4 block medians: text strokes are thin and cover less than half of it, so the median is the
 * background colour even inside a line of text, and the decision follows each region (a dark title bar, a dark
 * button, a light dialog body) to within a block. Light text is any text on a dark background, and on a lighter
 * one (white on a mid-grey hovered button) text whose pixels stray from it mostly upwards. Pure.
 */
export function normalisePolarity(grey: Uint8Array, width: number, height: number): PolarityResult {
  const bw = Math.ceil(width / BLOCK)
  const bh = Math.ceil(height / BLOCK)
  const blockMedian = new Uint8Array(bw * bh)
  const blockMin = new Uint8Array(bw * bh)
  const blockMax = new Uint8Array(bw * bh)
  const scratch = new Uint8Array(Math.max(BLOCK * BLOCK, (2 * NEIGHBOURHOOD_BLOCKS + 1) ** 2))
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      let n = 0
      for (let y = by * BLOCK; y < Math.min(height, (by + 1) * BLOCK); y++)
        for (let x = bx * BLOCK; x < Math.min(width, (bx + 1) * BLOCK); x++)
          scratch[n++] = grey[y * width + x] as number
      const b = by * bw + bx
      blockMedian[b] = medianOf(scratch, n)
      blockMin[b] = scratch[0] as number
      blockMax[b] = scratch[n - 1] as number
    }
  const background = new Uint8Array(bw * bh)
  const lightText = new Uint8Array(bw * bh)
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      const y0 = Math.max(0, by - NEIGHBOURHOOD_BLOCKS)
      const y1 = Math.min(bh - 1, by + NEIGHBOURHOOD_BLOCKS)
      const x0 = Math.max(0, bx - NEIGHBOURHOOD_BLOCKS)
      const x1 = Math.min(bw - 1, bx + NEIGHBOURHOOD_BLOCKS)
      let n = 0
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) scratch[n++] = blockMedian[y * bw + x] as number
      const bg = medianOf(scratch, n)
      let brighter = 0
      let darker = 0
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          brighter += Math.max(0, (blockMax[y * bw + x] as number) - bg)
          darker += Math.max(0, bg - (blockMin[y * bw + x] as number))
        }
      const b = by * bw + bx
      background[b] = bg
      const lightOnLight = brighter + darker >= n * FLAT_CONTRAST && brighter > LIGHT_TEXT_DOMINANCE * darker
      lightText[b] = bg < DARK_BACKGROUND || lightOnLight ? 1 : 0
    }
  const data = new Uint8Array(width * height)
  let inverted = 0
  for (let y = 0; y < height; y++) {
    const row = ((y / BLOCK) | 0) * bw
    for (let x = 0; x < width; x++) {
      const i = y * width + x
      const b = row + ((x / BLOCK) | 0)
      const bg = background[b] as number
      const invert = lightText[b] === 1
      if (invert) inverted++
      const v = invert ? 255 - (grey[i] as number) : (grey[i] as number)
      // the background becomes white, the text keeps its contrast to it: one global threshold then fits every region
      const paper = invert ? 255 - bg : bg
      data[i] = Math.min(255, Math.round((255 * v) / Math.max(1, paper)))
    }
  }
  return { data, invertedShare: width * height ? inverted / (width * height) : 0 }
}

/**
 * The median length of the horizontal runs of ink (pixels darker than 128) in a polarity-normalised image: the
 * stroke width of its text, 1–2 px for UI fonts (x-height 6–8 px), 3 px and more from about 20 px bold. 0 when
 * there is no ink. Pure.
 */
export function medianInkRun(data: Uint8Array, width: number, height: number): number {
  const counts = new Uint32Array(width + 1)
  let total = 0
  for (let y = 0; y < height; y++) {
    let run = 0
    for (let x = 0; x <= width; x++) {
      if (x < width && (data[y * width + x] as number) < 128) run++
      else if (run) {
        counts[run] = (counts[run] as number) + 1
        total++
        run = 0
      }
    }
  }
  let seen = 0
  for (let length = 1; length <= width; length++) {
    seen += counts[length] as number
    if (seen * 2 >= total && total > 0) return length
  }
  return 0
}

/**
 * How much an image is enlarged before OCR: 2× when its text is thin (median ink run ≤ 2 px: UI fonts, which
 * Tesseract reads better twice as large) and it has at most 1920×1200 pixels; else 1× (larger text reads as it
 * is, and enlarging it costs time and misreads bold glyphs). Pure.
 */
export function ocrScale(width: number, height: number, inkRun: number): number {
  return width * height <= MAX_UPSCALED_SOURCE_PIXELS && inkRun <= THIN_STROKE ? 2 : 1
}

/** A Tesseract box: x0,y0 inclusive, x1,y1 exclusive, in pixels. */
export interface PixelBox {
  x0: number
  y0: number
  x1: number
  y1: number
}

/** The part of the original image that is given to Tesseract, and how much it is enlarged. */
export interface OcrRegion {
  /** The region's top-left corner in the original image. */
  x: number
  y: number
  width: number
  height: number
  /** Upscaled pixel p of the region shows original pixel x + ⌊p / scale⌋ (and likewise for y). */
  scale: number
}

/**
 * A box on the upscaled region mapped back to the original image: the smallest original box covering every
 * upscaled pixel in it, clamped to the original's size. Pure.
 */
export function toOriginalBox(box: PixelBox, region: OcrRegion, size: { width: number; height: number }): PixelBox {
  const clamp = (v: number, max: number) => Math.max(0, Math.min(max, v))
  return {
    x0: clamp(region.x + Math.floor(box.x0 / region.scale), size.width),
    y0: clamp(region.y + Math.floor(box.y0 / region.scale), size.height),
    x1: clamp(region.x + Math.ceil(box.x1 / region.scale), size.width),
    y1: clamp(region.y + Math.ceil(box.y1 / region.scale), size.height),
  }
}

/**
 * The bounding box of everything darker than the paper in a polarity-normalised image, widened by `margin`
 * pixels (null when the image is blank): the empty rest of the screen (an X root window, a desktop colour) is
 * left out, so the upscaled image stays small. Pure.
 */
export function inkBounds(
  data: Uint8Array,
  width: number,
  height: number,
  margin = INK_MARGIN,
): Omit<OcrRegion, 'scale'> | null {
  let x0 = width
  let y0 = height
  let x1 = -1
  let y1 = -1
  for (let y = 0; y < height; y++) {
    const row = y * width
    let first = -1
    let last = -1
    for (let x = 0; x < width; x++)
      if ((data[row + x] as number) < INK) {
        if (first < 0) first = x
        last = x
      }
    if (first < 0) continue
    x0 = Math.min(x0, first)
    x1 = Math.max(x1, last)
    y0 = Math.min(y0, y)
    y1 = y
  }
  if (x1 < 0) return null
  const x = Math.max(0, x0 - margin)
  const y = Math.max(0, y0 - margin)
  return { x, y, width: Math.min(width, x1 + 1 + margin) - x, height: Math.min(height, y1 + 1 + margin) - y }
}

/**
 * A region of a greyscale image enlarged `scale`× by repeating each pixel (nearest neighbour): bitmap fonts keep
 * their strokes, and upscaled pixel p shows original pixel ⌊p / scale⌋ exactly, as `toOriginalBox` assumes. Pure.
 */
export function cropAndUpscale(grey: Uint8Array, width: number, region: OcrRegion): Uint8Array {
  const { scale } = region
  const outWidth = region.width * scale
  const out = new Uint8Array(outWidth * region.height * scale)
  for (let y = 0; y < region.height; y++) {
    const top = y * scale * outWidth
    const source = (region.y + y) * width + region.x
    for (let x = 0; x < region.width; x++) out.fill(grey[source + x] as number, top + x * scale, top + (x + 1) * scale)
    for (let k = 1; k < scale; k++) out.copyWithin(top + k * outWidth, top, top + outWidth)
  }
  return out
}

export interface OcrInput {
  /** A binary greyscale PGM (P5) of the region, which Tesseract's Leptonica reads without decoding; null: blank. */
  image: Buffer | null
  /** Where the image comes from in the original; map boxes back with `toOriginalBox`. */
  region: OcrRegion
  /** The original image's size. */
  width: number
  height: number
  /** The share of the original's pixels that were inverted (light text on a dark background). */
  invertedShare: number
}

/**
 * Decodes a PNG/JPEG (sharp), normalises its text polarity (dark text on white everywhere), crops the blank
 * margins and upscales small text 2× for Tesseract.
 */
export async function prepareForOcr(bytes: Uint8Array): Promise<OcrInput> {
  const { default: sharp } = await import('sharp')
  const { data, info } = await sharp(bytes)
    .flatten({ background: '#ffffff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const { width, height, channels } = info
  const grey = channels === 1 ? data : firstChannel(data, channels)
  const polarity = normalisePolarity(grey, width, height)
  const bounds = inkBounds(polarity.data, width, height)
  const scale = ocrScale(width, height, medianInkRun(polarity.data, width, height))
  const region = { ...(bounds ?? { x: 0, y: 0, width: 0, height: 0 }), scale }
  const pixels = bounds ? cropAndUpscale(polarity.data, width, region) : null
  const header = `P5\n${region.width * region.scale} ${region.height * region.scale}\n255\n`
  return {
    image: pixels ? Buffer.concat([Buffer.from(header, 'ascii'), pixels]) : null,
    region,
    width,
    height,
    invertedShare: polarity.invertedShare,
  }
}

function firstChannel(data: Uint8Array, channels: number): Uint8Array {
  const out = new Uint8Array(data.length / channels)
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels] as number
  return out
}
