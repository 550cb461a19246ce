import type { BoundingBox } from '@qa/model'
import type { RgbaFrame } from './frame'

/** Side of the square tiles the screen is watched in (16 px). */
export const ANIMATION_TILE_PX = 16
/** Changes a tile needs, each between two frames with no input between them, to count as animated (4). */
export const ANIMATION_MIN_CHANGES = 4
/**
 * The time from a tile's first such change to its last, at least (1500 ms): a toolkit's fade or slide after a
 * click or a hover (LMarbles fades a menu item's highlight in and out over most of a second) changes a tile in a
 * few frames in a row and then stops; an animation keeps going.
 */
export const ANIMATION_MIN_SPAN_MS = 1500

/**
 * The tiles (`tilePx` squares, row-major index over the frame) in which any pixel differs between two frames of
 * the same size. Pure.
 */
export function changedTiles(a: RgbaFrame, b: RgbaFrame, tilePx = ANIMATION_TILE_PX): number[] {
  if (a.width !== b.width || a.height !== b.height) return []
  const w = a.width
  const cols = Math.ceil(w / tilePx)
  const pa = new Uint32Array(a.data.buffer, a.data.byteOffset, a.data.byteLength >>> 2)
  const pb = new Uint32Array(b.data.buffer, b.data.byteOffset, b.data.byteLength >>> 2)
  const out = new Set<number>()
  for (let y = 0; y < a.height; y++) {
    const row = y * w
    const tileRow = Math.floor(y / tilePx) * cols
    for (let x = 0; x < w; x++) {
      if (pa[row + x] !== pb[row + x]) {
        const col = Math.floor(x / tilePx)
        out.add(tileRow + col)
        // the rest of this tile's row is decided: jump to the next tile
        x = (col + 1) * tilePx - 1
      }
    }
  }
  return [...out].sort((p, q) => p - q)
}

/**
 * Boxes around the connected groups (4-neighbours) of `tiles` on a `width`×`height` frame cut in `tilePx` squares,
 * clipped to the frame. Pure.
 */
export function tilesToBoxes(tiles: Iterable<number>, width: number, height: number, tilePx = ANIMATION_TILE_PX) {
  const cols = Math.ceil(width / tilePx)
  const left = new Set(tiles)
  const boxes: BoundingBox[] = []
  for (const start of [...left].sort((p, q) => p - q)) {
    if (!left.has(start)) continue
    left.delete(start)
    let c0 = start % cols
    let c1 = c0
    let r0 = Math.floor(start / cols)
    let r1 = r0
    const stack = [start]
    while (stack.length) {
      const t = stack.pop() as number
      const c = t % cols
      const r = Math.floor(t / cols)
      c0 = Math.min(c0, c)
      c1 = Math.max(c1, c)
      r0 = Math.min(r0, r)
      r1 = Math.max(r1, r)
      const near = [c > 0 ? t - 1 : -1, c < cols - 1 ? t + 1 : -1, t - cols, t + cols]
      for (const n of near)
        if (n >= 0 && left.has(n)) {
          left.delete(n)
          stack.push(n)
        }
    }
    const x = c0 * tilePx
    const y = r0 * tilePx
    boxes.push({
      x,
      y,
      width: Math.min(width, (c1 + 1) * tilePx) - x,
      height: Math.min(height, (r1 + 1) * tilePx) - y,
    })
  }
  return boxes
}

export interface AnimationLearner {
  /**
   * A new frame pair: `quiet` when no input event happened between the two captures (a change then is the
   * program's own doing).
   */
  observe(previous: RgbaFrame, next: RgbaFrame, nextMs: number, quiet: boolean): number[]
  /** The tiles counted as animated between `fromMs` and `toMs` (see `regionsBetween`). */
  animatedTiles(fromMs: number, toMs: number): Set<number>
  /**
   * The animated regions seen between `fromMs` and `toMs`: tiles changed in at least `minChanges` quiet pairs
   * spread over at least `minSpanMs`.
   */
  regionsBetween(fromMs: number, toMs: number): BoundingBox[]
}

/**
 * Learns from the recorder's frame ring which parts of the screen move by themselves: a tile counts as animated
 * when it changed in at least `minChanges` quiet frame pairs of the asked time span, spread over `minSpanMs`. Late
 * drawing after a click (a board drawn in one or two goes) changes a tile once or twice, a fade for a moment; a sprite, a blinking caret or a clock keeps
 * changing. Bounded memory: observations older than `keepMs` are dropped.
 */
export function createAnimationLearner(
  opts: { tilePx?: number; minChanges?: number; minSpanMs?: number; keepMs?: number } = {},
): AnimationLearner {
  const tilePx = opts.tilePx ?? ANIMATION_TILE_PX
  const minChanges = opts.minChanges ?? ANIMATION_MIN_CHANGES
  const minSpanMs = opts.minSpanMs ?? ANIMATION_MIN_SPAN_MS
  const keepMs = opts.keepMs ?? 15_000
  const seen: { timeMs: number; tiles: number[] }[] = []
  let size = { width: 0, height: 0 }
  return {
    observe(previous, next, nextMs, quiet) {
      if (next.width !== size.width || next.height !== size.height) {
        seen.length = 0
        size = { width: next.width, height: next.height }
      }
      while (seen.length && (seen[0] as { timeMs: number }).timeMs < nextMs - keepMs) seen.shift()
      const tiles = changedTiles(previous, next, tilePx)
      if (quiet && tiles.length) seen.push({ timeMs: nextMs, tiles })
      return tiles
    },
    animatedTiles(fromMs, toMs) {
      const counts = new Map<number, { n: number; first: number; last: number }>()
      for (const s of seen) {
        if (s.timeMs < fromMs || s.timeMs > toMs) continue
        for (const t of s.tiles) {
          const c = counts.get(t)
          if (c) {
            c.n++
            c.last = s.timeMs
          } else counts.set(t, { n: 1, first: s.timeMs, last: s.timeMs })
        }
      }
      return new Set([...counts].filter(([, c]) => c.n >= minChanges && c.last - c.first >= minSpanMs).map(([t]) => t))
    },
    regionsBetween(fromMs, toMs) {
      return tilesToBoxes(this.animatedTiles(fromMs, toMs), size.width, size.height, tilePx)
    },
  }
}
