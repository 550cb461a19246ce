/**
 * The description of elements the recorder and the replay read from the page. Page code: bundled into the page
 * functions (see `page-bundle.generated.ts`), imports page code only.
 */
import { centreOwn, type DirectClickTarget, rememberFound } from './direct-click'
import { accessibleName, iconClassesOf } from './element-names'
import { cssPath, rootOf, structuralPath, xpathOf } from './element-paths'
import { frameOffset } from './geometry'
import { implicitRole } from './roles'
import { cssEscape, isSeen, spacedTextOf, textOf } from './text'

/** What the page can tell about an element (the CDP accessibility tree adds role and name). */
export interface PageElementDescription {
  tagName: string
  id: string | null
  classNames: string[]
  /** Icon classes of the element and its descendants (`fa-facebook`, `bx-trash`), at most 4. */
  iconClasses: string[]
  name: string | null
  type: string | null
  placeholder: string | null
  ariaLabel: string | null
  dataTestId: string | null
  role: string | null
  /** Explicit role, else the implicit one of the tag (an approximation of the accessibility tree's). */
  implicitRole: string | null
  /** An approximation of the accessible name: aria-label, aria-labelledby, labels, alt/title, text, placeholder. */
  accessibleName: string | null
  textContent: string | null
  href: string | null
  xpath: string
  css: string
  neighborText: string[]
  framePath: string[]
  shadowPath: string[]
  /** Box in top-level viewport CSS pixels. */
  box: { x: number; y: number; width: number; height: number }
  /** How far the top document was scrolled (CSS px), for an element of the top document; null inside a frame. */
  pageScroll?: { x: number; y: number } | null
  visible: boolean
  enabled: boolean
  isPassword: boolean
  value: string | null
  /** A radio's (or a named checkbox's) place among the inputs of its type sharing its name in its form. */
  groupPosition: { index: number; size: number; value?: string } | null
  /**
   * With `centre`: the element's centre is in the viewport and a click there reaches the element itself (or a
   * descendant), nothing covers it: `clickAsAPerson` needs no look of its own (it would cost ten round trips).
   */
  centreOwn?: boolean
  /**
   * With `centre`, for an element of the top document: where the page keeps it for a click straight at it
   * (`armDirectClickInPage`), until the next lookup.
   */
  direct?: DirectClickTarget
  /**
   * With `parent`, for the only element a lookup found: a path of tags and places of its parent (`structuralPath`)
   * that reaches exactly that parent in the element's document (not through shadow roots), or null. The click then
   * looks the element up by the same role and name inside that parent only (`narrowedLocator`), a query a page's
   * size does not slow down.
   */
  parentCss?: string | null
}

/** Texts near the element: its labels', then its siblings' up to three boxes up; at most 4 of 60 characters. */
const neighbours = (el: Element): string[] => {
  const out: string[] = []
  const seen = new Set<string>()
  const push = (t: string | null) => {
    if (t && !seen.has(t) && out.length < 4) {
      seen.add(t)
      out.push(t.slice(0, 60))
    }
  }
  const own = textOf(el)
  // Labels that point at the element.
  const labels = (el as HTMLInputElement).labels
  if (labels) for (const l of Array.from(labels)) push(textOf(l))
  let node: Element | null = el
  // Three levels of boxes up; a `display: contents` wrapper draws no box and does not count as a level.
  for (let depth = 0; depth < 3 && node && out.length < 4; ) {
    const parent: Element | null = node.parentElement
    if (!parent) break
    for (const sib of Array.from(parent.children)) {
      // only what a person sees: no scripts or styles, nothing hidden (innerText of those is their source)
      if (sib === node || !isSeen(sib)) continue
      const t = spacedTextOf(sib)
      if (t && t !== own) push(t)
    }
    node = parent
    if (parent.ownerDocument.defaultView?.getComputedStyle(parent).display !== 'contents') depth++
  }
  return out
}

