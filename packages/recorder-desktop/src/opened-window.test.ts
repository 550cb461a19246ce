// Which window a step opened, for the verdict (KMines: the status bar's drop-down opens its list, a popup window of the
// program, which the next step was recorded in; in German the list is wider and grows to the left).
import type { Action, BoundingBox, DesktopWindow } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { openedWindow, parentWindowOf } from './desktop-replayer'
import { pickWindow, type WindowCandidate } from './x11-windows'

const MAIN: DesktopWindow = { box: { x: 60, y: 50, width: 512, height: 320 }, className: 'kmines' }
const LIST: DesktopWindow = { box: { x: 468, y: 343, width: 82, height: 102 }, className: 'kmines' }
const click = (window: DesktopWindow | null): Action =>
  ({ actionType: 'click', x: 500, y: 350, description: 'click', ...(window ? { window } : {}) }) as Action
/** The display's windows now, found as the replay finds them (`pickWindow` over the program's windows). */
const display =
  (candidates: readonly WindowCandidate[]) =>
  async (recorded: DesktopWindow): Promise<BoundingBox | null> =>
    pickWindow(recorded, candidates)
const main: WindowCandidate = { box: MAIN.box, title: 'KMines', popup: false }
const germanList: WindowCandidate = { box: { x: 407, y: 343, width: 143, height: 102 }, title: null, popup: true }

describe('openedWindow', () => {
  it('is the popup the next step was recorded in, where it is open now (wider in German)', async () => {
    const opened = await openedWindow(click(MAIN), click(LIST), MAIN.box, display([main, germanList]))
    expect(opened).toEqual({ recorded: LIST.box, now: germanList.box })
  })

  it('is none when that popup did not open: the program window is not taken for it', async () => {
    expect(await openedWindow(click(MAIN), click(LIST), MAIN.box, display([main]))).toBeNull()
  })

  it('is none when the next step acts in the same window, is of another program, or was recorded without one', async () => {
    const find = display([main, germanList])
    expect(await openedWindow(click(MAIN), click(MAIN), MAIN.box, find)).toBeNull()
    expect(await openedWindow(click(MAIN), click({ ...LIST, className: 'other' }), MAIN.box, find)).toBeNull()
    expect(await openedWindow(click(MAIN), click(null), MAIN.box, find)).toBeNull()
    expect(await openedWindow(click(MAIN), null, MAIN.box, find)).toBeNull()
  })

  it('is none when a popup of another height is open (another menu)', async () => {
    const menu: WindowCandidate = { box: { x: 66, y: 72, width: 277, height: 150 }, title: null, popup: true }
    expect(await openedWindow(click(MAIN), click(LIST), MAIN.box, display([main, menu]))).toBeNull()
  })
})

describe('parentWindowOf', () => {
  // flsudoku: the Difficulty menu (a window without a class) over the main window, now 1.4× as large
  const SUDOKU: DesktopWindow = { box: { x: 60, y: 50, width: 480, height: 505 }, className: 'FLTK' }
  const MENU: DesktopWindow = { box: { x: 122, y: 75, width: 101, height: 87 } }
  const larger: WindowCandidate = { box: { x: 60, y: 50, width: 672, height: 697 }, title: 'Sudoku', popup: false }

  it("is the previous step's window when the step's own lies over it, where it is now", async () => {
    expect(await parentWindowOf(click(MENU), click(SUDOKU), display([larger]))).toEqual({
      recorded: SUDOKU.box,
      now: larger.box,
    })
    // KMines' list reaches below its window: over it still
    expect(await parentWindowOf(click(LIST), click(MAIN), display([main]))).toEqual({
      recorded: MAIN.box,
      now: MAIN.box,
    })
  })

  it('is none for a step in the same window, one apart from it, the first step, or a window not found now', async () => {
    const find = display([larger])
    expect(await parentWindowOf(click(SUDOKU), click(SUDOKU), find)).toBeNull()
    expect(
      await parentWindowOf(click({ box: { x: 700, y: 600, width: 50, height: 50 } }), click(SUDOKU), find),
    ).toBeNull()
    expect(await parentWindowOf(click(MENU), null, find)).toBeNull()
    expect(await parentWindowOf(click(MENU), click(SUDOKU), display([]))).toBeNull()
  })
})
