import type { CDPSession } from 'playwright-core'

type NodeForLocationOptions = { includeUserAgentShadowDOM: boolean; ignorePointerEventsNone: boolean }

/**
 * `DOM.getNodeForLocation` for a viewport point. That command hit-tests in document coordinates (it adds no
 * scroll offset), while mouse input, `elementFromPoint`, screenshots and the coordinates a recording stores
 * are viewport coordinates: after the page scrolled by 500 px, viewport (x, 28) is document (x, 528), and
 * passing the viewport point as is hits what is 500 px higher, or nothing. Only the top document's scroll
 * counts: the hit test walks into scrolled containers and iframes itself. The scroll is asked for alongside a
 * hit test at the point as given, which is the answer when the page is not scrolled (no extra round trip:
 * an interactive recording must read the element before the click's effects change it).
 */
export async function nodeForViewportPoint(
  session: CDPSession,
  x: number,
  y: number,
  opts: NodeForLocationOptions,
): Promise<{ backendNodeId: number }> {
  const metrics = session.send('Page.getLayoutMetrics').catch(() => null)
  const asGiven = session
    .send('DOM.getNodeForLocation', { x: Math.round(x), y: Math.round(y), ...opts })
    .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
  const viewport = (await metrics)?.cssVisualViewport
  const at = documentPoint(x, y, viewport)
  if (Math.round(at.x) === Math.round(x) && Math.round(at.y) === Math.round(y)) {
    const found = await asGiven
    if (found instanceof Error) throw found
    return found
  }
  await asGiven
  return session.send('DOM.getNodeForLocation', { x: Math.round(at.x), y: Math.round(at.y), ...opts })
}

/** The document point of a viewport point, given the visual viewport's offset in the document. */
export function documentPoint(
  x: number,
  y: number,
  viewport: { pageX: number; pageY: number } | null | undefined,
): { x: number; y: number } {
  return { x: x + (viewport?.pageX ?? 0), y: y + (viewport?.pageY ?? 0) }
}
