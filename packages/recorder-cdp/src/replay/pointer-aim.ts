/** The elements a hover look is drawn on: controls and links (a page function gets it as an argument). */
export const HOVERABLE =
  'a[href],button,input,select,textarea,label,summary,[role=button],[role=link],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=tab],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem]'

/** Where a click on an element leaves the pointer (its centre) and the control under that point before the click. */
export interface PointerAim {
  target: Element
  x: number
  y: number
  before: Element | null
  hoverable: string
}

/**
 * Page function: the aim of a click on `target` at its centre, in the top frame's viewport; null when the element
 * is in a frame or its centre is out of view (the click will scroll, and the point is not known).
 */
export function aimAtCentre(target: Element, hoverable: string): PointerAim | null {
  if (window !== window.top) return null
  const r = target.getBoundingClientRect()
  const x = r.x + r.width / 2
  const y = r.y + r.height / 2
  if (!(x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)) return null
  return { target, x, y, before: document.elementFromPoint(x, y)?.closest(hoverable) ?? null, hoverable }
}

/**
 * Page function: the box of the control the click brought under the resting pointer (a menu closed and the button
 * behind it is there now): not the target, its label or a part of it, and not what was under the pointer before.
 * Its hover look depends on when the browser updates it, so the verdict compares it through a colour map.
 */
export function elementBroughtUnderPointer(
  aim: PointerAim | null,
): { x: number; y: number; width: number; height: number } | null {
  if (!aim) return null
  const now = document.elementFromPoint(aim.x, aim.y)?.closest(aim.hoverable) ?? null
  const t = aim.target
  if (!now || now === aim.before || now === t || now.contains(t) || t.contains(now)) return null
  const labels = (t as HTMLInputElement).labels
  if (labels && Array.from(labels).includes(now as HTMLLabelElement)) return null
  const r = now.getBoundingClientRect()
  return r.width > 0 && r.height > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null
}

/**
 * Page function: scrolls `target` to the middle of its view when part of it is out of the view (as a click's own
 * scroll would, at once even where the page asks for smooth scrolling); tells whether it moved on the screen.
 */
export function scrollIntoViewWhenOut(target: Element): boolean {
  const r = target.getBoundingClientRect()
  if (r.width === 0 && r.height === 0) return false
  if (r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth) return false
  target.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
  const now = target.getBoundingClientRect()
  return now.top !== r.top || now.left !== r.left
}
