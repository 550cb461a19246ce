import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import {
  buildResultsJson,
  buildTestBotResults,
  errorStep,
  stepFromFacts,
  testBotAction,
  stepResultAttr,
  type SuiteResultState,
} from './testbot-results'

const step = fc.record({
  action: fc.constantFrom('click', 'type', 'key_press', 'navigate', 'error'),
  detail: fc.string({ maxLength: 20 }),
  passed: fc.boolean(),
  error: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
})
const suite: fc.Arbitrary<SuiteResultState> = fc
  .record({
    name: fc.string({ maxLength: 20 }),
    status: fc.constantFrom('planned' as const, 'running' as const, 'done' as const),
    passed: fc.boolean(),
    steps: fc.array(step, { maxLength: 5 }),
  })
  .map((s) => (s.status === 'done' ? s : { ...s, passed: false }))

describe('buildTestBotResults', () => {
  // summary = { total: suites, pass: passed suites, fail: done and not passed }.
  test.prop([fc.array(suite, { maxLength: 10 }), fc.boolean()], { numRuns: 100 })(
    'summary counts agree with the suites and the shape has exactly the seed keys',
    (suites, running) => {
      const r = buildTestBotResults(suites, running)
      expect(r.isRunning).toBe(running)
      expect(r.summary.total).toBe(suites.length)
      expect(r.summary.pass + r.summary.fail).toBeLessThanOrEqual(r.summary.total)
      expect(r.summary.fail).toBe(suites.filter((s) => s.status === 'done' && !s.passed).length)
      for (const s of r.suites) {
        expect(Object.keys(s).sort()).toEqual(['name', 'passed', 'status', 'steps'])
        for (const st of s.steps) {
          expect(Object.keys(st).sort()).toEqual(['action', 'detail', 'error', 'passed'])
          expect(st.error === null || st.error.length > 0).toBe(true)
        }
      }
    },
  )

  // the hidden JSON lists finished suites only, as { name, passed, steps }.
  test.prop([fc.array(suite, { maxLength: 10 })], { numRuns: 100 })('hidden JSON holds the done suites', (suites) => {
    const json = buildResultsJson(suites)
    expect(json.map((j) => j.name)).toEqual(suites.filter((s) => s.status === 'done').map((s) => s.name))
    for (const j of json) expect(Object.keys(j).sort()).toEqual(['name', 'passed', 'steps'])
  })
})

describe('stepFromFacts', () => {
  it('passes a step that ran and was not judged fail; a warning says so and why', () => {
    expect(stepFromFacts({ actionType: 'click', description: 'd', success: true, verdict: 'pass' })).toEqual({
      action: 'click',
      detail: 'd',
      passed: true,
      error: null,
    })
    expect(
      stepFromFacts({
        actionType: 'click',
        description: 'd',
        success: true,
        verdict: 'warning',
        verdictReason: 'region 80% < 95%',
      }),
    ).toEqual({ action: 'click', detail: 'd', passed: true, error: null, warning: 'region 80% < 95%' })
  })
  it('fails with the replay error when the step did not run, else with the verdict reason', () => {
    expect(stepFromFacts({ actionType: 'click', description: 'd', success: false, errorMessage: 'gone' }).error).toBe(
      'gone',
    )
    const v = stepFromFacts({
      actionType: 'type',
      description: 'd',
      success: true,
      verdict: 'fail',
      verdictReason: 'diff 40%',
    })
    expect(v).toEqual({ action: 'type', detail: 'd', passed: false, error: 'diff 40%' })
  })
  it('maps rows to data-testbot-step-result', () => {
    expect(stepResultAttr(undefined)).toBe('pending')
    expect(stepResultAttr(errorStep('f', 'm'))).toBe('fail')
  })
})

describe('assert steps (expect rows)', () => {
  it('an assert step is an expect row; its failure says expected and actual', () => {
    const reason = 'Assertion failed: expected text equals "장바구니 3개", actual "장바구니 2개".'
    expect(
      stepFromFacts({
        actionType: 'assert',
        description: 'Assert text',
        success: true,
        verdict: 'fail',
        verdictReason: reason,
      }),
    ).toEqual({ action: 'expect', detail: 'Assert text', passed: false, error: reason })
    expect(stepFromFacts({ actionType: 'assert', description: 'Assert URL', success: true, verdict: 'pass' })).toEqual({
      action: 'expect',
      detail: 'Assert URL',
      passed: true,
      error: null,
    })
    expect(testBotAction('click')).toBe('click')
  })
})
