/** Roles as the page can tell them. Page code: bundled into the page functions, imports page code only. */
import { ARIA_NAME_FROM_CONTENT_ROLES } from '@qa/model'

/** Roles that take their accessible name from their content (WAI-ARIA 1.2 "name from: contents"). */
export const NAME_FROM_CONTENT = new Set(ARIA_NAME_FROM_CONTENT_ROLES)

/** Explicit role, else the implicit one of the tag (an approximation of the accessibility tree's). */
export const implicitRole = (el: Element): string | null => {
  const explicit = el.getAttribute('role')
  if (explicit) return explicit.split(/\s+/)[0] ?? null
  const tag = el.localName
  const type = (el.getAttribute('type') ?? 'text').toLowerCase()
  if (tag === 'button' || tag === 'summary') return 'button'
  if (tag === 'a') return el.hasAttribute('href') ? 'link' : null
  if (tag === 'select') return (el as HTMLSelectElement).multiple ? 'listbox' : 'combobox'
  if (tag === 'textarea') return 'textbox'
  if (tag === 'option') return 'option'
  if (tag === 'img') return 'img'
  if (/^h[1-6]$/.test(tag)) return 'heading'
  if (tag === 'input') {
    if (type === 'checkbox') return 'checkbox'
    if (type === 'radio') return 'radio'
    if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') return 'button'
    if (type === 'search') return 'searchbox'
    if (type === 'range') return 'slider'
    if (type === 'number') return 'spinbutton'
    return 'textbox'
  }
  return null
}
