import type { Frame, Page, Request, Response } from 'playwright-core'
import { delayUnlessWoken, listenTo } from './page-events'

/** Requests that stay open by design, or fire and forget, and say nothing about a step's effect being pending. */
const LONG_LIVED = new Set(['eventsource', 'websocket', 'ping'])

/**
 * How often the same endpoint (method + URL without query) must have been requested on the page before its
 * requests count as background traffic (analytics beacons, polling, long-polls): a step's own request to an
 * endpoint the page hits over and over is not waited for, so such a page never makes every step wait out
 * the timeout. A step that fetches once or twice what the page loaded before is still waited for.
 */
export const RECURRING_AFTER = 3

/** The endpoint of a request: method, origin and path (the query of a poll often carries a counter). */
export function endpointOf(method: string, url: string): string {
  try {
    const u = new URL(url)
    return `${method} ${u.origin}${u.pathname}`
  } catch {
    return `${method} ${url}`
  }
}

/**
 * What a page did since a mark: main-frame navigations and network requests started (and how many are
 * still in flight). The adaptive settle of the replayer asks it whether a step can still be changing the
 * page: after a navigation it settles fully, after requests it waits for them to finish, and otherwise the
 * step's own (synchronous) effects are already in the DOM.
 */
export interface PageActivity {
  /** Starts a new observation window (call before a step's input). */
  mark(): void
  /** True when the main frame navigated since the mark. */
  navigatedSinceMark(): boolean
  /** True when a request started since the mark. */
  requestsSinceMark(): boolean
  /** Requests started and not yet finished or failed (long-lived streams excluded). */
  inFlight(): number
  /** Resolves when no request started since the mark is in flight any more, or after timeoutMs. */
  idle(timeoutMs: number): Promise<void>
  dispose(): void
}

export function trackPageActivity(page: Page): PageActivity {
  let navigated = false
  let started = 0
  const open = new Set<Request>()
  /** Requests per endpoint over the page's life (see RECURRING_AFTER). */
  const seen = new Map<string, number>()
  const recurring = (request: Request) =>
    (seen.get(endpointOf(request.method(), request.url())) ?? 0) >= RECURRING_AFTER
  let waiters: (() => void)[] = []
  const wake = () => {
    if (open.size === 0 && waiters.length > 0) {
      const ready = waiters
      waiters = []
      for (const w of ready) w()
    }
  }
  const onRequest = (request: Request) => {
    if (LONG_LIVED.has(request.resourceType())) return
    const endpoint = endpointOf(request.method(), request.url())
    seen.set(endpoint, (seen.get(endpoint) ?? 0) + 1)
    if (recurring(request)) {
      // Background traffic: stop waiting for the earlier requests to the same endpoint too.
      for (const r of open) if (recurring(r)) open.delete(r)
      wake()
      return
    }
    started++
    open.add(request)
  }
  const onDone = (request: Request) => {
    open.delete(request)
    wake()
  }
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) navigated = true
  }
  // A response counts as the end: Chromium may never report the body finished when the page does not
  // read it (a fetch whose result is ignored).
  const onResponse = (response: Response) => onDone(response.request())
  const stopListening = listenTo(page, [
    ['request', onRequest],
    ['response', onResponse],
    ['requestfinished', onDone],
    ['requestfailed', onDone],
    ['framenavigated', onNavigated],
  ])
  return {
    mark() {
      navigated = false
      started = 0
      // Only this step's requests count: one from before (a keepalive beacon of a page that navigated away)
      // may never report its end.
      open.clear()
    },
    navigatedSinceMark: () => navigated,
    requestsSinceMark: () => started > 0,
    inFlight: () => open.size,
    idle(timeoutMs) {
      if (open.size === 0) return Promise.resolve()
      return delayUnlessWoken(timeoutMs, (wake) => waiters.push(wake))
    },
    dispose: stopListening,
  }
}
