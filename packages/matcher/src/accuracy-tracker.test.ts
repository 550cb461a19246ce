import { fc, test } from '@fast-check/vitest'
import { REPLAY_METHODS, type ReplayMethod } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { createAccuracyTracker } from './accuracy-tracker'

const method = fc.constantFrom(...REPLAY_METHODS.filter((m): m is Exclude<ReplayMethod, 'failed'> => m !== 'failed'))
const event = fc.oneof(
  fc.record({
    kind: fc.constant('success' as const),
    method,
    change: fc.option(fc.tuple(fc.integer({ min: -500, max: 500 }), fc.integer({ min: -500, max: 500 })), {
      nil: undefined,
    }),
    confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('failure' as const),
    reason: fc.constantFrom('element_not_found', 'unexpected_transition', ''),
  }),
)

describe('createAccuracyTracker', () => {
  // the counts always add up: semantic + coordinate + failed = total, for any replay session
  test.prop([fc.array(event, { maxLength: 40 })], { numRuns: 200 })(
    'counts always sum to the number of actions',
    (events) => {
      const tracker = createAccuracyTracker()
      events.forEach((e, i) => {
        const action = { x: i, y: 2 * i, description: `step ${i}` }
        if (e.kind === 'success') tracker.recordSuccess(action, e.method, e.change, e.confidence)
        else tracker.recordFailure(action, e.reason)
      })
      const s = tracker.stats()
      expect(s.totalActions).toBe(events.length)
      expect(s.semanticMatchCount + s.coordinateMatchCount + s.failedCount).toBe(events.length)
      expect(Object.values(s.byMethod).reduce((a, b) => a + b, 0) + s.failedCount).toBe(events.length)
      expect(Object.values(s.failureReasons).reduce((a, b) => a + b, 0)).toBe(s.failedCount)
      expect(tracker.results()).toHaveLength(events.length)
    },
  )

  it('records each step outcome with its coordinates and reason', () => {
    const t = createAccuracyTracker()
    const a = t.recordSuccess({ x: 100, y: 200 }, 'semantic', [15, -5], 0.9)
    expect(a).toMatchObject({
      actionId: 'action_0000',
      actualCoords: { x: 115, y: 195 },
      coordinateChange: { x: 15, y: -5 },
      matchConfidence: 0.9,
    })
    t.recordSuccess({ x: 1, y: 1, actionId: 'login' }, 'direct')
    t.recordSuccess({ x: 1, y: 1 }, 'coordinate')
    t.recordFailure({ x: 5, y: 5 }, 'element_not_found')
    const s = t.stats()
    expect(s).toMatchObject({
      totalActions: 4,
      successCount: 3,
      semanticMatchCount: 2,
      coordinateMatchCount: 1,
      failedCount: 1,
    })
    expect(s.byMethod).toEqual({ semantic: 1, direct: 1, coordinate: 1 })
    expect(s.failureReasons).toEqual({ element_not_found: 1 })
    expect(s.averageCoordinateShift).toBeCloseTo(Math.hypot(15, 5))
    t.reset()
    expect(t.stats().totalActions).toBe(0)
  })

  it('refuses a success with method "failed" and an action without coordinates', () => {
    const t = createAccuracyTracker()
    expect(() => t.recordSuccess({ x: 1, y: 1 }, 'failed')).toThrow(
      expect.objectContaining({ code: 'MATCHER_BAD_ARGUMENT' }),
    )
    expect(() => t.recordFailure({ x: Number.NaN, y: 1 }, 'x')).toThrow(
      expect.objectContaining({ code: 'MATCHER_BAD_ARGUMENT' }),
    )
  })
})
