import type { Browser, Page } from 'playwright-core'

/** Why the pages of a replay cannot be driven any more, or null while they can. */
export interface BrowserHealth {
  /** "the page crashed", "the browser closed", …; null while the page is alive. */
  lost(): string | null
  /**
   * After a failed step: asks the page whether it is still alive (a crash is not always reported before the
   * step's own error), and returns why it is lost, or null.
   */
  check(page: Page): Promise<string | null>
  /** Watches the page the replay moved to (a step opened it). */
  follow(page: Page): void
  /** Stops watching a page the replay is about to close on purpose (a DevTools `close` step of a popup). */
  release(page: Page): void
  dispose(): void
}

/**
 * Watches the page and its browser during a replay: a renderer crash, a closed page or a lost browser
 * connection is remembered, so that the step it happened in and every later step say so instead of reporting
 * every strategy as failed ("Element not found (tried role: error …)").
 */
export function watchBrowserHealth(first: Page): BrowserHealth {
  let lost: string | null = null
  const offs: Array<{ target: Page | Browser; off: () => void }> = []
  const on = (target: Page | Browser, event: string, why: string) => {
    const handler = () => {
      lost ??= why
    }
    ;(target as Page).on(event as 'close', handler)
    offs.push({ target, off: () => (target as Page).off(event as 'close', handler) })
  }
  const follow = (page: Page) => {
    on(page, 'crash', 'the page crashed (its renderer process died)')
    on(page, 'close', 'the page was closed')
    const browser = page.context().browser()
    if (browser) on(browser, 'disconnected', 'the browser closed or crashed (the connection to it was lost)')
  }
  follow(first)
  return {
    lost: () => lost,
    async check(page) {
      if (lost) return lost
      if (page.isClosed()) {
        lost = 'the page was closed'
        return lost
      }
      const alive = await Promise.race([
        page.evaluate('1').then(
          () => true,
          (error: unknown) => !/crash|closed|disconnected/i.test(String(error)),
        ),
        new Promise<boolean>((r) => setTimeout(() => r(true), 2_000).unref()),
      ])
      if (!alive) lost ??= 'the page crashed (its renderer process died)'
      return lost
    },
    follow,
    release(page) {
      for (let i = offs.length - 1; i >= 0; i--)
        if (offs[i]?.target === page) {
          offs[i]?.off()
          offs.splice(i, 1)
        }
    },
    dispose: () => {
      for (const { off } of offs.splice(0)) off()
    },
  }
}
