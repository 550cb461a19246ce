import { bounds } from './change-mask'
import type { Rect } from './compare-screenshots'
import type { RgbaImage } from './rgba-image'
import { maxDeltaOf, yiqDelta } from './yiq'

/** Where the step's program window was on the recorded screen, and where the same window is now. */
export interface WindowPlace {
  recorded: Rect
  now: Rect
}

/**
 * One item of a window's layout: a group of pixels unlike the window's background, at most `ITEM_GAP_PX` apart (a
 * word, an icon, a button's outline, a board of cells).
 */
export interface LayoutItem extends Rect {
  /** Its pixels unlike the background. */
  pixels: number
  /** pixels / (width × height). */
  fill: number
  /** The mean colour of its pixels. */
  colour: [number, number, number]
  /** Its centre relative to the window's box (0–1 each way). */
  cx: number
  cy: number
  /** Its pixels (1 = unlike the background), width × height, row by row; only for items up to 64×64. */
  shape?: Uint8Array
}

export interface RelaidOutInput {
  recordedBefore: RgbaImage
  recordedAfter: RgbaImage
  actualBefore: RgbaImage
  actualAfter: RgbaImage
  window: WindowPlace
  /** What the recorded step changed (recorded-screen pixels, 1 = changed). */
  recordedChange: Uint8Array
  /** What the replayed step changed (current-screen pixels). */
  actualChange: Uint8Array
  /** Colour threshold 0–1 (pixelmatch's). Default 0.1. */
  threshold?: number
  /**
   * The clicked item's box, recorded and now. Its own look (lit under a resting pointer, pressed) depends on when the
   * pointer came: a person rests on it before the step, a replay arrives with the click. An item of one side's change
   * over the target that stands, unchanged by the step, in the other side's after-frame is that look, not the step's
   * change.
   */
  target?: WindowPlace | null
}

export interface RelaidOutResult {
  /** The window's boxes compared. */
  recordedWindow: Rect
  currentWindow: Rect
  /** Share of the recorded window's pixels the recorded step changed, and of the current window's the replayed one. */
  recordedChangeShare: number
  actualChangeShare: number
  /** Items of the step's change (appeared or gone) in the recording and in the replay, and how many were paired. */
  recordedItems: number
  actualItems: number
  matchedItems: number
  /**
   * How much of the change agrees item by item (the lower of the two sides' paired shares, each item weighted by the
   * square root of its pixels); null when the recorded step changed no item inside its window (nothing to pair).
   */
  score: number | null
  /** The replayed step changed under a fifth of what the recorded one changed, relative to each window's size. */
  changeMissing: boolean
  /** The boxes of the paired-or-not items of each side (recorded screen; current screen), for a second opinion. */
  recordedBox: Rect | null
  actualBox: Rect | null
}

/** Pixels closer than this (2 px, each way) belong to one item: a word's letters, a board's cells. */
const ITEM_GAP_PX = 2
/** Items with fewer pixels are noise (a cursor pixel, a sliver of an outline showing between a board's cells). */
const MIN_ITEM_PIXELS = 16
/** Items of the same size up to this many pixels (64×64: words, icons) must also show the same shape... */
const SHAPE_MAX_AREA = 64 * 64
/** ... their pixels agreeing this much (intersection over union, best over 1 px shifts): "Hard" is not "Easy". */
const MIN_SHAPE_AGREEMENT = 0.5
/**
 * Items of one screen relaid out at the same scale keep their size (a word, an icon, a button: within 2 px or 4 %);
 * only an item at least this large each way (48 px) may grow or shrink with the space it gets (a board, a list, a
 * stretched button)...
 */
const MIN_CANVAS_PX = 48
/** ... by at most this ratio, either each way alike (a board keeps its proportions) or one way only (a stretched button). */
const MAX_SIZE_RATIO = 1.5
/** Each way alike: the proportions within this (|ln| of the quotient of the aspect ratios; a 30×16 board is no 16×16 one). */
const MAX_ASPECT_LOG = 0.15
/** ... how full their box is within this (a board of twice the cells is fuller by more). */
const MAX_FILL_DIFF = 0.08
/** ... their mean colour within this (RGB distance). */
const MAX_COLOUR_DISTANCE = 48
/** ... and their place within this share of the window's width or height (a layout keeps its order). */
const MAX_PLACE_SHIFT = 0.3
/** A surface: an item at least 48 px each way whose pixels fill at most a quarter of its box (a frame around content). */
const SURFACE_FILL = 0.25
/** An item at least half inside a surface's box lies under it (or on it). */
const UNDER_SHARE = 0.5
/** Under this share of the recorded change (relative to each window's size), the replayed step changed nothing. */
const MISSING_CHANGE_RATIO = 0.2

