import type { Frame } from './match-template'

/**
 * The frame's structure: how strongly its luma changes at each pixel (the gradient's magnitude, Sobel), spread
 * over a 3×3 box so a one-pixel shift of a line still overlaps, as a grey frame (`channels: 1`). A theme or palette
 * change repaints every pixel and keeps the edges where they were: dark-on-light text and light-on-dark text give
 * the same structure, and a button recoloured from grey to blue keeps its outline and its label's strokes. NCC on
 * two structure frames compares layout and glyphs, not colours (a program whose theme or colours changed is still the same program). Pure.
 */
export function structureFrame(frame: Frame): Frame {
  const { width: w, height: h } = frame
  const luma = new Float32Array(w * h)
  for (let i = 0; i < w * h; i++) {
    luma[i] =
      frame.channels === 1
        ? (frame.data[i] as number)
        : 0.299 * (frame.data[i * 4] as number) +
          0.587 * (frame.data[i * 4 + 1] as number) +
          0.114 * (frame.data[i * 4 + 2] as number)
  }
  const at = (x: number, y: number) =>
    luma[Math.min(h - 1, Math.max(0, y)) * w + Math.min(w - 1, Math.max(0, x))] as number
  const magnitude = new Float32Array(w * h)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const gx =
        at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1)
      const gy =
        at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1)
      magnitude[y * w + x] = Math.hypot(gx, gy)
    }
  }
  // a 3×3 box spread (separable), then 0–255: the largest possible Sobel magnitude is 4·255·√2
  const across = new Float32Array(w * h)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0
      for (let dx = -1; dx <= 1; dx++) s += magnitude[y * w + Math.min(w - 1, Math.max(0, x + dx))] as number
      across[y * w + x] = s / 3
    }
  }
  const data = new Uint8Array(w * h)
  const scale = 255 / (4 * 255 * Math.SQRT2)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0
      for (let dy = -1; dy <= 1; dy++) s += across[Math.min(h - 1, Math.max(0, y + dy)) * w + x] as number
      // a square root lifts faint strokes (anti-aliased text, a 1-px border) against strong ones
      data[y * w + x] = Math.min(255, Math.round(255 * Math.sqrt(((s / 3) * scale) / 255)))
    }
  }
  return { width: w, height: h, data, channels: 1 }
}
