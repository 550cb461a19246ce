// A game that deals its content anew each run (flsudoku: a random puzzle at launch; choosing a difficulty empties other
// cells of it): the replayed board never shows the recorded digits, so neither the recorded after-frame nor the places
// the step changed can be matched. The step's change is compared as a change.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { compareDealtContent } from './dealt-content'
import { decideVerdict } from './decide-verdict'
import { assessExpectedChange, changeMask, type RgbaImage } from './expected-change'
import { AS_RECORDED } from './placement'
import { fillRect as fill, type Rgb } from './__tests__/images'

const W = 700
const H = 700
const GRID: Rgb = [60, 60, 60]
const GIVEN: Rgb = [190, 190, 190]
const EMPTY: Rgb = [245, 245, 245]
const DIGIT: Rgb = [10, 10, 10]
const MENU: Rgb = [212, 208, 200]
const CELL = 50
const BOARD = { x: 20, y: 40 }

/** A 9×9 board: each cell a given digit (1–9, drawn as bars of its count) or empty (0); a menu open over it or not. */
function board(cells: readonly number[], menu = false, cell = CELL, size = { width: W, height: H }): RgbaImage {
  const img: RgbaImage = { ...size, data: new Uint8Array(size.width * size.height * 4).fill(255) }
  fill(img, { x: 0, y: 0, ...size }, GRID)
  cells.forEach((d, i) => {
    const x = BOARD.x + (i % 9) * cell + 2
    const y = BOARD.y + Math.floor(i / 9) * cell + 2
    fill(img, { x, y, width: cell - 4, height: cell - 4 }, d ? GIVEN : EMPTY)
    // a digit: as many bars as its value, scaled with the cell
    const bar = Math.max(1, Math.round(cell / 25))
    for (let k = 0; k < d; k++)
      fill(
        img,
        { x: x + 3 * bar + k * 2 * bar, y: y + Math.round(cell / 4), width: bar, height: Math.round(cell / 2) },
        DIGIT,
      )
  })
  if (menu) fill(img, { x: 60, y: 30, width: 100, height: 90 }, MENU)
  return img
}
/** A random puzzle of `givens` cells. */
function puzzle(rnd: () => number, givens: number): number[] {
  const cells = Array.from({ length: 81 }, () => 0)
  let n = 0
  while (n < givens) {
    const i = Math.floor(rnd() * 81)
    if (!cells[i]) {
      cells[i] = 1 + Math.floor(rnd() * 9)
      n++
    }
  }
  return cells
}
/** The same puzzle with `k` of its givens emptied (choosing a harder difficulty). */
function harder(rnd: () => number, cells: readonly number[], k: number): number[] {
  const out = [...cells]
  const given = out.flatMap((d, i) => (d ? [i] : []))
  for (let n = 0; n < k && given.length; n++) out[given.splice(Math.floor(rnd() * given.length), 1)[0] as number] = 0
  return out
}
const random = (seed: number) => {
  let s = seed >>> 0 || 1
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

const rnd = random(7)
const recordedPuzzle = puzzle(rnd, 45)
const recordedBefore = board(recordedPuzzle, true)
const recordedAfter = board(harder(rnd, recordedPuzzle, 10))
const replayPuzzle = puzzle(rnd, 45)
const actualBefore = board(replayPuzzle, true)
/** The game's window, where it was recorded: the step is a desktop program's. */
const gameWindow = { recorded: { x: 0, y: 0, width: W, height: H }, now: { x: 0, y: 0, width: W, height: H } }
const assess = (actualAfter: RgbaImage) =>
  assessExpectedChange({ recordedBefore, recordedAfter, actualBefore, actualAfter, window: gameWindow })
const unavailable = { status: 'unavailable' as const, reason: 'no second opinion' }

describe('a step on content dealt anew', () => {
  it('pixel for pixel, the right step (other cells emptied) reads as a change elsewhere', () => {
    const r = assess(board(harder(rnd, replayPuzzle, 10)))
    expect(r.changedElsewhere).toBe(true)
    // without the comparison of the change, the verdict failed (run K's flsudoku)
    expect(decideVerdict({ region: { ...r, dealt: null }, vision: unavailable }).status).toBe('fail')
    expect(r.dealt?.alike).toBe(true)
    const d = decideVerdict({ region: r, vision: unavailable })
    expect(d.status).toBe('warning')
    expect(d.reason).toContain('dealt anew')
  })

  it('a step that only closed the menu (no new deal) fails', () => {
    const r = assess(board(replayPuzzle))
    expect(r.dealt?.alike).toBe(false)
    expect(decideVerdict({ region: r, vision: { status: 'match', reason: 'same menu' } }).status).not.toBe('pass')
    expect(decideVerdict({ region: r, vision: unavailable }).status).toBe('fail')
  })

  it('a step that changed nothing fails', () => {
    const r = assess(actualBefore)
    expect(r.dealt?.alike).toBe(false)
    expect(decideVerdict({ region: r, vision: unavailable }).status).toBe('fail')
  })

  it('another choice in the menu (20 cells emptied for 10, or 5) is not the recorded change', () => {
    expect(assess(board(harder(random(5), replayPuzzle, 20))).dealt?.alike).toBe(false)
    expect(assess(board(harder(random(5), replayPuzzle, 5))).dealt?.alike).toBe(false)
  })

  it('another kind of change (cells filled instead of emptied) is not the recorded one', () => {
    const filled = [...replayPuzzle]
    let n = 0
    for (let i = 0; i < 81 && n < 10; i++)
      if (!filled[i]) {
        filled[i] = 5
        n++
      }
    expect(assess(board(filled)).dealt?.alike).toBe(false)
  })

  it('on a web page (no program window) nothing is dealt anew: the same change fails as before', () => {
    const web = assessExpectedChange({
      recordedBefore,
      recordedAfter,
      actualBefore,
      actualAfter: board(harder(rnd, replayPuzzle, 10)),
    })
    expect(web.dealt).toBeNull()
    expect(decideVerdict({ region: web, vision: unavailable }).status).toBe('fail')
  })

  it('content that was as recorded before the step is not dealt anew: the pixels decide', () => {
    const same = assessExpectedChange({
      recordedBefore,
      recordedAfter,
      actualBefore: recordedBefore,
      actualAfter: board(harder(random(3), recordedPuzzle, 10)),
    })
    expect(same.dealt?.alike ?? false).toBe(false)
  })

  it('a board drawn larger with its window (1.4× each way) changes as much larger: the area of its window tells', () => {
    const cells = puzzle(random(11), 45)
    const larger = (c: readonly number[], menu = false) => board(c, menu, 70)
    const input = {
      recordedBefore,
      recordedAfter,
      actualBefore: larger(cells, true),
      actualAfter: larger(harder(random(12), cells, 10)),
      recordedChange: changeMask(recordedBefore, recordedAfter),
      placement: AS_RECORDED,
    }
    // as if drawn at the recorded size, twice as many pixels changed: not alike
    expect(compareDealtContent(input).alike).toBe(false)
    const r = compareDealtContent({ ...input, areaScale: 1.96 })
    expect(r.changeRatio).toBeGreaterThan(0.8)
    expect(r.changeRatio).toBeLessThan(1.25)
    expect(r.alike).toBe(true)
  })

  test.prop([fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 20, max: 60 }), fc.boolean()], {
    numRuns: 100,
  })(
    'a replay that left its board as it was (the menu closed or not) is never alike, whatever the two deals',
    (seed, givens, menuClosed) => {
      // a small board (cells of 24 px) keeps a hundred runs quick
      const small = (cells: readonly number[], menu = false) => board(cells, menu, 24, { width: 260, height: 280 })
      const r = random(seed)
      const recordedCells = puzzle(r, givens)
      const rb = small(recordedCells, true)
      const ra = small(harder(r, recordedCells, 10))
      const replayCells = puzzle(r, givens)
      const ab = small(replayCells, true)
      const result = compareDealtContent({
        recordedBefore: rb,
        recordedAfter: ra,
        actualBefore: ab,
        actualAfter: small(replayCells, !menuClosed),
        recordedChange: changeMask(rb, ra),
        placement: AS_RECORDED,
      })
      expect(result.alike).toBe(false)
    },
  )
})
