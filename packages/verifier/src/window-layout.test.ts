// A program window laid out again at another size (GTK and Qt relay out their widgets at the same scale: buttons
// keep their size and look, centred columns move, a board grows with the space it gets), drawn synthetically: the
// bench's GNOME Mines start screen (four buttons) → board screen (a board of cells and a column of three buttons).
import { describe, expect, it } from 'vitest'
import type { Rect } from './compare-screenshots'
import { decideVerdict } from './decide-verdict'
import { assessExpectedChange, type RgbaImage } from './expected-change'
import { compareRelaidOut, layoutItems, relaidOut } from './window-layout'

type Rgb = [number, number, number]
const SCREEN = { width: 800, height: 600 }
const WINDOW_BG: Rgb = [246, 245, 244]
const HEADER: Rgb = [220, 218, 216]
const OUTLINE: Rgb = [140, 140, 140]
const INK: Rgb = [46, 52, 54]
const CELL: Rgb = [186, 189, 182]
const HEADER_PX = 40

function blank(): RgbaImage {
  const data = new Uint8Array(SCREEN.width * SCREEN.height * 4)
  for (let i = 3; i < data.length; i += 4) data[i] = 255
  return { ...SCREEN, data }
}
function fill(img: RgbaImage, r: Rect, c: Rgb): void {
  for (let y = Math.max(0, r.y); y < Math.min(img.height, r.y + r.height); y++)
    for (let x = Math.max(0, r.x); x < Math.min(img.width, r.x + r.width); x++) img.data.set(c, (y * img.width + x) * 4)
}
function outline(img: RgbaImage, r: Rect, c: Rgb): void {
  fill(img, { x: r.x, y: r.y, width: r.width, height: 2 }, c)
  fill(img, { x: r.x, y: r.y + r.height - 2, width: r.width, height: 2 }, c)
  fill(img, { x: r.x, y: r.y, width: 2, height: r.height }, c)
  fill(img, { x: r.x + r.width - 2, y: r.y, width: 2, height: r.height }, c)
}
/** A word: one 2 px stroke per letter, 3 px apart, of heights the letters give (its look depends on the text). */
function label(img: RgbaImage, text: string, cx: number, cy: number): void {
  const width = text.length * 5 - 3
  const x0 = Math.round(cx - width / 2)
  ;[...text].forEach((ch, k) => {
    const h = 6 + (ch.charCodeAt(0) % 7)
    fill(img, { x: x0 + k * 5, y: Math.round(cy + 6 - h), width: 2, height: h }, INK)
  })
}
function button(img: RgbaImage, r: Rect, text: string): void {
  outline(img, r, OUTLINE)
  label(img, text, r.x + r.width / 2, r.y + r.height / 2)
}

type Screen = 'start' | 'board' | 'scores'
/** The program's window at `win` showing one of its screens, laid out for the window's size. */
function windowShowing(win: Rect, screen: Screen): RgbaImage {
  const img = blank()
  fill(img, win, WINDOW_BG)
  fill(img, { x: win.x, y: win.y, width: win.width, height: HEADER_PX }, HEADER)
  label(img, 'Mines', win.x + win.width / 2, win.y + HEADER_PX / 2)
  label(img, 'x', win.x + win.width - 20, win.y + HEADER_PX / 2)
  const content = { x: win.x, y: win.y + HEADER_PX, width: win.width, height: win.height - HEADER_PX }
  if (screen === 'start') {
    // four 110×100 buttons, 10 px apart, centred
    const x0 = content.x + Math.round((content.width - 230) / 2)
    const y0 = content.y + Math.round((content.height - 210) / 2)
    const names = ['8 x 8', '16 x 16', '30 x 16', 'Custom']
    names.forEach((n, k) => {
      button(img, { x: x0 + (k % 2) * 120, y: y0 + Math.floor(k / 2) * 110, width: 110, height: 100 }, n)
    })
  } else if (screen === 'board') {
    // a board of 8×8 cells filling the height at the left, a column of three 120×44 buttons at the right
    const pitch = Math.floor((content.height - 20) / 8)
    for (let r = 0; r < 8; r++)
      for (let c = 0; c < 8; c++)
        fill(
          img,
          { x: content.x + 10 + c * pitch, y: content.y + 10 + r * pitch, width: pitch - 3, height: pitch - 3 },
          CELL,
        )
    const bx = content.x + content.width - 20 - 120
    const by = content.y + Math.round((content.height - 152) / 2)
    ;['Start Over', 'Change Difficulty', 'Pause'].forEach((n, k) => {
      button(img, { x: bx, y: by + k * 54, width: 120, height: 44 }, n)
    })
  } else {
    // another screen: a table of scores in a blue list, a row of text per line across the window
    const list = { x: content.x + 20, y: content.y + 15, width: content.width - 40, height: 200 }
    fill(img, list, [205, 215, 235])
    outline(img, list, OUTLINE)
    for (let k = 0; k < 6; k++) {
      label(img, `${k + 1}. Player ${k}`, content.x + 80, content.y + 30 + k * 30)
      label(img, `${120 - k * 7} s`, content.x + content.width - 80, content.y + 30 + k * 30)
    }
    button(
      img,
      { x: content.x + content.width / 2 - 50, y: content.y + content.height - 60, width: 100, height: 40 },
      'Close',
    )
  }
  return img
}

