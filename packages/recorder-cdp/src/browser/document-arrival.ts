import type { Page, Request, Response } from 'playwright-core'
import { leavingInPage, watchNavigationInPage } from '../injected/page-scripts'
import { delayUnlessWoken, listenTo } from './page-events'

/**
 * Waits, from the moment it is called, for the page's main frame to end a navigation: a document committed, the
 * request failed or was answered with no document (204, 205, a download), or the page closed.
 */
export function documentArrival(page: Page): { within(ms: number): Promise<void>; dispose(): void } {
  let arrived = false
  let wake = () => {}
  const main = (request: Request) => request.isNavigationRequest() && request.frame() === page.mainFrame()
  const end = () => {
    arrived = true
    wake()
  }
  const onNavigated = (frame: unknown) => {
    if (frame === page.mainFrame()) end()
  }
  const onFailed = (request: Request) => {
    if (main(request)) end()
  }
  const onResponse = (response: Response) => {
    if (main(response.request()) && (response.status() === 204 || response.status() === 205)) end()
  }
  const dispose = listenTo(page, [
    ['framenavigated', onNavigated],
    ['requestfailed', onFailed],
    ['response', onResponse],
    ['download', end],
    ['close', end],
  ])
  return {
    async within(ms) {
      if (arrived || page.isClosed()) return
      await delayUnlessWoken(ms, (woken) => {
        wake = woken
      })
    },
    dispose,
  }
}

/**
 * A key press that waits, as a click does, for the document it asks for (Enter sending a form): the page notes a
 * navigation to another document from just before the press, and when one was asked for, the press returns once it
 * is there (`documentArrival`), at most `timeout`.
 */
export async function pressWaitingForDocument(page: Page, key: string, timeout: number): Promise<void> {
  const watching = await page
    .evaluate(watchNavigationInPage)
    .then(() => true)
    .catch(() => false)
  const arrival = documentArrival(page)
  try {
    await page.keyboard.press(key)
    if (!watching) return
    const leaving = await page.evaluate(leavingInPage).catch(() => true)
    if (leaving) await arrival.within(timeout)
  } finally {
    arrival.dispose()
  }
}