/**
 * The background of a box: its most common colour (5 bits a channel) over the images given, as the mean of the pixels
 * of that colour. Both frames of a step count: a board filling most of the window after it is not its background.
 * Pure.
 */
export function backgroundOf(images: readonly RgbaImage[], box: Rect): Uint8Array {
  const counts = new Uint32Array(1 << 15)
  const key = (D: Uint8Array, p: number) =>
    ((D[p] as number) >> 3) | (((D[p + 1] as number) >> 3) << 5) | (((D[p + 2] as number) >> 3) << 10)
  for (const image of images) {
    const [x0, y0, x1, y1] = bounds(box, image.width, image.height)
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const k = key(image.data, (y * image.width + x) * 4)
        counts[k] = (counts[k] as number) + 1
      }
  }
  let best = 0
  for (let k = 1; k < counts.length; k++) if ((counts[k] as number) > (counts[best] as number)) best = k
  let r = 0
  let g = 0
  let b = 0
  let n = 0
  for (const image of images) {
    const [x0, y0, x1, y1] = bounds(box, image.width, image.height)
    const D = image.data
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const p = (y * image.width + x) * 4
        if (key(D, p) !== best) continue
        r += D[p] as number
        g += D[p + 1] as number
        b += D[p + 2] as number
        n++
      }
  }
  return n ? new Uint8Array([r / n, g / n, b / n, 255].map(Math.round)) : new Uint8Array([0, 0, 0, 255])
}

/**
 * The items of the layout inside `box` (clipped to the image): groups of pixels unlike the box's background, at
 * most 2 px apart (the background: the box's most common colour, or `background`); with `changed` (the image's pixels, 1 = changed by the step), of those pixels only the changed
 * ones (what the step drew or took away: a popover drawn over half a button is the popover and the half it covers,
 * not the button). Pure.
 */
export function layoutItems(
  image: RgbaImage,
  box: Rect,
  changed: Uint8Array | null = null,
  threshold = 0.1,
  background: Uint8Array = backgroundOf([image], box),
): LayoutItem[] {
  const [x0, y0, x1, y1] = bounds(box, image.width, image.height)
  const w = x1 - x0
  const h = y1 - y0
  if (w <= 0 || h <= 0) return []
  const bg = background
  const maxDelta = maxDeltaOf(threshold)
  const D = image.data
  // box-local masks: the pixels unlike the background, and the same grown by the gap (rows, then columns)
  const fg = new Uint8Array(w * h)
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y + y0) * image.width + x + x0
      if ((!changed || changed[i]) && yiqDelta(D, i * 4, bg, 0) > maxDelta) fg[y * w + x] = 1
    }
  const rows = new Uint8Array(w * h)
  // a pixel is set when one unlike the background lies within the gap to its left or right (two linear passes)
  for (let y = 0; y < h; y++) {
    let next = 1_000_000
    for (let x = w - 1; x >= 0; x--) {
      if (fg[y * w + x]) next = x
      if (next - x <= ITEM_GAP_PX) rows[y * w + x] = 1
    }
    let last = -1_000_000
    for (let x = 0; x < w; x++) {
      if (fg[y * w + x]) last = x
      if (x - last <= ITEM_GAP_PX) rows[y * w + x] = 1
    }
  }
  const grown = new Uint8Array(w * h)
  for (let x = 0; x < w; x++) {
    let next = 1_000_000
    for (let y = h - 1; y >= 0; y--) {
      if (rows[y * w + x]) next = y
      if (next - y <= ITEM_GAP_PX) grown[y * w + x] = 1
    }
    let last = -1_000_000
    for (let y = 0; y < h; y++) {
      if (rows[y * w + x]) last = y
      if (y - last <= ITEM_GAP_PX) grown[y * w + x] = 1
    }
  }
  const items: LayoutItem[] = []
  const seen = new Uint8Array(w * h)
  const stack = new Int32Array(w * h)
  const members: number[] = []
  for (let start = 0; start < w * h; start++) {
    if (!grown[start] || seen[start]) continue
    let top = 0
    stack[top++] = start
    seen[start] = 1
    members.length = 0
    let n = 0
    let r = 0
    let g = 0
    let b = 0
    let ix0 = w
    let iy0 = h
    let ix1 = -1
    let iy1 = -1
    while (top > 0) {
      const i = stack[--top] as number
      const x = i % w
      const y = (i - x) / w
      if (fg[i]) {
        members.push(i)
        n++
        const sx = x + x0
        const sy = y + y0
        const p = (sy * image.width + sx) * 4
        r += D[p] as number
        g += D[p + 1] as number
        b += D[p + 2] as number
        if (x < ix0) ix0 = x
        if (x > ix1) ix1 = x
        if (y < iy0) iy0 = y
        if (y > iy1) iy1 = y
      }
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy
        if (ny < 0 || ny >= h) continue
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx
          if (nx < 0 || nx >= w) continue
          const j = ny * w + nx
          if (grown[j] && !seen[j]) {
            seen[j] = 1
            stack[top++] = j
          }
        }
      }
    }
    if (n < MIN_ITEM_PIXELS) continue
    const width = ix1 - ix0 + 1
    const height = iy1 - iy0 + 1
    let shape: Uint8Array | undefined
    if (width * height <= SHAPE_MAX_AREA) {
      shape = new Uint8Array(width * height)
      for (const i of members) {
        const x = i % w
        shape[((i - x) / w - iy0) * width + x - ix0] = 1
      }
    }
    items.push({
      x: ix0 + x0,
      y: iy0 + y0,
      width,
      height,
      pixels: n,
      fill: n / (width * height),
      colour: [r / n, g / n, b / n],
      cx: (ix0 + width / 2) / w,
      cy: (iy0 + height / 2) / h,
      ...(shape ? { shape } : {}),
    })
  }
  return items
}

