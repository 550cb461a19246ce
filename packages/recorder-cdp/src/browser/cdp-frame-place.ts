import type { CDPSession } from 'playwright-core'
import { describeElementsInPage, type PageElementDescription } from '../injected/page-scripts'

/**
 * Frames of another origin that Chromium renders in their parent's process (an iframe on
 * another port of the same host). A page script in such a frame cannot walk up to its parent (`frameElement` is
 * null), so what it describes is in the terms of the highest frame it reaches: its box in that frame's viewport, its
 * frame path from that frame's document. CDP reaches every document of a process: these functions give the place
 * of that frame in the session's own top-level viewport and its frame path from the session's root document.
 */

const DESCRIBE_ONE = `function () { return (${describeElementsInPage.toString()})([this])[0] }`

/** The document of the highest window an element's script reaches by `frameElement`, or null at the top one. */
const BOUNDARY_DOCUMENT = `function () {
  let w = this.ownerDocument ? this.ownerDocument.defaultView : null
  if (!w) return null
  try {
    while (w !== w.parent) {
      if (!w.frameElement) return w.document
      w = w.parent
    }
  } catch {
    return w.document
  }
  return null
}`

interface DomNode {
  nodeName: string
  backendNodeId: number
  children?: DomNode[]
  shadowRoots?: DomNode[]
  contentDocument?: DomNode
}

/** The iframe whose document is `documentId` (a backend node id) in a session's tree, or null (the root's). */
async function ownerOfDocument(session: CDPSession, documentId: number): Promise<number | null> {
  const { root } = await session.send('DOM.getDocument', { depth: -1, pierce: true })
  const stack: DomNode[] = [root as DomNode]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.contentDocument?.backendNodeId === documentId) return node.backendNodeId
    if (node.children) stack.push(...node.children)
    if (node.shadowRoots) stack.push(...node.shadowRoots)
    if (node.contentDocument) stack.push(node.contentDocument)
  }
  return null
}

/** The content-box origin of an iframe element in the session's top-level viewport (CSS pixels). */
async function contentBoxOrigin(session: CDPSession, backendNodeId: number): Promise<{ x: number; y: number }> {
  const { model } = await session.send('DOM.getBoxModel', { backendNodeId })
  const q = model.content
  return { x: Math.min(q[0]!, q[2]!, q[4]!, q[6]!), y: Math.min(q[1]!, q[3]!, q[5]!, q[7]!) }
}

/**
 * Where the frame an element's own script could walk up to sits: the offset of its viewport in the session's
 * top-level viewport and the frame path of its iframe from the session's root document (both empty when the
 * script reached that root). Null where an iframe on the way cannot be described.
 */
export async function boundaryPlacement(
  session: CDPSession,
  objectId: string,
  depth = 0,
): Promise<{ dx: number; dy: number; framePath: string[] } | null> {
  const { result } = await session.send('Runtime.callFunctionOn', { objectId, functionDeclaration: BOUNDARY_DOCUMENT })
  if (!result.objectId || result.subtype === 'null') return { dx: 0, dy: 0, framePath: [] }
  const { node } = await session.send('DOM.describeNode', { objectId: result.objectId })
  const owner = await ownerOfDocument(session, node.backendNodeId)
  // the session's own root document (a frame of another process has its own session): nothing above it here
  if (owner === null) return { dx: 0, dy: 0, framePath: [] }
  if (depth > 16) return null
  const placed = await placeInDocument(session, owner, depth + 1)
  return placed ? { dx: placed.contentOrigin.x, dy: placed.contentOrigin.y, framePath: placed.framePath ?? [] } : null
}

/**
 * An iframe element of a session's document tree: the origin of its content box in the session's top-level viewport
 * and the frame path to its document from the session's root document (with the iframe's own CSS path last; null
 * when it cannot be described).
 */
export async function placeInDocument(
  session: CDPSession,
  iframeBackendNodeId: number,
  depth = 0,
): Promise<{ contentOrigin: { x: number; y: number }; framePath: string[] | null }> {
  const contentOrigin = await contentBoxOrigin(session, iframeBackendNodeId)
  const { object } = await session.send('DOM.resolveNode', { backendNodeId: iframeBackendNodeId })
  if (!object.objectId) return { contentOrigin, framePath: null }
  const { result } = await session.send('Runtime.callFunctionOn', {
    objectId: object.objectId,
    functionDeclaration: DESCRIBE_ONE,
    returnByValue: true,
  })
  const described = result.value as PageElementDescription | undefined
  if (!described?.css) return { contentOrigin, framePath: null }
  const above = await boundaryPlacement(session, object.objectId, depth)
  return { contentOrigin, framePath: above ? [...above.framePath, ...described.framePath, described.css] : null }
}
