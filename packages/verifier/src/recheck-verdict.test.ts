// A replayed step whose effect is drawn late (a loaded machine: the game redraws after the replay's first look): the
// recheck looks again, and keeps the look whose verdict is better. A window compared item by item, or content dealt
// anew, is judged by its items or its change, not by its pixels' similarity to the recording: ranking the looks by
// that similarity alone kept the first look (nothing drawn yet) over a later one that passes. Real screens of the
// games bench (Iagno at 720×680, flsudoku on dark colours): the first look is the screen before the step.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { flsudokuDarkShot, flsudokuDarkStep } from './__tests__/flsudoku-dark'
import { verifyStep } from './verify-step'

const shot = (dir: string, name: string) =>
  readFileSync(fileURLToPath(new URL(`../test/fixtures/${dir}/${name}.png`, import.meta.url)))

/** The screen as captured again and again: `first`, then `later` from the second look on. */
function lateScreen(first: Uint8Array, later: Uint8Array) {
  let looks = 0
  return () => (looks++ === 0 ? first : later)
}

/** Iagno's mode step at 720×680, its replay's screen first as before the click, then `after`. */
const iagnoStep = (after: string) => {
  const s = (name: string) => shot('iagno-720x680', name)
  return {
    actionIndex: 0,
    description: 'Click (363, 298)',
    expected: s('recorded-after'),
    recordedBefore: s('recorded-before'),
    actual: lateScreen(s('before'), s(after)),
    actualBefore: s('before'),
    displacement: { x: 150, y: -21 },
    targetBox: { x: 312, y: 294, width: 103, height: 9 },
    window: { recorded: { x: 60, y: 50, width: 550, height: 556 }, now: { x: 60, y: 50, width: 720, height: 680 } },
  }
}

describe('a recheck keeps the look with the better verdict', () => {
  it('Iagno at 720×680: the mode frame moved only on the second look; the step passes item by item', async () => {
    const r = await verifyStep(iagnoStep('reverse-after'), { recheck: { timeoutMs: 200, intervalMs: 20 } })
    expect(r.finalResult, r.reason ?? '').toBe('pass')
  })

  it('flsudoku on dark colours: the new deal drawn only on the second look is a warning (dealt anew)', async () => {
    const late = lateScreen(flsudokuDarkShot('replay-before'), flsudokuDarkShot('replay-after'))
    const r = await verifyStep(flsudokuDarkStep('replay-before', late), { recheck: { timeoutMs: 200, intervalMs: 20 } })
    expect(r.finalResult, r.reason ?? '').toBe('warning')
  })

  it('a step whose effect never came is still a failure, however many looks', async () => {
    const r = await verifyStep(iagnoStep('classic-after'), { recheck: { timeoutMs: 200, intervalMs: 20 } })
    expect(r.finalResult).toBe('fail')
  })
})
