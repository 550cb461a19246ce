import type { BoundingBox } from '@qa/model'
import { clipToFrame, isBox } from '../image/geometry'
import type { Frame } from '../image/match-template'
import { regionOf } from '../image/resample'
import type { CascadeStep } from '../internal/cascade'
import { fmt, type ScreenContext } from './context'
import type { UiElement } from './find-matching-element'
import { textChangedAsAWhole, wordsOf } from './language-place'
import type { ScreenSource } from './types'

/**
 * A pixel whose luma differs this much (16 of 255) between its neighbours left and right or above and below lies
 * on a drawn line: a 1-px button outline (GNOME Mines: 205 on 248) is 40 and more, a shadow's gradient 1–3.
 */
const EDGE_BAR = 16
/** Pixels of a window's edge left out (its border would hold every item in one shape). */
const WINDOW_EDGE = 4
/** Two items look the same when their widths and their heights are within this share (8 %) or 3 px. */
const SAME_SHAPE = 0.08
/** An item of the replayed window may be this much (25 %) higher or lower than the recorded one. */
const HEIGHT_KEPT = 0.25
/** Its width may change with its longest label, within this ratio (2×) either way. */
const WIDTH_RATIO = 2
/** A shape smaller than this (px) on either side is a glyph or a dot, not an item. */
const MIN_ITEM = 12

/** A shape drawn on a screen: the box of one connected part of its edges. */
export type Item = BoundingBox

/**
 * Where `box` of a frame has drawn lines: 1 where a pixel's luma differs by `EDGE_BAR` or more between its two
 * neighbours across or along (central differences, no spreading: two buttons 4 px apart stay apart). Pure.
 */
export function edgeMask(frame: Frame, box: BoundingBox): { mask: Uint8Array; width: number; height: number } {
  const x0 = box.x
  const y0 = box.y
  const w = box.width
  const h = box.height
  const luma = (x: number, y: number) => {
    const cx = Math.min(frame.width - 1, Math.max(0, x0 + x))
    const cy = Math.min(frame.height - 1, Math.max(0, y0 + y))
    const i = (cy * frame.width + cx) * frame.channels
    return frame.channels === 1
      ? (frame.data[i] as number)
      : 0.299 * (frame.data[i] as number) +
          0.587 * (frame.data[i + 1] as number) +
          0.114 * (frame.data[i + 2] as number)
  }
  const mask = new Uint8Array(w * h)
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const across = Math.abs(luma(x + 1, y) - luma(x - 1, y))
      const along = Math.abs(luma(x, y + 1) - luma(x, y - 1))
      if (Math.max(across, along) >= EDGE_BAR) mask[y * w + x] = 1
    }
  return { mask, width: w, height: h }
}

/**
 * The shapes drawn in `box` of a frame: the boxes of the connected parts (8-neighbours) of its `edgeMask`, at least
 * `MIN_ITEM` on each side. A button's closed outline is one shape holding its label; a line of text or an icon is
 * another. Pure.
 */
export function itemsIn(frame: Frame, box: BoundingBox): Item[] {
  const x0 = Math.max(0, Math.round(box.x))
  const y0 = Math.max(0, Math.round(box.y))
  const w = Math.min(frame.width, Math.round(box.x + box.width)) - x0
  const h = Math.min(frame.height, Math.round(box.y + box.height)) - y0
  if (w <= 0 || h <= 0) return []
  const { mask } = edgeMask(frame, { x: x0, y: y0, width: w, height: h })
  const seen = new Uint8Array(w * h)
  const stack = new Int32Array(w * h)
  const out: Item[] = []
  for (let start = 0; start < w * h; start++) {
    if (seen[start]) continue
    const sx = start % w
    const sy = (start - sx) / w
    if (!mask[start]) continue
    let top = 0
    stack[top++] = start
    seen[start] = 1
    let [minX, minY, maxX, maxY] = [sx, sy, sx, sy]
    while (top > 0) {
      const p = stack[--top] as number
      const px = p % w
      const py = (p - px) / w
      if (px < minX) minX = px
      if (px > maxX) maxX = px
      if (py < minY) minY = py
      if (py > maxY) maxY = py
      for (let dy = -1; dy <= 1; dy++) {
        const ny = py + dy
        if (ny < 0 || ny >= h) continue
        for (let dx = -1; dx <= 1; dx++) {
          const nx = px + dx
          if (nx < 0 || nx >= w) continue
          const q = ny * w + nx
          if (seen[q]) continue
          seen[q] = 1
          if (mask[q]) stack[top++] = q
        }
      }
    }
    const item = { x: x0 + minX, y: y0 + minY, width: maxX - minX + 1, height: maxY - minY + 1 }
    if (item.width >= MIN_ITEM && item.height >= MIN_ITEM) out.push(item)
  }
  return out
}

