import type { Rect } from './compare-screenshots'
import { learnPalette, type PaletteSummary, paletteCannotApply, recolour } from './palette-transfer'
import { alike, maxDeltaOf, yiqDelta } from './yiq'

/** RGBA pixels, row-major, 4 bytes each (a DecodedScreenshot fits). */
export interface RgbaImage {
  width: number
  height: number
  data: Uint8Array
}

export interface Displacement {
  x: number
  y: number
}

export interface ChangeMaskOptions {
  /** Colour threshold 0–1 as in pixelmatch (YIQ distance); smaller is stricter. Default 0.1. */
  threshold?: number
  /** Rectangles (in `a`'s pixels) never counted as changed: clocks, counters, carets. */
  ignore?: readonly Rect[]
}

export interface ChangedRegionOptions {
  /** Side of the grid cells changed pixels are grouped by (default 8 px). */
  cellSize?: number
  /** Changed cells at most this many cells apart form one region (default 2). */
  gapCells?: number
  /** At most this many regions; the smallest are merged into one box (default 8). */
  maxRegions?: number
}

export interface ExpectedChangeInput {
  /** The recorded frame before the step (what its change is measured from); null: only the target box is checked. */
  recordedBefore?: RgbaImage | null
  /** The recorded after-frame: what the step should leave on the screen. */
  recordedAfter: RgbaImage
  /** The screen after the replayed step. */
  actualAfter: RgbaImage
  /** The screen just before the replayed step ran: needed to see a change somewhere else instead. */
  actualBefore?: RgbaImage | null
  /** How far the target moved between recording and replay (replayed point − recorded point). Default 0,0. */
  displacement?: Displacement | null
  /**
   * How much larger the program is drawn now than when recorded (a template match at 1.25×: 1.25; a replay
   * screen of another size), about `anchor`: a recorded pixel p is compared with the current pixel at
   * anchor + displacement + (p − anchor) × scale. Default 1: only moved.
   */
  scale?: number | null
  /** The recorded point the scale is taken about: the step's recorded target point. Default (0, 0). */
  anchor?: Displacement | null
  /** The target element's box on the recorded screen, checked with the changed regions. */
  targetBox?: Rect | null
  /**
   * Boxes on the recorded screen whose change is not this step's effect: the previous step's target losing its
   * hover or focus look when the pointer moved on. Changed regions inside them are left out.
   */
  notEffects?: readonly Rect[]
  /**
   * The target element's box on the current screen, when the replay located it: its own look may change during
   * the step (hover, focus, pressed) without that counting as a change elsewhere.
   */
  actualTargetBox?: Rect | null
  /**
   * Boxes on the recorded screen of elements the step brought under the resting pointer (a menu closed and the
   * button behind it is where the pointer is): whether they show their hover look depends on when the browser
   * updated it (a person's waits for the pointer to move; a replay's may not). Each is compared through a colour
   * map of its own when one explains it — a hover recolours an element, another element reshapes it.
   */
  restingHover?: readonly Rect[]
  /** Rectangles of the recorded screen never compared (masks). */
  ignore?: readonly Rect[]
  /** Colour threshold 0–1 (pixelmatch's). Default 0.1. */
  threshold?: number
  /** Fewer changed pixels than this are no expected change (default 16) and no unexpected one (default 64). */
  minExpectedPixels?: number
  minUnexpectedPixels?: number
  /** Pixels around the expected regions a change may spill into without counting as elsewhere (default 8). */
  marginPx?: number
}

