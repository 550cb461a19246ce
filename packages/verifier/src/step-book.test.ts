import type { Action, ReplayResult, VerificationResult } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { createReplayVerifier } from './replay-verifier'
import { createStepBook, healProven } from './step-book'
import { decideStepVerdict } from './step-verdict'

const action = (i: number): Action =>
  ({ actionType: 'click', x: 10 * i, y: 20, description: `step ${i}`, screenshotPath: null }) as unknown as Action

const ran = (i: number, success: boolean): ReplayResult => ({
  actionId: `action-${i}`,
  actionIndex: i,
  success,
  method: success ? 'role' : 'failed',
  originalCoords: { x: 10 * i, y: 20 },
  matchConfidence: success ? 1 : 0,
  screenTransitionVerified: false,
  errorMessage: success ? '' : 'Element not found: button "Go".',
})

const verdict = (finalResult: VerificationResult['finalResult'], details?: VerificationResult['details']) => ({
  finalResult,
  ...(details ? { details } : {}),
})

describe('healProven', () => {
  it('holds only for a step that ran, was compared with --verify and passed', () => {
    expect(healProven({ success: true }, verdict('pass', { skipped: false }), true)).toBe(true)
    expect(healProven({ success: true }, verdict('pass'), false)).toBe(false)
    expect(healProven({ success: false }, verdict('pass'), true)).toBe(false)
    expect(healProven({ success: true }, verdict('warning'), true)).toBe(false)
    expect(healProven({ success: true }, verdict('pass', { skipped: true }), true)).toBe(false)
    expect(healProven({ success: true }, verdict('pass', { skipped: false, judged_by_action_index: 3 }), true)).toBe(
      false,
    )
    expect(healProven({ success: true }, undefined, true)).toBe(false)
  })
})

describe('createStepBook', () => {
  it('records each step once, names the first cause, stops at the failure limit and learns proven heals', () => {
    const verifier = createReplayVerifier({ testCaseName: 'book' })
    const book = createStepBook<{ to: string }>({ verifier, verify: true, maxFailures: 1 })

    expect(book.plan(null)).toEqual({ run: true, quick: false })
    const first = ran(0, true)
    const pass: VerificationResult = {
      actionIndex: 0,
      actionDescription: 'step 0',
      screenshotMatch: true,
      screenshotSimilarity: 1,
      visionVerified: false,
      visionMatch: false,
      finalResult: 'pass',
      reason: 'Screenshots match.',
      details: { skipped: false },
    }
    verifier.recordResult(pass)
    book.done(0, { result: first, verification: pass, notFound: false, fingerprint: null })
    expect(book.learn(0, first, pass, () => ({ to: '#go' }))).toEqual({ to: '#go' })

    const second = ran(1, false)
    const failed = book.decided(
      1,
      action(1),
      decideStepVerdict({ kind: 'did-not-run', error: second.errorMessage, firstCause: book.firstCause }),
    )
    book.done(1, { result: second, verification: failed, notFound: true, fingerprint: 'page-a' })
    let asked = false
    expect(
      book.learn(1, second, failed, () => {
        asked = true
        return { to: '#never' }
      }),
    ).toBeNull()
    expect(asked).toBe(false)
    expect(book.firstCause).toBe(1)
    expect(book.notFoundFingerprint).toBe('page-a')

    expect(book.plan('page-a').run).toBe(false)
    const skipped = book.notRun(2, action(2), 'action-2')
    expect(skipped.verification).toMatchObject({ finalResult: 'fail', notRun: true })
    expect(skipped.result).toMatchObject({ success: false, durationMs: 0 })

    expect(book.replayResults.map((r) => r.actionIndex)).toEqual([0, 1, 2])
    expect(book.verifications.map((r) => r.finalResult)).toEqual(['pass', 'fail', 'fail'])
    expect(book.heals).toEqual([{ index: 0, to: '#go' }])
    const report = verifier.buildReport({ maxFailures: 1 })
    expect(report.notRunCount).toBe(1)
    expect(report.firstCause?.step).toBe(2)
  })

  it('a step without a verdict counts as failed when it did not run', () => {
    const verifier = createReplayVerifier({ testCaseName: 'book' })
    const book = createStepBook<{ to: string }>({ verifier, verify: false })
    book.done(0, { result: ran(0, false), notFound: false, fingerprint: null })
    expect(book.firstCause).toBe(0)
    book.done(1, { result: ran(1, true), notFound: false, fingerprint: null })
    expect(book.firstCause).toBe(0)
    expect(book.replayResults).toHaveLength(2)
  })
})
