import { fc, test } from '@fast-check/vitest'
import type { VerificationResult } from '@qa/model'
import { describe, expect, it } from 'vitest'
import {
  createRootCauseGate,
  isNotFoundMessage,
  markRootCause,
  notRunResult,
  notRunStep,
  stepNumber,
} from './root-cause'

const result = (actionIndex: number, finalResult: VerificationResult['finalResult'], notRun = false) =>
  ({
    actionIndex,
    actionDescription: `step ${actionIndex}`,
    screenshotMatch: false,
    screenshotSimilarity: 0,
    visionVerified: false,
    visionMatch: false,
    finalResult,
    reason: `why ${actionIndex}`,
    ...(notRun ? { notRun: true } : {}),
  }) as VerificationResult

const verdict = fc.constantFrom<VerificationResult['finalResult']>('pass', 'fail', 'warning')

describe('markRootCause', () => {
  test.prop([fc.array(verdict, { maxLength: 30 })])(
    'numbers every step from 1, marks the first failure once and every step after it',
    (verdicts) => {
      const input = verdicts.map((v, i) => result(i, v))
      const { results, firstCause } = markRootCause(input)
      expect(results.map((r) => r.step)).toEqual(verdicts.map((_, i) => i + 1))
      const first = verdicts.indexOf('fail')
      expect(results.filter((r) => r.firstCause)).toHaveLength(first < 0 ? 0 : 1)
      if (first < 0) {
        expect(firstCause).toBeNull()
        expect(results.every((r) => r.afterFirstCause == null)).toBe(true)
      } else {
        expect(firstCause).toMatchObject({ step: first + 1, actionIndex: first, reason: `why ${first}` })
        results.forEach((r, i) => {
          expect(r.afterFirstCause ?? null).toBe(i > first ? first + 1 : null)
        })
      }
      // the input is not changed, the action indexes stay 0-based
      expect(input.every((r) => r.step === undefined)).toBe(true)
      expect(results.map((r) => r.actionIndex)).toEqual(verdicts.map((_, i) => i))
    },
  )

  it('a step that was not run is never the first cause', () => {
    const { firstCause } = markRootCause([result(0, 'pass'), result(1, 'fail', true), result(2, 'fail')])
    expect(firstCause?.step).toBe(3)
  })
})

describe('createRootCauseGate', () => {
  it('after a "not found" step, the next step on the same page is quick; once the page changed it is not', () => {
    const gate = createRootCauseGate()
    expect(gate.plan('A')).toEqual({ run: true, quick: false })
    gate.done(0, { failed: true, notFound: true, fingerprint: 'A' })
    expect(gate.firstCause).toBe(0)
    expect(gate.plan('A')).toEqual({ run: true, quick: true })
    gate.done(1, { failed: true, notFound: true, fingerprint: 'A' })
    expect(gate.plan('A').quick).toBe(true)
    // a step that passed and changed the page ends it
    gate.done(2, { failed: false, notFound: false, fingerprint: 'B' })
    expect(gate.plan('B').quick).toBe(false)
    expect(gate.firstCause).toBe(0)
    // an unknown page is never treated as unchanged
    gate.done(3, { failed: true, notFound: true, fingerprint: null })
    expect(gate.plan(null).quick).toBe(false)
  })

  test.prop([
    fc.array(
      fc.record({
        failed: fc.boolean(),
        notFound: fc.boolean(),
        fingerprint: fc.option(fc.constantFrom('A', 'B'), { nil: null }),
      }),
      { maxLength: 25 },
    ),
    fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  ])('runs steps until maxFailures steps failed, then none; quick only on an unchanged page', (steps, max) => {
    const gate = createRootCauseGate({ maxFailures: max })
    let failures = 0
    let mark: string | null = null
    steps.forEach((s, i) => {
      const failed = s.failed || s.notFound
      const plan = gate.plan(s.fingerprint)
      expect(plan.run).toBe(max === null || failures < max)
      expect(plan.quick).toBe(plan.run && mark !== null && s.fingerprint === mark)
      if (!plan.run) return
      gate.done(i, { failed, notFound: s.notFound, fingerprint: s.fingerprint })
      if (failed) failures++
      if (s.notFound) mark = s.fingerprint
      else if (s.fingerprint !== mark) mark = null
    })
    expect(gate.failures).toBe(failures)
  })
})

describe('not run and not found', () => {
  it('a step not run fails, says why, and names the limit', () => {
    const v = notRunResult({ actionIndex: 4, description: 'Click "저장"', maxFailures: 1 })
    expect(v).toMatchObject({ finalResult: 'fail', notRun: true, screenshotSimilarity: 0 })
    expect(v.reason).toBe('Not run: the replay stopped after 1 failed step (--max-failures 1).')
    expect(stepNumber(4)).toBe(5)
  })

  it('a step not run is reported as a failed replay result that says why, with no time spent', () => {
    const { verification, result } = notRunStep(
      { description: 'Click "저장"', x: 10, y: 20, screenshotPath: 'shot.png' },
      { actionId: 'action-0002', actionIndex: 2, maxFailures: 2 },
    )
    expect(verification).toMatchObject({ notRun: true, expectedScreenshot: 'shot.png' })
    expect(result).toMatchObject({ actionId: 'action-0002', success: false, method: 'none', durationMs: 0 })
    expect(result.errorMessage).toBe(verification.reason)
    expect(result.originalCoords).toEqual({ x: 10, y: 20 })
  })

  it('tells "not found" messages (web and desktop) from other failures', () => {
    expect(isNotFoundMessage('Element not found: button "로그인" (tried role: none (0))')).toBe(true)
    expect(isNotFoundMessage('The target was not found on the screen (tried fast path, template)')).toBe(true)
    expect(isNotFoundMessage('Assertion failed: expected text, actual other.')).toBe(false)
    expect(isNotFoundMessage('')).toBe(false)
  })
})
