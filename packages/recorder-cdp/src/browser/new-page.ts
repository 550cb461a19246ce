import type { Page } from 'playwright-core'

/**
 * Pages a page opened (a link with target=_blank, `window.open`) since the watch began. Recording and replay
 * watch around every step: a step that opened a page is recorded with `opens_page`, and the steps after it
 * happen in that page, in the recording as in the replay.
 */
export interface NewPageWatch {
  /** The first page opened since the watch began, if any (no waiting). */
  opened(): Page | null
  /** The first page opened since the watch began, waiting for it up to timeoutMs; null when none opened. */
  next(timeoutMs: number): Promise<Page | null>
  dispose(): void
}

export function watchNewPages(page: Page): NewPageWatch {
  let first: Page | null = null
  let waiters: ((p: Page) => void)[] = []
  const onPopup = (popup: Page) => {
    if (first) return
    first = popup
    const ready = waiters
    waiters = []
    for (const w of ready) w(popup)
  }
  page.on('popup', onPopup)
  return {
    opened: () => first,
    next(timeoutMs) {
      if (first) return Promise.resolve(first)
      return new Promise<Page | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), timeoutMs)
        waiters.push((p) => {
          clearTimeout(timer)
          resolve(p)
        })
      })
    },
    dispose() {
      page.off('popup', onPopup)
      waiters = []
    },
  }
}

/** Makes an opened page the one the flow goes on in: loaded and in front (a visible browser shows it). */
export async function adoptPage(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => undefined)
  await page.bringToFront().catch(() => undefined)
}
