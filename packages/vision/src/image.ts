import { createHash } from 'node:crypto'
import type { Sharp, SharpOptions } from 'sharp'
import { VisionError } from './errors'
import { lazy } from './internal/lazy'
import type { ImagePart, RawImage, VisionImage } from './types'

type SharpFactory = (input?: Buffer | Uint8Array, options?: SharpOptions) => Sharp

const loadSharp = lazy(async (): Promise<SharpFactory> => {
  try {
    const mod = (await import('sharp')) as unknown as { default: SharpFactory }
    return mod.default
  } catch (cause) {
    throw new VisionError(
      'VISION_SDK_MISSING',
      'Image processing needs the "sharp" package, which could not be loaded.',
      {
        hint: 'Run `pnpm add sharp` (it ships prebuilt binaries for Linux, macOS and Windows).',
        cause,
      },
    )
  }
})

export function isRawImage(image: unknown): image is RawImage {
  return typeof image === 'object' && image !== null && !(image instanceof Uint8Array) && 'data' in image
}

/** Checks an image argument and says what was wrong with it. */
export function assertVisionImage(image: unknown, what = 'image'): asserts image is VisionImage {
  if (image instanceof Uint8Array) {
    if (image.byteLength === 0) throw badImage(`${what} is empty (0 bytes)`)
    return
  }
  if (isRawImage(image)) {
    const { width, height, channels, data } = image
    if (!Number.isInteger(width) || width <= 0 || !Number.isInteger(height) || height <= 0)
      throw badImage(`${what}.width/height must be positive integers, got ${width}×${height}`)
    if (![1, 2, 3, 4].includes(channels)) throw badImage(`${what}.channels must be 1, 2, 3 or 4, got ${channels}`)
    if (!(data instanceof Uint8Array) || data.byteLength !== width * height * channels)
      throw badImage(
        `${what}.data must hold width×height×channels = ${width * height * channels} bytes, got ${
          data instanceof Uint8Array ? data.byteLength : typeof data
        }`,
      )
    return
  }
  throw badImage(
    `${what} must be PNG/JPEG bytes (Uint8Array) or { width, height, data, channels }, got ${typeof image}`,
  )
}

function badImage(detail: string, cause?: unknown): VisionError {
  return new VisionError('VISION_BAD_IMAGE', `The ${detail}.`, {
    hint: 'Pass a PNG or JPEG file read as bytes, or a raw RGBA/RGB frame with its size.',
    cause,
  })
}

/** A sharp pipeline for any accepted image. */
export async function sharpOf(image: VisionImage): Promise<Sharp> {
  assertVisionImage(image)
  const sharp = await loadSharp()
  if (image instanceof Uint8Array) return sharp(image)
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
}

function formatOf(bytes: Uint8Array): 'png' | 'jpeg' | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png'
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  return undefined
}

/** Encodes any accepted image as PNG/JPEG bytes with its size (PNG/JPEG bytes are kept as they are). */
export async function toImagePart(image: VisionImage, what = 'image'): Promise<ImagePart> {
  assertVisionImage(image, what)
  const pipeline = await sharpOf(image)
  if (image instanceof Uint8Array) {
    let meta: { width?: number; height?: number }
    try {
      meta = await pipeline.metadata()
    } catch (cause) {
      throw badImage(`${what} could not be decoded (${image.byteLength} bytes, not a readable PNG/JPEG)`, cause)
    }
    const format = formatOf(image)
    if (format && meta.width && meta.height) return { bytes: image, format, width: meta.width, height: meta.height }
    const { data, info } = await pipeline.png().toBuffer({ resolveWithObject: true })
    return { bytes: new Uint8Array(data), format: 'png', width: info.width, height: info.height }
  }
  const { data, info } = await pipeline.png().toBuffer({ resolveWithObject: true })
  return { bytes: new Uint8Array(data), format: 'png', width: info.width, height: info.height }
}

/**
 * Shrinks an image so its longer side is at most `maxSide` pixels (for cost). `scale` maps coordinates in
 * the result back to the original: original = result × scale, exactly (per axis, from the real sizes).
 */
export async function downscale(
  part: ImagePart,
  maxSide: number,
): Promise<{ part: ImagePart; scale: { x: number; y: number } }> {
  if (Math.max(part.width, part.height) <= maxSide) return { part, scale: { x: 1, y: 1 } }
  const pipeline = await sharpOf(part.bytes)
  const { data, info } = await pipeline
    .resize({ width: maxSide, height: maxSide, fit: 'inside' })
    .png()
    .toBuffer({ resolveWithObject: true })
  return {
    part: { bytes: new Uint8Array(data), format: 'png', width: info.width, height: info.height },
    scale: { x: part.width / info.width, y: part.height / info.height },
  }
}

/** The square around (x, y), clamped to the image; `offset` is the crop's top-left in the original. */
export async function cropAround(
  part: ImagePart,
  x: number,
  y: number,
  radius: number,
): Promise<{ part: ImagePart; offset: { x: number; y: number } }> {
  const left = Math.max(0, Math.min(part.width - 1, Math.round(x - radius)))
  const top = Math.max(0, Math.min(part.height - 1, Math.round(y - radius)))
  const width = Math.max(1, Math.min(part.width - left, Math.round(radius * 2)))
  const height = Math.max(1, Math.min(part.height - top, Math.round(radius * 2)))
  const pipeline = await sharpOf(part.bytes)
  const data = await pipeline.extract({ left, top, width, height }).png().toBuffer()
  return { part: { bytes: new Uint8Array(data), format: 'png', width, height }, offset: { x: left, y: top } }
}

/** Greyscale pixels of the image squeezed to `width × height` (aspect ratio ignored). */
export async function greyPixels(image: VisionImage, width: number, height: number): Promise<Uint8Array> {
  const pipeline = await sharpOf(image)
  const data = await pipeline
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize({ width, height, fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer()
  // greyscale() may still leave extra channels on some inputs; keep the first of each pixel.
  const channels = data.byteLength / (width * height)
  if (channels === 1) return new Uint8Array(data)
  const out = new Uint8Array(width * height)
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels]!
  return out
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Content hash of an image: the encoded bytes, or the raw pixels with their size. */
export function imageHash(image: VisionImage): string {
  if (image instanceof Uint8Array) return sha256Hex(image)
  const h = createHash('sha256')
  h.update(`${image.width}x${image.height}x${image.channels}:`)
  h.update(image.data)
  return h.digest('hex')
}
