/**
 * Waits the page runs for the recorder and the replay: a quiet DOM, finished animations. Page code: bundled into the
 * page functions (see `page-bundle.generated.ts`), imports page code only.
 */

/**
 * Resolves when the DOM has been quiet for `quietMs` (or after `timeoutMs`), then two animation frames.
 * A node that keeps changing for `liveAfterMs` or longer (a live clock, a counter fed by polling, a
 * script-driven marquee) is "live": its changes stop counting, in this wait and in every later one on the
 * same document, so a busy page settles in about `liveAfterMs` once and then as fast as a quiet one.
 * Animations that end (a dropdown sliding open, 200-600 ms) are still waited for. Runs in an isolated world of its
 * own (`waitForDomQuiet`): the live nodes are kept on that world's globals, out of the page's reach.
 */
export function waitForDomQuietInPage(args: {
  quietMs: number
  timeoutMs: number
  liveAfterMs?: number
}): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const started = Date.now()
    const liveAfterMs = args.liveAfterMs ?? 1_000
    const store = globalThis as unknown as Record<symbol, WeakSet<Node> | undefined>
    const key = Symbol.for('qa.liveNodes')
    store[key] ??= new WeakSet<Node>()
    const live = store[key]
    /** When each node first changed in this wait, and how often. */
    const seen = new Map<Node, { first: number; count: number }>()
    const done = (quiet: boolean) => {
      observer.disconnect()
      if (timer) clearTimeout(timer)
      clearTimeout(deadline)
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(quiet)))
    }
    const arm = () => {
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => done(true), args.quietMs)
    }
    const observer = new MutationObserver((records) => {
      const now = Date.now()
      let counts = false
      for (const record of records) {
        const node = record.target
        if (live.has(node)) continue
        const s = seen.get(node)
        if (!s) seen.set(node, { first: now, count: 1 })
        else {
          s.count++
          if (s.count >= 4 && now - s.first >= liveAfterMs) {
            live.add(node)
            continue
          }
        }
        counts = true
      }
      if (counts && now - started < args.timeoutMs) arm()
    })
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
    const deadline = setTimeout(() => done(false), args.timeoutMs)
    arm()
  })
}

/**
 * Page function: resolves once the finite CSS transitions and animations running now have finished (a focus ring
 * fading in, a menu sliding open), at most `timeoutMs`; infinite ones (a spinner, a pulsing badge) are not waited
 * for. True when they finished in time.
 */
export function waitForFiniteAnimationsInPage(args: { timeoutMs: number }): Promise<boolean> {
  const running = document
    .getAnimations()
    .filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
  if (running.length === 0) return Promise.resolve(true)
  const finished = Promise.all(running.map((a) => a.finished.catch(() => undefined))).then(
    () => new Promise<boolean>((resolve) => requestAnimationFrame(() => resolve(true))),
  )
  const late = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), args.timeoutMs))
  return Promise.race([finished, late])
}
