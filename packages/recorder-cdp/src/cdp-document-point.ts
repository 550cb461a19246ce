import type { CDPSession } from 'playwright-core'

/**
 * The document point under a viewport point, for `DOM.getNodeForLocation`: that command hit-tests in
 * document coordinates (it adds no scroll offset), while mouse input, `elementFromPoint`, screenshots and
 * the coordinates a recording stores are viewport coordinates. After the page scrolled by 500 px, viewport
 * (x, 28) is document (x, 528); passing the viewport point as is hits what is 500 px higher, or nothing.
 * Only the top document's scroll counts: the hit test walks into scrolled containers and iframes itself.
 */
export async function documentPointOf(session: CDPSession, x: number, y: number): Promise<{ x: number; y: number }> {
  try {
    const { cssVisualViewport: v } = await session.send('Page.getLayoutMetrics')
    return { x: x + v.pageX, y: y + v.pageY }
  } catch {
    return { x, y }
  }
}