// recorded at 400×300; replayed with the window at another place and 520×360 (laid out again)
const RECORDED: Rect = { x: 20, y: 20, width: 400, height: 300 }
const NOW: Rect = { x: 60, y: 50, width: 520, height: 360 }
/** The centre of the start screen's second button ("16 x 16") in a window: what the step clicked. */
const target = (win: Rect) => {
  const x0 = win.x + Math.round((win.width - 230) / 2)
  const y0 = win.y + HEADER_PX + Math.round((win.height - HEADER_PX - 210) / 2)
  return { x: x0 + 120 + 55, y: y0 + 50 }
}
const clicked = target(RECORDED)
const found = target(NOW)
const TARGET_BOX = { x: clicked.x - 48, y: clicked.y - 20, width: 96, height: 40 }

const recordedBefore = windowShowing(RECORDED, 'start')
const recordedAfter = windowShowing(RECORDED, 'board')
const actualBefore = windowShowing(NOW, 'start')
const assess = (
  actualAfter: RgbaImage,
  window: { recorded: Rect; now: Rect } | null = { recorded: RECORDED, now: NOW },
) =>
  assessExpectedChange({
    recordedBefore,
    recordedAfter,
    actualBefore,
    actualAfter,
    displacement: { x: found.x - clicked.x, y: found.y - clicked.y },
    targetBox: TARGET_BOX,
    window,
  })
const unavailable = { status: 'unavailable' as const, reason: 'no second opinion' }

