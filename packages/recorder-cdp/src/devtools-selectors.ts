/**
 * The selectors of a step imported from a Chrome DevTools Recorder export, resolved on the live page as the
 * reference (`@puppeteer/replay` 3 on Puppeteer's P-selectors) resolves them, so that a recorded selector that
 * still names exactly one element is that element:
 * - a selector group is a path: each entry is queried in the shadow root of the previous entry's match (Puppeteer's
 *   `>>>>`: the element's open shadow root, or the element itself when it has none);
 * - an entry is plain CSS (`querySelectorAll`, not piercing), `pierce/css` (every open shadow root below, the root
 *   included), `xpath/…` (`document.evaluate` with the root as context), `text/…` (the deepest elements whose text,
 *   shadow roots and field values included, contains the text) or `aria/Name[role="r"]` (Chromium's accessibility
 *   tree, `Accessibility.queryAXTree`, ignored and text nodes left out), exactly Puppeteer's query handlers;
 * - groups race as in the reference: `@puppeteer/replay` 3 hands every group to Puppeteer's `Locator.race`, where
 *   each group's locator waits for its selector's first match (`waitForSelector`, document order, no visibility
 *   filter) and the first to resolve wins; the click then waits for that element to be visible, stable and in the
 *   viewport. With every group evaluated at once, the winner is the first group, in the recording's order, that
 *   names anything, and its element is its first match. Here: the first group, in order, naming at least one
 *   element whose first match is visible (a box, not `visibility: hidden`); a group naming several elements
 *   answers with its first, as the reference does (its count is in the outcomes and the report). One difference,
 *   deliberate: a group whose first match has no box is passed over (the reference would wait on it until its
 *   timeout and fail the step).
 * The page function is self-contained (Playwright serialises it); ARIA answers come from CDP and are handed to it
 * through a symbol-keyed property of `window`, removed right after.
 */
import type { CDPSession, ElementHandle, Frame, Page } from 'playwright-core'
import {
  ariaQueryOf,
  type DevtoolsSelector,
  type DevtoolsSelectorKind,
  type DevtoolsSelectorPart,
  devtoolsSelectorPart,
} from './devtools'

export type { DevtoolsSelectorKind, DevtoolsSelectorPart } from './devtools'

/** What each group of a step named on the page (for the report's attempts). */
export interface GroupOutcome {
  group: number
  selector: string
  /** Elements the group names (0: none, >1: ambiguous). */
  count: number
  /** Whether its first element (the reference's answer) is visible (null when it names none). */
  visible: boolean | null
  /** Why the group could not be evaluated (a CSS syntax error, an XPath error). */
  error?: string
}

export interface RecordedSelectorHit {
  handle: ElementHandle<Element>
  group: number
  kind: DevtoolsSelectorKind
  outcomes: GroupOutcome[]
}

const ARIA_KEY = 'qa.devtools.aria'

/**
 * The element the recording's own selectors name in `frame`: the first group, in order, naming an element whose
 * first match is visible, that first match; else null with what each group named. Never throws for a bad selector
 * (that group names nothing).
 */
export async function resolveRecordedSelectors(
  page: Page,
  frame: Frame,
  selectors: readonly DevtoolsSelector[],
): Promise<{ hit: RecordedSelectorHit | null; outcomes: GroupOutcome[] }> {
  const groups = selectors.map((s) => (typeof s === 'string' ? [s] : [...s]).map(devtoolsSelectorPart))
  const ariaParts = groups.flatMap((g) => g.filter((p) => p.kind === 'aria'))
  const ariaReady = ariaParts.length > 0 ? await publishAriaAnswers(page, frame, ariaParts).catch(() => false) : true
  try {
    const answer = await frame.evaluateHandle(resolveInPage, { groups, ariaKey: ARIA_KEY, ariaReady })
    try {
      const outcomes = (await (await answer.getProperty('outcomes')).jsonValue()) as GroupOutcome[]
      const chosen = (await (await answer.getProperty('chosen')).jsonValue()) as number
      const element = (await answer.getProperty('element')).asElement() as ElementHandle<Element> | null
      const named = outcomes.map((o, i) => ({ ...o, selector: JSON.stringify(selectors[i]) }))
      if (chosen < 0 || !element) return { hit: null, outcomes: named }
      const kind = groups[chosen]?.at(-1)?.kind ?? 'css'
      return { hit: { handle: element, group: chosen, kind, outcomes: named }, outcomes: named }
    } finally {
      void answer.dispose().catch(() => undefined)
    }
  } finally {
    if (ariaParts.length > 0)
      await frame
        .evaluate((key) => {
          delete (window as unknown as Record<symbol, unknown>)[Symbol.for(key)]
        }, ARIA_KEY)
        .catch(() => undefined)
  }
}

/**
 * Every element Chromium's accessibility tree names for each `aria/` entry (Puppeteer's `queryAXTree` over the
 * frame's document, ignored nodes and text nodes left out), put in the frame's window under a symbol for the page
 * function, keyed by the entry's body. A child frame's document is found through the page's session (its owner
 * element marked for a moment, the DOM read through frames); an out-of-process frame (another site) through a session
 * of its own, as the reference reaches both.
 */
