import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import {
  finalSuitePatch,
  jobBaseUrl,
  jobIdFor,
  parseRedisUrl,
  parseWorkerProgress,
  reconnectDelayMs,
  recordAttemptResult,
  recordAttemptStart,
  referencedFiles,
  type SuiteJobResult,
  shouldRetry,
} from './queue-protocol'
import type { SuiteRun } from './run-types'

const suite = (): SuiteRun => ({
  index: 0,
  name: '로그인',
  file: 'login.json',
  platform: 'web',
  status: 'planned',
  passed: false,
  steps: [],
  totalSteps: 3,
  error: null,
  reports: {},
  startedAt: null,
  finishedAt: null,
  durationMs: null,
})
const step = (passed: boolean) => ({ action: 'click', detail: 'd', passed, error: passed ? null : 'x' })
const result = (attempt: number, pattern: boolean[], error: string | null = null): SuiteJobResult => ({
  attempt,
  workerId: `w${attempt}`,
  passed: error === null && pattern.every(Boolean),
  steps: pattern.map(step),
  totalSteps: pattern.length,
  error,
  reports: { json: `runs/r/000/attempt-${attempt}/report.json` },
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
})

describe('attempt history', () => {
  test('a new attempt closes a still-running earlier one as lost; stale starts are ignored', () => {
    const s = suite()
    expect(recordAttemptStart(s, { attempt: 1, workerId: 'w1', at: 't1' })).toBe(true)
    expect(recordAttemptStart(s, { attempt: 2, workerId: 'w2', at: 't2' })).toBe(true)
    expect(recordAttemptStart(s, { attempt: 1, workerId: 'w1', at: 't3' })).toBe(false)
    expect(s.attempts?.map((a) => [a.attempt, a.workerId, a.outcome])).toEqual([
      [1, 'w1', 'lost'],
      [2, 'w2', 'running'],
    ])
  })

  // Reliability: whatever order and repetition the events come in, each attempt is recorded once.
  test.prop([fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.boolean()), { maxLength: 20 })], { numRuns: 100 })(
    'attempts are unique and sorted whatever the message order',
    (msgs) => {
      const s = suite()
      for (const [attempt, isStart] of msgs) {
        if (isStart) recordAttemptStart(s, { attempt, workerId: `w${attempt}`, at: 't' })
        else recordAttemptResult(s, result(attempt, [true]))
      }
      const nums = (s.attempts ?? []).map((a) => a.attempt)
      expect(new Set(nums).size).toBe(nums.length)
      expect(s.attempts?.filter((a) => a.outcome === 'running').length ?? 0).toBeLessThanOrEqual(1)
    },
  )

  test('a pass after a failed attempt is flaky, naming the steps that failed before', () => {
    const s = suite()
    recordAttemptResult(s, result(1, [true, false, true]))
    const patch = finalSuitePatch(s, result(2, [true, true, true]))
    expect(patch).toMatchObject({ passed: true, flaky: true, flakySteps: [1] })
    expect(patch.error).toBe('Flaky: failed on attempt 1, passed on attempt 2 (steps 2).')
  })

  test('a pass after a lost attempt is not flaky; a first-time pass is not flaky', () => {
    const s = suite()
    recordAttemptStart(s, { attempt: 1, workerId: 'w1', at: 't' })
    recordAttemptStart(s, { attempt: 2, workerId: 'w2', at: 't' })
    expect(finalSuitePatch(s, result(2, [true])).flaky).toBe(false)
    expect(finalSuitePatch(suite(), result(1, [true])).flaky).toBe(false)
  })

  test('retry policy: failures retry while attempts remain (crashes even without retryFailed)', () => {
    expect(shouldRetry(result(1, [false]), { maxAttempts: 3, retryFailed: true })).toBe(true)
    expect(shouldRetry(result(3, [false]), { maxAttempts: 3, retryFailed: true })).toBe(false)
    expect(shouldRetry(result(1, [false]), { maxAttempts: 3, retryFailed: false })).toBe(false)
    expect(shouldRetry(result(1, [false], 'app down'), { maxAttempts: 3, retryFailed: false })).toBe(true)
    expect(shouldRetry(result(1, [true]), { maxAttempts: 3, retryFailed: true })).toBe(false)
  })
})

describe('protocol helpers', () => {
  test('job ids are deterministic and free of ":"', () => {
    expect(jobIdFor('20260101T000000Z-0001-abcdef', 7)).toBe('20260101T000000Z-0001-abcdef.s0007')
    expect(jobIdFor('r', 7)).not.toContain(':')
  })
  test('progress payloads parse from objects and strings; junk is null', () => {
    const p = { type: 'attempt-started', attempt: 1, workerId: 'w', at: 't', totalSteps: 2 }
    expect(parseWorkerProgress(p)).toEqual(p)
    expect(parseWorkerProgress(JSON.stringify(p))).toEqual(p)
    expect(parseWorkerProgress(42)).toBeNull()
    expect(parseWorkerProgress('{')).toBeNull()
  })
  test('redis URLs', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6390/2')).toEqual({ host: '127.0.0.1', port: 6390, db: 2 })
    expect(parseRedisUrl('rediss://u:p%40ss@h')).toMatchObject({ port: 6379, username: 'u', password: 'p@ss', tls: {} })
    expect(() => parseRedisUrl('http://x')).toThrow(/--queue: expected redis:\/\/host:port/)
    expect(() => parseRedisUrl('redis://h/x')).toThrow(/not a number/)
  })
  test('reconnect backoff grows and is capped', () => {
    expect(reconnectDelayMs(1)).toBe(200)
    expect(reconnectDelayMs(3)).toBeGreaterThan(reconnectDelayMs(2))
    expect(reconnectDelayMs(100)).toBe(5000)
  })
  test('referenced files: relative images only', () => {
    const doc = {
      actions: [
        { screenshot_path: 'shots/0.png', element_crop_path: './crops/0.jpg' },
        { screenshot_path: '../outside.png' },
        { screenshot_path: '/abs.png', url: 'http://x/y.png', description: 'a.png' },
      ],
    }
    expect(referencedFiles(doc)).toEqual(['a.png', 'crops/0.jpg', 'shots/0.png'])
  })
})

describe('jobBaseUrl (a job carries where the app under test is)', () => {
  test('an http(s) URL is taken; anything else, or nothing, is not', () => {
    expect(jobBaseUrl({ baseUrl: 'http://127.0.0.1:4173' })).toBe('http://127.0.0.1:4173/')
    expect(jobBaseUrl({ baseUrl: 'https://app.example/base/' })).toBe('https://app.example/base/')
    for (const baseUrl of [undefined, null, '', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', 42])
      expect(jobBaseUrl({ baseUrl: baseUrl as string })).toBeNull()
  })
})
