// The same program window, of the same size, in another language (GNOME Mines and Iagno with LANGUAGE=de): its labels
// are wider or narrower, a column of buttons grows with its longest label and the board beside it gets less room. The
// recorded after-frame cannot be matched pixel for pixel; the window's items can, drawn synthetically here.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import type { Rect } from './compare-screenshots'
import { decideVerdict } from './decide-verdict'
import { assessExpectedChange, type RgbaImage } from './expected-change'
import { compareRelaidOut, inPlaceLayout, laidOutInPlace } from './window-layout'
import { fillRect as fill, type Rgb } from './__tests__/images'

const SCREEN = { width: 700, height: 520 }
const WINDOW_BG: Rgb = [246, 245, 244]
const HEADER: Rgb = [220, 218, 216]
const OUTLINE: Rgb = [140, 140, 140]
const INK: Rgb = [46, 52, 54]
const CELL: Rgb = [186, 189, 182]
const HEADER_PX = 40
const WIN: Rect = { x: 60, y: 50, width: 460, height: 400 }

function blank(): RgbaImage {
  const data = new Uint8Array(SCREEN.width * SCREEN.height * 4)
  for (let i = 3; i < data.length; i += 4) data[i] = 255
  return { ...SCREEN, data }
}
function outline(img: RgbaImage, r: Rect, c: Rgb = OUTLINE): void {
  fill(img, { x: r.x, y: r.y, width: r.width, height: 2 }, c)
  fill(img, { x: r.x, y: r.y + r.height - 2, width: r.width, height: 2 }, c)
  fill(img, { x: r.x, y: r.y, width: 2, height: r.height }, c)
  fill(img, { x: r.x + r.width - 2, y: r.y, width: 2, height: r.height }, c)
}
/** A word: one 2 px stroke per letter, 3 px apart, of heights the letters give (its look depends on the text). */
function label(img: RgbaImage, text: string, cx: number, cy: number): void {
  const x0 = Math.round(cx - (text.length * 5 - 3) / 2)
  ;[...text].forEach((ch, k) => {
    const h = 6 + (ch.charCodeAt(0) % 7)
    fill(img, { x: x0 + k * 5, y: Math.round(cy + 6 - h), width: 2, height: h }, INK)
  })
}

interface Words {
  title: string
  mines: string
  buttons: [string, string, string]
}
const EN: Words = { title: 'Mines', mines: 'mines', buttons: ['Start Over', 'Change Difficulty', 'Pause'] }
const DE: Words = {
  title: 'Minen',
  mines: 'Minen gesamt',
  buttons: ['Von neuem beginnen', 'Schwierigkeit veraendern', 'Pause'],
}

/**
 * The window at WIN in one language: the start screen (four buttons, each a size and a count of mines), or a board of
 * `cols` × `rows` beside a column of three buttons as wide as their longest label; the board gets the rest.
 */
function screen(
  words: Words,
  show: 'start' | { cols: number; rows?: number },
  hovered: number | null = null,
): RgbaImage {
  const img = blank()
  fill(img, WIN, WINDOW_BG)
  fill(img, { x: WIN.x, y: WIN.y, width: WIN.width, height: HEADER_PX }, HEADER)
  label(img, words.title, WIN.x + WIN.width / 2, WIN.y + HEADER_PX / 2)
  const top = WIN.y + HEADER_PX
  const height = WIN.height - HEADER_PX
  if (show === 'start') {
    const x0 = WIN.x + Math.round((WIN.width - 230) / 2)
    const y0 = top + Math.round((height - 210) / 2)
    ;['8 x 8', '16 x 16', '30 x 16', 'Custom'].forEach((size, k) => {
      const r = { x: x0 + (k % 2) * 120, y: y0 + Math.floor(k / 2) * 110, width: 110, height: 100 }
      // a hovered button is drawn a shade lighter (its items stay where they were)
      if (hovered === k)
        fill(img, { x: r.x + 2, y: r.y + 2, width: r.width - 4, height: r.height - 4 }, [250, 250, 250])
      outline(img, r)
      label(img, size, r.x + 55, r.y + 40)
      if (k < 3) label(img, `${[10, 40, 99][k]} ${words.mines}`, r.x + 55, r.y + 60)
    })
    return img
  }
  const column = Math.max(...words.buttons.map((b) => b.length * 5 + 24))
  const bx = WIN.x + WIN.width - 16 - column
  const rows = show.rows ?? show.cols
  const pitch = Math.floor(Math.min((bx - WIN.x - 32) / show.cols, (height - 20) / rows))
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < show.cols; c++)
      fill(img, { x: WIN.x + 10 + c * pitch, y: top + 10 + r * pitch, width: pitch - 3, height: pitch - 3 }, CELL)
  words.buttons.forEach((b, k) => {
    const r = { x: bx, y: top + 120 + k * 54, width: column, height: 44 }
    outline(img, r)
    label(img, b, r.x + column / 2, r.y + 22)
  })
  return img
}