/**
 * In a window laid out again at another size, a frame around content (a surface: a toggle button's outline around
 * its icon and label) may take other proportions, up to this ratio each way (3): a toolkit reflows what it frames,
 * side by side in a narrow window, one above the other in a wide one (Iagno's mode buttons at 720×680).
 */
const MAX_RESHAPE_RATIO = 3

/**
 * How unlike two items are (lower is closer), or null when they cannot be one item relaid out. `reshape` (a window of
 * another size): two surfaces may differ in proportions too (`MAX_RESHAPE_RATIO`); their fill, colour and place must
 * still agree.
 */
function itemDistance(a: LayoutItem, b: LayoutItem, reshape = false): number | null {
  const rw = Math.log(b.width / a.width)
  const rh = Math.log(b.height / a.height)
  const near = (p: number, q: number) => Math.abs(p - q) <= Math.max(2, 0.04 * Math.max(p, q))
  const sameSize = near(a.width, b.width) && near(a.height, b.height)
  const limit = Math.log(MAX_SIZE_RATIO)
  const canvas =
    Math.min(a.width, a.height, b.width, b.height) >= MIN_CANVAS_PX &&
    Math.abs(rw) <= limit &&
    Math.abs(rh) <= limit &&
    (Math.abs(rw - rh) <= MAX_ASPECT_LOG || near(a.width, b.width) || near(a.height, b.height))
  const reframed =
    reshape &&
    isSurface(a) &&
    isSurface(b) &&
    Math.abs(rw) <= Math.log(MAX_RESHAPE_RATIO) &&
    Math.abs(rh) <= Math.log(MAX_RESHAPE_RATIO)
  if (!sameSize && !canvas && !reframed) return null
  if (sameSize && a.shape && b.shape && shapeAgreement(a, b) < MIN_SHAPE_AGREEMENT) return null
  const fill = Math.abs(a.fill - b.fill)
  if (fill > MAX_FILL_DIFF) return null
  const colour = Math.hypot(a.colour[0] - b.colour[0], a.colour[1] - b.colour[1], a.colour[2] - b.colour[2])
  if (colour > MAX_COLOUR_DISTANCE) return null
  const dx = Math.abs(a.cx - b.cx)
  const dy = Math.abs(a.cy - b.cy)
  if (dx > MAX_PLACE_SHIFT || dy > MAX_PLACE_SHIFT) return null
  return Math.abs(rw) + Math.abs(rh) + fill + colour / 255 + dx + dy
}

