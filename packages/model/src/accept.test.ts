import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { applyAcceptance, parseStepList, planAcceptance } from './accept'
import { arbTestCase } from './testing'
import type { AcceptanceStep, Action, ReplayReport, TestCase, VerificationResult } from './types'

const click = (i: number, over: Partial<Action> = {}): Action => ({
  timestamp: 0,
  actionType: 'click',
  x: 100 + i,
  y: 50,
  description: `Click button "B${i}"`,
  screenshotPath: `flow/step-00${i}-after.png`,
  screenshotBeforePath: `flow/step-00${i}-before.png`,
  elementCropPath: `flow/step-00${i}-element.png`,
  uiStateHashAfter: 'abc',
  identity: {
    tagName: 'button',
    axRole: 'button',
    axName: `B${i}`,
    boundingBox: { x: 90, y: 40, width: 40, height: 20 },
  },
  selectors: { css: `#b${i}` },
  ...over,
})

const tc: TestCase = {
  name: 'flow',
  version: '3.2',
  platform: 'web',
  actions: [click(0), click(1), click(2), click(3)],
}

const verification = (i: number, finalResult: VerificationResult['finalResult']): VerificationResult => ({
  actionIndex: i,
  actionDescription: '',
  screenshotMatch: finalResult === 'pass',
  screenshotSimilarity: 0.5,
  visionVerified: false,
  visionMatch: false,
  finalResult,
})

const evidence = (i: number, over: Partial<AcceptanceStep> = {}): AcceptanceStep => ({
  actionIndex: i,
  screenshotBefore: `artifacts/step-00${i}-before.png`,
  screenshotAfter: `artifacts/step-00${i}-actual.png`,
  elementBox: { x: 200, y: 300, width: 60, height: 24 },
  actualCoords: { x: 230.4, y: 311.6 },
  ...over,
})

// step 1 passed, step 2 healed and failed the pixel check, step 3 not found, step 4 failed unhealed
const report: Pick<ReplayReport, 'acceptance' | 'verificationResults' | 'replayResults'> = {
  verificationResults: [
    verification(0, 'pass'),
    verification(1, 'fail'),
    verification(2, 'fail'),
    verification(3, 'fail'),
  ],
  replayResults: [2].map((i) => ({
    actionId: `action-00${i}`,
    actionIndex: i,
    success: false,
    method: 'failed' as const,
    originalCoords: { x: 0, y: 0 },
    matchConfidence: 0,
    screenTransitionVerified: false,
    errorMessage: 'Element not found: button "B2"',
  })),
  acceptance: {
    caseFile: 'flow.json',
    caseSha256: 'a'.repeat(64),
    steps: [
      evidence(0, { verdict: 'pass' }),
      evidence(1, {
        verdict: 'fail',
        identity: {
          tagName: 'button',
          axRole: 'button',
          axName: 'Sign in',
          boundingBox: { x: 0, y: 0, width: 1, height: 1 },
        },
        selectors: { css: '#signin' },
        healing: { healedAt: '2026-01-01T00:00:00.000Z', strategy: 'similarity', confidence: 0.86, verified: false },
      }),
      evidence(3, { verdict: 'fail' }),
    ],
  },
}

describe('parseStepList', () => {
  it('reads step numbers from 1, ranges and spaces', () => {
    expect(parseStepList('3,5')).toEqual({ ok: true, steps: [3, 5] })
    expect(parseStepList(' 5 , 2-4,3 ')).toEqual({ ok: true, steps: [2, 3, 4, 5] })
  })
  it('refuses 0, words, empty items, backwards ranges and steps past the case', () => {
    for (const bad of ['0', 'two', '3,,5', '', '5-3', '1,-2', '3.5'])
      expect(parseStepList(bad)).toMatchObject({ ok: false })
    expect(parseStepList('0')).toMatchObject({ error: expect.stringContaining('start at 1') })
    expect(parseStepList('3,9', 4)).toEqual({
      ok: false,
      error: 'step 9 does not exist: the case has 4 steps (numbered 1–4)',
    })
  })
  test.prop([fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 30 })], { numRuns: 200 })(
    'a comma list of numbers parses to the same numbers, sorted',
    (numbers) => {
      expect(parseStepList(numbers.join(','))).toEqual({ ok: true, steps: [...numbers].sort((a, b) => a - b) })
    },
  )
  test.prop([fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 50 })], { numRuns: 200 })(
    'a range a-b holds every step from a to b',
    (a, len) => {
      const r = parseStepList(`${a}-${a + len}`)
      expect(r).toEqual({ ok: true, steps: Array.from({ length: len + 1 }, (_, k) => a + k) })
    },
  )
})

