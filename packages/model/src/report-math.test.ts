import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { computeAccuracyStats, countVerdicts, determineTestResult, exitCodeFor } from './report-math'
import { arbReplayResult, arbVerdict, arbVerificationResult } from './testing'

const RUNS = { numRuns: 200 }

describe('report arithmetic', () => {
  test.prop([fc.array(arbVerdict(), { maxLength: 200 })], RUNS)(
    'counts sum to the total and success rate is (passed+warning)/total',
    (verdicts) => {
      const c = countVerdicts(verdicts.map((finalResult) => ({ finalResult })))
      expect(c.passedCount + c.failedCount + c.warningCount).toBe(c.totalActions)
      expect(c.totalActions).toBe(verdicts.length)
      if (c.totalActions > 0) expect(c.successRate).toBeCloseTo((c.passedCount + c.warningCount) / c.totalActions, 12)
      expect(c.successRate).toBeGreaterThanOrEqual(0)
      expect(c.successRate).toBeLessThanOrEqual(1)
    },
  )

  it('handles zero actions', () => {
    expect(countVerdicts([])).toEqual({
      totalActions: 0,
      passedCount: 0,
      failedCount: 0,
      warningCount: 0,
      successRate: 0,
    })
    expect(determineTestResult([])).toBe(true)
  })

  test.prop([fc.array(arbVerificationResult(), { maxLength: 20 })], RUNS)(
    'the test fails exactly when an action failed',
    (results) => {
      const anyFail = results.some((r) => r.finalResult === 'fail')
      expect(determineTestResult(results)).toBe(!anyFail)
      expect(exitCodeFor(determineTestResult(results))).toBe(anyFail ? 1 : 0)
    },
  )

  test.prop([fc.array(arbReplayResult(), { maxLength: 40 })], RUNS)(
    'accuracy counts always sum to the total',
    (results) => {
      const s = computeAccuracyStats(results)
      expect(s.semanticMatchCount + s.coordinateMatchCount + s.failedCount).toBe(s.totalActions)
      expect(Object.values(s.byMethod).reduce((a, b) => a + b, 0) + s.failedCount).toBe(results.length)
      expect(Object.values(s.failureReasons).reduce((a, b) => a + b, 0)).toBe(s.failedCount)
    },
  )
})
