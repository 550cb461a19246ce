import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { decideVerdict, type VisionOutcome } from './decide-verdict'

const arbPolicy = fc
  .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([a, b]) => ({ passSimilarity: Math.max(a, b), fallbackSimilarity: Math.min(a, b) }))
const arbVision: fc.Arbitrary<VisionOutcome> = fc.oneof(
  fc.record({ status: fc.constantFrom('match' as const, 'mismatch' as const), reason: fc.string() }),
  fc.record({ status: fc.constant('unavailable' as const), reason: fc.string() }),
)

describe('decideVerdict', () => {
  // similarity ≥ threshold → pass; below it, vision success + match → warning; otherwise fail
  // (with vision unavailable: ≥ fallback → warning, else fail)
  test.prop([fc.double({ min: 0, max: 1, noNaN: true }), arbPolicy, arbVision], { numRuns: 300 })(
    'the verdict is consistent with the similarity thresholds and the vision answer',
    (similarity, policy, vision) => {
      const first = decideVerdict({ similarity }, policy)
      if (similarity >= policy.passSimilarity) {
        expect(first.status).toBe('pass')
        expect(decideVerdict({ similarity, vision }, policy).status).toBe('pass')
        return
      }
      expect(first).toEqual({ status: 'ask-vision', similarity })
      const d = decideVerdict({ similarity, vision }, policy)
      const expected =
        vision.status === 'match'
          ? 'warning'
          : vision.status === 'mismatch'
            ? 'fail'
            : similarity >= policy.fallbackSimilarity
              ? 'warning'
              : 'fail'
      expect(d.status).toBe(expected)
      expect(d.visionVerified).toBe(vision.status !== 'unavailable')
      expect(d.visionMatch).toBe(vision.status === 'match')
      expect(d.reason.length).toBeGreaterThan(0)
    },
  )

  // an action without screenshot_path gives warning and is skipped, whatever else is known
  test.prop(
    [
      fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      fc.option(fc.string(), { nil: undefined }),
      arbPolicy,
    ],
    {
      numRuns: 100,
    },
  )(
    'no expected screenshot → not compared (skipped), said once in the report, not a warning',
    (similarity, captureError, policy) => {
      const d = decideVerdict({ hasExpected: false, similarity, captureError }, policy)
      expect(d).toMatchObject({ status: 'pass', skipped: true, visionVerified: false })
    },
  )

  test.prop([fc.string(), fc.double({ min: 0, max: 1, noNaN: true })], { numRuns: 100 })(
    'a failed capture fails the step even at full similarity',
    (why, similarity) => {
      expect(decideVerdict({ captureError: why, similarity }).status).toBe('fail')
    },
  )

  test('defaults are 0.95 and 0.7; a size mismatch never passes and names both sizes', () => {
    expect(decideVerdict({ similarity: 0.95 }).status).toBe('pass')
    expect(decideVerdict({ similarity: 0.9499 }).status).toBe('ask-vision')
    expect(decideVerdict({ similarity: 0.7, vision: { status: 'unavailable', reason: 'x' } }).status).toBe('warning')
    expect(decideVerdict({ similarity: 0.6999, vision: { status: 'unavailable', reason: 'x' } }).status).toBe('fail')
    const size = { expected: { width: 10, height: 10 }, actual: { width: 5, height: 5 } }
    const d = decideVerdict({ similarity: 0, sizeMismatch: size, vision: { status: 'unavailable', reason: 'off' } })
    expect(d).toMatchObject({ status: 'fail' })
    expect(d.reason).toContain('expected 10×10, actual 5×5')
  })
})

describe('decideVerdict on a restyled program (the region looks neither as recorded nor as before)', () => {
  const region = (unchangedShare: number) => ({
    regionSimilarity: 0.05,
    changedElsewhere: true,
    unexpectedPixels: 412,
    hadExpectedChange: true,
    unchangedShare,
  })
  test.prop(
    [fc.double({ min: 0, max: 0.19, noNaN: true }), fc.constantFrom<'match' | 'mismatch'>('match', 'mismatch')],
    {
      numRuns: 100,
    },
  )('a change elsewhere goes to the second opinion, whose word decides', (share, answer) => {
    expect(decideVerdict({ region: region(share) }).status).toBe('ask-vision')
    const decided = decideVerdict({
      region: region(share),
      vision: { status: answer, reason: 'same entry, other palette' },
    })
    expect(decided.status).toBe(answer === 'match' ? 'warning' : 'fail')
    expect(decided.reason).toMatch(/restyled or relaid out/)
  })
  test.prop([fc.double({ min: 0.2, max: 1, noNaN: true })], { numRuns: 100 })(
    'a region still showing the recorded before (a wrong click that changed something else) fails at once',
    (share) => {
      const decided = decideVerdict({ region: region(share), vision: { status: 'match', reason: 'looks alike' } })
      expect(decided.status).toBe('fail')
    },
  )
})
