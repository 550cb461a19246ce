import { describe, expect, it } from 'vitest'
import { decideStepVerdict, stepVerification } from './step-verdict'

// Expected verdicts and reasons are written by hand from the verdict rules: a step not run or not done fails, an
// assertion is its condition, a step judged by the next one passes, an unverified step passes unless it was
// clicked at the recorded coordinates (warning), and the screenshot flow: no expected screenshot → not compared,
// capture failed → fail, similarity ≥ 0.95 → pass, below it vision decides (match → warning, mismatch → fail),
// without vision ≥ 0.7 → warning, else fail.

const noVision = { skipped: false, visionVerified: false, visionMatch: false }
const action = { description: 'click "Save"', screenshotPath: 'shots/after-3.png' }

describe('decideStepVerdict', () => {
  it('not run: fails, names the failure limit, keeps the expected screenshot', () => {
    const v = decideStepVerdict({ kind: 'not-run', maxFailures: 1 })
    expect(v).toEqual({
      status: 'fail',
      reason: 'Not run: the replay stopped after 1 failed step (--max-failures 1).',
      ...noVision,
      withExpected: true,
      notRun: true,
    })
    expect(decideStepVerdict({ kind: 'not-run', maxFailures: 3 }).reason).toBe(
      'Not run: the replay stopped after 3 failed steps (--max-failures 3).',
    )
    expect(stepVerification(4, action, v)).toEqual({
      actionIndex: 4,
      actionDescription: 'click "Save"',
      screenshotMatch: false,
      screenshotSimilarity: 0,
      visionVerified: false,
      visionMatch: false,
      finalResult: 'fail',
      reason: 'Not run: the replay stopped after 1 failed step (--max-failures 1).',
      notRun: true,
      expectedScreenshot: 'shots/after-3.png',
    })
  })

  it('did not run: fails with the error, naming the first failed step before it', () => {
    const error = 'Element not found: button "Save".'
    expect(decideStepVerdict({ kind: 'did-not-run', error, firstCause: null })).toMatchObject({
      status: 'fail',
      reason: 'The step did not run: Element not found: button "Save".',
      withExpected: true,
    })
    expect(decideStepVerdict({ kind: 'did-not-run', error, firstCause: 1 }).reason).toBe(
      'The step did not run: Element not found: button "Save". It ran after step 2 failed.',
    )
    expect(decideStepVerdict({ kind: 'did-not-run', error, firstCause: 1, quick: true }).reason).toBe(
      'The step did not run: Element not found: button "Save". It ran after step 2 failed, on a page unchanged since; it was looked for once, without waiting.',
    )
    const r = stepVerification(5, action, decideStepVerdict({ kind: 'did-not-run', error, firstCause: null }))
    expect(r.expectedScreenshot).toBe('shots/after-3.png')
    expect(r.notRun).toBeUndefined()
    expect(r.details).toBeUndefined()
  })

  it('assertion: passes exactly when its condition held, with the condition in the details', () => {
    const assertion = { kind: 'text', op: 'contains' }
    const held = decideStepVerdict({
      kind: 'assert',
      ran: true,
      check: { holds: true, expected: 'text contains "3 items"', actual: '"3 items left"' },
      error: '',
      assertion,
    })
    expect(held).toEqual({
      status: 'pass',
      reason: 'Assertion held: text contains "3 items" (actual "3 items left").',
      ...noVision,
      withExpected: false,
      details: {
        assertion: {
          kind: 'text',
          op: 'contains',
          expected: 'text contains "3 items"',
          actual: '"3 items left"',
          holds: true,
        },
      },
    })
    const failed = decideStepVerdict({
      kind: 'assert',
      ran: true,
      check: { holds: false, expected: 'text contains "3 items"', actual: '"2 items left"' },
      error: '',
      assertion: { kind: 'text' },
    })
    expect(failed.status).toBe('fail')
    expect(failed.reason).toBe('Assertion failed: expected text contains "3 items", actual "2 items left".')
    expect(failed.details).toMatchObject({ assertion: { op: null, holds: false } })
    // a step that did not run fails even when its last check held
    expect(
      decideStepVerdict({
        kind: 'assert',
        ran: false,
        check: { holds: true, expected: 'url equals "/done"', actual: '"/done"' },
        error: 'The browser crashed.',
        assertion: { kind: 'url' },
      }).status,
    ).toBe('fail')
    const unchecked = decideStepVerdict({
      kind: 'assert',
      ran: false,
      check: null,
      error: 'The browser crashed.',
      assertion: { kind: 'url' },
    })
    expect(unchecked).toEqual({
      status: 'fail',
      reason: 'The assertion could not be checked: The browser crashed.',
      ...noVision,
      withExpected: false,
    })
    // an assertion names no screenshot
    expect(stepVerification(2, action, held).expectedScreenshot).toBeUndefined()
  })

  it('judged by the next step: passes and names that step', () => {
    const list = decideStepVerdict({
      kind: 'judged-by-next',
      by: 'native-list',
      target: 'the "Country" select',
      next: 4,
    })
    expect(list.status).toBe('pass')
    expect(list.reason).toBe(
      'The click opened the native list of the "Country" select, which screenshots do not show the same way (the browser draws it apart from the page); step 5, the choice made in it, is verified instead.',
    )
    expect(list.details).toEqual({ skipped: false, judged_by_action_index: 4 })
    const field = decideStepVerdict({ kind: 'judged-by-next', by: 'typed-field', target: 'the "Name" field', next: 2 })
    expect(field.status).toBe('pass')
    expect(field.reason).toBe(
      'The click put the caret in the "Name" field, which step 3 types into right after; that step, the field focused and filled, is verified instead (the person started typing while the field\'s focus look was still fading in).',
    )
    expect(stepVerification(1, action, field)).toMatchObject({
      expectedScreenshot: 'shots/after-3.png',
      details: { skipped: false, judged_by_action_index: 2 },
    })
  })

  it('not verified: passes, or is a warning when the step was clicked at the recorded coordinates', () => {
    expect(decideStepVerdict({ kind: 'not-verified' })).toEqual({
      status: 'pass',
      reason: 'The step ran; its screen was not compared (replay without --verify).',
      ...noVision,
      withExpected: false,
    })
    const blind = decideStepVerdict({ kind: 'not-verified', coordinateWarning: 'its target is the page itself' })
    expect(blind.status).toBe('warning')
    expect(blind.reason).toBe(
      'The step ran, but its target is the page itself; its screen was not compared (replay without --verify).',
    )
  })

  it('no expected screenshot: passes, not compared (skipped); a coordinate click stays a warning', () => {
    expect(decideStepVerdict({ kind: 'screenshot', hasExpected: false })).toEqual({
      status: 'pass',
      reason: 'The step ran; the recording holds no screenshot of it, so its screen was not compared.',
      ...noVision,
      skipped: true,
      withExpected: true,
    })
    expect(
      decideStepVerdict({ kind: 'screenshot', hasExpected: false, coordinateWarning: 'its target is the page itself' }),
    ).toMatchObject({
      status: 'warning',
      reason: 'The step ran, but its target is the page itself; the recording holds no screenshot of it to compare.',
      skipped: true,
    })
  })

  it('screenshots: capture failed or not comparable → fail; ≥ 0.95 → pass; below, vision or the 0.7 fallback decides', () => {
    expect(decideStepVerdict({ kind: 'screenshot', captureError: 'the window is gone' })).toMatchObject({
      status: 'fail',
      reason: 'The current screen could not be captured: the window is gone',
    })
    expect(decideStepVerdict({ kind: 'screenshot', compareError: 'not a PNG: shots/after-3.png' })).toMatchObject({
      status: 'fail',
      reason: 'The screenshots could not be compared: not a PNG: shots/after-3.png',
      visionVerified: false,
    })
    expect(decideStepVerdict({ kind: 'screenshot', similarity: 0.96 })).toMatchObject({
      status: 'pass',
      reason: 'Screenshots match: similarity 96.00% ≥ 95.00%.',
    })
    expect(decideStepVerdict({ kind: 'screenshot', similarity: 0.8 })).toEqual({
      status: 'ask-vision',
      similarity: 0.8,
    })
    expect(
      decideStepVerdict({ kind: 'screenshot', similarity: 0.8, vision: { status: 'match', reason: 'same dialog' } }),
    ).toMatchObject({
      status: 'warning',
      reason: 'Similarity 80.00% < 95.00%, but vision judged the screens equivalent: same dialog',
      visionVerified: true,
      visionMatch: true,
    })
    expect(
      decideStepVerdict({ kind: 'screenshot', similarity: 0.8, vision: { status: 'mismatch', reason: 'an error' } }),
    ).toMatchObject({ status: 'fail', visionVerified: true, visionMatch: false })
    const off = { status: 'unavailable' as const, reason: 'no provider' }
    expect(decideStepVerdict({ kind: 'screenshot', similarity: 0.7, vision: off }).status).toBe('warning')
    expect(decideStepVerdict({ kind: 'screenshot', similarity: 0.69, vision: off }).status).toBe('fail')
  })

  it('screenshots compared through a learned palette say so in the reason', () => {
    const v = decideStepVerdict({
      kind: 'screenshot',
      similarity: 0.4,
      region: { regionSimilarity: 0.99, palette: { applied: true, colours: 12, explained: 0.934 } },
    })
    expect(v).toMatchObject({
      status: 'pass',
      reason:
        'The expected region matches: similarity 99.00% ≥ 95.00% (whole screen 40.00%). Compared after the palette change (12 colours mapped, the screen before explained at 93 %).',
    })
  })
})