/** How well two items' pixels agree: intersection over union, at the best of their top-left corners 1 px apart. */
function shapeAgreement(a: LayoutItem, b: LayoutItem): number {
  const A = a.shape as Uint8Array
  const B = b.shape as Uint8Array
  let best = 0
  for (let dy = -1; dy <= 1; dy++)
    for (let dx = -1; dx <= 1; dx++) {
      let both = 0
      let either = 0
      for (let y = Math.min(0, dy); y < Math.max(a.height, b.height + dy); y++)
        for (let x = Math.min(0, dx); x < Math.max(a.width, b.width + dx); x++) {
          const p = y >= 0 && y < a.height && x >= 0 && x < a.width ? (A[y * a.width + x] as number) : 0
          const bx = x - dx
          const by = y - dy
          const q = by >= 0 && by < b.height && bx >= 0 && bx < b.width ? (B[by * b.width + bx] as number) : 0
          both += p & q
          either += p | q
        }
      if (either > 0) best = Math.max(best, both / either)
    }
  return best
}

/** Pairs the items of two layouts, largest recorded item first, each with its closest unpaired look-alike. Pure. */
export function pairItems(
  recorded: readonly LayoutItem[],
  actual: readonly LayoutItem[],
  /**
   * The two windows, when an item may also pair with one at its place (the window's size, its boxes overlapping by
   * at least half, intersection over union) whatever its look: what went from a screen whose labels already differed
   * before the step.
   */
  inPlace: WindowPlace | null = null,
  /** The window was laid out again at another size: surfaces may pair in other proportions (see `itemDistance`). */
  reshape = false,
): { recordedWeight: number; actualWeight: number; pairedRecorded: number; pairedActual: number; pairs: number } {
  const weight = (i: LayoutItem) => Math.sqrt(i.pixels)
  const taken = new Uint8Array(actual.length)
  let pairedRecorded = 0
  let pairedActual = 0
  let pairs = 0
  for (const r of [...recorded].sort((p, q) => q.pixels - p.pixels)) {
    let best = -1
    let bestDistance = Number.POSITIVE_INFINITY
    actual.forEach((a, k) => {
      if (taken[k]) return
      const d =
        itemDistance(r, a, reshape) ??
        (inPlace && placeOverlap(r, a, inPlace) >= IN_PLACE_IOU ? IN_PLACE_DISTANCE : null)
      if (d !== null && d < bestDistance) {
        best = k
        bestDistance = d
      }
    })
    if (best < 0) continue
    taken[best] = 1
    pairs++
    pairedRecorded += weight(r)
    pairedActual += weight(actual[best] as LayoutItem)
  }
  return {
    recordedWeight: recorded.reduce((s, i) => s + weight(i), 0),
    actualWeight: actual.reduce((s, i) => s + weight(i), 0),
    pairedRecorded,
    pairedActual,
    pairs,
  }
}

/** The target's own look on one side is an item of the other side's after-frame with its box (IoU 0.8)... */
const TARGET_LOOK_IOU = 0.8
/** Items of a screen whose labels already differed pair by place when their boxes overlap this much (IoU 0.5)... */
const IN_PLACE_IOU = 0.5
/** ... after every look-alike (a distance larger than any `itemDistance`). */
const IN_PLACE_DISTANCE = 1000

/** Intersection over union of two items' boxes, each relative to its own window. */
function placeOverlap(r: LayoutItem, a: LayoutItem, windows: WindowPlace): number {
  const p = { ...r, x: r.x - windows.recorded.x, y: r.y - windows.recorded.y }
  const q = { ...a, x: a.x - windows.now.x, y: a.y - windows.now.y }
  const both = overlap(p, q)
  return both / (area(p) + area(q) - both)
}

function share(mask: Uint8Array, width: number, height: number, box: Rect): number {
  const [x0, y0, x1, y1] = bounds(box, width, height)
  const n = (x1 - x0) * (y1 - y0)
  if (n <= 0) return 0
  let set = 0
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) set += mask[y * width + x] as number
  return set / n
}

