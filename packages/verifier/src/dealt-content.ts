import { bounds, changeMask, DEFAULT_THRESHOLD, forEachSet } from './change-mask'
import type { Rect } from './compare-screenshots'
import type { Placement } from './placement'
import type { RgbaImage } from './rgba-image'
import type { WindowPlace } from './window-layout'
import { alike, maxDeltaOf, yiqDelta } from './yiq'

/**
 * A step whose effect lands on content the program deals anew each run (a random puzzle, a shuffled deck): the
 * replayed program showed other content than the recorded one before the step, so the recorded after-frame cannot be
 * expected pixel for pixel, nor its change at the same places. What can be compared is the change itself: as much of
 * the screen changed, from the same colours to the same colours (a new deal empties other cells of the board, the
 * same way).
 */
export interface DealtContentInput {
  recordedBefore: RgbaImage
  recordedAfter: RgbaImage
  actualBefore: RgbaImage
  actualAfter: RgbaImage
  /** What the recorded step changed (recorded-screen pixels, 1 = changed). */
  recordedChange: Uint8Array
  /** Where a recorded pixel is on the current screen (the step's displacement and scale). */
  placement: Placement
  /** The program's scale now against the recording (1: the same size). */
  scale?: number
  /**
   * How much larger in area the program's window is now (its content drawn with it: a board in a window 1.4× as
   * large each way changes about 1.96× as many pixels). Default: scale².
   */
  areaScale?: number
  /** Recorded-screen boxes never compared (masks, moving parts). */
  ignore?: readonly Rect[]
  threshold?: number
  /**
   * The program's window, recorded and now (the one the step's menu lies over): when its most common colour differs
   * (another theme or palette), the change's colours are also compared by their roles in the window's palette.
   */
  programWindow?: WindowPlace | null
}

export interface DealtContentResult {
  /** Share of the recorded change's box that already looked otherwise before the replayed step (other content). */
  otherContentShare: number
  /** Pixels the replayed step changed over those the recorded one changed (at the recorded scale and window size). */
  changeRatio: number
  /** How alike the two changes are in colour: the overlap of their (before colour → after colour) histograms, 0–1. */
  transitionAgreement: number
  /**
   * Under another palette (the program window's most common colour differs): the same overlap with every colour
   * taken as the nearest of its window's four most common colours, by rank (the window's ground, the next, …): a
   * theme recolours the roles, not the layout. Null in the recorded palette.
   */
  paletteAgreement: number | null
  /** The program showed other content, and the replayed step changed it as the recorded one changed its own. */
  alike: boolean
}

/** The program showed other content when at least this share (10 %) of the change's box differed before the step. */
export const OTHER_CONTENT_SHARE = 0.1
/**
 * As much changed: the replayed step's change within 0.8–1.25 of the recorded one's (flsudoku's Medium: 0.92–1.16 over
 * seven replays). Narrow on purpose: another choice in the same menu changes the board by another amount (KMines'
 * Medium board for a Hard one is about 0.6 of its change).
 */
export const CHANGE_RATIO_RANGE: readonly [number, number] = [0.8, 1.25]
/** The same kind of change: the colour transitions overlap at least this much (0.85). */
export const TRANSITION_AGREEMENT = 0.85
/**
 * Under another palette, the transitions between the window's principal colours by rank overlap at least this much
 * (0.7): a theme keeps the ranks of the areas (ground, cells) and may reorder the thin ink (flsudoku's dark colours:
 * 0.73–0.77 over five replays; the same change the other way, cells filled instead of emptied, 0.19).
 */
export const PALETTE_AGREEMENT = 0.7
/** A window's palette: its four most common colours (3 bits a channel), as the mean of their pixels. */
const PRINCIPAL_COLOURS = 4

/** A colour in 3 bits a channel (512 bins): close shades are one colour. */
const bin = (D: Uint8Array, p: number) =>
  (((D[p] as number) >> 5) << 6) | (((D[p + 1] as number) >> 5) << 3) | ((D[p + 2] as number) >> 5)

/** The normalised histogram of (before colour → after colour) over the set pixels of `mask`. */
function transitions(before: RgbaImage, after: RgbaImage, mask: Uint8Array): Map<number, number> {
  const h = new Map<number, number>()
  let n = 0
  forEachSet(mask, (i) => {
    const k = bin(before.data, i * 4) * 512 + bin(after.data, i * 4)
    h.set(k, (h.get(k) ?? 0) + 1)
    n++
  })
  if (n > 0) for (const [k, v] of h) h.set(k, v / n)
  return h
}

/** The window's most common colours (see `PRINCIPAL_COLOURS`), most common first, as RGB triples. */
function principalColours(image: RgbaImage, box: Rect): Uint8Array[] {
  const [x0, y0, x1, y1] = bounds(box, image.width, image.height)
  const sums = new Map<number, [number, number, number, number]>()
  const D = image.data
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const p = (y * image.width + x) * 4
      const k = bin(D, p)
      const e = sums.get(k) ?? [0, 0, 0, 0]
      e[0]++
      e[1] += D[p] as number
      e[2] += D[p + 1] as number
      e[3] += D[p + 2] as number
      sums.set(k, e)
    }
  return [...sums.values()]
    .sort((a, b) => b[0] - a[0])
    .slice(0, PRINCIPAL_COLOURS)
    .map(([n, r, g, b]) => Uint8Array.of(Math.round(r / n), Math.round(g / n), Math.round(b / n)))
}

