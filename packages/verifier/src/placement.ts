import type { Rect } from './compare-screenshots'
import type { RgbaImage } from './rgba-image'
import { alike } from './yiq'

/** How far a step's window moved between the recording and the replay, in pixels. */
export interface Displacement {
  x: number
  y: number
}

export const plain = (r: Rect): Rect => ({ x: r.x, y: r.y, width: r.width, height: r.height })
export const grow = (r: Rect, m: number): Rect => ({
  x: r.x - m,
  y: r.y - m,
  width: r.width + 2 * m,
  height: r.height + 2 * m,
})

/** Where a recorded pixel is looked for on the current screen, and back. */
export interface Placement {
  /** How many pixels off a recorded pixel may land (0; 1 at another scale, drawn by the program at that size). */
  reach: number
  x(recordedX: number): number
  y(recordedY: number): number
  backX(actualX: number): number
  backY(actualY: number): number
  rect(r: Rect): Rect
}

/** Where the recording had it. */
export const AS_RECORDED: Placement = {
  reach: 0,
  x: (v) => v,
  y: (v) => v,
  backX: (v) => v,
  backY: (v) => v,
  rect: (r) => plain(r),
}

/** Scales closer to 1 than this (3 %) compare pixel for pixel. */
export const SAME_SCALE = 0.03

/** Moved by the displacement and scaled about the anchor (a pixel's centre maps to the pixel it falls in). */
export function moved(d: Displacement, scale: number, anchor: Displacement): Placement {
  if (scale === 1)
    return {
      reach: 0,
      x: (v) => v + d.x,
      y: (v) => v + d.y,
      backX: (v) => v - d.x,
      backY: (v) => v - d.y,
      rect: (r) => ({ x: r.x + d.x, y: r.y + d.y, width: r.width, height: r.height }),
    }
  const fwd = (v: number, a: number, o: number) => Math.floor(a + o + (v + 0.5 - a) * scale)
  const back = (v: number, a: number, o: number) => Math.floor(a + (v + 0.5 - a - o) / scale)
  return {
    reach: Math.abs(scale - 1) < SAME_SCALE ? 0 : 1,
    x: (v) => fwd(v, anchor.x, d.x),
    y: (v) => fwd(v, anchor.y, d.y),
    backX: (v) => back(v, anchor.x, d.x),
    backY: (v) => back(v, anchor.y, d.y),
    rect: (r) => ({
      x: Math.round(anchor.x + d.x + (r.x - anchor.x) * scale),
      y: Math.round(anchor.y + d.y + (r.y - anchor.y) * scale),
      width: Math.round(r.width * scale),
      height: Math.round(r.height * scale),
    }),
  }
}

/** How far (3 px) a region mapped to another scale is looked for around its place. */
const SCALED_DRIFT = 3

/** The placement and the same shifted by up to `SCALED_DRIFT` pixels each way, nearest first. Pure. */
export function shiftsOf(o: Placement): Placement[] {
  const out: Placement[] = []
  for (let dy = -SCALED_DRIFT; dy <= SCALED_DRIFT; dy++)
    for (let dx = -SCALED_DRIFT; dx <= SCALED_DRIFT; dx++)
      out.push({
        reach: o.reach,
        x: (v) => o.x(v) + dx,
        y: (v) => o.y(v) + dy,
        backX: (v) => o.backX(v - dx),
        backY: (v) => o.backY(v - dy),
        rect: (r) => {
          const m = o.rect(r)
          return { x: m.x + dx, y: m.y + dy, width: m.width, height: m.height }
        },
      })
  return out.sort((a, b) => Math.hypot(a.x(0) - o.x(0), a.y(0) - o.y(0)) - Math.hypot(b.x(0) - o.x(0), b.y(0) - o.y(0)))
}

/**
 * The share of the recorded pixels set in `area` that the current screen shows alike as they are, at the placement
 * where most agree (1 when none can be compared). Pure.
 */
export function agreeingShare(
  recorded: RgbaImage,
  current: RgbaImage,
  area: Uint8Array,
  placements: readonly Placement[],
  maxDelta: number,
): number {
  let best = 0
  let any = false
  for (const o of placements) {
    let n = 0
    let alikeCount = 0
    for (let y = 0; y < recorded.height; y++) {
      const ay = o.y(y)
      if (ay < 0 || ay >= current.height) continue
      for (let x = 0; x < recorded.width; x++) {
        if (!area[y * recorded.width + x]) continue
        const ax = o.x(x)
        if (ax < 0 || ax >= current.width) continue
        n++
        if (alike(recorded.data, (y * recorded.width + x) * 4, current.data, (ay * current.width + ax) * 4, maxDelta))
          alikeCount++
      }
    }
    if (n > 0) {
      any = true
      best = Math.max(best, alikeCount / n)
    }
  }
  return any ? best : 1
}
