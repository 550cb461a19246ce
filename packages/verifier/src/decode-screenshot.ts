import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { isQaError } from '@qa/model'
import { MAX_IMAGE_FILE_BYTES, readInputFile } from '@qa/model/node'
import { VerifierError } from './errors'
import { loadSharp } from './internal/lazy-sharp'

/** A raw frame as screen capture returns it: row-major pixels, 3 (RGB) or 4 (RGBA) bytes each. */
export interface RawFrame {
  width: number
  height: number
  data: Uint8Array
  channels: 3 | 4
}

/**
 * A decoded screenshot: RGBA pixels (4-byte aligned, ready for 32-bit compares) plus, when it came from
 * encoded bytes, those bytes (so a byte-identical actual screenshot is recognised without decoding).
 * Decode each expected screenshot once and pass this object (or use a ScreenshotCache) for a whole replay.
 */
export interface DecodedScreenshot extends RawFrame {
  channels: 4
  /** The encoded file bytes this frame was decoded from (PNG/JPEG/WebP), when known. */
  bytes?: Uint8Array
  /** Where it came from (file path), for messages. */
  source?: string
}

/** A file path, the bytes of a PNG/JPEG/WebP file, or a raw frame. */
export type ScreenshotInput = string | Uint8Array | RawFrame

export function isRawFrame(input: unknown): input is RawFrame {
  return (
    typeof input === 'object' && input !== null && !ArrayBuffer.isView(input) && 'data' in input && 'width' in input
  )
}

function label(input: ScreenshotInput, fallback: string): string {
  return typeof input === 'string' ? input : fallback
}

/** Where screenshot files may be read from (`qa report` embeds only the images in the report's folder). */
export interface ReadImageOptions {
  /** The file must lie in this folder (symlinks resolved); a path leading out of it is refused. */
  root?: string
  /** The root as the person knows it, for messages: "the report's folder". */
  rootLabel?: string
}

/**
 * Reads a screenshot file by the one rule for files an input names (`readInputFile` of @qa/model/node): only a
 * regular file of at most MAX_IMAGE_FILE_BYTES (and inside `root` when given) is read, so a device or pipe given as
 * a screenshot (`/dev/zero`) is refused before reading. Errors are VerifierErrors naming the file.
 */
export async function readImageFile(path: string, opts: ReadImageOptions = {}): Promise<Buffer> {
  try {
    return await readInputFile(path, { what: 'screenshot file', maxBytes: MAX_IMAGE_FILE_BYTES, ...opts })
  } catch (cause) {
    if (!isQaError(cause)) throw fileError(path, cause)
    throw new VerifierError(
      cause.code === 'MODEL_FILE_NOT_FOUND' ? 'VERIFIER_FILE_NOT_FOUND' : 'VERIFIER_FILE_UNREADABLE',
      cause.message,
      { ...(cause.hint ? { hint: cause.hint } : {}), cause },
    )
  }
}

function fileError(path: string, cause: unknown): VerifierError {
  const code = (cause as NodeJS.ErrnoException).code
  if (code === 'ENOENT') {
    return new VerifierError('VERIFIER_FILE_NOT_FOUND', `${path}: no such screenshot file.`, {
      hint: 'Check the path (relative paths are resolved from the current folder).',
      cause,
    })
  }
  return new VerifierError(
    'VERIFIER_FILE_UNREADABLE',
    `${path}: the screenshot could not be read (${code ?? String(cause)}).`,
    {
      hint: 'Check that it is a readable file, not a folder, and that you have permission to read it.',
      cause,
    },
  )
}

/**
 * Reads a file only when its size equals `size` (else returns undefined): a synchronous, allocation-light read used
 * to detect a byte-identical actual screenshot in well under a millisecond.
 */
export function readFileIfSize(path: string, size: number, scratch: { buf?: Buffer }): Buffer | undefined {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (cause) {
    throw fileError(path, cause)
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw fileError(path, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }))
    if (st.size !== size) return undefined
    if (!scratch.buf || scratch.buf.length < size) scratch.buf = Buffer.allocUnsafe(Math.max(size, 1 << 16))
    let read = 0
    while (read < size) {
      const n = readSync(fd, scratch.buf, read, size - read, read)
      if (n === 0) return undefined
      read += n
    }
    return scratch.buf.subarray(0, size)
  } finally {
    closeSync(fd)
  }
}

type Format = 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff' | 'other'

function sniff(bytes: Uint8Array): Format | undefined {
  const b = bytes
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png'
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg'
  if (
    b.length >= 12 &&
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45
  )
    return 'webp'
  if (b.length >= 4 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return 'gif'
  if (b.length >= 4 && ((b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d))) return 'tiff'
  return undefined
}

/**
 * The most pixels a screenshot may have (100 megapixels: an 8K screen has 33, a 1920-wide page 50,000 px tall 96).
 * It is checked from the image's header, before decoding: a 20000×20000 PNG of a few KB would need 1.6 GB.
 */
export const MAX_IMAGE_PIXELS = 100_000_000

/** Refuses an image whose header says it has more than MAX_IMAGE_PIXELS, before a pixel is decoded. */
export async function assertImagePixels(bytes: Uint8Array, name: string): Promise<void> {
  const sharp = await loadSharp()
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => null) // an unreadable header is the decoder's to report
  const pixels = (meta?.width ?? 0) * (meta?.height ?? 0)
  if (pixels > MAX_IMAGE_PIXELS)
    throw new VerifierError(
      'VERIFIER_IMAGE_TOO_LARGE',
      `${name} is a ${meta?.width}×${meta?.height} ${(meta?.format ?? 'image').toUpperCase()} (${(pixels / 1e6).toFixed(1)} megapixels); a screenshot may have at most ${MAX_IMAGE_PIXELS / 1e6} megapixels, so it was not decoded.`,
      { hint: 'Check that the step names the screenshot you meant; capture screens at their real size.' },
    )
}