const place = { recorded: WIN, now: WIN }
const TARGET_BOX: Rect = { x: 335, y: 165, width: 96, height: 40 }
const assess = (
  recorded: [RgbaImage, RgbaImage],
  actual: [RgbaImage, RgbaImage],
  window: typeof place | null = place,
) =>
  assessExpectedChange({
    recordedBefore: recorded[0],
    recordedAfter: recorded[1],
    actualBefore: actual[0],
    actualAfter: actual[1],
    targetBox: TARGET_BOX,
    window,
  })
const unavailable = { status: 'unavailable' as const, reason: 'no second opinion' }
const recorded: [RgbaImage, RgbaImage] = [screen(EN, 'start', 1), screen(EN, { cols: 8 })]

describe('a window of its size laid out again in another language', () => {
  it('pixel for pixel, the right board in German fails (as before windows were compared item by item)', () => {
    const r = assess(recorded, [screen(DE, 'start'), screen(DE, { cols: 8 })], null)
    expect(r.relaidOut).toBeNull()
    expect(decideVerdict({ region: r, vision: unavailable }).status).toBe('fail')
  })

  it('item by item, the right board in German is no failure: its labels do not pair, the board and buttons do', () => {
    const r = assess(recorded, [screen(DE, 'start'), screen(DE, { cols: 8 })])
    expect(r.relaidOut).not.toBeNull()
    expect(r.relaidOut?.score).toBeGreaterThanOrEqual(0.7)
    const d = decideVerdict({ region: r, vision: unavailable })
    expect(d.status).not.toBe('fail')
    expect(d.reason).toContain('laid out again at its size')
  })

  it('a board of other proportions in German fails (16 × 6 for 8 × 8)', () => {
    const r = assess(recorded, [screen(DE, 'start'), screen(DE, { cols: 16, rows: 6 })])
    expect(r.relaidOut?.score).toBeLessThan(0.7)
    expect(decideVerdict({ region: r, vision: { status: 'match', reason: 'the same words' } }).status).toBe('fail')
  })

  it('a step that did nothing in German fails', () => {
    const r = assess(recorded, [screen(DE, 'start'), screen(DE, 'start')])
    expect(decideVerdict({ region: r, vision: { status: 'match', reason: 'yes' } }).status).toBe('fail')
  })

  it('the same language is compared pixel for pixel: a hovered button before the step is no relayout', () => {
    const right = assess(recorded, [screen(EN, 'start'), screen(EN, { cols: 8 })])
    expect(right.relaidOut).toBeNull()
    expect(decideVerdict({ region: right }).status).toBe('pass')
    // a wrong board stays a failure of the pixels, never an item comparison's warning
    const wrong = assess(recorded, [screen(EN, 'start'), screen(EN, { cols: 16, rows: 6 })])
    expect(wrong.relaidOut).toBeNull()
    expect(decideVerdict({ region: wrong, vision: unavailable }).status).toBe('fail')
  })

  it('inPlaceLayout: labels of other widths move items, a hover moves none', () => {
    const german = inPlaceLayout(place, screen(EN, 'start'), screen(DE, 'start'))
    expect(german?.changedShare).toBeGreaterThan(0.03)
    const boards = inPlaceLayout(place, screen(EN, { cols: 8 }), screen(DE, { cols: 8 }))
    expect(boards?.movedShare).toBeGreaterThanOrEqual(0.15)
    expect(inPlaceLayout(place, screen(EN, 'start', 1), screen(EN, 'start'))).toEqual({
      movedShare: 0,
      changedShare: 0,
    })
    // another size is `relaidOut`'s, not this
    expect(
      inPlaceLayout({ recorded: WIN, now: { ...WIN, width: WIN.width + 40 } }, recorded[0], recorded[0]),
    ).toBeNull()
  })

  test.prop(
    [fc.constantFrom<Words>(EN, DE), fc.integer({ min: 3, max: 12 }), fc.option(fc.integer({ min: 0, max: 3 }))],
    {
      numRuns: 100,
    },
  )('a window is never laid out again against itself, hovered or not', (words, cells, hovered) => {
    const start = screen(words, 'start', hovered)
    const board = screen(words, { cols: cells })
    expect(
      laidOutInPlace(place, {
        recordedBefore: start,
        actualBefore: screen(words, 'start'),
        recordedAfter: board,
        actualAfter: board,
      }),
    ).toBe(false)
  })
})

