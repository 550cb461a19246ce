import type { Page } from 'playwright-core'

/** A page event's name and its listener, as `page.on` takes them. */
export type PageListener = readonly [event: string, listener: (arg: never) => void]

/** Adds the listeners to the page's events; the function returned removes them all. */
export function listenTo(page: Page, listeners: readonly PageListener[]): () => void {
  const events = page as unknown as {
    on(event: string, listener: (arg: never) => void): void
    off(event: string, listener: (arg: never) => void): void
  }
  for (const [event, listener] of listeners) events.on(event, listener)
  return () => {
    for (const [event, listener] of listeners) events.off(event, listener)
  }
}

/** Resolves after `ms`, or as soon as the function handed to `onWake` is called. */
export function delayUnlessWoken(ms: number, onWake: (wake: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    onWake(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}