/** The shadow hosts and frames above the element from the top document, and its frame's offset in the top one. */
const paths = (el: Element): { framePath: string[]; shadowPath: string[]; dx: number; dy: number } => {
  const shadowPath: string[] = []
  let root = el.getRootNode()
  while (root instanceof ShadowRoot) {
    shadowPath.unshift(cssPath(root.host))
    root = root.host.getRootNode()
  }
  const win = el.ownerDocument.defaultView
  if (!win) return { framePath: [], shadowPath, dx: 0, dy: 0 }
  const { dx, dy, frames } = frameOffset(win)
  return { framePath: frames.map(cssPath).reverse(), shadowPath, dx, dy }
}

/** A radio's or checkbox's place among the inputs of its type that share its name in its form (or root). */
const groupPositionOf = (el: Element): { index: number; size: number; value?: string } | null => {
  const input = el as HTMLInputElement
  const type = (el.getAttribute('type') ?? '').toLowerCase()
  const name = el.getAttribute('name')
  if (el.localName !== 'input' || (type !== 'radio' && type !== 'checkbox') || !name) return null
  const inputs = Array.from(rootOf(el).querySelectorAll(`input[name="${cssEscape(name)}"]`)) as HTMLInputElement[]
  const group = inputs.filter((m) => (m.getAttribute('type') ?? '').toLowerCase() === type && m.form === input.form)
  const index = group.indexOf(input)
  const value = el.getAttribute('value')
  if (index < 0) return null
  return value === null ? { index, size: group.length } : { index, size: group.length, value }
}

const scrollOf = (view: Window | null): { x: number; y: number } | null =>
  view ? { x: Math.round(view.scrollX * 100) / 100, y: Math.round(view.scrollY * 100) / 100 } : null

/**
 * Describes elements: attributes, text, unique-ish CSS and XPath within their root, text of neighbours,
 * the frame and shadow-root path from the top document, and the box in top-level viewport coordinates.
 */
export function describeElementsInPage(
  elements: Element[],
  options?: { labelsOnly?: boolean; centre?: string; parent?: boolean } | null,
): PageElementDescription[] {
  // labelsOnly: no CSS path and no neighbours (the costly parts), for counting labels on a page
  const full = !options?.labelsOnly
  const token = options?.centre && elements.length <= 8 ? rememberFound(elements) : null
  return elements.map((el, index) => {
    const r = el.getBoundingClientRect()
    const { framePath, shadowPath, dx, dy } = paths(el)
    const style = el.ownerDocument.defaultView?.getComputedStyle(el)
    const visible = r.width > 0 && r.height > 0 && style?.visibility !== 'hidden' && style?.display !== 'none'
    const input = el as HTMLInputElement
    const type = el.getAttribute('type')
    return {
      tagName: el.localName,
      id: el.id || null,
      classNames: Array.from(el.classList),
      iconClasses: iconClassesOf(el),
      name: el.getAttribute('name'),
      type,
      placeholder: el.getAttribute('placeholder'),
      ariaLabel: el.getAttribute('aria-label'),
      dataTestId: el.getAttribute('data-testid') ?? el.getAttribute('data-test-id'),
      role: el.getAttribute('role'),
      implicitRole: implicitRole(el),
      accessibleName: accessibleName(el),
      textContent: textOf(el),
      href: el.getAttribute('href'),
      xpath: xpathOf(el),
      css: full ? cssPath(el) : '',
      neighborText: full ? neighbours(el) : [],
      framePath,
      shadowPath,
      box: { x: r.left + dx, y: r.top + dy, width: r.width, height: r.height },
      pageScroll: framePath.length === 0 ? scrollOf(el.ownerDocument.defaultView) : null,
      visible,
      enabled: !(input.disabled === true || el.getAttribute('aria-disabled') === 'true'),
      isPassword:
        el.localName === 'input' &&
        ((type ?? '').toLowerCase() === 'password' ||
          /\b(current|new)-password\b/.test((el.getAttribute('autocomplete') ?? '').toLowerCase())),
      value: 'value' in input && typeof input.value === 'string' && type !== 'password' ? input.value : null,
      groupPosition: groupPositionOf(el),
      ...(options?.centre && elements.length <= 8 ? { centreOwn: centreOwn(el, r, options.centre) } : {}),
      ...(token !== null ? { direct: { token, index } } : {}),
      ...(options?.parent && elements.length === 1 && el.parentElement
        ? { parentCss: structuralPath(el.parentElement) }
        : {}),
    }
  })
}
