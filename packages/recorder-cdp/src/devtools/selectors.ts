/**
 * The selector grammar of a DevTools recording: a selector is a path (shadow hosts, then the element), each entry
 * `aria/Name[role="r"]`, `xpath/…`, `pierce/…`, `text/…` or plain CSS; and the CSS pieces the import reads an
 * identity from (compound selectors, attributes, escapes) and the export writes (ids, quoted attribute values).
 */
import type { DevtoolsSelector } from './types'

export const normalizePath = (s: DevtoolsSelector): string[] => (typeof s === 'string' ? [s] : s)
export const selectorKey = (s: DevtoolsSelector) => JSON.stringify(normalizePath(s))

export type DevtoolsSelectorKind = 'css' | 'pierce' | 'xpath' | 'text' | 'aria'

/** One entry of a selector path: its kind and the part after the prefix. */
export interface DevtoolsSelectorPart {
  kind: DevtoolsSelectorKind
  body: string
}

/** `aria/…`, `xpath/…`, `pierce/…`, `text/…` or plain CSS, as `@puppeteer/replay`'s `getSelectorType` reads it. */
export function devtoolsSelectorPart(selector: string): DevtoolsSelectorPart {
  for (const kind of ['aria', 'xpath', 'pierce', 'text'] as const)
    if (selector.startsWith(`${kind}/`)) return { kind, body: selector.slice(kind.length + 1) }
  return { kind: 'css', body: selector }
}

/**
 * `aria/Name[role="button"]` → the accessible name and role Puppeteer queries (`parseARIASelector`: every
 * `[name="…"]`/`[role="…"]` part taken out, the rest is the name unless a `[name]` part gave one).
 */
