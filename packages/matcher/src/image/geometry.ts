import type { BoundingBox } from '@qa/model'

export interface XY {
  x: number
  y: number
}

export function centerOf(box: Pick<BoundingBox, 'x' | 'y' | 'width' | 'height'>): XY {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

export function areaOf(box: Pick<BoundingBox, 'width' | 'height'>): number {
  return Math.max(0, box.width) * Math.max(0, box.height)
}

/** min(area) / max(area), 1 for two empty boxes. */
export function areaRatio(a: Pick<BoundingBox, 'width' | 'height'>, b: Pick<BoundingBox, 'width' | 'height'>): number {
  const aa = areaOf(a)
  const bb = areaOf(b)
  if (aa === 0 && bb === 0) return 1
  if (aa === 0 || bb === 0) return 0
  return Math.min(aa, bb) / Math.max(aa, bb)
}

export function iou(a: BoundingBox, b: BoundingBox): number {
  const x0 = Math.max(a.x, b.x)
  const y0 = Math.max(a.y, b.y)
  const x1 = Math.min(a.x + a.width, b.x + b.width)
  const y1 = Math.min(a.y + a.height, b.y + b.height)
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0)
  const union = areaOf(a) + areaOf(b) - inter
  return union <= 0 ? 0 : inter / union
}

/**
 * How far apart the centres of two boxes are (CSS px): on the screen, or, when both sides know how far their page
 * was scrolled, the smaller of that and how far apart they are on the page. A replay scrolled otherwise than the
 * recording finds an element of the page where it stood on the page, and a fixed header where it stood on the
 * screen.
 */
export function placeDistance(
  a: BoundingBox,
  b: BoundingBox,
  aScroll?: { x: number; y: number } | null,
  bScroll?: { x: number; y: number } | null,
): number {
  const dx = b.x + b.width / 2 - (a.x + a.width / 2)
  const dy = b.y + b.height / 2 - (a.y + a.height / 2)
  const onScreen = Math.hypot(dx, dy)
  if (!aScroll || !bScroll) return onScreen
  return Math.min(onScreen, Math.hypot(dx + bScroll.x - aScroll.x, dy + bScroll.y - aScroll.y))
}

export function isBox(box: unknown): box is BoundingBox {
  if (typeof box !== 'object' || box === null) return false
  const b = box as Record<string, unknown>
  return ['x', 'y', 'width', 'height'].every((k) => typeof b[k] === 'number' && Number.isFinite(b[k] as number))
}

export const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : Number.isNaN(v) ? 0 : v)

/** The part of a box inside a frame of `size`, in whole pixels; null when none is. */
export function clipToFrame(b: BoundingBox, size: { width: number; height: number }): BoundingBox | null {
  const x = Math.max(0, Math.round(b.x))
  const y = Math.max(0, Math.round(b.y))
  const width = Math.min(size.width, Math.round(b.x + b.width)) - x
  const height = Math.min(size.height, Math.round(b.y + b.height)) - y
  return width > 0 && height > 0 ? { x, y, width, height } : null
}