const boxOf = (items: readonly LayoutItem[]): Rect | null => {
  if (!items.length) return null
  const x0 = Math.min(...items.map((i) => i.x))
  const y0 = Math.min(...items.map((i) => i.y))
  const x1 = Math.max(...items.map((i) => i.x + i.width))
  const y1 = Math.max(...items.map((i) => i.y + i.height))
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

/**
 * A step in a window laid out again at another size (a toolkit relays out its widgets at the same scale: they keep
 * their size and look, not their places): what the step changed inside the window, compared item by item instead of
 * pixel by pixel. The items of the step's change are those that appeared (in the after-frame) and those that went
 * (in the before-frame), each side in its own window, less those a surface the step opened or closed covered
 * (`withoutCovered`); each recorded item is paired with a look-alike of the replay
 * (the same size, or for an item of 48 px or more each way up to 1.5× larger or smaller in the same proportions or
 * along one way only; how full its box is, its colour,
 * and its place within 30 % of the window), and the score is the lower of
 * the two sides' paired shares: an item the recording made and the replay did not, or one the replay made and the
 * recording did not, lowers it. A replayed step that changed under a fifth of what the recorded one changed
 * (relative to each window's size) changed nothing (`changeMissing`). Pure.
 */
export function compareRelaidOut(input: RelaidOutInput): RelaidOutResult {
  const { window, recordedAfter: ra, actualAfter: aa } = input
  const threshold = input.threshold ?? 0.1
  const recordedChangeShare = share(input.recordedChange, ra.width, ra.height, window.recorded)
  const actualChangeShare = share(input.actualChange, aa.width, aa.height, window.now)
  const recordedBg = backgroundOf([input.recordedBefore, ra], window.recorded)
  const actualBg = backgroundOf([input.actualBefore, aa], window.now)
  const recorded = withoutCovered(
    layoutItems(ra, window.recorded, input.recordedChange, threshold, recordedBg),
    layoutItems(input.recordedBefore, window.recorded, input.recordedChange, threshold, recordedBg),
  )
  const actual = withoutCovered(
    layoutItems(aa, window.now, input.actualChange, threshold, actualBg),
    layoutItems(input.actualBefore, window.now, input.actualChange, threshold, actualBg),
  )
  // the target's own look, as the other side shows it after the step without having changed it
  const target = input.target
  const lookOf = (
    image: RgbaImage,
    win: Rect,
    changed: Uint8Array,
    bg: Uint8Array,
    box: Rect | undefined,
  ): LayoutItem[] =>
    box
      ? layoutItems(image, win, null, threshold, bg).filter(
          (i) => overlap(i, box) > 0 && changedShare(changed, image.width, image.height, i) < UNDER_SHARE,
        )
      : []
  const recordedLook = lookOf(ra, window.recorded, input.recordedChange, recordedBg, target?.recorded)
  const actualLook = lookOf(aa, window.now, input.actualChange, actualBg, target?.now)
  const reshape = relaidOut(window)
  // the other side's item there: a look-alike, or an item of the same box (a hover fading in is another colour
  // from one frame to the next), or in a window of another size a frame reflowed to other proportions — unless the
  // other side's change has a look-alike of the item itself (a popover's frame that went in both is the step's)
  const sameLook = (i: LayoutItem, o: LayoutItem, recordedSide: boolean, counterpart: readonly LayoutItem[]) =>
    itemDistance(o, i) !== null ||
    (recordedSide ? placeOverlap(i, o, window) : placeOverlap(o, i, window)) >= TARGET_LOOK_IOU ||
    (reshape &&
      itemDistance(o, i, true) !== null &&
      !counterpart.some((c) => (recordedSide ? itemDistance(i, c, true) : itemDistance(c, i, true)) !== null))
  const notLook = (
    items: readonly LayoutItem[],
    box: Rect | undefined,
    other: readonly LayoutItem[],
    recordedSide: boolean,
    counterpart: readonly LayoutItem[],
  ) =>
    box
      ? items.filter((i) => !(overlap(i, box) > 0 && other.some((o) => sameLook(i, o, recordedSide, counterpart))))
      : [...items]
  const appeared = [
    notLook(recorded.appeared, target?.recorded, actualLook, true, actual.appeared),
    notLook(actual.appeared, target?.now, recordedLook, false, recorded.appeared),
  ] as const
  const went = [
    notLook(recorded.went, target?.recorded, actualLook, true, actual.went),
    notLook(actual.went, target?.now, recordedLook, false, recorded.went),
  ] as const
  const a = pairItems(appeared[0], appeared[1], null, reshape)
  // in a window of its size with other labels before the step (another language), what went is the screen before
  // it, whose labels differed already: its items pair by place too
  const g = pairItems(went[0], went[1], reshape ? null : window, reshape)
  const recordedWeight = a.recordedWeight + g.recordedWeight
  const actualWeight = a.actualWeight + g.actualWeight
  const score =
    recordedWeight === 0
      ? null
      : Math.min(
          (a.pairedRecorded + g.pairedRecorded) / recordedWeight,
          actualWeight === 0 ? 0 : (a.pairedActual + g.pairedActual) / actualWeight,
        )
  return {
    recordedWindow: { ...window.recorded },
    currentWindow: { ...window.now },
    recordedChangeShare,
    actualChangeShare,
    recordedItems: appeared[0].length + went[0].length,
    actualItems: appeared[1].length + went[1].length,
    matchedItems: a.pairs + g.pairs,
    score,
    changeMissing: recordedChangeShare > 0 && actualChangeShare < MISSING_CHANGE_RATIO * recordedChangeShare,
    recordedBox: boxOf([...appeared[0], ...went[0]]),
    actualBox: boxOf([...appeared[1], ...went[1]]),
  }
}

/** The share of a box's pixels set in a mask (the image's size). */
function changedShare(mask: Uint8Array, width: number, height: number, box: Rect): number {
  return share(mask, width, height, box)
}

const isSurface = (i: LayoutItem) => i.width >= MIN_CANVAS_PX && i.height >= MIN_CANVAS_PX && i.fill <= SURFACE_FILL
const area = (r: Rect) => r.width * r.height
function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return w > 0 && h > 0 ? w * h : 0
}