const contains = (outer: BoundingBox, inner: BoundingBox) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height

/** A shape holds the label with this much room (px) on every side: a button's outline, not the word's own strokes. */
const LABEL_MARGIN = 3
const grow = (b: BoundingBox, by: number): BoundingBox => ({
  x: b.x - by,
  y: b.y - by,
  width: b.width + 2 * by,
  height: b.height + 2 * by,
})

const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(3, SAME_SHAPE * Math.max(a, b))
const sameShape = (a: Item, b: Item) => near(a.width, b.width) && near(a.height, b.height)

/**
 * Same-looking items laid out in rows and columns (a column of buttons, a row of tabs, a 2×2 board of choices):
 * each item's row and column index (items whose tops, or lefts, lie within half an item's height, or width, share
 * a row, or a column), and the grid's signature ("row,column" of every item, in order), which says how many items
 * stand where whatever their size.
 */
export interface Grid {
  items: Item[]
  cells: { row: number; column: number }[]
  signature: string
}

/** The grid of `items` (all of one shape), read top to bottom and left to right. Pure. */
export function gridOf(items: readonly Item[]): Grid {
  const ranks = (values: number[], tolerance: number) => {
    const sorted = [...values].sort((a, b) => a - b)
    const starts: number[] = []
    for (const v of sorted) if (starts.length === 0 || v - (starts.at(-1) as number) > tolerance) starts.push(v)
    return values.map((v) => starts.filter((s) => s <= v + 1e-9).length - 1)
  }
  const h = Math.min(...items.map((b) => b.height))
  const w = Math.min(...items.map((b) => b.width))
  const rows = ranks(
    items.map((b) => b.y),
    h / 2,
  )
  const columns = ranks(
    items.map((b) => b.x),
    w / 2,
  )
  const order = items
    .map((item, i) => ({ item, row: rows[i] as number, column: columns[i] as number }))
    .sort((a, b) => a.row - b.row || a.column - b.column)
  return {
    items: order.map((o) => o.item),
    cells: order.map(({ row, column }) => ({ row, column })),
    signature: order.map((o) => `${o.row},${o.column}`).join(' '),
  }
}

/**
 * The item that was clicked and the grid of its look-alikes: the smallest shape holding the click point and the
 * recorded label's box with `LABEL_MARGIN` around it (a button's outline around its label; without a label box, the point with `MIN_ITEM / 2` px
 * on each side), and every shape of its size in the window, in rows and columns. Null when no shape holds it. Pure.
 */
export function clickedGrid(
  items: readonly Item[],
  point: { x: number; y: number },
  label: BoundingBox | null,
): { item: Item; grid: Grid; index: number } | null {
  const m = MIN_ITEM / 2
  const holds = (b: Item) =>
    label
      ? contains(b, grow(label, LABEL_MARGIN)) && contains(b, { x: point.x, y: point.y, width: 0, height: 0 })
      : contains(b, { x: point.x - m, y: point.y - m, width: 2 * m, height: 2 * m })
  const holding = items.filter(holds).sort((a, b) => a.width * a.height - b.width * b.height)
  const item = holding[0]
  if (!item) return null
  const grid = gridOf(items.filter((b) => sameShape(b, item)))
  return { item, grid, index: grid.items.indexOf(item) }
}

