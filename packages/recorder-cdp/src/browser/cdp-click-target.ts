import {
  type AssertChainNode,
  type AssertPickKind,
  chooseAssertTarget,
  chooseClickTarget,
  type HitChainNode,
} from '@qa/matcher'
import type { CDPSession } from 'playwright-core'
import {
  describeAssertChainInPage,
  describeHitChainInPage,
  hitChainInPage,
  operatedControlInPage,
} from '../injected/page-scripts'

/** What a click at a point means: the element to record (and the control it operates), or a warning. */
export interface ResolvedClickTarget {
  /** Remote object of the element to record; null when nothing interactive is under the point. */
  objectId: string | null
  /** Why the step is recorded without an identity, when it is. */
  warning: string | null
}

/**
 * The hit chain is a remote array the recorder holds (its objectId), never kept on the page's globals: a page could
 * read it there between the calls of one resolution, or answer another chain in its place.
 */
const CHAIN = `function (x, y) { return (${hitChainInPage.toString()})(this, x, y) }`
const DESCRIBE_CHAIN = `function (hit) { return { nodes: (${describeHitChainInPage.toString()}).call(this), hitIsFirst: this[0] === hit } }`
const PICK = 'function (i) { return this[i] }'
const OPERATES = `function () { return (${operatedControlInPage.toString()})(this) }`

/** Listener types that make an element clickable. */
const CLICK_EVENTS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend'])

/**
 * Resolves the node `DOM.getNodeForLocation` returned (an element, a text node, or a pseudo-element) to the
 * element a person meant: the page describes the chain of elements up to the document,
 * `chooseClickTarget` decides. Click listeners (`DOMDebugger.getEventListeners`) are asked only when no element
 * of the chain is interactive by its markup, and only for that chain, so the common case costs two calls.
 */
export async function resolveClickTarget(
  session: CDPSession,
  hitObjectId: string,
  viewport: { width: number; height: number } | null,
  point?: { x: number; y: number },
): Promise<ResolvedClickTarget> {
  // the person's click lands ~100 ms after pointer-down and may change the element: few round trips here
  const { result: chain } = await session.send('Runtime.callFunctionOn', {
    functionDeclaration: CHAIN,
    objectId: hitObjectId,
    arguments: [{ value: point?.x ?? null }, { value: point?.y ?? null }],
    returnByValue: false,
  })
  if (!chain.objectId) return { objectId: null, warning: 'the element went away' }
  try {
    const { result: described } = await session.send('Runtime.callFunctionOn', {
      functionDeclaration: DESCRIBE_CHAIN,
      objectId: chain.objectId,
      arguments: [{ objectId: hitObjectId }],
      returnByValue: true,
    })
    const { nodes = [], hitIsFirst = false } = (described.value ?? {}) as {
      nodes?: HitChainNode[]
      hitIsFirst?: boolean
    }
    let decision = chooseClickTarget(nodes, { viewport })
    if (decision.kind === 'coordinates' && nodes.length > 0)
      decision = chooseClickTarget(await addClickListeners(session, chain.objectId, nodes), { viewport })
    if (decision.kind === 'coordinates') return { objectId: null, warning: decision.warning }
    // the element under the pointer is itself the target (a button, an input): no further round trip
    if (decision.index === 0 && hitIsFirst) return { objectId: hitObjectId, warning: null }
    const { result: picked } = await session.send('Runtime.callFunctionOn', {
      functionDeclaration: PICK,
      objectId: chain.objectId,
      arguments: [{ value: decision.index }],
      returnByValue: false,
    })
    if (!picked.objectId) return { objectId: null, warning: 'the element went away' }
    return { objectId: picked.objectId, warning: null }
  } finally {
    // (not waited for: the click's identity is read next, in the same order)
    void session.send('Runtime.releaseObject', { objectId: chain.objectId }).catch(() => undefined)
  }
}

/** The hit chain (`CHAIN`, a remote array as for a click) described for an assert pick. */
const ASSERT_DESCRIBE = `function () { return (${describeAssertChainInPage.toString()}).call(this) }`

/**
 * Resolves the node under an assert pick to the smallest meaningful element there (`chooseAssertTarget`): a
 * heading, a text, a button inside a dialog, never the dialog around it. Null when only the document is there.
 */
export async function resolveAssertTarget(
  session: CDPSession,
  hitObjectId: string,
  kind: AssertPickKind,
  viewport: { width: number; height: number } | null,
  point?: { x: number; y: number },
): Promise<string | null> {
  const { result: chain } = await session.send('Runtime.callFunctionOn', {
    functionDeclaration: CHAIN,
    objectId: hitObjectId,
    arguments: [{ value: point?.x ?? null }, { value: point?.y ?? null }],
    returnByValue: false,
  })
  if (!chain.objectId) return null
  try {
    const { result: described } = await session.send('Runtime.callFunctionOn', {
      functionDeclaration: ASSERT_DESCRIBE,
      objectId: chain.objectId,
      returnByValue: true,
    })
    const decision = chooseAssertTarget((described.value ?? []) as AssertChainNode[], kind, { viewport })
    if (decision.kind !== 'element') return null
    const { result: picked } = await session.send('Runtime.callFunctionOn', {
      functionDeclaration: PICK,
      objectId: chain.objectId,
      arguments: [{ value: decision.index }],
      returnByValue: false,
    })
    return picked.objectId ?? null
  } finally {
    await session.send('Runtime.releaseObject', { objectId: chain.objectId }).catch(() => undefined)
  }
}

/** The control an element operates (`operatedControlInPage`): its remote object, or null. */
export async function operatedControl(session: CDPSession, objectId: string): Promise<string | null> {
  const { result } = await session
    .send('Runtime.callFunctionOn', { functionDeclaration: OPERATES, objectId, returnByValue: false })
    .catch(() => ({ result: { objectId: undefined } as { objectId?: string } }))
  return result.objectId ?? null
}

/** The chain with `clickListener` set from the listeners CDP sees on each element (not on body or html). */
async function addClickListeners(
  session: CDPSession,
  chainObjectId: string,
  nodes: readonly HitChainNode[],
): Promise<HitChainNode[]> {
  const { result } = await session.send('Runtime.getProperties', { objectId: chainObjectId, ownProperties: true })
  const out = nodes.map((n) => ({ ...n }))
  for (const [i, node] of out.entries()) {
    const tag = node.tagName.toLowerCase()
    if (tag === 'body' || tag === 'html') break
    const objectId = result.find((p) => p.name === String(i))?.value?.objectId
    if (!objectId) continue
    try {
      const { listeners } = await session.send('DOMDebugger.getEventListeners', { objectId, depth: 0 })
      node.clickListener = listeners.some((l) => CLICK_EVENTS.has(l.type))
    } catch {
      // a detached node: no listeners to tell
    }
  }
  return out
}