describe('planAcceptance', () => {
  it('without a list: every step that did not pass or healed; a not-found step is refused', () => {
    const plan = planAcceptance(tc, report, 'changed')
    expect(plan.accept.map((s) => s.actionIndex)).toEqual([1, 3])
    expect(plan.refused).toEqual([
      { step: 3, reason: 'its element was not found; only a step that was replayed and located can be accepted' },
    ])
    expect(plan.unchanged).toEqual([1])
  })
  it('without a list: a warning on a compared screen is accepted, one on a step with no screenshot is left alone', () => {
    const warned = {
      verificationResults: [verification(0, 'warning'), verification(1, 'warning')],
      acceptance: {
        caseFile: 'flow.json',
        caseSha256: 'a'.repeat(64),
        steps: [evidence(0), evidence(1, { screenshotAfter: null })],
      },
    }
    const c = { ...tc, actions: [click(0), click(1, { screenshotPath: null })] }
    const plan = planAcceptance(c, warned, 'changed')
    expect(plan.accept.map((s) => s.actionIndex)).toEqual([0])
    expect(plan.refused).toEqual([])
    expect(plan.unchanged).toEqual([2])
  })
  it('a list names steps from 1; a passed step can be accepted when asked', () => {
    const plan = planAcceptance(tc, report, [1, 3, 4])
    expect(plan.accept.map((s) => s.actionIndex)).toEqual([0, 3])
    expect(plan.refused.map((r) => r.step)).toEqual([3])
  })
  it('a step compared with a recorded screenshot needs a new one', () => {
    const without = {
      ...report,
      acceptance: { ...report.acceptance!, steps: [evidence(1, { screenshotAfter: null })] },
    }
    expect(planAcceptance(tc, without, [2]).refused[0]?.reason).toMatch(/no screenshot/)
  })
  it('a report without evidence refuses every step', () => {
    const plan = planAcceptance(tc, { verificationResults: [] }, [1, 2])
    expect(plan.accept).toEqual([])
    expect(plan.refused.map((r) => r.reason)).toEqual([
      'it was not replayed; only a step that was replayed and located can be accepted',
      'it was not replayed; only a step that was replayed and located can be accepted',
    ])
  })
  test.prop(
    [
      arbTestCase(),
      fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 10 }),
      fc.uniqueArray(fc.integer({ min: 1, max: 45 }), { maxLength: 10 }),
    ],
    { numRuns: 100 },
  )(
    'every requested step is accepted or refused, once; only steps with evidence are accepted',
    (c, withEvidence, asked) => {
      const r = {
        verificationResults: [],
        acceptance: {
          caseFile: 'c.json',
          caseSha256: '0'.repeat(64),
          steps: withEvidence.map((i) => evidence(i)),
        },
      }
      const plan = planAcceptance(c, r, asked)
      const accepted = plan.accept.map((s) => s.actionIndex + 1)
      expect([...accepted, ...plan.refused.map((x) => x.step)].sort((a, b) => a - b)).toEqual(
        [...asked].sort((a, b) => a - b),
      )
      for (const n of accepted) {
        expect(withEvidence).toContain(n - 1)
        expect(n).toBeLessThanOrEqual(c.actions.length)
      }
    },
  )
})

describe('applyAcceptance', () => {
  const files = (i: number) => ({
    screenshotPath: `flow/step-00${i}-after.new.png`,
    screenshotBeforePath: `flow/step-00${i}-before.new.png`,
    elementCropPath: `flow/step-00${i}-element.new.png`,
  })
  it('a healed step gets its new screenshots, crop, point, box, identity, selectors and a healing entry', () => {
    const plan = planAcceptance(tc, report, 'changed')
    const out = applyAcceptance(
      tc,
      plan.accept.map((e) => ({ evidence: e, files: files(e.actionIndex) })),
      '2026-02-02T00:00:00.000Z',
    )
    const a = out.actions[1]!
    expect(a.screenshotPath).toBe('flow/step-001-after.new.png')
    expect(a.screenshotBeforePath).toBe('flow/step-001-before.new.png')
    expect(a.elementCropPath).toBe('flow/step-001-element.new.png')
    expect(a.uiStateHashAfter).toBeUndefined()
    expect([a.x, a.y]).toEqual([230, 312])
    expect(a.identity).toMatchObject({ axName: 'Sign in', boundingBox: { x: 200, y: 300, width: 60, height: 24 } })
    expect(a.selectors).toEqual({ css: '#signin' })
    expect(a.healingHistory).toEqual([
      {
        healedAt: '2026-01-01T00:00:00.000Z',
        strategy: 'similarity',
        confidence: 0.86,
        verified: false,
        extra: { accepted_at: '2026-02-02T00:00:00.000Z' },
      },
    ])
    // an unhealed step keeps its identity but its box moves to where the element is now
    expect(out.actions[3]!.identity).toMatchObject({ axName: 'B3', boundingBox: { x: 200, y: 300 } })
    expect(out.actions[3]!.healingHistory).toBeUndefined()
    // steps not accepted are as they were; the input is untouched
    expect(out.actions[0]).toEqual(tc.actions[0])
    expect(out.actions[2]).toEqual(tc.actions[2])
    expect(tc.actions[1]!.identity?.axName).toBe('B1')
  })
  test.prop([arbTestCase(), fc.uniqueArray(fc.nat({ max: 40 }), { maxLength: 8 })], { numRuns: 100 })(
    'only accepted steps change, and the input case is not mutated',
    (c, indices) => {
      const before = structuredClone(c)
      const accepted = indices.filter((i) => i < c.actions.length)
      const out = applyAcceptance(
        c,
        accepted.map((i) => ({ evidence: evidence(i), files: files(i) })),
        '2026-02-02T00:00:00.000Z',
      )
      expect(c).toEqual(before)
      out.actions.forEach((a, i) => {
        if (accepted.includes(i)) expect(a.screenshotPath).toBe(files(i).screenshotPath)
        else expect(a).toEqual(c.actions[i])
      })
    },
  )
})