/**
 * The grids of same-looking items on the current window that could be the recorded one: shapes of one size laid
 * out as the recorded grid (the same signature: as many items in the same rows and columns), each as high as the
 * recorded item (within `HEIGHT_KEPT`) and of a width within `WIDTH_RATIO` of it (a label in another language makes
 * a button wider or narrower, all of its column alike). Pure.
 */
export function gridsLike(items: readonly Item[], recorded: Item, signature: string): Grid[] {
  const fits = (b: Item) =>
    Math.abs(b.height / recorded.height - 1) <= HEIGHT_KEPT &&
    b.width / recorded.width <= WIDTH_RATIO &&
    recorded.width / b.width <= WIDTH_RATIO
  const out: Grid[] = []
  const seen = new Set<string>()
  for (const c of items.filter(fits)) {
    const grid = gridOf(items.filter((b) => sameShape(b, c)))
    const key = grid.items.map((b) => `${b.x},${b.y},${b.width},${b.height}`).join(' ')
    if (grid.signature !== signature || seen.has(key)) continue
    seen.add(key)
    out.push(grid)
  }
  return out
}

const inset = (b: BoundingBox, by: number): BoundingBox => ({
  x: b.x + by,
  y: b.y + by,
  width: b.width - 2 * by,
  height: b.height - 2 * by,
})

/**
 * `box` of a frame in grey, its luma stretched to the full 0–255 (its border's pixels left out): an insensitive
 * button's light grey label (GNOME Mines' "Start Over", 150 on 249) reads as black on white. RGBA. Pure.
 */
export function stretchedRegion(frame: Frame, box: BoundingBox): Frame {
  const b = inset(box, 2)
  const region = regionOf(frame, b)
  const n = region.width * region.height
  const luma = new Float32Array(n)
  let lo = 255
  let hi = 0
  for (let i = 0; i < n; i++) {
    const j = i * region.channels
    const l =
      region.channels === 1
        ? (region.data[j] as number)
        : 0.299 * (region.data[j] as number) +
          0.587 * (region.data[j + 1] as number) +
          0.114 * (region.data[j + 2] as number)
    luma[i] = l
    if (l < lo) lo = l
    if (l > hi) hi = l
  }
  const data = new Uint8Array(n * 4)
  for (let i = 0; i < n; i++) {
    const v = Math.round((255 * ((luma[i] as number) - lo)) / Math.max(1, hi - lo))
    data.set([v, v, v, 255], i * 4)
  }
  return { width: region.width, height: region.height, data, channels: 4 }
}

const boxText = (b: Item) => `${b.width}×${b.height} at (${b.x}, ${b.y})`

/**
 * The item in another language by its ordinal among the same-looking items of its column, after the place-based
 * `languagePlaceStrategy`: a relaid-out window (GNOME Mines' German buttons are wider and higher, its column of
 * three moved 41 px left and 19 px up) has no place to go by, but the recorded screen shows the column of
 * same-shaped buttons and which of them was clicked (the second of three). The current window must show exactly
 * one column of as many same-shaped items, as high as the recorded one; the item of the same ordinal is clicked at
 * the recorded offset, scaled by its size. Taken only when the program's text changed as a whole (as
 * `languagePlaceStrategy` requires: a window whose one button was relabelled keeps its other words and is
 * refused), and refused when the count differs (an item gone or added), when no shape holds the click, or when
 * the window shows two such columns. Needs the recorded screen, the window and OCR.
 */
