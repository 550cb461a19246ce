// flsudoku (FLTK) replayed on other colours (`-bg #30475e -bg2 #1f2f3f -fg #f0f0f0`, the games bench's theme
// variant): choosing Medium deals a new random puzzle, so the change is compared as a change ("dealt anew"); but the
// recorded change went from grey cells and black digits to white, the replayed one from dark blue cells and white
// digits to light ones: no colour of the two agrees. Real screens (the screen's top-left 600×600): the recording's
// before and after the step, and a replay's on the dark colours.
import { describe, expect, it } from 'vitest'
import { flsudokuDarkShot, flsudokuDarkStep } from './__tests__/flsudoku-dark'
import { changeMask } from './change-mask'
import { compareDealtContent } from './dealt-content'
import { decodeScreenshot } from './decode-screenshot'
import { AS_RECORDED } from './placement'
import { verifyStep } from './verify-step'

const shot = flsudokuDarkShot
const step = (actualBefore: string, actual: string) => flsudokuDarkStep(actualBefore, shot(actual))

describe('content dealt anew on another palette', () => {
  it("the right step is a warning: its change agrees by the colours' roles in the window's palette", async () => {
    // before: a failure ("changed the screen outside its expected region"; colours agreeing 0.04 as they are)
    const r = await verifyStep(step('replay-before', 'replay-after'), {})
    expect(r.finalResult).toBe('warning')
    const dealt = (r.details?.region as { dealt?: Record<string, number | boolean> } | undefined)?.dealt
    expect(dealt).toMatchObject({ alike: true })
    expect(dealt?.transition_agreement).toBeLessThan(0.1)
    expect(dealt?.palette_agreement).toBeGreaterThanOrEqual(0.7)
  })

  it('the same change the other way (cells filled instead of emptied) fails', async () => {
    const r = await verifyStep(step('replay-after', 'replay-before'), {})
    expect(r.finalResult).toBe('fail')
  })

  it('a step that changed nothing fails', async () => {
    const r = await verifyStep(step('replay-before', 'replay-before'), {})
    expect(r.finalResult).toBe('fail')
  })

  it("in the recorded palette the roles are never asked: the window's ground is the same colour", async () => {
    const [rb, ra] = await Promise.all([
      decodeScreenshot(shot('recorded-before')),
      decodeScreenshot(shot('recorded-after')),
    ])
    const main = { x: 60, y: 50, width: 480, height: 505 }
    const r = compareDealtContent({
      recordedBefore: rb,
      recordedAfter: ra,
      actualBefore: rb,
      actualAfter: ra,
      recordedChange: changeMask(rb, ra),
      placement: AS_RECORDED,
      programWindow: { recorded: main, now: main },
    })
    expect(r.paletteAgreement).toBeNull()
    expect(r.transitionAgreement).toBeCloseTo(1, 5)
  })
})
