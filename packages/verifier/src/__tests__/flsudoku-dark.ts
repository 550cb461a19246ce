// flsudoku (FLTK) replayed on other colours, the games bench's theme variant: real screens of choosing Medium (the
// screen's top-left 600×600), the recording's before and after the step and a replay's on the dark colours.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** One screen of `test/fixtures/flsudoku-dark`. */
export const flsudokuDarkShot = (name: string): Buffer =>
  readFileSync(fileURLToPath(new URL(`../../test/fixtures/flsudoku-dark/${name}.png`, import.meta.url)))

/**
 * The step as the desktop replay gives it: the menu's window, the game's window it lies over, nothing moved; the
 * replay's screen before the step, and after it (a screen, or the screens of one look after another).
 */
export const flsudokuDarkStep = <A extends Uint8Array | (() => Uint8Array)>(actualBefore: string, actual: A) => ({
  actionIndex: 1,
  description: 'Click (171, 107)',
  expected: flsudokuDarkShot('recorded-after'),
  recordedBefore: flsudokuDarkShot('recorded-before'),
  actual,
  actualBefore: flsudokuDarkShot(actualBefore),
  displacement: { x: 0, y: 0 },
  targetBox: { x: 144, y: 101, width: 55, height: 11 },
  window: { recorded: { x: 122, y: 75, width: 101, height: 87 }, now: { x: 122, y: 75, width: 101, height: 87 } },
  parentWindow: {
    recorded: { x: 60, y: 50, width: 480, height: 505 },
    now: { x: 60, y: 50, width: 480, height: 505 },
  },
})
