import type { BoundingBox } from '@qa/model'
import { bilinearInto } from './grey'
import type { Frame } from './match-template'

/** The pixels of `box` (inside the frame) as a frame of their own. Pure. */
export function regionOf(f: Frame, box: BoundingBox): Frame {
  const c = f.channels
  const data = new Uint8Array(box.width * box.height * c)
  for (let j = 0; j < box.height; j++) {
    const from = ((box.y + j) * f.width + box.x) * c
    data.set(f.data.subarray(from, from + box.width * c), j * box.width * c)
  }
  return { width: box.width, height: box.height, data, channels: c }
}

/** `f` resampled (bilinear, each channel) to width × height: the same frame when it has that size already. Pure. */
export function resampleBilinear(f: Frame, width: number, height: number): Frame {
  if (f.width === width && f.height === height) return f
  const data = new Uint8Array(width * height * f.channels)
  bilinearInto(f.data, f.width, f.height, f.channels, data, width, height)
  return { width, height, data, channels: f.channels }
}

/** Below this standard deviation of its luma (3 of 255), an element's centre carries no label. */
export const FLAT_SPREAD = 3

/** The standard deviation of a frame's luma. Pure. */
export function lumaSpread(f: Frame): number {
  const n = f.width * f.height
  let sum = 0
  let sq = 0
  for (let i = 0; i < n; i++) {
    const v =
      f.channels === 1
        ? (f.data[i] as number)
        : 0.299 * (f.data[i * 4] as number) +
          0.587 * (f.data[i * 4 + 1] as number) +
          0.114 * (f.data[i * 4 + 2] as number)
    sum += v
    sq += v * v
  }
  const mean = sum / n
  return Math.sqrt(Math.max(0, sq / n - mean * mean))
}

/**
 * NCC of the template against the frame's `box` resampled (bilinear, luma) to the template's size: the element
 * at a place and scale found by other means. 0 when the box leaves the frame or either side is flat. Pure.
 */
export function scoreResampled(frame: Frame, template: Frame, box: BoundingBox): number {
  if (box.x < 0 || box.y < 0 || box.x + box.width > frame.width || box.y + box.height > frame.height) return 0
  const lum = (f: Frame, x: number, y: number): number => {
    const i = y * f.width + x
    return f.channels === 1
      ? (f.data[i] as number)
      : 0.299 * (f.data[i * 4] as number) +
          0.587 * (f.data[i * 4 + 1] as number) +
          0.114 * (f.data[i * 4 + 2] as number)
  }
  const sx = box.width / template.width
  const sy = box.height / template.height
  const n = template.width * template.height
  const a = new Float64Array(n)
  const b = new Float64Array(n)
  for (let j = 0; j < template.height; j++) {
    const fy = Math.min(frame.height - 1, Math.max(0, box.y + (j + 0.5) * sy - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(frame.height - 1, y0 + 1)
    const wy = fy - y0
    for (let i = 0; i < template.width; i++) {
      const fx = Math.min(frame.width - 1, Math.max(0, box.x + (i + 0.5) * sx - 0.5))
      const x0 = Math.floor(fx)
      const x1 = Math.min(frame.width - 1, x0 + 1)
      const wx = fx - x0
      const top = lum(frame, x0, y0) * (1 - wx) + lum(frame, x1, y0) * wx
      const bottom = lum(frame, x0, y1) * (1 - wx) + lum(frame, x1, y1) * wx
      a[j * template.width + i] = lum(template, i, j)
      b[j * template.width + i] = top * (1 - wy) + bottom * wy
    }
  }
  let ma = 0
  let mb = 0
  for (let k = 0; k < n; k++) {
    ma += a[k] as number
    mb += b[k] as number
  }
  ma /= n
  mb /= n
  let ab = 0
  let aa = 0
  let bb = 0
  for (let k = 0; k < n; k++) {
    const x = (a[k] as number) - ma
    const y = (b[k] as number) - mb
    ab += x * y
    aa += x * x
    bb += y * y
  }
  return aa < 1e-6 * n || bb < 1e-6 * n ? 0 : Math.max(-1, Math.min(1, ab / Math.sqrt(aa * bb)))
}
