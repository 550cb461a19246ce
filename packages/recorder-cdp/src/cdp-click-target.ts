import { chooseClickTarget, type HitChainNode } from '@qa/matcher'
import type { CDPSession } from 'playwright-core'
import { describeHitChainInPage, hitChainInPage, operatedControlInPage } from './page-scripts'

/** What a click at a point means: the element to record (and the control it operates), or a warning. */
export interface ResolvedClickTarget {
  /** Remote object of the element to record; null when nothing interactive is under the point. */
  objectId: string | null
  /** Remote object of the control the element operates (a label's input, a styled switch's checkbox). */
  operatesObjectId: string | null
  /** Why the step is recorded without an identity, when it is. */
  warning: string | null
}

const CHAIN = `function () { return (${hitChainInPage.toString()})(this) }`
const DESCRIBE_CHAIN = `function () { return (${describeHitChainInPage.toString()}).call(this) }`
const OPERATES = `function () { return (${operatedControlInPage.toString()})(this) }`
const PICK = 'function (i) { return this[i] }'

/** Listener types that make an element clickable. */
const CLICK_EVENTS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend'])

/**
 * Resolves the node `DOM.getNodeForLocation` returned (an element, a text node, or a pseudo-element) to the
 * element a person meant (issue 13 Build 2): the page describes the chain of elements up to the document,
 * `chooseClickTarget` decides. Click listeners (`DOMDebugger.getEventListeners`) are asked only when no element
 * of the chain is interactive by its markup, and only for that chain, so the common case costs two calls.
 */
export async function resolveClickTarget(
  session: CDPSession,
  hitObjectId: string,
  viewport: { width: number; height: number } | null,
): Promise<ResolvedClickTarget> {
  const { result: chain } = await session.send('Runtime.callFunctionOn', {
    functionDeclaration: CHAIN,
    objectId: hitObjectId,
    returnByValue: false,
  })
  if (!chain.objectId) return { objectId: null, operatesObjectId: null, warning: 'the point hit no element' }
  const { result: described } = await session.send('Runtime.callFunctionOn', {
    functionDeclaration: DESCRIBE_CHAIN,
    objectId: chain.objectId,
    returnByValue: true,
  })
  const nodes = (described.value ?? []) as HitChainNode[]
  let decision = chooseClickTarget(nodes, { viewport })
  if (decision.kind === 'coordinates' && nodes.length > 0) {
    const withListeners = await addClickListeners(session, chain.objectId, nodes)
    decision = chooseClickTarget(withListeners, { viewport })
  }
  if (decision.kind === 'coordinates') return { objectId: null, operatesObjectId: null, warning: decision.warning }
  const { result: picked } = await session.send('Runtime.callFunctionOn', {
    functionDeclaration: PICK,
    objectId: chain.objectId,
    arguments: [{ value: decision.index }],
    returnByValue: false,
  })
  if (!picked.objectId) return { objectId: null, operatesObjectId: null, warning: 'the element went away' }
  const { result: operates } = await session
    .send('Runtime.callFunctionOn', { functionDeclaration: OPERATES, objectId: picked.objectId, returnByValue: false })
    .catch(() => ({ result: { objectId: undefined } as { objectId?: string } }))
  return { objectId: picked.objectId, operatesObjectId: operates.objectId ?? null, warning: null }
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