export function ariaQueryOf(body: string): { name?: string; role?: string } {
  const out: { name?: string; role?: string } = {}
  const rest = body.replace(
    /\[\s*(\w+)\s*=\s*(["'])(\\.|.*?(?=\2))\2\s*\]/g,
    (_m, attribute: string, _q: string, value: string) => {
      if (attribute === 'name' || attribute === 'role') out[attribute] = value
      return ''
    },
  )
  if (rest && out.name === undefined) out.name = rest
  return out
}

/** `aria/Name[role="button"]` → name and role (puppeteer strips every `[attr="v"]` part and trims the rest). */
export function parseAriaSelector(body: string): { name: string; role: string | null } {
  let role: string | null = null
  const name = body
    .replace(/\[\s*(\w+)\s*=\s*(["'])(.*?)\2\s*\]/g, (_m, attr: string, _q: string, value: string) => {
      if (attr === 'role') role = value
      return ''
    })
    .trim()
  return { name, role }
}

function cssUnescape(s: string): string {
  return s.replace(/\\([0-9a-fA-F]{1,6})\s?|\\([\s\S])/g, (_m, hex: string | undefined, ch: string | undefined) =>
    hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : (ch ?? ''),
  )
}

/** CSS identifier escaping (CSS.escape, for ids in `#id`). */
export function cssEscapeIdent(s: string): string {
  let out = ''
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string
    const code = c.charCodeAt(0)
    if (code === 0) out += '\uFFFD'
    else if (
      (code >= 1 && code <= 0x1f) ||
      code === 0x7f ||
      (/[0-9]/.test(c) && (i === 0 || (i === 1 && s[0] === '-')))
    )
      out += `\\${code.toString(16)} `
    else if (i === 0 && c === '-' && s.length === 1) out += '\\-'
    else if (code >= 0x80 || /[A-Za-z0-9_-]/.test(c)) out += c
    else out += `\\${c}`
  }
  return out
}

/**
 * A CSS string: `\` and `"` escaped, control characters as hex escapes (a raw line break would end the string and
 * make the selector invalid), NUL as U+FFFD (what CSS and an HTML attribute read it as).
 */
export const quoteAttr = (v: string) => {
  let out = ''
  for (const c of v) {
    const code = c.charCodeAt(0)
    if (code === 0) out += '\uFFFD'
    else if (code <= 0x1f || code === 0x7f) out += `\\${code.toString(16)} `
    else if (c === '\\' || c === '"') out += `\\${c}`
    else out += c
  }
  return `"${out}"`
}

/** The last compound selector of a CSS selector (after the last combinator outside brackets and quotes). */
export function lastCompound(css: string): string {
  let bracket = 0
  let paren = 0
  let quote = ''
  let start = 0
  for (let i = 0; i < css.length; i++) {
    const c = css[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = ''
      continue
    }
    if (c === '\\') i++
    else if (c === '"' || c === "'") quote = c
    else if (c === '[') bracket++
    else if (c === ']') bracket--
    else if (c === '(') paren++
    else if (c === ')') paren--
    else if (bracket === 0 && paren === 0 && /[\s>+~,]/.test(c as string)) start = i + 1
  }
  return css.slice(start).trim()
}

export interface CompoundParts {
  tag?: string
  id?: string
  classes: string[]
  attrs: Record<string, string>
}

const IDENT = String.raw`(?:\\[0-9a-fA-F]{1,6}\s?|\\[^0-9a-fA-F]|[\w-]|[^\x00-\x7f])+`
const TAG_RE = /^([a-zA-Z][\w-]*)/
const ID_RE = new RegExp(`^#(${IDENT})`)
const CLASS_RE = new RegExp(`^\\.(${IDENT})`)
const ATTR_RE =
  /^\[\s*([\w:-]+)\s*(?:([~|^$*]?=)\s*(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'|([^\]\s]+))\s*[iIsS]?\s*)?\]/
const PSEUDO_RE = /^::?[\w-]+(?:\((?:[^()]|\([^()]*\))*\))?/

export function parseCompound(compound: string): CompoundParts {
  const parts: CompoundParts = { classes: [], attrs: {} }
  let rest = compound
  const tag = TAG_RE.exec(rest)
  if (tag) {
    parts.tag = (tag[1] as string).toLowerCase()
    rest = rest.slice(tag[0].length)
  } else if (rest.startsWith('*')) rest = rest.slice(1)
  while (rest.length > 0) {
    const id = ID_RE.exec(rest)
    const cls = id ? null : CLASS_RE.exec(rest)
    const attr = id || cls ? null : ATTR_RE.exec(rest)
    // :nth-child(2), :not(…): position or negation, not an attribute of the element
    const pseudo = id || cls || attr ? null : PSEUDO_RE.exec(rest)
    const m = id ?? cls ?? attr ?? pseudo
    if (!m) break
    if (id) parts.id ??= cssUnescape(id[1] as string)
    else if (cls) parts.classes.push(cssUnescape(cls[1] as string))
    else if (attr && attr[2] === '=')
      parts.attrs[(attr[1] as string).toLowerCase()] ??= cssUnescape(attr[3] ?? attr[4] ?? attr[5] ?? '')
    rest = rest.slice(m[0].length)
  }
  return parts
}

/** Tag and id named by the last step of an XPath (`/html/body/button[2]`, `//*[@id="x"]`). */
export function parseXpathTail(xpath: string): { tag?: string; id?: string } {
  const m = /\/([a-zA-Z][\w-]*|\*)((?:\[[^\]]*\])*)\s*$/.exec(xpath)
  if (!m) return {}
  const out: { tag?: string; id?: string } = {}
  if (m[1] !== '*') out.tag = (m[1] as string).toLowerCase()
  const id = /\[@id\s*=\s*(["'])(.*?)\1\]/.exec(m[2] ?? '')
  if (id) out.id = id[2] as string
  return out
}

export const FRAME_RE = /^iframe >> nth=(\d+)$/

/** `frame: [0, 2]` ↔ `frame_path: ["iframe >> nth=0", "iframe >> nth=2"]` (a Playwright frame locator per level). */
export const framePathFromIndices = (frame: readonly number[]): string[] => frame.map((i) => `iframe >> nth=${i}`)