export interface ExpectedChangeResult {
  /** Where the recorded step changed the screen (before → after), plus the target box; recorded-screen pixels. */
  expectedRegions: Rect[]
  /** The bounding box of `expectedRegions` (recorded screen), or null when there is nothing to compare. */
  expectedRegion: Rect | null
  /** The same box on the current screen (moved by the displacement, scaled by the scale). */
  actualRegion: Rect | null
  displacement: Displacement
  /** The scale the regions were mapped with (1: only moved). */
  scale: number
  /** Pixels compared inside the regions. */
  comparedPixels: number
  /** Pixels that changed between the recorded before and after frames, inside the regions. */
  expectedChangedPixels: number
  /** Pixels inside the regions where the current screen differs from the recorded after-frame. */
  differingPixels: number
  /** 1 − differing / compared: plain similarity of the regions. */
  pixelSimilarity: number
  /**
   * 1 − differing / (expected change ∪ differing): how much of the change the step should make (or made instead)
   * agrees with the recorded after-frame; null when the recorded step changed (almost) nothing.
   */
  changeSimilarity: number | null
  /** The score the verdict uses: changeSimilarity when the step had a change to make, else pixelSimilarity. */
  regionSimilarity: number
  /** Share of the expected change whose pixels still look as before the step (1: the change did not happen). */
  unchangedShare: number | null
  /** Current-screen boxes that changed during the step, outside the expected regions, unlike the recording. */
  unexpectedRegions: Rect[]
  unexpectedPixels: number
  /** unexpectedPixels ≥ minUnexpectedPixels. */
  changedElsewhere: boolean
  /** The recorded step changed at least minExpectedPixels (changeSimilarity is set). */
  hadExpectedChange: boolean
  /** The recorded change did not happen: at least 80 % of it still looks as before the step. */
  expectedChangeMissing: boolean
  /**
   * The colour map learned from the two before-frames (a palette or theme change), null without both of them.
   * When `applied`, every recorded pixel above was compared in its current colour (a colour the map never saw
   * as it was recorded).
   */
  palette: PaletteSummary | null
}

const DEFAULT_THRESHOLD = 0.1
/** How far around the expected regions the palette of the before-frames is learned (recorded pixels). */
const PALETTE_MARGIN_PX = 64
/** A control under the resting pointer is compared through its own colour map when it explains this share of it. */
const HOVER_EXPLAINED = 0.98
/**
 * Before-frames that agree on this share of the learning area outside the target's box are one palette: what
 * differs on the target is its own look (lit by a person's resting pointer when recorded, not yet by the replay's).
 */
const SAME_PALETTE_BESIDE_TARGET = 0.98
/** A colour map that shows more than this share of the step's change in one colour before and after is not used. */
const MAX_HIDDEN_CHANGE = 0.5

/** Integer bounds [x0, y0, x1, y1) of a rectangle clipped to w×h. */
function bounds(r: Rect, w: number, h: number): [number, number, number, number] {
  const x0 = Math.max(0, Math.floor(r.x))
  const y0 = Math.max(0, Math.floor(r.y))
  const x1 = Math.min(w, Math.ceil(r.x + r.width))
  const y1 = Math.min(h, Math.ceil(r.y + r.height))
  return [x0, y0, Math.max(x0, x1), Math.max(y0, y1)]
}

function paint(mask: Uint8Array, w: number, h: number, rects: readonly Rect[], value: number): void {
  for (const r of rects) {
    const [x0, y0, x1, y1] = bounds(r, w, h)
    for (let y = y0; y < y1; y++) mask.fill(value, y * w + x0, y * w + x1)
  }
}

/** 1 where the two same-sized images differ in colour (pixelmatch's YIQ distance above the threshold). Pure. */
export function changeMask(a: RgbaImage, b: RgbaImage, opts: ChangeMaskOptions = {}): Uint8Array {
  if (a.width !== b.width || a.height !== b.height)
    throw new RangeError(`changeMask: sizes differ (${a.width}×${a.height} vs ${b.width}×${b.height})`)
  const { width: w, height: h } = a
  const mask = new Uint8Array(w * h)
  const maxDelta = maxDeltaOf(opts.threshold ?? DEFAULT_THRESHOLD)
  const A = a.data
  const B = b.data
  for (let i = 0, p = 0; i < w * h; i++, p += 4) {
    if (A[p] === B[p] && A[p + 1] === B[p + 1] && A[p + 2] === B[p + 2]) continue
    if (yiqDelta(A, p, B, p) > maxDelta) mask[i] = 1
  }
  if (opts.ignore?.length) paint(mask, w, h, opts.ignore, 0)
  return mask
}

