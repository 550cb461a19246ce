import { chooseClickTarget } from '@qa/matcher'
import type { PointerDownSnapshot } from './page-input-event'
import type { PageElementDescription } from '../injected/page-scripts'

/**
 * The element a click was meant for as the DOM was at pointer-down (`PointerDownSnapshot`), decided as for a
 * click read over CDP (`chooseClickTarget`, by markup: listeners cannot be seen from the page); null when the
 * snapshot names no interactive element, or the chosen one was not described.
 */
export function targetAtPointerDown(
  snapshot: PointerDownSnapshot | null | undefined,
  viewport: { width: number; height: number } | null,
): PageElementDescription | null {
  if (!snapshot || snapshot.nodes.length === 0) return null
  const decision = chooseClickTarget(snapshot.nodes, { viewport })
  if (decision.kind !== 'element') return null
  return snapshot.descriptions[decision.index] ?? null
}

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()

/**
 * Whether the element read after the page reacted is still the one pressed: the same place in the document and
 * the same label. Classes, boxes and values are left out: a pressed button gains an "active" class or moves by
 * a pixel, and is still the same button. A label changed on mousedown ("Try it out" became "Cancel") or an
 * element that took the pressed one's place is another element.
 */
export function isSameElement(now: PageElementDescription, atDown: PageElementDescription): boolean {
  return (
    now.tagName === atDown.tagName &&
    now.xpath === atDown.xpath &&
    now.framePath.join('\u0000') === atDown.framePath.join('\u0000') &&
    now.shadowPath.join('\u0000') === atDown.shadowPath.join('\u0000') &&
    norm(now.textContent) === norm(atDown.textContent) &&
    norm(now.ariaLabel) === norm(atDown.ariaLabel) &&
    norm(now.accessibleName) === norm(atDown.accessibleName)
  )
}