async function publishAriaAnswers(page: Page, frame: Frame, parts: readonly DevtoolsSelectorPart[]): Promise<boolean> {
  const pageSession = await page.context().newCDPSession(page)
  let frameSession: CDPSession | null = null
  let cdp = pageSession
  try {
    let documentId = await frameDocumentId(pageSession, frame)
    if (documentId === null && frame.parentFrame()) {
      // an out-of-process frame (another site) has a session of its own, where its document is the root
      frameSession = await page
        .context()
        .newCDPSession(frame)
        .catch(() => null)
      if (!frameSession) return false
      cdp = frameSession
      const { root } = (await cdp.send('DOM.getDocument', { depth: 0 })) as { root: CdpDomNode }
      documentId = root.backendNodeId
    }
    if (documentId === null) return false
    const { object: doc } = (await cdp.send('DOM.resolveNode', { backendNodeId: documentId })) as {
      object: { objectId?: string }
    }
    if (!doc.objectId) return false
    // runs in the frame's own window (the document's context), where the page function reads it
    const inFrame = (functionDeclaration: string, objectId: string, args: unknown[]) =>
      cdp.send('Runtime.callFunctionOn', {
        objectId,
        functionDeclaration,
        arguments: args.map((value) => ({ value })),
      })
    await inFrame('function (key) { window[Symbol.for(key)] = {} }', doc.objectId, [ARIA_KEY])
    for (const body of new Set(parts.map((p) => p.body))) {
      const { name, role } = ariaQueryOf(body)
      const { nodes } = (await cdp.send('Accessibility.queryAXTree', {
        backendNodeId: documentId,
        ...(name !== undefined ? { accessibleName: name } : {}),
        ...(role !== undefined ? { role } : {}),
      })) as { nodes: { ignored?: boolean; role?: { value?: string }; backendDOMNodeId?: number }[] }
      const ids = nodes
        .filter(
          (n) =>
            !n.ignored &&
            n.role?.value &&
            n.role.value !== 'StaticText' &&
            n.role.value !== 'InlineTextBox' &&
            n.backendDOMNodeId,
        )
        .map((n) => n.backendDOMNodeId as number)
      // the list exists even when empty: an entry with no answer names nothing (not "unknown")
      await inFrame('function (key, body) { (window[Symbol.for(key)] ??= {})[body] = [] }', doc.objectId, [
        ARIA_KEY,
        body,
      ])
      for (const backendNodeId of ids) {
        const { object } = (await cdp.send('DOM.resolveNode', { backendNodeId })) as { object: { objectId?: string } }
        if (!object.objectId) continue
        await inFrame(
          'function (key, body) { const all = (window[Symbol.for(key)] ??= {}); (all[body] ??= []).push(this) }',
          object.objectId,
          [ARIA_KEY, body],
        )
        await cdp.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => undefined)
      }
    }
    await cdp.send('Runtime.releaseObject', { objectId: doc.objectId }).catch(() => undefined)
    return true
  } finally {
    await frameSession?.detach().catch(() => undefined)
    await pageSession.detach().catch(() => undefined)
  }
}

interface CdpDomNode {
  backendNodeId: number
  attributes?: string[]
  children?: CdpDomNode[]
  shadowRoots?: CdpDomNode[]
  contentDocument?: CdpDomNode
}

/**
 * The backend node id of `frame`'s document in the page's session: the main document, or, for a child frame, the
 * content document of its owner element (marked with a one-off attribute while the page's DOM is read through
 * frames and shadow roots). Null when the frame is not in the page's process.
 */
async function frameDocumentId(cdp: CDPSession, frame: Frame): Promise<number | null> {
  if (!frame.parentFrame()) {
    const { root } = (await cdp.send('DOM.getDocument', { depth: 0 })) as { root: CdpDomNode }
    return root.backendNodeId
  }
  const owner = await frame.frameElement()
  const mark = `qa-${Math.random().toString(36).slice(2)}`
  await owner.evaluate((e, m) => (e as Element).setAttribute('data-qa-aria-frame', m), mark)
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: CdpDomNode }
    const stack: CdpDomNode[] = [root]
    while (stack.length > 0) {
      const n = stack.pop() as CdpDomNode
      const attrs = n.attributes ?? []
      for (let i = 0; i < attrs.length; i += 2)
        if (attrs[i] === 'data-qa-aria-frame' && attrs[i + 1] === mark) return n.contentDocument?.backendNodeId ?? null
      stack.push(...(n.children ?? []), ...(n.shadowRoots ?? []), ...(n.contentDocument ? [n.contentDocument] : []))
    }
    return null
  } finally {
    await owner.evaluate((e) => (e as Element).removeAttribute('data-qa-aria-frame')).catch(() => undefined)
    await owner.dispose().catch(() => undefined)
  }
}

