import type { Frame } from '../image/match-template'

/** Deterministic PRNG (mulberry32) for fixtures and benchmarks. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Blocky random noise (blocks of `block` px), grey or RGBA. */
export function noiseFrame(width: number, height: number, seed: number, block = 6, channels: 1 | 4 = 4): Frame {
  const r = rng(seed)
  const bw = Math.ceil(width / block)
  const bh = Math.ceil(height / block)
  const cells = new Uint8Array(bw * bh * 3)
  for (let i = 0; i < cells.length; i++) cells[i] = Math.floor(r() * 256)
  const data = new Uint8Array(width * height * channels)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = (Math.floor(y / block) * bw + Math.floor(x / block)) * 3
      const i = (y * width + x) * channels
      if (channels === 1) data[i] = cells[c] as number
      else {
        data[i] = cells[c] as number
        data[i + 1] = cells[c + 1] as number
        data[i + 2] = cells[c + 2] as number
        data[i + 3] = 255
      }
    }
  }
  return { width, height, data, channels }
}

/** A UI-like screen: flat background, panels, buttons with text-like glyph rows. */
export function uiFrame(width: number, height: number, seed: number): Frame {
  const r = rng(seed)
  const data = new Uint8Array(width * height * 4)
  const fill = (x0: number, y0: number, w: number, h: number, c: [number, number, number]) => {
    for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y++)
      for (let x = Math.max(0, x0); x < Math.min(width, x0 + w); x++) {
        const i = (y * width + x) * 4
        data[i] = c[0]
        data[i + 1] = c[1]
        data[i + 2] = c[2]
        data[i + 3] = 255
      }
  }
  const color = (): [number, number, number] => [Math.floor(r() * 256), Math.floor(r() * 256), Math.floor(r() * 256)]
  fill(0, 0, width, height, [235, 238, 242])
  for (let k = 0; k < 40; k++)
    fill(
      Math.floor(r() * width),
      Math.floor(r() * height),
      100 + Math.floor(r() * 500),
      60 + Math.floor(r() * 300),
      color(),
    )
  for (let k = 0; k < 150; k++) {
    const bx = Math.floor(r() * width)
    const by = Math.floor(r() * height)
    const bw = 60 + Math.floor(r() * 140)
    const bh = 24 + Math.floor(r() * 30)
    fill(bx, by, bw, bh, color())
    const ink = color()
    for (let g = 0; g < bw / 10; g++)
      fill(bx + 6 + g * 9, by + bh / 2 - 5, 3 + Math.floor(r() * 5), 6 + Math.floor(r() * 6), ink)
  }
  return { width, height, data, channels: 4 }
}

/** Copies a w×h region of a frame into a new frame. */
export function cropFrame(f: Frame, x: number, y: number, w: number, h: number): Frame {
  const c = f.channels
  const data = new Uint8Array(w * h * c)
  for (let j = 0; j < h; j++)
    data.set(f.data.subarray(((y + j) * f.width + x) * c, ((y + j) * f.width + x + w) * c), j * w * c)
  return { width: w, height: h, data, channels: f.channels }
}

/** Pastes `src` scaled by `scale` (bilinear) into `dst` at (x, y); returns the pasted size. */
export function pasteScaled(
  dst: Frame,
  src: Frame,
  x: number,
  y: number,
  scale: number,
): { width: number; height: number } {
  const w = Math.round(src.width * scale)
  const h = Math.round(src.height * scale)
  const c = dst.channels
  for (let j = 0; j < h; j++) {
    const fy = Math.min(src.height - 1, Math.max(0, (j + 0.5) / scale - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(src.height - 1, y0 + 1)
    const ty = fy - y0
    for (let i = 0; i < w; i++) {
      const fx = Math.min(src.width - 1, Math.max(0, (i + 0.5) / scale - 0.5))
      const x0 = Math.floor(fx)
      const x1 = Math.min(src.width - 1, x0 + 1)
      const tx = fx - x0
      const di = ((y + j) * dst.width + x + i) * c
      if (x + i >= dst.width || y + j >= dst.height) continue
      for (let k = 0; k < c; k++) {
        const at = (xx: number, yy: number) =>
          src.data[(yy * src.width + xx) * src.channels + Math.min(k, src.channels - 1)] as number
        const v = (at(x0, y0) * (1 - tx) + at(x1, y0) * tx) * (1 - ty) + (at(x0, y1) * (1 - tx) + at(x1, y1) * tx) * ty
        dst.data[di + k] = Math.round(v)
      }
    }
  }
  return { width: w, height: h }
}
