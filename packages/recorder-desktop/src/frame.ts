import type { BoundingBox } from '@qa/model'
import { DesktopError } from './errors'

/** A raw RGBA screen frame (the shape @qa/matcher, @qa/vision and @qa/verifier all accept). */
export interface RgbaFrame {
  width: number
  height: number
  data: Uint8Array
  channels: 4
}

/** Converts a BGRA buffer (X11 / nut-js byte order) into a new RGBA frame. */
export function bgraToRgba(width: number, height: number, bgra: Uint8Array, byteWidth = width * 4): RgbaFrame {
  const out = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++) {
    let s = y * byteWidth
    let d = y * width * 4
    for (let x = 0; x < width; x++, s += 4, d += 4) {
      out[d] = bgra[s + 2] as number
      out[d + 1] = bgra[s + 1] as number
      out[d + 2] = bgra[s] as number
      out[d + 3] = 255
    }
  }
  return { width, height, data: out, channels: 4 }
}

/** The box clipped to the frame; null when nothing is left. */
export function clipBox(box: BoundingBox, width: number, height: number): BoundingBox | null {
  const x = Math.max(0, Math.round(box.x))
  const y = Math.max(0, Math.round(box.y))
  const r = Math.min(width, Math.round(box.x + box.width))
  const b = Math.min(height, Math.round(box.y + box.height))
  if (r <= x || b <= y) return null
  return { x, y, width: r - x, height: b - y }
}

/** A box of `width`×`height` centred on the point and shifted to stay inside the frame. */
export function boxAround(
  x: number,
  y: number,
  width: number,
  height: number,
  frame: { width: number; height: number },
): BoundingBox {
  const w = Math.min(width, frame.width)
  const h = Math.min(height, frame.height)
  const left = Math.min(Math.max(0, Math.round(x - w / 2)), frame.width - w)
  const top = Math.min(Math.max(0, Math.round(y - h / 2)), frame.height - h)
  return { x: left, y: top, width: w, height: h }
}

/** Copies a rectangle out of a frame (clipped). */
export function cropFrame(frame: RgbaFrame, box: BoundingBox): RgbaFrame {
  const c = clipBox(box, frame.width, frame.height)
  if (!c)
    throw new DesktopError('DESKTOP_BAD_OPTION', `The crop box lies outside the ${frame.width}×${frame.height} frame.`)
  const out = new Uint8Array(c.width * c.height * 4)
  for (let row = 0; row < c.height; row++) {
    const s = ((c.y + row) * frame.width + c.x) * 4
    out.set(frame.data.subarray(s, s + c.width * 4), row * c.width * 4)
  }
  return { width: c.width, height: c.height, data: out, channels: 4 }
}

/** True when both frames have the same size and bytes. */
export function framesEqual(a: RgbaFrame, b: RgbaFrame): boolean {
  if (a.width !== b.width || a.height !== b.height || a.data.length !== b.data.length) return false
  return Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(
    Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength),
  )
}

type Sharp = typeof import('sharp').default
let sharpModule: Promise<Sharp> | undefined
async function loadSharp(): Promise<Sharp> {
  sharpModule ??= import('sharp')
    .then((m) => (m as unknown as { default: Sharp }).default)
    .catch((cause) => {
      sharpModule = undefined
      throw new DesktopError('DESKTOP_NATIVE_MISSING', 'sharp could not be loaded to encode screenshots.', {
        hint: 'Reinstall dependencies (`pnpm install`); sharp ships prebuilt binaries for Linux x64.',
        cause,
      })
    })
  return sharpModule
}

/** PNG bytes of a frame (zlib level 1: screenshots are written while recording). */
export async function encodePng(frame: RgbaFrame, compressionLevel = 1): Promise<Uint8Array> {
  const sharp = await loadSharp()
  const buf = await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 4 } })
    .png({ compressionLevel })
    .toBuffer()
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength)
}

/** Decodes PNG/JPEG bytes (or a file path) into an RGBA frame. */
export async function decodeImage(input: Uint8Array | string): Promise<RgbaFrame> {
  const sharp = await loadSharp()
  const { data, info } = await sharp(input).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    channels: 4,
  }
}
