import { VisionError, isVisionError } from './errors'
import type { VisionAnswer, VisionProvider, VisionQuestion } from './types'

export interface RetryOptions {
  /** Retries after the first try (default 3). */
  maxRetries?: number
  /** Per-attempt time limit (default 30 000). */
  timeoutMs?: number
  /** First backoff delay (default 500). */
  baseDelayMs?: number
  /** Cap on one backoff delay (default 8 000). */
  maxDelayMs?: number
  /** Injected for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  random?: () => number
  onRetry?: (info: { provider: string; attempt: number; delayMs: number; error: VisionError }) => void
}

/**
 * Exponential backoff with "equal jitter": the cap doubles each attempt (base·2ⁿ, at most `maxDelayMs`) and
 * the delay is uniform in [cap/2, cap], so delays never shrink from one attempt to the next.
 */
export function backoffDelayMs(attempt: number, baseDelayMs: number, maxDelayMs: number, random: number): number {
  const cap = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt))
  const r = Math.min(1, Math.max(0, random))
  return Math.round(cap / 2 + (r * cap) / 2)
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError())
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortedError())
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

function abortedError(provider?: string): VisionError {
  return new VisionError('VISION_ABORTED', 'The vision call was cancelled by the caller.', {
    hint: 'Nothing to fix: the run was stopped.',
    ...(provider ? { provider } : {}),
  })
}

/** Runs one call with a time limit; the provider gets a signal that fires on timeout or caller abort. */
export async function callWithTimeout<T>(
  provider: string,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (outer?.aborted) throw abortedError(provider)
  const controller = new AbortController()
  let timedOut = false
  const onAbort = () => controller.abort(outer?.reason)
  outer?.addEventListener('abort', onAbort, { once: true })
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true
      controller.abort()
      reject(
        new VisionError('VISION_TIMEOUT', `The "${provider}" vision provider did not answer within ${timeoutMs} ms.`, {
          hint: 'Raise QA_VISION_TIMEOUT_MS, or check the endpoint is reachable.',
          provider,
        }),
      )
    }, timeoutMs)
  })
  try {
    return await Promise.race([run(controller.signal), timeout])
  } catch (error) {
    if (timedOut)
      throw new VisionError(
        'VISION_TIMEOUT',
        `The "${provider}" vision provider did not answer within ${timeoutMs} ms.`,
        {
          hint: 'Raise QA_VISION_TIMEOUT_MS, or check the endpoint is reachable.',
          provider,
          cause: error,
        },
      )
    if (outer?.aborted) throw abortedError(provider)
    throw error
  } finally {
    clearTimeout(timer)
    outer?.removeEventListener('abort', onAbort)
  }
}

/** Wraps a provider with a per-call timeout and retries (throttling, 5xx, timeouts; never 4xx or bad answers). */
export function withRetry(provider: VisionProvider, opts: RetryOptions = {}): VisionProvider {
  const maxRetries = opts.maxRetries ?? 3
  const timeoutMs = opts.timeoutMs ?? 30_000
  const base = opts.baseDelayMs ?? 500
  const cap = opts.maxDelayMs ?? 8_000
  const sleep = opts.sleep ?? defaultSleep
  const random = opts.random ?? Math.random
  return {
    name: provider.name,
    ...(provider.model ? { model: provider.model } : {}),
    async ask(question: VisionQuestion, callOpts?: { signal?: AbortSignal }): Promise<VisionAnswer> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await callWithTimeout(provider.name, timeoutMs, callOpts?.signal, (signal) =>
            provider.ask(question, { signal }),
          )
        } catch (raw) {
          const error = isVisionError(raw)
            ? raw
            : new VisionError('VISION_UNAVAILABLE', `The "${provider.name}" vision provider failed: ${String(raw)}`, {
                provider: provider.name,
                cause: raw,
                retryable: false,
              })
          if (!error.retryable || attempt >= maxRetries || callOpts?.signal?.aborted) throw error
          const delayMs = backoffDelayMs(attempt, base, cap, random())
          opts.onRetry?.({ provider: provider.name, attempt: attempt + 1, delayMs, error })
          await sleep(delayMs, callOpts?.signal)
        }
      }
    },
  }
}
