import { describe, expect, it } from 'vitest'
import { pickWindow, type WindowCandidate } from './x11-windows'

// KMines: the status bar's drop-down list is an override-redirect window of the program's class; in German it
// is 143 px wide where the English one was 82, with the same four rows (102 px high)
describe('pickWindow: the recorded window among the program windows now', () => {
  const main: WindowCandidate = { box: { x: 60, y: 50, width: 512, height: 320 }, title: null, popup: false }
  const list: WindowCandidate = { box: { x: 407, y: 343, width: 143, height: 102 }, title: null, popup: true }
  const recordedList = { box: { x: 468, y: 343, width: 82, height: 102 }, className: 'kmines' }
  const recordedMain = { box: { x: 60, y: 50, width: 512, height: 320 }, className: 'kmines' }

  it('a step recorded on the open list: the list open now, not the main window', () => {
    expect(pickWindow(recordedList, [main, list])).toEqual(list.box)
  })

  it('a step recorded on the main window: the main window, whatever popup is open', () => {
    expect(pickWindow(recordedMain, [main, list])).toEqual(main.box)
    expect(pickWindow(recordedMain, [main])).toEqual(main.box)
  })

  it('a list recorded but no popup of its height open: the one program window (as before)', () => {
    expect(pickWindow(recordedList, [main])).toEqual(main.box)
    expect(pickWindow(recordedList, [main, { ...list, box: { ...list.box, height: 180 } }])).toEqual(main.box)
  })

  it('two popups of that height, or two untitled program windows: nothing tells them apart', () => {
    expect(pickWindow(recordedList, [list, { ...list, box: { ...list.box, x: 10 } }])).toBeNull()
    expect(pickWindow(recordedMain, [main, { ...main, box: { ...main.box, x: 600 } }])).toBeNull()
  })
})