/**
 * What the step itself changed, without what a surface it opened or closed happened to cover: a popover opened over
 * part of the window hides the items under it, and closed shows them again, and which items those are depends on
 * where the layout put the popover. The largest surface of the change (a popover's frame, a dialog's) decides which
 * way: one that appeared leaves out the items that went under it; one that went, the items that appeared from under
 * it. Pure.
 */
export function withoutCovered(
  appeared: readonly LayoutItem[],
  went: readonly LayoutItem[],
): { appeared: LayoutItem[]; went: LayoutItem[] } {
  const largest = (items: readonly LayoutItem[]) => Math.max(0, ...items.filter(isSurface).map(area))
  const under = (items: readonly LayoutItem[], surfaces: readonly LayoutItem[]) =>
    items.filter((i) => !surfaces.some((s) => s !== i && overlap(i, s) >= UNDER_SHARE * area(i)))
  const [a, g] = [largest(appeared), largest(went)]
  if (a === 0 && g === 0) return { appeared: [...appeared], went: [...went] }
  return a >= g
    ? { appeared: [...appeared], went: under(went, appeared.filter(isSurface)) }
    : { appeared: under(appeared, went.filter(isSurface)), went: [...went] }
}

/** A window whose size differs by more than 2 px either way was laid out again. Pure. */
export function relaidOut(window: WindowPlace | null | undefined): window is WindowPlace {
  if (!window) return false
  const { recorded: r, now: n } = window
  if (!(r.width > 0 && r.height > 0 && n.width > 0 && n.height > 0)) return false
  return Math.abs(r.width - n.width) > 2 || Math.abs(r.height - n.height) > 2
}

/** An item stands at the same place when its box is within this many pixels (1) of the other's, relative to the window. */
const IN_PLACE_PX = 1
/** Items at the same place show the same thing when their pixels agree this much (shape), or their fill within 0.02. */
const SAME_ITEM_SHAPE = 0.9
const SAME_ITEM_FILL = 0.02
/**
 * A window of the same size was laid out again when at least this share (0.03) of its items before the step show
 * other pixels (other labels) and at least 0.15 of its items before or after the step stand elsewhere.
 */
const RELABELLED_SHARE = 0.03
const MOVED_SHARE = 0.15

/** Two frames of a window of the same size compared item by item at the same places (see `inPlaceLayout`). */
export interface InPlaceLayout {
  /** Share of the items' weight with no item of the same box in the other frame (the larger of the two sides). */
  movedShare: number
  /** Share of the items' weight with no item of the same box and look in the other frame (moved or relabelled). */
  changedShare: number
}

/**
 * Two frames of a window of the same size compared item by item by place: how much of each layout (each item weighted
 * by the square root of its pixels, the larger of the two sides) has no item of the same box (within 1 px, relative to
 * the window) in the other, and how much none of the same box and look. A hover leaves the items as they were; a
 * relabelled button changes its label's look; the same window in another language has labels of other widths, and
 * what stands beside them elsewhere. Null when the windows differ in size (`relaidOut`) or in their background
 * (another palette: no layout to compare). `ignore`: recorded-screen boxes left out (masks, moving parts). Pure.
 */