/**
 * Groups the set pixels of a mask into boxes: pixels in grid cells at most `gapCells` apart belong together
 * (a changed label and its caret are one region; a menu across the screen is another). Largest first. Pure.
 */
export function changedRegions(
  mask: Uint8Array,
  width: number,
  height: number,
  opts: ChangedRegionOptions = {},
): (Rect & { pixels: number })[] {
  const cell = Math.max(1, Math.floor(opts.cellSize ?? 8))
  const gap = Math.max(0, Math.floor(opts.gapCells ?? 2))
  const maxRegions = Math.max(1, Math.floor(opts.maxRegions ?? 8))
  const cw = Math.ceil(width / cell)
  const ch = Math.ceil(height / cell)
  // per cell: pixel count and tight bounds of its set pixels
  const count = new Int32Array(cw * ch)
  const minX = new Int32Array(cw * ch).fill(width)
  const minY = new Int32Array(cw * ch).fill(height)
  const maxX = new Int32Array(cw * ch).fill(-1)
  const maxY = new Int32Array(cw * ch).fill(-1)
  for (let y = 0; y < height; y++) {
    const row = y * width
    const cy = Math.floor(y / cell) * cw
    for (let x = 0; x < width; x++) {
      if (!mask[row + x]) continue
      const c = cy + Math.floor(x / cell)
      count[c] = (count[c] as number) + 1
      if (x < (minX[c] as number)) minX[c] = x
      if (x > (maxX[c] as number)) maxX[c] = x
      if (y < (minY[c] as number)) minY[c] = y
      if (y > (maxY[c] as number)) maxY[c] = y
    }
  }
  const seen = new Uint8Array(cw * ch)
  const regions: (Rect & { pixels: number })[] = []
  const stack: number[] = []
  for (let start = 0; start < cw * ch; start++) {
    if (!count[start] || seen[start]) continue
    seen[start] = 1
    stack.push(start)
    let pixels = 0
    let x0 = width
    let y0 = height
    let x1 = -1
    let y1 = -1
    while (stack.length) {
      const c = stack.pop() as number
      pixels += count[c] as number
      x0 = Math.min(x0, minX[c] as number)
      y0 = Math.min(y0, minY[c] as number)
      x1 = Math.max(x1, maxX[c] as number)
      y1 = Math.max(y1, maxY[c] as number)
      const cx = c % cw
      const cy = (c - cx) / cw
      for (let ny = Math.max(0, cy - gap); ny <= Math.min(ch - 1, cy + gap); ny++) {
        for (let nx = Math.max(0, cx - gap); nx <= Math.min(cw - 1, cx + gap); nx++) {
          const n = ny * cw + nx
          if (count[n] && !seen[n]) {
            seen[n] = 1
            stack.push(n)
          }
        }
      }
    }
    regions.push({ x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, pixels })
  }
  regions.sort((a, b) => b.pixels - a.pixels)
  if (regions.length <= maxRegions) return regions
  const kept = regions.slice(0, maxRegions - 1)
  const rest = regions.slice(maxRegions - 1)
  kept.push({ ...unionBox(rest), pixels: rest.reduce((s, r) => s + r.pixels, 0) })
  return kept
}

