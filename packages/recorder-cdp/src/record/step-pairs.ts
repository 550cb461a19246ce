import type { Action, BoundingBox } from '@qa/model'

/**
 * Two recorded steps that belong together: a click that opens a `<select>`'s native list and the pick in it, a
 * click into a text field and the typing into it. Pure.
 */

/**
 * Whether a click opens the native list of a `<select>` whose choice the next step makes (the recorder writes a
 * person's click on a drop-down, then the option picked, as these two steps): the same element by its recorded
 * selector, XPath or box. Pure.
 */
export function opensNativeListFor(action: Action, next: Action | undefined): boolean {
  if (next?.actionType !== 'select' || action.actionType !== 'click') return false
  const a = action.identity
  const b = next.identity
  if (a?.tagName?.toLowerCase() !== 'select' || b?.tagName?.toLowerCase() !== 'select') return false
  return sameRecordedElement(action, next)
}

/** Input types that take typed text (a click on one only puts the caret there). */
const TEXT_INPUT_TYPES = new Set(['', 'text', 'email', 'password', 'search', 'tel', 'url', 'number'])

/** Whether an element (as recorded or as found) is a field that takes typed text: a text-like input or a textarea. */
export function isTextField(e: { tagName?: string | null; type?: string | null } | null | undefined): boolean {
  const tag = e?.tagName?.toLowerCase()
  return tag === 'textarea' || (tag === 'input' && TEXT_INPUT_TYPES.has(e?.type?.toLowerCase() ?? ''))
}

/**
 * Whether a click only puts the caret into a text field that the next step types into (the recorder writes a
 * person's click into a field, then the typing, as these two steps): the same element as `opensNativeListFor` tells
 * it. A person starts typing while the field's focus ring is still fading in, so the click's recorded after-image
 * holds a moment of that transition; the typing's is the field focused and filled. Pure.
 */
export function focusesFieldTypedNext(action: Action, next: Action | undefined): boolean {
  if (next?.actionType !== 'type' || action.actionType !== 'click' || action.button === 'right') return false
  if (!isTextField(action.identity) || !isTextField(next.identity)) return false
  return sameRecordedElement(action, next)
}

/** Two steps recorded on the same element: by recorded selector, XPath or box. */
function sameRecordedElement(action: Action, next: Action): boolean {
  const a = action.identity
  const b = next.identity
  if (!a || !b) return false
  const css = action.selectors?.css
  if (css && css === next.selectors?.css) return true
  if (a.xpath && a.xpath === b.xpath) return true
  const [p, q] = [a.boundingBox, b.boundingBox]
  return Boolean(p && q && Math.abs(p.x - q.x) < 2 && Math.abs(p.y - q.y) < 2 && Math.abs(p.width - q.width) < 2)
}

/** Rows of a native list counted as drawn (Chromium draws up to 20; most selects hold fewer). */
const NATIVE_LIST_ROWS = 10
/** Height of a row of a native list, generously (CSS pixels). */
const NATIVE_LIST_ROW_PX = 24
/** How much wider than its select a native list may be drawn (options longer than the select shows). */
const NATIVE_LIST_EXTRA_WIDTH_PX = 120

/**
 * Where the native list of a select with this box is drawn (CSS pixels, in a viewport `viewportHeight` high): below
 * the select, or above it where there is no room below. After the pick in it, what shows there depends on where the
 * person's pointer came to rest (a field under it takes its hover look), which a replay cannot repeat.
 */
export function nativeListArea(select: BoundingBox, viewportHeight: number): BoundingBox {
  const height = NATIVE_LIST_ROWS * NATIVE_LIST_ROW_PX
  const below = select.y + select.height
  const y = below + height <= viewportHeight || select.y < height ? below : select.y - height
  return {
    x: Math.max(0, select.x - 4),
    y: Math.max(0, y),
    width: select.width + NATIVE_LIST_EXTRA_WIDTH_PX,
    height,
  }
}
