import sharp from 'sharp'
import type { Rect } from '../compare-screenshots'
import type { RawFrame } from '../decode-screenshot'
import type { RgbaImage } from '../rgba-image'

/** A screenshot-like RGBA frame: flat background, a header bar and boxes with hard and soft edges. */
export function syntheticFrame(width: number, height: number, seed = 1): RawFrame & { channels: 4 } {
  const data = new Uint8Array(width * height * 4)
  let s = seed >>> 0 || 1
  const rnd = () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = 244
    data[i * 4 + 1] = 244
    data[i * 4 + 2] = 244
    data[i * 4 + 3] = 255
  }
  const boxes = 3 + Math.floor(rnd() * 6)
  for (let k = 0; k < boxes; k++) {
    const x0 = Math.floor(rnd() * width)
    const y0 = Math.floor(rnd() * height)
    const w = 1 + Math.floor(rnd() * (width / 2))
    const h = 1 + Math.floor(rnd() * (height / 2))
    const c = [Math.floor(rnd() * 256), Math.floor(rnd() * 256), Math.floor(rnd() * 256)]
    for (let y = y0; y < Math.min(height, y0 + h); y++) {
      for (let x = x0; x < Math.min(width, x0 + w); x++) {
        const edge = x === x0 || y === y0 ? 0.5 : 1 // a soft (anti-aliased-looking) edge
        const p = (y * width + x) * 4
        for (let ch = 0; ch < 3; ch++)
          data[p + ch] = Math.round((c[ch] as number) * edge + (data[p + ch] as number) * (1 - edge))
      }
    }
  }
  return { width, height, channels: 4, data }
}

export function cloneFrame<T extends RawFrame>(f: T): T {
  return { ...f, data: new Uint8Array(f.data) }
}

export function paintRect(
  f: RawFrame,
  x0: number,
  y0: number,
  w: number,
  h: number,
  rgb: [number, number, number],
): void {
  for (let y = Math.max(0, y0); y < Math.min(f.height, y0 + h); y++) {
    for (let x = Math.max(0, x0); x < Math.min(f.width, x0 + w); x++) {
      const p = (y * f.width + x) * f.channels
      f.data[p] = rgb[0]
      f.data[p + 1] = rgb[1]
      f.data[p + 2] = rgb[2]
    }
  }
}

export function toPng(f: RawFrame, compressionLevel = 6): Promise<Buffer> {
  return sharp(f.data, { raw: { width: f.width, height: f.height, channels: f.channels } })
    .png({ compressionLevel })
    .toBuffer()
}

/** An RGB colour. */
export type Rgb = [number, number, number]

/** Fills a rectangle of an RGBA image (clipped to it) with an opaque colour. */
export function fillRect(img: RgbaImage, r: Rect, c: Rgb): void {
  const x0 = Math.max(0, r.x)
  const x1 = Math.min(img.width, r.x + r.width)
  if (x1 <= x0) return
  const row = new Uint8Array((x1 - x0) * 4)
  for (let i = 0; i < x1 - x0; i++) row.set([...c, 255], i * 4)
  for (let y = Math.max(0, r.y); y < Math.min(img.height, r.y + r.height); y++)
    img.data.set(row, (y * img.width + x0) * 4)
}
