import type { VisionReverifier } from './verify-step'

export interface FakeReverifierOptions {
  /** The answer (default: match). */
  match?: boolean
  reason?: string
  confidence?: number
  /** Reject with this error instead of answering (vision failing). */
  fail?: Error | string
  /** Never answer (until aborted): tests the timeout. */
  hang?: boolean
}

export interface FakeReverifier extends VisionReverifier {
  /** Every call made, in order. */
  readonly calls: { expectedBytes: number; actualBytes: number; intent: string }[]
}

/** A VisionReverifier for tests: answers as configured, records its calls, honours the abort signal. */
export function fakeReverifier(opts: FakeReverifierOptions = {}): FakeReverifier {
  const calls: FakeReverifier['calls'] = []
  return {
    calls,
    compareScreens(expected, actual, intent, o) {
      calls.push({ expectedBytes: expected.length, actualBytes: actual.length, intent })
      if (opts.fail !== undefined) {
        return Promise.reject(typeof opts.fail === 'string' ? new Error(opts.fail) : opts.fail)
      }
      if (opts.hang) {
        return new Promise((_, reject) => {
          o?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
        })
      }
      const match = opts.match ?? true
      return Promise.resolve({
        match,
        reason: opts.reason ?? (match ? 'same screen' : 'different screen'),
        ...(opts.confidence !== undefined ? { confidence: opts.confidence } : {}),
      })
    },
  }
}
