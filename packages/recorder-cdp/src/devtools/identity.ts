/**
 * DevTools selectors ↔ an element identity. Import reads an identity and our selectors from a step's selectors
 * (`aria/Name[role="r"]` → ax_name + ax_role, `text/…` → text_content, `xpath/…` → xpath, plain CSS → the
 * attributes it names; the tag from the CSS type selector, the last XPath step or the role); export writes the
 * selectors of an identity, most stable first.
 */
import type { ElementIdentity, Selectors } from '@qa/model'
import {
  type CompoundParts,
  cssEscapeIdent,
  devtoolsSelectorPart,
  framePathFromIndices,
  lastCompound,
  normalizePath,
  parseAriaSelector,
  parseCompound,
  parseXpathTail,
  quoteAttr,
  selectorKey,
} from './selectors'
import type { DevtoolsSelector } from './types'

const ROLE_TAGS: Record<string, string> = {
  button: 'button',
  link: 'a',
  textbox: 'input',
  searchbox: 'input',
  checkbox: 'input',
  radio: 'input',
  img: 'img',
}

export interface ImportedTarget {
  identity: ElementIdentity
  selectors: Selectors
  /** True when no selector could be used (the element cannot be found on replay). */
  empty: boolean
}

/**
 * Builds an element identity and our selectors from DevTools selectors (the rules at the top of `import.ts`).
 * `selectorAttribute` is the recording's custom test-id attribute (e.g. `data-qa`), read like `data-testid`.
 */
export function identityFromDevtoolsSelectors(
  selectors: readonly DevtoolsSelector[],
  opts: { frame?: readonly number[]; selectorAttribute?: string } = {},
): ImportedTarget {
  const identity: Partial<ElementIdentity> = {}
  let css: string | undefined
  let xpath: string | undefined
  let shadowPath: string[] = []
  const cssFallbacks: string[] = []
  const xpathFallbacks: string[] = []
  const compounds: CompoundParts[] = []
  let xpathTail: { tag?: string; id?: string } = {}
  let usable = 0
  for (const raw of selectors) {
    const path = normalizePath(raw)
    const last = path[path.length - 1] as string
    const { kind, body } = devtoolsSelectorPart(last)
    if (body.trim() === '') continue
    // `["aria/Download Crosstab", "aria/Download"]` is "Download" inside "Download Crosstab": the last name alone
    // names another element (a toolbar's own "Download"), so a scoped ARIA path says nothing about the element
    if (kind === 'aria' && path.length > 1) continue
    usable++
    switch (kind) {
      case 'aria': {
        const { name, role } = parseAriaSelector(body)
        if (identity.axName == null && name !== '') {
          identity.axName = name
          if (role) identity.axRole = role
        } else if (identity.axRole == null && role && name === '') identity.axRole = role
        break
      }
      case 'text':
        identity.textContent ??= body
        break
      case 'xpath':
        if (xpath === undefined) {
          xpath = body
          xpathTail = parseXpathTail(body)
        } else xpathFallbacks.push(body)
        break
      case 'pierce':
      case 'css': {
        const hosts = path.slice(0, -1)
        const plainHosts = hosts.every((h) => devtoolsSelectorPart(h).kind === 'css')
        if (css === undefined && kind === 'css' && plainHosts) {
          css = body
          shadowPath = hosts
        } else cssFallbacks.push(body)
        compounds.push(parseCompound(lastCompound(body)))
        break
      }
    }
  }
  if (css === undefined && cssFallbacks.length > 0) css = cssFallbacks.shift()
  const testIdAttrs = ['data-testid', ...(opts.selectorAttribute ? [opts.selectorAttribute.toLowerCase()] : [])]
  let tag: string | undefined
  const classNames: string[] = []
  for (const c of compounds) {
    tag ??= c.tag
    if (c.id !== undefined) identity.id ??= c.id
    for (const cls of c.classes) if (!classNames.includes(cls)) classNames.push(cls)
    for (const attr of testIdAttrs) if (c.attrs[attr] !== undefined) identity.dataTestId ??= c.attrs[attr]
    if (c.attrs.id !== undefined) identity.id ??= c.attrs.id
    if (c.attrs.name !== undefined) identity.name ??= c.attrs.name
    if (c.attrs['aria-label'] !== undefined) identity.ariaLabel ??= c.attrs['aria-label']
    if (c.attrs.placeholder !== undefined) identity.placeholder ??= c.attrs.placeholder
    if (c.attrs.type !== undefined) identity.type ??= c.attrs.type.toLowerCase()
    if (c.attrs.href !== undefined) identity.href ??= c.attrs.href
  }
  if (xpathTail.id !== undefined) identity.id ??= xpathTail.id
  tag ??= xpathTail.tag ?? (identity.axRole ? ROLE_TAGS[identity.axRole] : undefined)
  if (classNames.length > 0) identity.classNames = classNames
  if (xpath !== undefined) identity.xpath = xpath
  if (opts.frame && opts.frame.length > 0) identity.framePath = framePathFromIndices(opts.frame)
  if (shadowPath.length > 0) identity.shadowPath = shadowPath
  const fallbacks = [
    ...cssFallbacks,
    ...xpathFallbacks.map((x) => (x.startsWith('/') || x.startsWith('(') ? x : `xpath=${x}`)),
  ].filter((f, i, all) => f !== css && all.indexOf(f) === i)
  const sel: Selectors = {}
  if (css !== undefined) sel.css = css
  if (xpath !== undefined) sel.xpath = xpath
  if (fallbacks.length > 0) sel.fallbacks = fallbacks
  return {
    identity: { ...identity, tagName: tag ?? 'unknown', boundingBox: { x: 0, y: 0, width: 0, height: 0 } },
    selectors: sel,
    empty: usable === 0,
  }
}

