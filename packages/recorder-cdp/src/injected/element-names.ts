/**
 * What an element is called: an approximation of its accessible name, its icon classes and icon-font glyphs.
 * Page code: bundled into the page functions, imports page code only.
 */
import { rootOf } from './element-paths'
import { implicitRole, NAME_FROM_CONTENT } from './roles'
import { clean, textOf } from './text'

/** An approximation of the accessible name: aria-label, aria-labelledby, labels, alt/title, text, placeholder. */
export const accessibleName = (el: Element): string | null => {
  const aria = clean(el.getAttribute('aria-label'))
  if (aria) return aria
  const by = el.getAttribute('aria-labelledby')
  if (by) {
    const root = rootOf(el)
    const text = by
      .split(/\s+/)
      .map((id) => (root as Document).getElementById?.(id))
      .map((n) => (n ? textOf(n) : null))
      .filter(Boolean)
      .join(' ')
    if (text) return clean(text)
  }
  const labels = (el as HTMLInputElement).labels
  if (labels?.length) {
    const text = Array.from(labels)
      .map((l) => {
        // The label's own text, without the control's value.
        const copy = l.cloneNode(true) as Element
        for (const c of Array.from(copy.querySelectorAll('input,select,textarea'))) c.remove()
        return clean(copy.textContent)
      })
      .filter(Boolean)
      .join(' ')
    if (text) return text
  }
  const tag = el.localName
  if (tag === 'input') {
    const type = (el.getAttribute('type') ?? '').toLowerCase()
    if (type === 'submit' || type === 'button' || type === 'reset') return clean((el as HTMLInputElement).value)
    return clean(el.getAttribute('title')) ?? clean(el.getAttribute('placeholder'))
  }
  if (tag === 'img') return clean(el.getAttribute('alt'))
  if (tag === 'select' || tag === 'textarea') return clean(el.getAttribute('title'))
  // ARIA names only some roles from their content; a toolbar or a region is not named by its text
  const role = implicitRole(el)
  if (role && !NAME_FROM_CONTENT.has(role)) return clean(el.getAttribute('title'))
  // Text hidden by CSS still names the control for Chromium and Playwright (a collapsed sidebar rail hides
  // "Dashboards" with display: none and shows only the icon): the recorder read that name, so must the list.
  return textOf(el) ?? clean(el.textContent) ?? iconGlyphs(el) ?? clean(el.getAttribute('title'))
}

// an icon font's icon class, not its size, width or animation modifiers (the same list as the corpus uses)
const ICON_CLASS =
  /^(fa|bx|bxs|bxl|bi|ti|mdi|fe|ni|ion|icon|glyphicon|ri|la|feather)-(?!fw$|lg$|xs$|sm$|[0-9]x$|spin$|pulse$|rotate|flip|border$|inverse$|stack)[\w-]+$/
// a ligature icon font (Material Icons, Material Symbols) draws a word as a glyph: `<i class="material-icons">
// content_paste</i>` shows a clipboard, and its word is no label of the element; kept as `material-icons:content_paste`
const LIGATURE_CLASS = /^material-(icons|symbols)(-[a-z]+)?$/

/** Icon classes of the element and its descendants (`fa-facebook`, `bx-trash`), at most 4. */
export const iconClassesOf = (el: Element): string[] => {
  const out: string[] = []
  for (const n of [el, ...Array.from(el.querySelectorAll('i, span, svg, em')).slice(0, 12)]) {
    for (const c of Array.from(n.classList)) {
      if (ICON_CLASS.test(c) && !out.includes(c)) out.push(c)
      const word = LIGATURE_CLASS.test(c) ? (n.textContent ?? '').trim() : ''
      if (/^[a-z][a-z0-9_]*$/.test(word) && !out.includes(`${c}:${word}`)) out.push(`${c}:${word}`)
    }
  }
  return out.slice(0, 4)
}

/**
 * The icon-font glyphs (private-use characters) an element without text shows through `::before`/`::after`
 * content, as Chromium names it (`<a><i class="far fa-envelope"></i></a>` is "\uf0e0"): the icon tells an
 * envelope from a bell. Other generated content (arrows, bullets) is decoration and left out.
 */
export const iconGlyphs = (el: Element): string | null => {
  const view = el.ownerDocument.defaultView
  if (!view) return null
  let out = ''
  const nodes = [el, ...Array.from(el.querySelectorAll('*')).slice(0, 24)]
  for (const n of nodes) {
    for (const pseudo of ['::before', '::after']) {
      const content = view.getComputedStyle(n, pseudo).content
      if (!content || content === 'none' || content === 'normal') continue
      for (const m of content.matchAll(/\p{Co}/gu)) out += m[0]
    }
  }
  return out === '' ? null : out
}