/** The rank of the principal colour nearest to the pixel at `p` (RGB distance). */
function nearestRank(palette: readonly Uint8Array[], D: Uint8Array, p: number): number {
  let best = 0
  let bestDistance = Number.POSITIVE_INFINITY
  palette.forEach((c, k) => {
    const d =
      ((c[0] as number) - (D[p] as number)) ** 2 +
      ((c[1] as number) - (D[p + 1] as number)) ** 2 +
      ((c[2] as number) - (D[p + 2] as number)) ** 2
    if (d < bestDistance) {
      best = k
      bestDistance = d
    }
  })
  return best
}

/** The normalised histogram of (before rank → after rank) in the window's palette over the set pixels of `mask`. */
function rankTransitions(
  before: RgbaImage,
  after: RgbaImage,
  mask: Uint8Array,
  palette: readonly Uint8Array[],
): Map<number, number> {
  const h = new Map<number, number>()
  let n = 0
  forEachSet(mask, (i) => {
    const k = nearestRank(palette, before.data, i * 4) * PRINCIPAL_COLOURS + nearestRank(palette, after.data, i * 4)
    h.set(k, (h.get(k) ?? 0) + 1)
    n++
  })
  if (n > 0) for (const [k, v] of h) h.set(k, v / n)
  return h
}

const overlapOf = (p: Map<number, number>, q: Map<number, number>) => {
  let s = 0
  for (const [k, v] of p) s += Math.min(v, q.get(k) ?? 0)
  return s
}

/**
 * Whether a step changed content the program dealt anew as the recorded step changed its own (see
 * `DealtContentInput`): before the step at least 10 % of the recorded change's box looked otherwise on the current
 * screen (other content: a random puzzle), the replayed step changed 0.8–1.25 as many pixels (at the recorded
 * scale), and the colours it changed from and to agree with the recorded step's (histogram overlap ≥ 0.85). A step
 * that changed nothing, or far less (a menu closed, no new deal), or something else (other colours) is not alike.
 * Pure.
 */
export function compareDealtContent(input: DealtContentInput): DealtContentResult {
  const rb = input.recordedBefore
  const ab = input.actualBefore
  const threshold = input.threshold ?? DEFAULT_THRESHOLD
  const maxDelta = maxDeltaOf(threshold)
  const o = input.placement
  const scale = input.scale && input.scale > 0 ? input.scale : 1
  const W = rb.width
  const H = rb.height
  // the recorded change and its box
  let recorded = 0
  let x0 = W
  let y0 = H
  let x1 = -1
  let y1 = -1
  forEachSet(input.recordedChange, (i) => {
    recorded++
    const x = i % W
    const y = (i - x) / W
    if (x < x0) x0 = x
    if (x > x1) x1 = x
    if (y < y0) y0 = y
    if (y > y1) y1 = y
  })
  const none = { otherContentShare: 0, changeRatio: 0, transitionAgreement: 0, paletteAgreement: null, alike: false }
  if (recorded === 0) return none
  // before the step: how much of that box looked otherwise now
  let compared = 0
  let other = 0
  for (let y = y0; y <= y1; y++) {
    const ay = o.y(y)
    if (ay < 0 || ay >= ab.height) continue
    for (let x = x0; x <= x1; x++) {
      const ax = o.x(x)
      if (ax < 0 || ax >= ab.width) continue
      compared++
      if (!alike(rb.data, (y * W + x) * 4, ab.data, (ay * ab.width + ax) * 4, maxDelta)) other++
    }
  }
  const otherContentShare = compared ? other / compared : 0
  // the replayed step's change, in the same area (the recorded change's box where the placement puts it, grown by
  // half its size each way: a new deal may change other places of the same board)
  const box: Rect = o.rect({ x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 })
  const area: Rect = {
    x: box.x - Math.round(box.width / 2),
    y: box.y - Math.round(box.height / 2),
    width: box.width * 2,
    height: box.height * 2,
  }
  const actualChange = changeMask(ab, input.actualAfter, {
    threshold,
    ...(input.ignore?.length ? { ignore: input.ignore.map((r) => o.rect(r)) } : {}),
  })
  const [ax0, ay0, ax1, ay1] = bounds(area, ab.width, ab.height)
  const inArea = new Uint8Array(actualChange.length)
  let changed = 0
  for (let y = ay0; y < ay1; y++)
    for (let x = ax0; x < ax1; x++) {
      const i = y * ab.width + x
      if (actualChange[i]) {
        inArea[i] = 1
        changed++
      }
    }
  const areaScale = input.areaScale && input.areaScale > 0 ? input.areaScale : scale * scale
  const changeRatio = changed / (recorded * areaScale)
  const r = transitions(rb, input.recordedAfter, input.recordedChange)
  const a = transitions(ab, input.actualAfter, inArea)
  const transitionAgreement = overlapOf(r, a)
  // another palette: the window's ground is another colour now; the change compared by the colours' roles
  let paletteAgreement: number | null = null
  const win = input.programWindow
  if (win && win.recorded.width > 0 && win.recorded.height > 0 && win.now.width > 0 && win.now.height > 0) {
    const was = principalColours(rb, win.recorded)
    const is = principalColours(ab, win.now)
    if (was.length && is.length && yiqDelta(was[0] as Uint8Array, 0, is[0] as Uint8Array, 0) > maxDelta)
      paletteAgreement = overlapOf(
        rankTransitions(rb, input.recordedAfter, input.recordedChange, was),
        rankTransitions(ab, input.actualAfter, inArea, is),
      )
  }
  return {
    otherContentShare,
    changeRatio,
    transitionAgreement,
    paletteAgreement,
    alike:
      otherContentShare >= OTHER_CONTENT_SHARE &&
      changeRatio >= (CHANGE_RATIO_RANGE[0] as number) &&
      changeRatio <= (CHANGE_RATIO_RANGE[1] as number) &&
      (transitionAgreement >= TRANSITION_AGREEMENT ||
        (paletteAgreement !== null && paletteAgreement >= PALETTE_AGREEMENT)),
  }
}