describe('a step that showed a new screen in a window laid out again at another size', () => {
  it('pixel for pixel the right screen reads as a change elsewhere (what the verdict said before windows were known)', () => {
    const r = assess(windowShowing(NOW, 'board'), null)
    expect(r.relaidOut).toBeNull()
    expect(decideVerdict({ region: r, vision: unavailable }).status).toBe('fail')
  })

  it('the right screen, relaid out, passes: its items are paired one by one', () => {
    const r = assess(windowShowing(NOW, 'board'))
    expect(r.changedElsewhere).toBe(true)
    expect(r.relaidOut?.score).toBeGreaterThanOrEqual(0.95)
    expect(r.relaidOut?.changeMissing).toBe(false)
    expect(r.relaidOut?.changedElsewhere).toBe(false)
    // four buttons and their labels went, a board and three labelled buttons came
    expect(r.relaidOut?.recordedItems).toBe(15)
    expect(r.relaidOut?.matchedItems).toBe(15)
    const d = decideVerdict({ region: r, vision: unavailable })
    expect(d.status).toBe('pass')
    expect(d.reason).toContain('laid out again at another size (400×300 recorded, 520×360 now)')
  })

  it('the same window where the step did nothing fails: the window did not change', () => {
    const r = assess(actualBefore)
    expect(r.relaidOut?.changeMissing).toBe(true)
    const d = decideVerdict({ region: r, vision: { status: 'match', reason: 'a second opinion that says yes' } })
    expect(d.status).toBe('fail')
    expect(d.reason).toContain('The expected change did not happen')
  })

  it('another screen fails, whatever a second opinion reading the same words would say', () => {
    const r = assess(windowShowing(NOW, 'scores'))
    expect(r.relaidOut?.changeMissing).toBe(false)
    expect(r.relaidOut?.score).toBeLessThan(0.7)
    expect(decideVerdict({ region: r }).status).toBe('fail')
    const d = decideVerdict({ region: r, vision: { status: 'match', reason: 'the same words' } })
    expect(d.status).toBe('fail')
    expect(d.reason).toContain('does not match item by item')
  })

  it('the right screen with an item more asks the second opinion on the changed items: a warning at best', () => {
    const after = windowShowing(NOW, 'board')
    button(after, { x: NOW.x + 370, y: NOW.y + NOW.height - 36, width: 140, height: 30 }, 'Play again?')
    const r = assess(after)
    const score = r.relaidOut?.score ?? 0
    expect(score).toBeGreaterThanOrEqual(0.7)
    expect(score).toBeLessThan(0.95)
    expect(decideVerdict({ region: r })).toMatchObject({ status: 'ask-vision', on: 'relaid-out' })
    expect(decideVerdict({ region: r, vision: { status: 'match', reason: 'same screen' } }).status).toBe('warning')
    expect(decideVerdict({ region: r, vision: { status: 'mismatch', reason: 'another dialog' } }).status).toBe('fail')
    expect(decideVerdict({ region: r, vision: unavailable }).status).toBe('warning')
  })

  it('a board of other proportions (9 × 5 cells for 8 × 8) under the same buttons is not the recorded board', () => {
    const wide = windowShowing(NOW, 'board')
    const pitch = Math.floor((NOW.height - HEADER_PX - 20) / 8)
    const x0 = NOW.x + 10
    const y0 = NOW.y + HEADER_PX + 10
    fill(wide, { x: x0, y: y0, width: 8 * pitch, height: 8 * pitch }, WINDOW_BG)
    // 9 columns of 5 rows at the same pitch: within 1.5× of the recorded board each way, not in its proportions
    for (let r = 0; r < 5; r++)
      for (let c = 0; c < 9; c++)
        fill(wide, { x: x0 + c * pitch, y: y0 + 60 + r * pitch, width: pitch - 3, height: pitch - 3 }, CELL)
    const r = assess(wide)
    expect(r.relaidOut?.score).toBeLessThan(0.7)
    expect(decideVerdict({ region: r, vision: { status: 'match', reason: 'the same words' } }).status).toBe('fail')
  })

  it('a board of another size (4×4 cells for 8×8) is not the recorded board', () => {
    const other = windowShowing(NOW, 'start')
    fill(other, NOW, WINDOW_BG)
    const four = windowShowing(NOW, 'board')
    // the board's cells drawn 4×4, twice the pitch, over the same place
    const content = {
      x: NOW.x + 10,
      y: NOW.y + HEADER_PX + 10,
      size: Math.floor((NOW.height - HEADER_PX - 20) / 8) * 8,
    }
    fill(four, { x: content.x, y: content.y, width: content.size, height: content.size }, WINDOW_BG)
    const pitch = content.size / 4
    for (let r = 0; r < 4; r++)
      for (let c = 0; c < 4; c++)
        fill(four, { x: content.x + c * pitch, y: content.y + r * pitch, width: pitch - 3, height: pitch - 3 }, CELL)
    const r = assess(four)
    expect(r.relaidOut?.score).toBeLessThan(0.7)
    expect(decideVerdict({ region: r, vision: unavailable }).status).toBe('fail')
  })

  it('the right screen with a change outside the window too is a warning, never a pass', () => {
    const after = windowShowing(NOW, 'board')
    fill(after, { x: 700, y: 500, width: 40, height: 30 }, [200, 40, 40])
    const r = assess(after)
    expect(r.relaidOut?.changedElsewhere).toBe(true)
    expect(r.relaidOut?.unexpectedRegions).toEqual([{ x: 700, y: 500, width: 40, height: 30 }])
    const d = decideVerdict({ region: r, vision: unavailable })
    expect(d.status).toBe('warning')
    expect(d.reason).toContain('outside its window')
  })

  it('a window of the recorded size is compared pixel for pixel, as before', () => {
    const same = { ...NOW, width: RECORDED.width, height: RECORDED.height }
    const r = assessExpectedChange({
      recordedBefore,
      recordedAfter,
      actualBefore: windowShowing(same, 'start'),
      actualAfter: windowShowing(same, 'board'),
      displacement: { x: same.x - RECORDED.x, y: same.y - RECORDED.y },
      targetBox: TARGET_BOX,
      window: { recorded: RECORDED, now: { ...same, width: RECORDED.width + 2 } },
    })
    expect(r.relaidOut).toBeNull()
  })

  it('a program drawn at another scale (its target found 1.4× as large) is mapped by that scale, not item by item', () => {
    const r = assessExpectedChange({
      recordedBefore,
      recordedAfter,
      actualBefore,
      actualAfter: windowShowing(NOW, 'board'),
      displacement: { x: found.x - clicked.x, y: found.y - clicked.y },
      scale: 1.4,
      anchor: clicked,
      window: { recorded: RECORDED, now: NOW },
    })
    expect(r.relaidOut).toBeNull()
  })

  it('a step whose change lies outside its window (a menu of its own) is not compared inside the window', () => {
    const after = windowShowing(RECORDED, 'start')
    fill(after, { x: 440, y: 60, width: 200, height: 300 }, [250, 250, 250])
    outline(after, { x: 440, y: 60, width: 200, height: 300 }, OUTLINE)
    const r = assessExpectedChange({
      recordedBefore,
      recordedAfter: after,
      actualBefore,
      actualAfter: actualBefore,
      window: { recorded: RECORDED, now: NOW },
    })
    expect(r.relaidOut).toBeNull()
  })
})