describe("compareRelaidOut: the clicked item's own look", () => {
  // Iagno's mode buttons: the person rested on "Reverse" (its frame lit before the step), the replay's pointer came
  // with the click; the step's own change is the other mode's frame going
  const frame = (img: RgbaImage, r: Rect) => outline(img, r, [200, 200, 200])
  const CLASSIC: Rect = { x: 200, y: 150, width: 200, height: 74 }
  const REVERSE: Rect = { x: 200, y: 234, width: 200, height: 74 }
  const base = () => {
    const img = blank()
    fill(img, WIN, WINDOW_BG)
    label(img, 'Classic', 300, 187)
    label(img, 'Reverse', 300, 271)
    return img
  }
  const recordedBefore = base()
  frame(recordedBefore, CLASSIC)
  frame(recordedBefore, REVERSE)
  const recordedAfter = base()
  frame(recordedAfter, REVERSE)
  const actualBefore = base()
  frame(actualBefore, CLASSIC)
  const actualAfter = recordedAfter
  const mask = (a: RgbaImage, b: RgbaImage) => {
    const m = new Uint8Array(a.width * a.height)
    for (let i = 0; i < m.length; i++) if (a.data[i * 4] !== b.data[i * 4]) m[i] = 1
    return m
  }
  const input = {
    recordedBefore,
    recordedAfter,
    actualBefore,
    actualAfter,
    window: place,
    recordedChange: mask(recordedBefore, recordedAfter),
    actualChange: mask(actualBefore, actualAfter),
  }
  const target = { x: 252, y: 251, width: 96, height: 40 }

  it('without the target, the frame the replay lit reads as an item the recording did not make', () => {
    expect(compareRelaidOut(input).score).toBe(0.5)
  })

  it('with it, the lit frame the recording shows unchanged over the target is left out', () => {
    const r = compareRelaidOut({ ...input, target: { recorded: target, now: target } })
    expect(r.score).toBe(1)
    expect(r.actualItems).toBe(1)
  })

  it('a frame still fading in (another colour than the recorded one) is the same look, by its box', () => {
    const fading = base()
    outline(fading, REVERSE, [150, 150, 150])
    const r = compareRelaidOut({
      ...input,
      actualAfter: fading,
      actualChange: mask(actualBefore, fading),
      target: { recorded: target, now: target },
    })
    expect(r.score).toBe(1)
  })

  it('a frame lit over another item than the target still counts', () => {
    const elsewhere = { x: 252, y: 167, width: 96, height: 40 }
    expect(compareRelaidOut({ ...input, target: { recorded: elsewhere, now: elsewhere } }).score).toBe(0.5)
  })
})