/** Page function: Puppeteer's P-selector semantics for each group (see the top of this file). Self-contained. */
function resolveInPage(args: { groups: DevtoolsSelectorPart[][]; ariaKey: string; ariaReady: boolean }): {
  outcomes: Omit<GroupOutcome, 'selector'>[]
  chosen: number
  element: Element | null
} {
  type Root = Document | ShadowRoot | Element
  const pierce = (n: Root): Root => (n instanceof Element && n.shadowRoot ? n.shadowRoot : n)
  const pierceAll = (n: Root): Root[] => {
    const start = pierce(n)
    const roots: Root[] = [start]
    for (let i = 0; i < roots.length; i++) {
      const walker = document.createTreeWalker(roots[i] as Node, NodeFilter.SHOW_ELEMENT)
      for (let e = walker.nextNode() as Element | null; e; e = walker.nextNode() as Element | null)
        if (e.shadowRoot) roots.push(e.shadowRoot)
    }
    return roots
  }
  const suitable = (e: Element) => e.nodeName !== 'SCRIPT' && e.nodeName !== 'STYLE' && !document.head?.contains(e)
  const valueNode = (e: Element) =>
    e instanceof HTMLSelectElement ||
    e instanceof HTMLTextAreaElement ||
    (e instanceof HTMLInputElement && !['checkbox', 'image', 'radio'].includes(e.type))
  const fullText = (n: Node): string => {
    if (n instanceof Element && !suitable(n)) return ''
    if (n instanceof Element && valueNode(n)) return (n as HTMLInputElement).value
    let out = ''
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === Node.TEXT_NODE) out += c.nodeValue ?? ''
      else if (c.nodeType === Node.ELEMENT_NODE) out += fullText(c)
    }
    if (n instanceof Element && n.shadowRoot) out += fullText(n.shadowRoot)
    return out
  }
  const textAll = (root: Root, text: string): Element[] => {
    const found: Element[] = []
    for (const c of Array.from(root.childNodes)) {
      if (!(c instanceof Element) || !suitable(c)) continue
      found.push(...textAll(c.shadowRoot ?? c, text))
    }
    if (found.length > 0) return found
    if (root instanceof Element && suitable(root) && fullText(root).includes(text)) return [root]
    return []
  }
  /** The node whose subtree (shadow trees included) holds `e`: `e`'s ancestors through shadow hosts. */
  const deepContains = (root: Root, e: Node): boolean => {
    for (let n: Node | null = e; n; n = n instanceof ShadowRoot ? n.host : n.parentNode) if (n === root) return true
    return false
  }
  const aria = (window as unknown as Record<symbol, Record<string, Element[]> | undefined>)[Symbol.for(args.ariaKey)]
  const queryPart = (root: Root, part: DevtoolsSelectorPart): Element[] => {
    switch (part.kind) {
      case 'css': {
        // Puppeteer applies a selector that does not start with a type (`#id`, `.c`, `[a]`) to an element root
        // itself (an entry after a host without a shadow root)
        const parent = root instanceof Element ? root.parentElement : null
        if (parent && !/^[-\w*\u0080-\uffff]/.test(part.body)) {
          const index = Array.from(parent.children).indexOf(root as Element) + 1
          return Array.from(parent.querySelectorAll(`:scope>:nth-child(${index})${part.body}`))
        }
        return Array.from(root.querySelectorAll(part.body))
      }
      case 'pierce':
        return pierceAll(root).flatMap((r) => Array.from(r.querySelectorAll(part.body)))
      case 'xpath': {
        const doc = (root as Node).ownerDocument ?? document
        const it = doc.evaluate(part.body, root as Node, null, XPathResult.ORDERED_NODE_ITERATOR_TYPE)
        const out: Element[] = []
        for (let n = it.iterateNext(); n; n = it.iterateNext()) if (n instanceof Element) out.push(n)
        return out
      }
      case 'text':
        return textAll(root, part.body)
      case 'aria': {
        if (!args.ariaReady || !aria)
          throw new Error('the accessibility tree could not be asked (a frame of another site)')
        const list = aria[part.body] ?? []
        return list.filter((e) => e !== root && deepContains(root, e))
      }
    }
  }
  const outcomes: Omit<GroupOutcome, 'selector'>[] = []
  let chosen = -1
  let element: Element | null = null
  for (const [group, parts] of args.groups.entries()) {
    try {
      let current: Root[] = [document]
      for (const [i, part] of parts.entries()) {
        const roots = i === 0 ? current : current.map(pierce)
        const next: Element[] = []
        for (const r of roots) for (const e of queryPart(r, part)) if (!next.includes(e)) next.push(e)
        current = next
        if (current.length === 0) break
      }
      const list = current as Element[]
      let visible: boolean | null = null
      // the reference's answer for a group is its first match (Puppeteer's waitForSelector), several or not
      const e = list[0]
      if (e) {
        const style = getComputedStyle(e)
        const r = e.getBoundingClientRect()
        visible = style.visibility !== 'hidden' && style.visibility !== 'collapse' && r.width > 0 && r.height > 0
        if (visible && chosen < 0) {
          chosen = group
          element = e
        }
      }
      outcomes.push({ group, count: list.length, visible })
    } catch (e) {
      outcomes.push({ group, count: 0, visible: null, error: String((e as Error)?.message ?? e).split('\n')[0] })
    }
  }
  return { outcomes, chosen, element }
}
