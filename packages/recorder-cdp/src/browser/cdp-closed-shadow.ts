import type { CandidateElement } from '@qa/matcher'
import type { CDPSession, Locator, Page } from 'playwright-core'
import { WebError } from '../errors'
import { describeElementsInPage, type PageElementDescription } from '../injected/page-scripts'

/**
 * Elements inside closed shadow roots, for replay. No page script, and so no Playwright locator, reaches
 * into a closed root; CDP does: `DOM.getDocument({ pierce: true })` lists every shadow root with its type, and a
 * root resolved to a remote object answers `querySelectorAll` and `elementFromPoint` for its own tree. Such an
 * element becomes a candidate without a locator (`handle` undefined); `closedShadowTargetOf` gives what the replay
 * needs to click it: scrolled into view, its fresh centre, and a check that a click there lands on it.
 */

interface DomNode {
  nodeName: string
  backendNodeId: number
  shadowRootType?: 'open' | 'closed' | 'user-agent'
  children?: DomNode[]
  shadowRoots?: DomNode[]
}

/** Where a closed-shadow candidate lives: the root, and the query and index that found it there. */
interface ClosedShadowPlace {
  session: CDPSession
  rootBackendNodeId: number
  css: string
  index: number
}

const places = new WeakMap<object, ClosedShadowPlace>()
const sessions = new WeakMap<Page, Promise<CDPSession>>()

function sessionOf(page: Page): Promise<CDPSession> {
  let known = sessions.get(page)
  if (!known) {
    known = page
      .context()
      .newCDPSession(page)
      .then(async (s) => {
        await s.send('DOM.enable')
        return s
      })
    known.catch(() => sessions.delete(page))
    sessions.set(page, known)
  }
  return known
}

/**
 * The shadow roots of the top document that no locator reaches: closed ones, and open ones inside a closed one.
 * Frames are not entered (their documents are scopes of their own).
 */
export function unreachableRoots(document: DomNode): number[] {
  const out: number[] = []
  const stack: { node: DomNode; hidden: boolean }[] = [{ node: document, hidden: false }]
  while (stack.length > 0) {
    const { node, hidden } = stack.pop()!
    for (const child of node.children ?? []) stack.push({ node: child, hidden })
    for (const root of node.shadowRoots ?? []) {
      if (root.shadowRootType === 'user-agent') continue
      const inside = hidden || root.shadowRootType === 'closed'
      if (inside) out.push(root.backendNodeId)
      stack.push({ node: root, hidden: inside })
    }
  }
  return out
}

const DESCRIBE_IN_ROOT = `function (css) {
  const describe = ${describeElementsInPage.toString()}
  let elements
  try { elements = Array.from(this.querySelectorAll(css)) } catch { return null }
  return describe(elements, null)
}`

/** Candidates found inside closed shadow roots, by a CSS query run in each root. */
export interface ClosedShadowCandidates {
  /** Every element matching `css` in every unreachable root, described as the page script describes elements. */
  query(css: string): Promise<{ description: PageElementDescription; candidate: CandidateElement<Locator> }[]>
}

/** Closed-shadow lookups over a page's top document (the roots are listed once, on the first query). */
export function closedShadowCandidates(
  page: Page,
  toCandidate: (d: PageElementDescription) => CandidateElement<Locator>,
): ClosedShadowCandidates {
  let roots: Promise<{ session: CDPSession; ids: number[] }> | null = null
  const listRoots = async () => {
    const session = await sessionOf(page)
    const { root } = await session.send('DOM.getDocument', { depth: -1, pierce: true })
    return { session, ids: unreachableRoots(root as DomNode) }
  }
  return {
    async query(css) {
      roots ??= listRoots()
      const { session, ids } = await roots
      const found: { description: PageElementDescription; candidate: CandidateElement<Locator> }[] = []
      for (const rootBackendNodeId of ids) {
        const { object } = await session.send('DOM.resolveNode', { backendNodeId: rootBackendNodeId })
        if (!object.objectId) continue
        const { result } = await session.send('Runtime.callFunctionOn', {
          objectId: object.objectId,
          functionDeclaration: DESCRIBE_IN_ROOT,
          arguments: [{ value: css }],
          returnByValue: true,
        })
        await session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => undefined)
        const descriptions = (result.value ?? []) as PageElementDescription[]
        descriptions.forEach((description, index) => {
          const candidate = toCandidate(description)
          places.set(candidate, { session, rootBackendNodeId, css, index })
          found.push({ description, candidate })
        })
      }
      return found
    },
  }
}

/** Runs on the root: scrolls the element into view and says where a click lands on it, or why it would not. */
const AIM_IN_ROOT = `function (css, index) {
  const el = this.querySelectorAll(css)[index]
  if (!el || !el.isConnected) return { error: 'it is gone from its closed shadow root' }
  el.scrollIntoView({ block: 'nearest', inline: 'nearest' })
  const r = el.getBoundingClientRect()
  if (r.width <= 0 || r.height <= 0) return { error: 'it has no box' }
  const x = r.left + r.width / 2
  const y = r.top + r.height / 2
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return { error: 'its centre is off the screen' }
  // the root's own hit test: what a click at the centre reaches, as this tree sees it
  const hit = this.elementFromPoint(x, y)
  if (!hit || (hit !== el && !el.contains(hit))) {
    const what = hit ? hit.localName + (hit.id ? '#' + hit.id : '') : 'nothing'
    return { error: 'a click at its centre would reach ' + what }
  }
  return { x, y }
}`

/** What the replay needs to click a candidate that lives in a closed shadow root. */
export interface ClosedShadowTarget {
  /**
   * Scrolls the element into view and returns its centre (top-level viewport), checked to be the element a click
   * there reaches. Throws WEB_ELEMENT_NOT_FOUND when it is gone, off the screen or covered: nothing is clicked then.
   */
  aim(label: string): Promise<{ x: number; y: number }>
}

/** The closed-shadow place of a candidate, or undefined (a candidate a locator reaches). */
export function closedShadowTargetOf(candidate: object | null | undefined): ClosedShadowTarget | undefined {
  const place = candidate ? places.get(candidate) : undefined
  if (!place) return undefined
  return {
    async aim(label) {
      const { session, rootBackendNodeId, css, index } = place
      let answer: { x?: number; y?: number; error?: string }
      try {
        const { object } = await session.send('DOM.resolveNode', { backendNodeId: rootBackendNodeId })
        const { result } = await session.send('Runtime.callFunctionOn', {
          objectId: object.objectId!,
          functionDeclaration: AIM_IN_ROOT,
          arguments: [{ value: css }, { value: index }],
          returnByValue: true,
        })
        answer = (result.value ?? { error: 'no answer' }) as typeof answer
      } catch (error) {
        answer = { error: `its closed shadow root could not be read (${String(error).split('\n')[0]})` }
      }
      if (answer.error !== undefined || answer.x === undefined || answer.y === undefined)
        throw new WebError(
          'WEB_ELEMENT_NOT_FOUND',
          `${label} was found in a closed shadow root, but ${answer.error}.`,
          {
            hint: 'Nothing was clicked. Check whether something covers the element on the page.',
          },
        )
      return { x: answer.x, y: answer.y }
    },
  }
}
