/**
 * Text as a person sees it on the page: whitespace folded, visible text only. Page code: bundled into the page
 * functions (see `page-bundle.generated.ts`), so it may import only other page code.
 */

/** Whitespace folded to one space and trimmed; null when empty; at most `max` characters. */
export const clean = (s: string | null | undefined, max = 200): string | null => {
  if (s == null) return null
  const t = s.replace(/\s+/g, ' ').trim()
  return t === '' ? null : t.length > max ? t.slice(0, max) : t
}

/** `CSS.escape`, or its approximation where the page has none. */
export const cssEscape = (s: string): string =>
  typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(s) : s.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`)

/** The text a person sees in the element, folded (`clean`). */
export const textOf = (el: Element): string | null => {
  const h = el as HTMLElement
  // innerText on purpose: the text a person sees (no hidden nodes, CSS text-transform applied).
  // biome-ignore lint/performance/useDomNodeTextContent: visible text is the point
  return clean(typeof h.innerText === 'string' ? h.innerText : el.textContent)
}

const UNSEEN_TAGS = new Set(['script', 'style', 'template', 'noscript', 'link', 'meta', 'title'])

/** Rendered for a person to see (a `display: contents` wrapper has no box of its own but shows its children). */
export const isSeen = (el: Element): boolean => {
  if (UNSEEN_TAGS.has(el.localName)) return false
  const style = el.ownerDocument.defaultView?.getComputedStyle(el)
  if (!style || style.display === 'none' || style.visibility === 'hidden') return false
  return style.display === 'contents' || el.getClientRects().length > 0
}

/**
 * A neighbour's visible text with its elements' texts kept apart by a space: innerText glues inline elements
 * ("Export" and "Star" side by side read "ExportStar"), and a neighbour is compared word by word. Three levels
 * deep and the first 200 characters, like `clean`.
 */
export const spacedTextOf = (el: Element): string | null => {
  const parts: string[] = []
  let length = 0
  const walk = (node: Element, depth: number) => {
    if (depth === 3 || node.children.length === 0) {
      const t = textOf(node)
      if (t) {
        parts.push(t)
        length += t.length
      }
      return
    }
    for (const n of Array.from(node.childNodes)) {
      if (length >= 200) return
      if (n.nodeType === 3) {
        const t = n.textContent?.trim()
        if (t) {
          parts.push(t)
          length += t.length
        }
      } else if (n.nodeType === 1 && isSeen(n as Element)) walk(n as Element, depth + 1)
    }
  }
  walk(el, 0)
  return clean(parts.join(' '))
}