/** Decodes encoded image bytes to an aligned RGBA frame. */
export async function decodeImageBytes(bytes: Uint8Array, name: string): Promise<DecodedScreenshot> {
  if (bytes.length === 0) {
    throw new VerifierError('VERIFIER_EMPTY_IMAGE', `${name}: the screenshot is empty (0 bytes).`, {
      hint: 'Capture the screenshot again; the file was probably written while the capture failed.',
    })
  }
  const format = sniff(bytes)
  if (!format) {
    throw new VerifierError('VERIFIER_NOT_AN_IMAGE', `${name}: not an image (expected PNG, JPEG or WebP bytes).`, {
      hint: 'Pass the path of a PNG, JPEG or WebP screenshot.',
    })
  }
  await assertImagePixels(bytes, name)
  const sharp = await loadSharp()
  let out: { data: Buffer; info: { width: number; height: number; channels: number } }
  try {
    out = await sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_IMAGE_PIXELS })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
  } catch (cause) {
    throw new VerifierError(
      'VERIFIER_CORRUPT_IMAGE',
      `${name}: the ${format.toUpperCase()} image could not be decoded (${firstLine(cause)}).`,
      { hint: 'The file is probably truncated or damaged; capture the screenshot again.', cause },
    )
  }
  const { width, height } = out.info
  if (width === 0 || height === 0) {
    throw new VerifierError('VERIFIER_EMPTY_IMAGE', `${name}: the image has no pixels (${width}×${height}).`, {
      hint: 'Capture the screenshot again.',
    })
  }
  return { width, height, channels: 4, data: aligned(out.data), bytes, source: name }
}

function firstLine(e: unknown): string {
  return (String(e instanceof Error ? e.message : e).split('\n')[0] ?? '').replace(/[\s:]+$/, '')
}

/** Returns the data itself when its offset allows 32-bit views, else an aligned copy. */
function aligned(data: Uint8Array): Uint8Array {
  return data.byteOffset % 4 === 0 ? data : new Uint8Array(data)
}

/** Validates a raw frame and returns it as aligned RGBA (RGB frames get an opaque alpha channel). */
export function normalizeRawFrame(frame: RawFrame, name = 'raw frame'): DecodedScreenshot {
  const { width, height, channels, data } = frame
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new VerifierError(
      'VERIFIER_EMPTY_IMAGE',
      `${name}: width and height must be positive integers, got ${width}×${height}.`,
      {
        hint: 'Pass the frame exactly as the screen capture returned it.',
      },
    )
  }
  if (channels !== 3 && channels !== 4) {
    throw new VerifierError(
      'VERIFIER_BAD_FRAME',
      `${name}: channels must be 3 (RGB) or 4 (RGBA), got ${String(channels)}.`,
      {
        hint: 'Convert the frame to RGB or RGBA first.',
      },
    )
  }
  if (!ArrayBuffer.isView(data) || data.BYTES_PER_ELEMENT !== 1 || data.length !== width * height * channels) {
    throw new VerifierError(
      'VERIFIER_BAD_FRAME',
      `${name}: expected ${width * height * channels} bytes for ${width}×${height}×${channels}, got ${
        ArrayBuffer.isView(data) ? data.byteLength : typeof data
      }.`,
      { hint: 'Pass a Uint8Array with one byte per channel, rows top to bottom, no padding.' },
    )
  }
  if (channels === 4) {
    const bytes = (frame as DecodedScreenshot).bytes
    const source = (frame as DecodedScreenshot).source
    return {
      width,
      height,
      channels: 4,
      data: aligned(data),
      ...(bytes ? { bytes } : {}),
      ...(source ? { source } : {}),
    }
  }
  const rgba = new Uint8Array(width * height * 4)
  for (let i = 0, j = 0; i < data.length; i += 3, j += 4) {
    rgba[j] = data[i] as number
    rgba[j + 1] = data[i + 1] as number
    rgba[j + 2] = data[i + 2] as number
    rgba[j + 3] = 255
  }
  return { width, height, channels: 4, data: rgba }
}

/**
 * Decodes any screenshot input once into a reusable DecodedScreenshot (aligned RGBA + the original bytes).
 * Throws VerifierError (VERIFIER_FILE_NOT_FOUND, VERIFIER_EMPTY_IMAGE, VERIFIER_NOT_AN_IMAGE, VERIFIER_CORRUPT_IMAGE,
 * VERIFIER_BAD_FRAME) for bad input.
 */
export async function decodeScreenshot(input: ScreenshotInput, name?: string): Promise<DecodedScreenshot> {
  if (typeof input === 'string') return decodeImageBytes(await readImageFile(input), input)
  if (isRawFrame(input)) return normalizeRawFrame(input, name ?? 'raw frame')
  if (input instanceof Uint8Array) return decodeImageBytes(input, name ?? label(input, 'image bytes'))
  throw new VerifierError(
    'VERIFIER_BAD_FRAME',
    `${name ?? 'screenshot'}: expected a file path, image bytes or a raw frame.`,
    {
      hint: 'Pass a path string, a Buffer/Uint8Array of PNG/JPEG/WebP bytes, or { width, height, data, channels }.',
    },
  )
}
