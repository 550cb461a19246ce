import type { Page } from 'playwright-core'
import { WebError } from '../errors'

/**
 * Throws when a point to click is outside the viewport. Recorded and scripted coordinates are viewport CSS
 * pixels (what a person sees); a point below the fold or above the top was measured on a scrolled page, or
 * in document coordinates, and a click there would reach nothing and be recorded as a step that did nothing.
 */
export async function assertInViewport(page: Page, x: number, y: number, what = 'click'): Promise<void> {
  const size =
    page.viewportSize() ??
    (await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })).catch(() => null))
  if (!size) return
  if (x >= 0 && y >= 0 && x < size.width && y < size.height) return
  throw new WebError(
    'WEB_POINT_OFF_SCREEN',
    `The ${what} at (${Math.round(x)}, ${Math.round(y)}) is outside the ${size.width}×${size.height} viewport.`,
    {
      hint: 'Coordinates are viewport pixels, as on the screen: scroll first (a {"type":"scroll","dy":…} step), then click where the element is now.',
    },
  )
}
