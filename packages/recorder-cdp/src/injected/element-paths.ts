/**
 * Where an element is: a unique-ish CSS selector and an XPath within its root. Page code: bundled into the page
 * functions, imports page code only.
 */
import { cssEscape } from './text'

/** An id or class a framework generated (`css-1x2y3z`, `sc-abc`, `a1b2c3d4`): no anchor for a selector. */
const looksGenerated = (s: string): boolean => /\d{3,}|[a-f0-9]{6,}|^css-|^sc-|^jsx-|__/.test(s)

/** The document or shadow root the element is in. */
export const rootOf = (el: Element): Document | ShadowRoot => el.getRootNode() as Document | ShadowRoot

/**
 * A selector of tags and places only (`main > div:nth-of-type(2) > ul`), from the nearest ancestor with a unique id
 * (or the document element): no classes, which a click or a hover changes (`active`, `show`, `focused`), and no
 * attributes. Null when the element is in a shadow root or the path reaches another element than this one.
 */
export const structuralPath = (el: Element): string | null => {
  const doc = el.ownerDocument
  if (el.getRootNode() !== doc) return null
  const parts: string[] = []
  for (let node: Element | null = el; node; node = node.parentElement) {
    if (node.id && !looksGenerated(node.id) && doc.querySelectorAll(`#${cssEscape(node.id)}`).length === 1) {
      parts.unshift(`#${cssEscape(node.id)}`)
      break
    }
    const parent: Element | null = node.parentElement
    const tag = node.localName
    const same = parent ? Array.from(parent.children).filter((c) => c.localName === tag) : []
    parts.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(node) + 1})` : tag)
  }
  const path = parts.join(' > ')
  try {
    const found = doc.querySelectorAll(path)
    return found.length === 1 && found[0] === el ? path : null
  } catch {
    return null
  }
}

/** A CSS selector unique in the element's root when one is found: id, test id, name, else a path of tags. */
export const cssPath = (el: Element): string => {
  const root = rootOf(el)
  const unique = (sel: string): boolean => {
    try {
      return root.querySelectorAll(sel).length === 1
    } catch {
      return false
    }
  }
  const tag = el.localName
  if (el.id && !looksGenerated(el.id) && unique(`#${cssEscape(el.id)}`)) return `#${cssEscape(el.id)}`
  const testId = el.getAttribute('data-testid')
  if (testId && unique(`[data-testid="${testId}"]`)) return `[data-testid="${testId}"]`
  const name = el.getAttribute('name')
  if (name && unique(`${tag}[name="${name}"]`)) return `${tag}[name="${name}"]`
  const parts: string[] = []
  let node: Element | null = el
  while (node && node.nodeType === 1) {
    let part = node.localName
    const stable = Array.from(node.classList)
      .filter((c) => !looksGenerated(c))
      .slice(0, 2)
    if (stable.length) part += stable.map((c) => `.${cssEscape(c)}`).join('')
    const parent: Element | null = node.parentElement
    if (parent) {
      const same = Array.from(parent.children).filter((c) => c.localName === node!.localName)
      if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`
    }
    parts.unshift(part)
    const sel = parts.join(' > ')
    if (unique(sel)) return sel
    node = parent
  }
  return parts.join(' > ')
}

/** The element's XPath from its root, by tag and place among same-tag siblings. */
export const xpathOf = (el: Element): string => {
  const parts: string[] = []
  let node: Element | null = el
  while (node && node.nodeType === 1) {
    const parent: Element | null = node.parentElement
    const name = node.localName
    if (!parent) {
      parts.unshift(`/${name}`)
      break
    }
    const same = Array.from(parent.children).filter((c) => c.localName === name)
    parts.unshift(same.length > 1 ? `/${name}[${same.indexOf(node) + 1}]` : `/${name}`)
    node = parent
  }
  return parts.join('')
}
