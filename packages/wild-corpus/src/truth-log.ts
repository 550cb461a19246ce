/** One trusted input event as the page script saw it: which element (by truth id) received it. */
export interface TruthEvent {
  /** The `/m/<run>/…` prefix or the variant's name. */
  readonly run: string
  /**
   * DOM event type: pointerdown, click, dblclick, contextmenu, input, change; or `untrusted-change`: a `<select>`
   * whose value a script changed (no trusted event, as Playwright's selectOption does it).
   */
  readonly kind: string
  /** Truth id of the event target: its structural path in the page before any mutation. */
  readonly truth: string
  /** Truth ids of the target and its ancestors (up to 12), innermost first. */
  readonly chain: readonly string[]
  readonly tag: string
  readonly label: string
  readonly x?: number
  readonly y?: number
  readonly value?: string
  readonly url: string
  /** Page clock (ms since epoch) when the event fired. */
  readonly t: number
  /** Server clock when the report arrived. */
  readonly receivedAt: number
}

export interface TruthLog {
  events(): readonly TruthEvent[]
  push(e: TruthEvent): void
  clear(): void
  /** Resolves with the first event (already logged or arriving) that satisfies `pred`, or undefined after timeoutMs. */
  waitFor(pred: (e: TruthEvent) => boolean, timeoutMs: number): Promise<TruthEvent | undefined>
}

/**
 * The events in the order the page saw them (its clock), not the order their beacons arrived: under load, a beacon can
 * overtake the one sent before it (each may take a connection of its own), and a judge that splits the log at each
 * pointerdown would give two steps each other's clicks. Events of the same millisecond keep their arrival order.
 */
export function inPageOrder(events: readonly TruthEvent[]): TruthEvent[] {
  return [...events].sort((a, b) => a.t - b.t)
}

export function createTruthLog(): TruthLog {
  let log: TruthEvent[] = []
  let waiters: { pred: (e: TruthEvent) => boolean; done: (e: TruthEvent) => void }[] = []
  return {
    events: () => log,
    push(e) {
      log.push(e)
      const hit = waiters.filter((w) => w.pred(e))
      waiters = waiters.filter((w) => !w.pred(e))
      for (const w of hit) w.done(e)
    },
    clear() {
      log = []
    },
    waitFor(pred, timeoutMs) {
      const found = log.find(pred)
      if (found) return Promise.resolve(found)
      return new Promise((resolve) => {
        const w = {
          pred,
          done: (e: TruthEvent) => {
            clearTimeout(timer)
            resolve(e)
          },
        }
        const timer = setTimeout(() => {
          waiters = waiters.filter((x) => x !== w)
          resolve(undefined)
        }, timeoutMs)
        waiters.push(w)
      })
    },
  }
}
