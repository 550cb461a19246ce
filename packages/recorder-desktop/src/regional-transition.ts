import type { ScreenTransition } from '@qa/model'
import type { RgbaFrame } from './frame'

export interface RegionalTransitionOptions {
  /** The screen is cut into grid×grid tiles, each hashed on its own (default 4). */
  grid?: number
  /** A tile whose 8×8 average hashes differ in at least this many bits changed (default 5, as the whole screen did). */
  tileBits?: number
}

export interface RegionalTransition {
  changed: boolean
  transitionType: 'none' | 'partial_change' | 'scene_change'
  /** Tiles (row-major, grid×grid) that changed. */
  changedTiles: number[]
  /** The largest tile hash difference (0–64). */
  maxTileDistance: number
}

/**
 * An 8×8 average hash per tile of a grid×grid cut of the frame, as 64-character bit strings (row-major tiles).
 * Each tile's 64 cells are box averages of its luminance; a bit is set where a cell is brighter than the tile's
 * mean. One pass over the pixels. Pure.
 */
export function regionalHashes(frame: RgbaFrame, grid = 4): string[] {
  const cells = 8 * grid
  const sums = new Float64Array(cells * cells)
  const counts = new Uint32Array(cells * cells)
  const { width, height, data } = frame
  const ch = frame.channels ?? 4
  for (let y = 0; y < height; y++) {
    const cy = Math.min(cells - 1, Math.floor((y * cells) / height))
    for (let x = 0; x < width; x++) {
      const cx = Math.min(cells - 1, Math.floor((x * cells) / width))
      const p = (y * width + x) * ch
      const luma = 0.299 * (data[p] as number) + 0.587 * (data[p + 1] as number) + 0.114 * (data[p + 2] as number)
      const c = cy * cells + cx
      sums[c] = (sums[c] as number) + luma
      counts[c] = (counts[c] as number) + 1
    }
  }
  const hashes: string[] = []
  for (let ty = 0; ty < grid; ty++) {
    for (let tx = 0; tx < grid; tx++) {
      const values: number[] = []
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) {
          const c = (ty * 8 + y) * cells + tx * 8 + x
          values.push((counts[c] as number) > 0 ? (sums[c] as number) / (counts[c] as number) : 0)
        }
      const mean = values.reduce((s, v) => s + v, 0) / values.length
      hashes.push(values.map((v) => (v > mean ? '1' : '0')).join(''))
    }
  }
  return hashes
}

const bitsApart = (a: string, b: string) => {
  let d = 0
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) d++
  return d
}

/**
 * What changed between two frames, tile by tile: a whole-screen 8×8 hash cannot see a menu
 * opening on a large screen, a tile's hash can. Some tiles changed → `partial_change`; at least three quarters →
 * `scene_change`; frames of different sizes → `scene_change`. Pure.
 */
export function regionalTransition(
  before: RgbaFrame,
  after: RgbaFrame,
  opts: RegionalTransitionOptions = {},
): RegionalTransition {
  const grid = Math.max(1, Math.floor(opts.grid ?? 4))
  const tileBits = opts.tileBits ?? 5
  if (before.width !== after.width || before.height !== after.height)
    return {
      changed: true,
      transitionType: 'scene_change',
      changedTiles: Array.from({ length: grid * grid }, (_, i) => i),
      maxTileDistance: 64,
    }
  const a = regionalHashes(before, grid)
  const b = regionalHashes(after, grid)
  const distances = a.map((h, i) => bitsApart(h, b[i] as string))
  const changedTiles = distances.flatMap((d, i) => (d >= tileBits ? [i] : []))
  const share = changedTiles.length / (grid * grid)
  return {
    changed: changedTiles.length > 0,
    transitionType: changedTiles.length === 0 ? 'none' : share >= 0.75 ? 'scene_change' : 'partial_change',
    changedTiles,
    maxTileDistance: Math.max(0, ...distances),
  }
}

/** The recorded `screen_transition` of a step: decided by tiles, with the whole-screen hash distance. Pure. */
export function screenTransitionOf(before: RgbaFrame, after: RgbaFrame, wholeScreenDistance: number): ScreenTransition {
  const r = regionalTransition(before, after)
  return {
    changed: r.changed || wholeScreenDistance >= 5,
    transitionType:
      wholeScreenDistance >= 20
        ? 'scene_change'
        : r.changed
          ? r.transitionType
          : wholeScreenDistance >= 5
            ? 'partial_change'
            : 'none',
    hashDifference: wholeScreenDistance,
  }
}