export function inPlaceLayout(
  window: WindowPlace,
  recorded: RgbaImage,
  actual: RgbaImage,
  opts: { threshold?: number; ignore?: readonly Rect[] } = {},
): InPlaceLayout | null {
  const { recorded: was, now: is } = window
  if (!(was.width > 0 && was.height > 0 && is.width > 0 && is.height > 0) || relaidOut(window)) return null
  // the part both boxes have (they may differ by 2 px)
  const width = Math.min(was.width, is.width)
  const height = Math.min(was.height, is.height)
  const r = { ...was, width, height }
  const n = { ...is, width, height }
  const threshold = opts.threshold ?? 0.1
  const recordedBg = backgroundOf([recorded], r)
  const actualBg = backgroundOf([actual], n)
  if (yiqDelta(recordedBg, 0, actualBg, 0) > maxDeltaOf(threshold)) return null
  const keep = (image: RgbaImage, dx: number, dy: number): Uint8Array | null => {
    if (!opts.ignore?.length) return null
    const mask = new Uint8Array(image.width * image.height).fill(1)
    for (const box of opts.ignore) {
      const [x0, y0, x1, y1] = bounds({ ...box, x: box.x + dx, y: box.y + dy }, image.width, image.height)
      for (let y = y0; y < y1; y++) mask.fill(0, y * image.width + x0, y * image.width + x1)
    }
    return mask
  }
  const a = layoutItems(recorded, r, keep(recorded, 0, 0), threshold, recordedBg)
  const b = layoutItems(actual, n, keep(actual, n.x - r.x, n.y - r.y), threshold, actualBg)
  const weight = (i: LayoutItem) => Math.sqrt(i.pixels)
  const sameLook = (p: LayoutItem, q: LayoutItem) =>
    p.shape && q.shape ? shapeAgreement(p, q) >= SAME_ITEM_SHAPE : Math.abs(p.fill - q.fill) <= SAME_ITEM_FILL
  const alone = (from: readonly LayoutItem[], fromWin: Rect, other: readonly LayoutItem[], otherWin: Rect) => {
    const all = from.reduce((s, i) => s + weight(i), 0)
    if (all === 0) return { moved: 0, changed: 0 }
    let moved = 0
    let changed = 0
    for (const i of from) {
      const there = other.filter(
        (o) =>
          Math.abs(o.x - otherWin.x - (i.x - fromWin.x)) <= IN_PLACE_PX &&
          Math.abs(o.y - otherWin.y - (i.y - fromWin.y)) <= IN_PLACE_PX &&
          Math.abs(o.width - i.width) <= IN_PLACE_PX &&
          Math.abs(o.height - i.height) <= IN_PLACE_PX,
      )
      if (!there.length) moved += weight(i)
      if (!there.some((o) => sameLook(i, o))) changed += weight(i)
    }
    return { moved: moved / all, changed: changed / all }
  }
  const p = alone(a, r, b, n)
  const q = alone(b, n, a, r)
  return { movedShare: Math.max(p.moved, q.moved), changedShare: Math.max(p.changed, q.changed) }
}

/**
 * A window of the same size laid out again: before the step it shows other labels (at least 3 % of its items' weight
 * looks otherwise), and before or after the step at least 15 % of its items stand elsewhere than recorded (the labels
 * grew or shrank and moved what stands beside them; a board got less room). `inPlaceLayout` compares the frames. Pure.
 */
export function laidOutInPlace(
  window: WindowPlace,
  frames: { recordedBefore: RgbaImage; actualBefore: RgbaImage; recordedAfter: RgbaImage; actualAfter: RgbaImage },
  opts: { threshold?: number; ignore?: readonly Rect[] } = {},
): boolean {
  const before = inPlaceLayout(window, frames.recordedBefore, frames.actualBefore, opts)
  if (!before || before.changedShare < RELABELLED_SHARE) return false
  if (before.movedShare >= MOVED_SHARE) return true
  const after = inPlaceLayout(window, frames.recordedAfter, frames.actualAfter, opts)
  return after !== null && after.movedShare >= MOVED_SHARE
}
