import type { Page } from 'playwright-core'
import { waitForFiniteAnimationsInPage } from '../injected/page-scripts'
import { waitForDomQuiet } from './cdp-quiet-world'

/** Waits for navigation to finish and the DOM to be quiet. */
export async function settle(
  page: Page,
  quietMs = 150,
  timeoutMs = 5_000,
  opts: { finiteAnimations?: boolean } = {},
): Promise<void> {
  await page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => undefined)
  // in a world of the recorder's own: the page's scripts see nothing of the wait (`cdp-quiet-world.ts`)
  await waitForDomQuiet(page, { quietMs, timeoutMs }).catch(async () => {
    // The page navigated while we waited: wait for the new document instead.
    await page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => undefined)
  })
  // a quiet DOM can still be moving: a focus ring fades in, a menu slides open (CSS transitions change no node);
  // a screenshot taken with animations disabled shows them at their end without the wait
  if (opts.finiteAnimations === false) return
  await page
    .evaluate(waitForFiniteAnimationsInPage, { timeoutMs: Math.min(timeoutMs, ANIMATION_WAIT_MS) })
    .catch(() => undefined)
}

/** How long a settle waits at most for the page's finite CSS transitions and animations. */
const ANIMATION_WAIT_MS = 1_000