export function languageOrdinalStrategy(ctx: ScreenContext): CascadeStep<UiElement> | null {
  const { crop, cropBox, step, source, screen, cropFoundAt, anchorFrame } = ctx
  if (!crop || !cropBox || !step.window || !anchorFrame || !source.ocr) return null
  const ocr = source.ocr as NonNullable<ScreenSource['ocr']>
  const window = step.window
  return {
    method: 'template',
    run: async () => {
      const none = (detail: string) => ({
        outcome: 'none' as const,
        candidates: 0,
        detail: `in another language, by its ordinal among its look-alikes: ${detail}`,
      })
      const now = await screen()
      const { recorded: was, now: is } = window
      const wasBox = clipToFrame(was, anchorFrame)
      const isBox_ = clipToFrame(is, now)
      if (!wasBox || !isBox_ || wasBox.width <= 2 * WINDOW_EDGE || isBox_.width <= 2 * WINDOW_EDGE)
        return none('the window lies off the screen')
      const label = isBox(step.target?.boundingBox) ? (step.target?.boundingBox as BoundingBox) : null
      const recorded = clickedGrid(itemsIn(anchorFrame, inset(wasBox, WINDOW_EDGE)), step.original, label)
      if (!recorded) return none('no drawn shape holds the click on the recorded screen (no button outline)')
      const { item, grid, index } = recorded
      if (grid.items.length < 2)
        return none(`the clicked item (${boxText(item)}) has no look-alike in its window: no ordinal to go by`)
      const cell = grid.cells[index] as { row: number; column: number }
      const which = `item ${index + 1} of ${grid.items.length} (row ${cell.row + 1}, column ${cell.column + 1}; ${item.width}×${item.height})`
      const grids = gridsLike(itemsIn(now, inset(isBox_, WINDOW_EDGE)), item, grid.signature)
      if (grids.length === 0) return none(`no ${grid.items.length} items laid out like the recorded ${which} now`)
      if (grids.length > 1)
        return none(
          `${grids.length} sets of ${grid.items.length} items laid out like the recorded ${which} now: ambiguous`,
        )
      const target = (grids[0] as Grid).items[index] as Item
      const sx = target.width / item.width
      const sy = target.height / item.height
      const point = {
        x: Math.round(target.x + (step.original.x - item.x) * sx),
        y: Math.round(target.y + (step.original.y - item.y) * sy),
      }
      // the item's own text, in each window's part of the screen
      const own = (origin: BoundingBox, b: BoundingBox) => ({
        x: b.x - origin.x,
        y: b.y - origin.y,
        width: b.width,
        height: b.height,
      })
      const [recordedWords, nowWords] = [await ocr(regionOf(anchorFrame, wasBox)), await ocr(regionOf(now, isBox_))]
      // the look-alikes' own labels, each read alone with its contrast stretched (an insensitive button's light
      // grey label is missed by a read of the whole window): a column whose every label changed is a language
      const labelsOf = async (f: Frame, items: readonly Item[], except: Item) => {
        const out = new Set<string>()
        for (const b of items)
          if (b !== except) for (const w of wordsOf(await ocr(stretchedRegion(f, b)), null)) out.add(w)
        return out
      }
      const union = (a: Set<string>, b: Set<string>) => new Set([...a, ...b])
      const text = textChangedAsAWhole(
        union(wordsOf(recordedWords, own(wasBox, item)), await labelsOf(anchorFrame, grid.items, item)),
        union(wordsOf(nowWords, own(isBox_, target)), await labelsOf(now, (grids[0] as Grid).items, target)),
      )
      if (!text.changed) return none(text.detail)
      const score = Math.min(sx, 1 / sx, sy, 1 / sy)
      return cropFoundAt(
        {
          box: {
            x: point.x - (step.original.x - cropBox.x),
            y: point.y - (step.original.y - cropBox.y),
            width: crop.width,
            height: crop.height,
          },
          scale: 1,
          score,
        },
        `in another language, by its ordinal among its look-alikes: ${which}, recorded ${boxText(item)}, now ${boxText(target)} (size ratio ${fmt(sx)}×${fmt(sy)}); ${text.detail}`,
      )
    },
  }
}