/** The bounding box of rectangles (null for none). Pure. */
export function unionBox(rects: readonly Rect[]): Rect {
  let x0 = Number.POSITIVE_INFINITY
  let y0 = Number.POSITIVE_INFINITY
  let x1 = Number.NEGATIVE_INFINITY
  let y1 = Number.NEGATIVE_INFINITY
  for (const r of rects) {
    x0 = Math.min(x0, r.x)
    y0 = Math.min(y0, r.y)
    x1 = Math.max(x1, r.x + r.width)
    y1 = Math.max(y1, r.y + r.height)
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

const plain = (r: Rect): Rect => ({ x: r.x, y: r.y, width: r.width, height: r.height })
const grow = (r: Rect, m: number): Rect => ({
  x: r.x - m,
  y: r.y - m,
  width: r.width + 2 * m,
  height: r.height + 2 * m,
})

/** Where a recorded pixel is looked for on the current screen, and back. */
interface Placement {
  /** How many pixels off a recorded pixel may land (0; 1 at another scale, drawn by the program at that size). */
  reach: number
  x(recordedX: number): number
  y(recordedY: number): number
  backX(actualX: number): number
  backY(actualY: number): number
  rect(r: Rect): Rect
}

/** Where the recording had it. */
const AS_RECORDED: Placement = {
  reach: 0,
  x: (v) => v,
  y: (v) => v,
  backX: (v) => v,
  backY: (v) => v,
  rect: (r) => plain(r),
}

/** Scales closer to 1 than this (3 %) compare pixel for pixel. */
const SAME_SCALE = 0.03

/** Moved by the displacement and scaled about the anchor (a pixel's centre maps to the pixel it falls in). */
function moved(d: Displacement, scale: number, anchor: Displacement): Placement {
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
function shiftsOf(o: Placement): Placement[] {
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
 * The set pixels of a mask that form text carets: connected runs at most `maxWidth` pixels wide and `minHeight` to
 * `maxHeight` tall (a caret is a thin vertical bar the height of a line; a glyph is wider or has other parts). Pure.
 */
export function caretPixels(
  mask: Uint8Array,
  w: number,
  h: number,
  maxWidth = 2,
  minHeight = 8,
  maxHeight = 80,
): number {
  const seen = new Uint8Array(mask.length)
  let total = 0
  const stack: number[] = []
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue
    let x0 = w
    let x1 = -1
    let y0 = h
    let y1 = -1
    let n = 0
    stack.push(start)
    seen[start] = 1
    while (stack.length) {
      const i = stack.pop() as number
      const x = i % w
      const y = (i - x) / w
      n++
      if (x < x0) x0 = x
      if (x > x1) x1 = x
      if (y < y0) y0 = y
      if (y > y1) y1 = y
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx
          const ny = y + dy
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue
          const j = ny * w + nx
          if (mask[j] && !seen[j]) {
            seen[j] = 1
            stack.push(j)
          }
        }
    }
    const width = x1 - x0 + 1
    const height = y1 - y0 + 1
    if (width <= maxWidth && height >= minHeight && height <= maxHeight) total += n
  }
  return total
}

/**
 * The share of the recorded pixels set in `area` that the current screen shows alike as they are, at the placement
 * where most agree (1 when none can be compared). Pure.
 */
function agreeingShare(
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

/**
 * What the step was meant to change, and whether the replay changed it: the regions that changed
 * between the recorded before and after frames, plus the target's box, are compared between the recorded
 * after-frame and the current screen, moved by the step's displacement (the window moved → the region moves).
 * A change that did not happen, or happened differently, lowers `regionSimilarity` however well the rest of
 * the screen matches; a change during the replayed step outside those regions that the recording did not show
 * is reported as `unexpectedRegions`. When the screen before the step is the recorded before-frame in other
 * colours (a palette or theme change), the colour map that explains it is learned around the regions and the
 * recorded frames are compared through it (`palette`). Pure.
 */
export function assessExpectedChange(input: ExpectedChangeInput): ExpectedChangeResult {
  const rec = input.recordedAfter
  const act = input.actualAfter
  const d = { x: Math.round(input.displacement?.x ?? 0), y: Math.round(input.displacement?.y ?? 0) }
  const scale = input.scale && Number.isFinite(input.scale) && input.scale > 0 ? input.scale : 1
  const anchor = { x: input.anchor?.x ?? 0, y: input.anchor?.y ?? 0 }
  const threshold = input.threshold ?? DEFAULT_THRESHOLD
  const maxDelta = maxDeltaOf(threshold)
  const minExpected = input.minExpectedPixels ?? 16
  const minUnexpected = input.minUnexpectedPixels ?? 64
  const margin = input.marginPx ?? 8
  const W = rec.width
  const H = rec.height
  const before =
    input.recordedBefore && input.recordedBefore.width === W && input.recordedBefore.height === H
      ? input.recordedBefore
      : null

  // M: what the recorded step changed
  const expectedMask = before
    ? changeMask(before, rec, { threshold, ...(input.ignore ? { ignore: input.ignore } : {}) })
    : null
  // the previous target losing its hover or focus look is not this step's effect
  if (expectedMask && input.notEffects?.length)
    paint(
      expectedMask,
      W,
      H,
      input.notEffects.map((r) => grow(r, margin)),
      0,
    )
  const changed = expectedMask ? changedRegions(expectedMask, W, H).filter((r) => r.pixels > 0) : []
  const regions: Rect[] = changed.map(plain)
  if (input.targetBox && input.targetBox.width > 0 && input.targetBox.height > 0) regions.push(plain(input.targetBox))

  // R: the pixels compared (every region, clipped to the recorded screen, minus the masks)
  const inRegion = new Uint8Array(W * H)
  paint(inRegion, W, H, regions, 1)
  if (input.ignore?.length) paint(inRegion, W, H, input.ignore, 0)

  // Each region is compared where the displacement puts it and, when that differs, where it was recorded: a
  // layout that shifted only in part moves the target but may leave the step's effect (a panel, a status
  // line) where it was. Each region counts at its better place.
  const placements: Placement[] =
    d.x === 0 && d.y === 0 && scale === 1 ? [moved(d, scale, anchor)] : [moved(d, scale, anchor), AS_RECORDED]
  // a palette or theme change: the recorded frames are compared in the colours the screen before the step has now
  const actBefore =
    input.actualBefore && input.actualBefore.width === act.width && input.actualBefore.height === act.height
      ? input.actualBefore
      : null
  // what changed during the replayed step outside the expected regions (moved)
  // content drawn at another scale by the program itself (a larger font) grows from its own edges, not about the
  // target: a line of text may run past where the scale puts its region by |scale − 1| of the region's size
  const grownBy = (r: Rect) =>
    Math.abs(scale - 1) < SAME_SCALE ? 0 : Math.ceil(Math.abs(scale - 1) * Math.max(r.width, r.height))
  const changedNow = actBefore
    ? changeMask(actBefore, act, {
        threshold,
        ignore: [
          ...regions.flatMap((r) => placements.map((o) => grow(o.rect(r), margin + grownBy(r)))),
          ...(input.ignore ?? []).map((r) => (placements[0] as Placement).rect(r)),
          ...(input.actualTargetBox ? [grow(input.actualTargetBox, margin)] : []),
          ...(input.restingHover ?? []).map((r) => (placements[0] as Placement).rect(r)),
        ],
      })
    : null
  let palette: PaletteSummary | null = null
  let recAfter = rec
  let recBefore = before
  const paletteArea = (): Uint8Array => {
    const area = new Uint8Array(W * H)
    paint(
      area,
      W,
      H,
      regions.map((r) => grow(r, PALETTE_MARGIN_PX)),
      1,
    )
    if (input.ignore?.length) paint(area, W, H, input.ignore, 0)
    return area
  }
  const learningArea = before && actBefore && changedNow && regions.length ? paletteArea() : null
  // the screen before the step in the recorded colours (the common step): no map can apply, none is learned
  const unlearned =
    before && actBefore && learningArea
      ? placements.map((o) => paletteCannotApply(before, actBefore, learningArea, o, { threshold }))
      : []
  if (unlearned.length && unlearned.every((u) => u !== null)) {
    palette = (unlearned as PaletteSummary[]).reduce((a, b) => (b.explained > a.explained ? b : a))
  } else if (before && actBefore && changedNow && learningArea) {
    const area = learningArea
    // learned where the regions are compared: at the displacement or where recorded, whichever explains more
    // of those the map may be trusted at
    let learned: ReturnType<typeof learnPalette> | null = null
    for (const o of placements) {
      const t = learnPalette(before, actBefore, area, o, { threshold })
      if (
        !learned ||
        (t.applied && !learned.applied) ||
        (t.applied === learned.applied && t.explained > learned.explained)
      )
        learned = t
    }
    const transfer = learned as ReturnType<typeof learnPalette>
    const { map: _map, principal: _principal, onGround: _onGround, ...summary } = transfer
    palette = summary
    if (transfer.applied && input.targetBox) {
      // a theme shows beside the target too; a difference on the target alone is its hover or focus look
      const beside = new Uint8Array(area)
      paint(beside, W, H, [grow(input.targetBox, margin)], 0)
      if (agreeingShare(before, actBefore, beside, placements, maxDelta) >= SAME_PALETTE_BESIDE_TARGET)
        palette = { ...summary, applied: false }
    }
    if (palette.applied) {
      // only the recorded pixels compared below: the regions, and where a change elsewhere is looked up
      const lookedUp = new Uint8Array(inRegion)
      for (let i = 0; i < changedNow.length; i++) {
        if (!changedNow[i]) continue
        const ax = i % act.width
        const ay = (i - ax) / act.width
        for (const o of placements) {
          const x = o.backX(ax)
          const y = o.backY(ay)
          if (x >= 0 && y >= 0 && x < W && y < H) lookedUp[y * W + x] = 1
        }
      }
      const mappedAfter = recolour(rec, transfer, { before, only: lookedUp })
      const mappedBefore = recolour(before, transfer, { only: inRegion })
      // a map that draws the step's change in one colour (before and after alike) hides what is checked here
      let change = 0
      let hidden = 0
      for (let i = 0; i < inRegion.length; i++) {
        if (!inRegion[i] || !expectedMask?.[i]) continue
        change++
        if (alike(mappedBefore.data, i * 4, mappedAfter.data, i * 4, maxDelta)) hidden++
      }
      if (change > 0 && hidden > change * MAX_HIDDEN_CHANGE) palette = { ...summary, applied: false }
      else {
        recAfter = mappedAfter
        recBefore = mappedBefore
      }
    }
  }
  for (const box of input.restingHover ?? []) {
    const area = new Uint8Array(W * H)
    paint(area, W, H, [box], 1)
    if (input.ignore?.length) paint(area, W, H, input.ignore, 0)
    // a hover recolours the whole element alike; new text or a new shape leaves pixels no map explains
    if (paletteCannotApply(recAfter, act, area, placements[0] as Placement, { threshold }) !== null) continue
    const hover = learnPalette(recAfter, act, area, placements[0] as Placement, {
      threshold,
      minExplained: HOVER_EXPLAINED,
    })
    if (hover.applied) recAfter = recolour(recAfter, hover, { only: area })
  }
  let compared = 0
  let expectedChanged = 0
  let differing = 0
  let union = 0
  let stillBefore = 0
  const placed: Placement[] = []
  const counted = new Uint8Array(W * H)
  /** The recorded pixels that differ on the current screen (at their placement). */
  const differs = new Uint8Array(W * H)
  for (const region of regions) {
    const [x0, y0, x1, y1] = bounds(region, W, H)
    let best: {
      o: Placement
      c: number
      m: number
      diff: number
      u: number
      still: number
      differsAt: number[]
    } | null = null
    // at another scale, each region is also looked for a few pixels around where the scale puts it: the scale is
    // measured on the target (a template match at 1.38 on a board drawn at 1.4), and a region far from it drifts
    for (const o of placements.flatMap((p) => (p.reach > 0 ? shiftsOf(p) : [p]))) {
      const t = tally(x0, y0, x1, y1, o)
      if (!best || t.diff < best.diff) best = { o, ...t }
    }
    if (!best) continue
    placed.push(best.o)
    compared += best.c
    expectedChanged += best.m
    differing += best.diff
    union += best.u
    stillBefore += best.still
    for (const i of best.differsAt) differs[i] = 1
    for (let y = y0; y < y1; y++) counted.fill(1, y * W + x0, y * W + x1)
  }
  /**
   * Whether the current screen shows the recorded pixel `p` of `from` at (ax, ay), or, at another scale, at one of
   * its 8 neighbours: the program drew its content at that scale itself, and a stroke of a glyph or a line lands a
   * pixel off where the recorded one maps to.
   */
  function near(from: Uint8Array, p: number, ax: number, ay: number, reach: number): boolean {
    const A = act.data
    for (let dy = -reach; dy <= reach; dy++) {
      const y = ay + dy
      if (y < 0 || y >= act.height) continue
      for (let dx = -reach; dx <= reach; dx++) {
        const x = ax + dx
        if (x < 0 || x >= act.width) continue
        if (alike(from, p, A, (y * act.width + x) * 4, maxDelta)) return true
      }
    }
    return false
  }
  /** Counts of one region at one offset; pixels of earlier regions are not counted twice. */
  function tally(x0: number, y0: number, x1: number, y1: number, o: Placement) {
    let c = 0
    let m = 0
    let diff = 0
    let u = 0
    let still = 0
    const differsAt: number[] = []
    const R = recAfter.data
    const Bf = recBefore?.data
    for (let y = y0; y < y1; y++) {
      const ay = o.y(y)
      for (let x = x0; x < x1; x++) {
        const i = y * W + x
        if (!inRegion[i] || counted[i]) continue
        c++
        const changedHere = expectedMask ? (expectedMask[i] as number) : 0
        m += changedHere
        const ax = o.x(x)
        const p = i * 4
        let differsHere = true
        let likeBefore = false
        if (ax >= 0 && ay >= 0 && ax < act.width && ay < act.height) {
          differsHere = !near(R, p, ax, ay, o.reach)
          // still as before: the change shows nowhere around, and the pixel itself has the colour from before
          if (changedHere && Bf) likeBefore = differsHere && near(Bf, p, ax, ay, 0)
        }
        if (differsHere) {
          diff++
          differsAt.push(i)
        }
        if (differsHere || changedHere) u++
        if (likeBefore) still++
      }
    }
    return { c, m, diff, u, still, differsAt }
  }
  // a text caret shown in one screen and not the other (a recorded frame caught it lit, a capture hides it) is no
  // difference of the step's effect
  const caret = caretPixels(differs, W, H)
  differing -= caret
  union -= caret
  const pixelSimilarity = compared === 0 ? 1 : 1 - differing / compared
  const hasChange = expectedChanged >= minExpected
  const changeSimilarity = hasChange ? 1 - differing / union : null
  const unchangedShare = hasChange ? stillBefore / expectedChanged : null

  // U: changed during the replayed step, outside the expected regions (moved), and unlike the recorded after-frame
  let unexpectedRegions: Rect[] = []
  let unexpectedPixels = 0
  if (changedNow) {
    const mask = changedNow
    const R = recAfter.data
    const A = act.data
    for (let ay = 0; ay < act.height; ay++) {
      for (let ax = 0; ax < act.width; ax++) {
        const i = ay * act.width + ax
        if (!mask[i]) continue
        const q = i * 4
        // the recording shows the same pixel there after the step (where the displacement puts it, or where it
        // was): the replay changed what the recording changed
        const asRecorded = placements.some((o) => {
          const x = o.backX(ax)
          const y = o.backY(ay)
          if (x < 0 || y < 0 || x >= W || y >= H) return false
          const p = (y * W + x) * 4
          return alike(R, p, A, q, maxDelta)
        })
        if (asRecorded) {
          mask[i] = 0
          continue
        }
        unexpectedPixels++
      }
    }
    if (unexpectedPixels > 0) unexpectedRegions = changedRegions(mask, act.width, act.height).map(plain)
  }
  const expectedRegion = regions.length ? unionBox(regions) : null
  return {
    expectedRegions: regions,
    expectedRegion,
    actualRegion: regions.length
      ? unionBox(regions.map((r, k) => (placed[k] ?? (placements[0] as Placement)).rect(r)))
      : null,
    displacement: d,
    scale,
    comparedPixels: compared,
    expectedChangedPixels: expectedChanged,
    differingPixels: differing,
    pixelSimilarity,
    changeSimilarity,
    regionSimilarity: changeSimilarity ?? pixelSimilarity,
    unchangedShare,
    unexpectedRegions,
    unexpectedPixels,
    changedElsewhere: unexpectedPixels >= minUnexpected,
    hadExpectedChange: hasChange,
    expectedChangeMissing: unchangedShare !== null && unchangedShare >= 0.8,
    palette,
  }
}