describe('layoutItems and compareRelaidOut', () => {
  it('finds a window’s items with their size, colour and place in the window', () => {
    const items = layoutItems(windowShowing(RECORDED, 'start'), {
      x: RECORDED.x,
      y: RECORDED.y + HEADER_PX,
      width: RECORDED.width,
      height: RECORDED.height - HEADER_PX,
    })
    const outlines = items.filter((i) => i.width === 110 && i.height === 100)
    expect(outlines).toHaveLength(4)
    for (const o of outlines) expect(o.colour.map(Math.round)).toEqual(OUTLINE)
    // the labels inside them are items of their own
    expect(items).toHaveLength(8)
  })

  it('is symmetric in what it misses: an item the replay made and the recording did not lowers the score too', () => {
    const after = windowShowing(NOW, 'board')
    button(after, { x: NOW.x + 370, y: NOW.y + NOW.height - 36, width: 140, height: 30 }, 'Play again?')
    const full = blank()
    const recordedChange = new Uint8Array(full.width * full.height)
    const actualChange = new Uint8Array(full.width * full.height)
    const mark = (m: Uint8Array, a: RgbaImage, b: RgbaImage) => {
      for (let i = 0; i < m.length; i++)
        if (a.data[i * 4] !== b.data[i * 4] || a.data[i * 4 + 1] !== b.data[i * 4 + 1]) m[i] = 1
    }
    mark(recordedChange, recordedBefore, recordedAfter)
    mark(actualChange, actualBefore, after)
    const r = compareRelaidOut({
      recordedBefore,
      recordedAfter,
      actualBefore,
      actualAfter: after,
      window: { recorded: RECORDED, now: NOW },
      recordedChange,
      actualChange,
    })
    expect(r.matchedItems).toBe(r.recordedItems)
    expect(r.actualItems).toBe(r.recordedItems + 2)
    expect(r.score).toBeLessThan(0.95)
  })

  it('relaidOut: a size that differs by more than 2 px either way', () => {
    expect(relaidOut({ recorded: RECORDED, now: NOW })).toBe(true)
    expect(relaidOut({ recorded: RECORDED, now: { ...RECORDED, x: 300 } })).toBe(false)
    expect(relaidOut({ recorded: RECORDED, now: { ...RECORDED, width: 402, height: 298 } })).toBe(false)
    expect(relaidOut(null)).toBe(false)
    expect(relaidOut({ recorded: RECORDED, now: { ...NOW, width: 0 } })).toBe(false)
  })
})
