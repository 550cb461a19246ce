import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { VisionError } from './errors'
import { fakeProvider } from './providers/fake'
import { backoffDelayMs, withRetry } from './retry'

describe('backoff and retries', () => {
  // exponential backoff, 3 retries: delays grow and stay within [cap/2, cap]
  test.prop(
    [
      fc.integer({ min: 0, max: 10 }),
      fc.integer({ min: 1, max: 2000 }),
      fc.integer({ min: 1, max: 60000 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
    ],
    {
      numRuns: 200,
    },
  )(
    'below the cap, jittered delays never shrink from one attempt to the next; all stay in [cap/2, cap]',
    (n, base, max, r1, r2) => {
      fc.pre(base * 2 ** (n + 1) <= max)
      const a = backoffDelayMs(n, base, max, r1)
      const b = backoffDelayMs(n + 1, base, max, r2)
      expect(b).toBeGreaterThanOrEqual(a)
      const cap = Math.min(max, base * 2 ** n)
      expect(a).toBeGreaterThanOrEqual(Math.floor(cap / 2))
      expect(a).toBeLessThanOrEqual(Math.ceil(cap))
    },
  )

  const question = { task: 'screen' as const, images: [], prompt: 'q' }

  test('retries retryable errors up to maxRetries, then gives up with the last error', async () => {
    const p = fakeProvider({ answer: () => new VisionError('VISION_UNAVAILABLE', 'down') })
    const delays: number[] = []
    const r = withRetry(p, {
      maxRetries: 3,
      baseDelayMs: 100,
      random: () => 0,
      sleep: async (ms) => void delays.push(ms),
    })
    await expect(r.ask(question)).rejects.toMatchObject({ code: 'VISION_UNAVAILABLE' })
    expect(p.calls).toHaveLength(4)
    expect(delays).toEqual([50, 100, 200])
  })

  test('does not retry 4xx validation errors or bad answers', async () => {
    for (const code of ['VISION_BAD_REQUEST', 'VISION_BAD_ANSWER', 'VISION_AUTH'] as const) {
      const p = fakeProvider({ answer: () => new VisionError(code, 'no') })
      await expect(withRetry(p, { sleep: async () => {} }).ask(question)).rejects.toMatchObject({ code })
      expect(p.calls).toHaveLength(1)
    }
  })

  test('a slow call times out (VISION_TIMEOUT) and the provider sees its signal abort', async () => {
    let aborted = false
    const slow = {
      name: 'slow',
      ask: (_q: unknown, o?: { signal?: AbortSignal }) =>
        new Promise<never>((_, reject) =>
          o?.signal?.addEventListener('abort', () => {
            aborted = true
            reject(new Error('aborted'))
          }),
        ),
    }
    const r = withRetry(slow, { maxRetries: 0, timeoutMs: 30 })
    await expect(r.ask(question)).rejects.toMatchObject({ code: 'VISION_TIMEOUT', provider: 'slow' })
    expect(aborted).toBe(true)
  })

  test('a caller abort stops retrying with VISION_ABORTED', async () => {
    const controller = new AbortController()
    const p = fakeProvider({
      answer: () => {
        controller.abort()
        return new VisionError('VISION_RATE_LIMITED', 'slow down')
      },
    })
    await expect(
      withRetry(p, { sleep: async () => {} }).ask(question, { signal: controller.signal }),
    ).rejects.toMatchObject({
      code: 'VISION_ABORTED',
    })
    expect(p.calls).toHaveLength(1)
  })
})
