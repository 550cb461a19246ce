import type { UiAnalysis, UiElement } from './types'

/** Distance in pixels from (x, y) to the element's box; 0 inside or on the edge. */
export function distanceToElement(element: UiElement, x: number, y: number): number {
  const b = element.boundingBox
  const dx = Math.max(b.x - x, 0, x - (b.x + b.width))
  const dy = Math.max(b.y - y, 0, y - (b.y + b.height))
  return Math.hypot(dx, dy)
}

/**
 * The element at (x, y) (`find_element_at_position`): among the elements whose box is within
 * `tolerance` pixels of the point, the nearest one; when several contain the point, the smallest (the most
 * specific, e.g. a button inside a panel). Ties keep the earlier element. Null when nothing is close enough.
 */
export function findElementAtPosition(
  uiData: UiAnalysis | readonly UiElement[],
  x: number,
  y: number,
  tolerance = 50,
): UiElement | null {
  const elements = Array.isArray(uiData) ? uiData : (uiData as UiAnalysis).elements
  let best: UiElement | null = null
  let bestDistance = Number.POSITIVE_INFINITY
  let bestArea = Number.POSITIVE_INFINITY
  for (const element of elements ?? []) {
    if (!element?.boundingBox) continue
    const d = distanceToElement(element, x, y)
    if (!(d <= tolerance)) continue
    const area = Math.abs(element.boundingBox.width * element.boundingBox.height)
    if (d < bestDistance || (d === bestDistance && area < bestArea)) {
      best = element
      bestDistance = d
      bestArea = area
    }
  }
  return best
}