function aria(name: string, role: string | null | undefined): string {
  return `aria/${name}${role ? `[role="${role}"]` : ''}`
}

const isXpathLike = (s: string) => s.startsWith('xpath=') || s.startsWith('/') || s.startsWith('(')

/**
 * DevTools selectors for an identity and our selectors, most stable first: aria name+role, data-testid, id, the
 * stored CSS, CSS fallbacks, XPath (stored, then fallbacks), text; then `extraSelectors` (e.g. the originals
 * kept at import) that are not already there. CSS selectors are prefixed with the shadow hosts. Always paths.
 */
export function devtoolsSelectorsFor(
  identity: ElementIdentity | null | undefined,
  selectors: Selectors | null | undefined,
  extraSelectors: readonly DevtoolsSelector[] = [],
): string[][] {
  const out: string[][] = []
  const seen = new Set<string>()
  const add = (path: string[]) => {
    const key = selectorKey(path)
    if (path.some((p) => p.trim() === '') || seen.has(key)) return
    seen.add(key)
    out.push(path)
  }
  const hosts = identity?.shadowPath ?? []
  const inShadow = (css: string) => [...hosts, css]
  const name = identity?.axName?.trim()
  if (name && !/[[\]]/.test(name)) add([aria(name, identity?.axRole)])
  if (identity?.dataTestId) add(inShadow(`[data-testid=${quoteAttr(identity.dataTestId)}]`))
  if (identity?.id) add(inShadow(`#${cssEscapeIdent(identity.id)}`))
  /** The element has a name of its own (accessible name, test id, id): a text selector adds only ambiguity. */
  const named = out.length > 0
  if (selectors?.css) add(inShadow(selectors.css))
  const fallbacks = (selectors?.fallbacks ?? []).filter((f) => f.trim() !== '')
  for (const f of fallbacks) if (!isXpathLike(f)) add(inShadow(f.startsWith('css=') ? f.slice(4) : f))
  const xpath = selectors?.xpath ?? identity?.xpath
  if (xpath) add([`xpath/${xpath}`])
  for (const f of fallbacks) if (isXpathLike(f)) add([`xpath/${f.startsWith('xpath=') ? f.slice(6) : f}`])
  // `text/…` matches the smallest element holding the text anywhere (a heading and a label saying 로그인 as
  // well as the button): written only when no accessible name, test id or id names the element
  const text = identity?.textContent?.replace(/\s+/g, ' ').trim()
  if (text && text.length <= 80 && !named) add([`text/${text}`])
  for (const s of extraSelectors) add(normalizePath(s))
  return out
}
