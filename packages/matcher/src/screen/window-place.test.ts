import type { TargetElement } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { crop as cropKey, type KeyBox, keypadPng } from '../__tests__/keypad-png'
import type { Frame } from '../image/match-template'
import { regionOf } from '../image/resample'
import { cropFrame } from '../internal/synthetic'
import { locateOnScreen } from './locate-on-screen'
import type { OcrWord } from './types'
import { cropInsideWindow } from './window-place'

// a board of look-alike empty cells in a window resized 1.4× (FLTK's sudoku): the crop scores alike on
// several cells, the surroundings do not scale as a whole; the window's place and size settle which cell it is
describe('locateOnScreen: where the program window puts the element (the window prior)', () => {
  const rows = [
    ['', '', '', '', ''],
    ['', '', '', '', ''],
    ['', '', '', '', ''],
    ['', '', '', '', '1'],
  ]
  const recordedAt = { x: 700, y: 400, width: 1280, height: 800 }
  const scaled = { x: 300, y: 250, width: 1280, height: 800, keyWidth: 90, keyHeight: 67, gap: 8, fontSize: 31 }
  /** The grid's own box: the "window" the window system reports for the program, here. */
  const gridBox = (x: number, y: number, kw: number, kh: number, gap: number) => ({
    x,
    y,
    width: 5 * (kw + gap) - gap,
    height: 4 * (kh + gap) - gap,
  })
  const windowWas = gridBox(700, 400, 64, 48, 6)
  const windowNow = gridBox(300, 250, 90, 67, 8)

  async function setup(now: Parameters<typeof keypadPng>[0]) {
    const recorded = await keypadPng({ ...recordedAt, rows })
    const key = recorded.keys[2 * 5 + 1] as KeyBox // row 3, column 2
    const screen = await keypadPng(now)
    return {
      step: {
        original: { x: key.x + 32, y: key.y + 24 },
        crop: cropKey(recorded.frame, key.x, key.y, key.width, key.height),
        cropBox: { x: key.x, y: key.y, width: key.width, height: key.height },
        recordedFrame: recorded.frame,
      },
      screen: screen.frame,
      target: screen.keys[2 * 5 + 1] as KeyBox,
    }
  }

  it('without the window, no cell of the enlarged board is clear of the others: not found', async () => {
    const { step, screen } = await setup({ ...scaled, rows })
    const r = await locateOnScreen(step, { capture: async () => screen })
    expect(r.status).toBe('not_found')
  }, 180_000) // a multi-scale template search over a whole screen: minutes on a loaded 2-core machine, not a speed limit

  it('with the window, the cell at its place in the moved and enlarged window is clicked', async () => {
    const { step, screen, target } = await setup({ ...scaled, rows })
    const r = await locateOnScreen(
      { ...step, window: { recorded: windowWas, now: windowNow } },
      { capture: async () => screen },
    )
    expect(r).toMatchObject({ status: 'found', strategy: 'template' })
    // the middle of the intended cell (90×67 at 1.4×), within a few pixels
    expect(Math.abs((r.point?.x ?? 0) - (target.x + 45))).toBeLessThanOrEqual(3)
    expect(Math.abs((r.point?.y ?? 0) - (target.y + 33.5))).toBeLessThanOrEqual(3)
    expect(r.scale).toBeCloseTo(1.4, 1)
    expect(r.attempts.at(-1)?.detail).toMatch(/^at the window's place: at \(\d+, \d+\), where the window/)
  }, 180_000)

  it('refuses a window resized unevenly: its content was relaid out, the place says nothing', async () => {
    const { step, screen } = await setup({ ...scaled, rows })
    const r = await locateOnScreen(
      { ...step, window: { recorded: windowWas, now: { ...windowNow, height: windowWas.height } } },
      { capture: async () => screen },
    )
    expect(r.status).toBe('not_found')
    expect(r.attempts.at(-2)?.detail).toMatch(/resized unevenly/)
  })

  it('refuses the place when the empty cell there shows a digit now (a cell given on another board)', async () => {
    const filled = rows.map((row, i) => (i === 2 ? row.map((c, j) => (j === 1 ? '5' : c)) : row))
    const { step, screen } = await setup({ ...scaled, rows: filled })
    const r = await locateOnScreen(
      { ...step, window: { recorded: windowWas, now: windowNow } },
      { capture: async () => screen },
    )
    expect(r.status).toBe('not_found')
    expect(r.point).toBeUndefined()
    expect(r.attempts.at(-2)?.detail).toMatch(/^at the window's place: .*(scores 0\.\d+ < |now shows something)/)
  })
})

// GNOME Mines' header bar × on Adwaita dark: the recorded crop of a button in the window's corner reaches past the
// window onto the black desktop; the light theme's window stood out from it with a strong edge, the dark one does
// not, and the edges of the crop as a whole agree only 0.89 where the button is. Only what the window holds is
// compared at the window's place.
describe('locateOnScreen: a corner button on another theme, its crop reaching past the window', () => {
  const win = { x: 50, y: 40, width: 300, height: 200 }
  /** A window on a black desktop: its fill, a 1 px border, a title bar's two buttons (□ and ×) near its right edge. */
  function screen(fill: number, border: number, glyph: number, shadow: boolean): Frame {
    const W = 400
    const H = 300
    const data = new Uint8Array(W * H * 4)
    for (let i = 3; i < data.length; i += 4) data[i] = 255
    const set = (x: number, y: number, v: number) => {
      const o = (y * W + x) * 4
      data[o] = v
      data[o + 1] = v
      data[o + 2] = v
    }
    for (let y = win.y; y < win.y + win.height; y++)
      for (let x = win.x; x < win.x + win.width; x++)
        set(
          x,
          y,
          x === win.x || y === win.y || x === win.x + win.width - 1 || y === win.y + win.height - 1 ? border : fill,
        )
    // the light theme's shadow on the desktop, right of the window
    if (shadow)
      for (let y = win.y; y < win.y + win.height; y++)
        for (const [k, v] of [90, 60, 30].entries()) set(win.x + win.width + k, y, v)
    // the title bar's lower edge
    for (let x = win.x + 1; x < win.x + win.width - 1; x++) set(x, 85, border)
    // □ at (290..300, 58..68), × centred on (325, 63)
    for (let k = 0; k <= 10; k++) {
      set(290 + k, 58, glyph)
      set(290 + k, 68, glyph)
      set(290, 58 + k, glyph)
      set(300, 58 + k, glyph)
    }
    for (let k = -5; k <= 5; k++) {
      for (const t of [0, 1]) {
        set(325 + k + t, 63 + k, glyph)
        set(325 + k + t, 63 - k, glyph)
      }
    }
    // a title on the left, so the title bar is not the only thing on the screen
    for (let x = 120; x < 200; x += 3) for (let y = 58; y < 68; y++) if ((x + y) % 5 < 2) set(x, y, glyph)
    return { width: W, height: H, data, channels: 4 }
  }
  const light = screen(235, 160, 40, true)
  const dark = screen(45, 0, 230, false)
  const cropBox = { x: 280, y: 43, width: 96, height: 40 }
  const step = {
    original: { x: 325, y: 63 },
    target: { type: 'button', text: null, boundingBox: cropBox } as unknown as TargetElement,
    crop: cropFrame(light, cropBox.x, cropBox.y, cropBox.width, cropBox.height),
    cropBox,
    recordedFrame: light,
  }

  it('keeps only the part inside the window, less its edge', () => {
    const part = cropInsideWindow(step.crop, cropBox, win)
    expect(part?.cropBox).toEqual({ x: 280, y: 44, width: 66, height: 39 })
    expect(part?.offset).toEqual({ x: 0, y: 1 })
    expect(cropInsideWindow(step.crop, { x: 100, y: 100, width: 96, height: 40 }, win)).toBeNull()
    // a crop mostly outside the window: too little of it is the program's
    expect(cropInsideWindow(step.crop, { x: 330, y: 43, width: 96, height: 40 }, win)).toBeNull()
  })

  it('finds the × at the window place on the dark theme, at its recorded offset', async () => {
    const r = await locateOnScreen({ ...step, window: { recorded: win, now: win } }, { capture: async () => dark })
    expect(r).toMatchObject({ status: 'found', point: { x: 325, y: 63 } })
    expect(r.attempts.at(-1)?.detail).toMatch(/^at the window's place \(the crop's 66×39 inside the window\)/)
  }, 180_000)

  it('refuses when the window holds other buttons there (another program of the class, say)', async () => {
    // the × gone: a plain title bar on the dark theme
    const plain = screen(45, 0, 230, false)
    for (let y = 55; y < 72; y++)
      for (let x = 315; x < 340; x++) {
        const o = (y * plain.width + x) * 4
        plain.data[o] = 45
        plain.data[o + 1] = 45
        plain.data[o + 2] = 45
      }
    const r = await locateOnScreen({ ...step, window: { recorded: win, now: win } }, { capture: async () => plain })
    expect(r.status).toBe('not_found')
  }, 180_000)
})

// Iagno's "Reverse Reversi" → "Umgekehrtes Reversi" (run H): a same-style item relabelled at the window's place is
// refused as another item (`refuseRelabelled`) unless the program's whole text changed with it (another language)
describe('windowPlaceStrategy: an item relabelled at the window place, in another language or alone', () => {
  const layout = { width: 800, height: 500, x: 200, y: 200, keyWidth: 90, keyHeight: 30, gap: 4, fontSize: 13 }
  const english = [
    ['Easy', 'Medium', 'Hard'],
    ['Open', 'Save', 'Quit'],
  ]
  const windowBox = { x: 200 - 8, y: 200 - 72, width: 3 * 94 + 4 + 16, height: 2 * 34 + 4 + 80 }
  const wordsOn = (keys: KeyBox[]): OcrWord[] =>
    keys.map((k) => ({
      text: k.label,
      boundingBox: { x: k.x + 20, y: k.y + 8, width: k.width - 40, height: 14 },
      confidence: 0.9,
    }))
  const sameFrame = (a: Frame, b: Frame) =>
    a.width === b.width && a.height === b.height && Buffer.from(a.data).equals(Buffer.from(b.data))

  async function replay(nowRows: string[][]) {
    const recorded = await keypadPng({ ...layout, rows: english })
    const current = await keypadPng({ ...layout, rows: nowRows })
    const key = recorded.keys[1] as KeyBox // "Medium"
    const original = { x: key.x + key.width / 2, y: key.y + key.height / 2 }
    const cropBox = { x: original.x - 48, y: original.y - 20, width: 96, height: 40 }
    const ocr = async (f: Frame): Promise<OcrWord[]> => {
      for (const s of [recorded, current]) {
        const words = wordsOn(s.keys)
        if (sameFrame(f, s.frame)) return words
        if (sameFrame(f, regionOf(s.frame, windowBox)))
          return words.map((w) => ({
            ...w,
            boundingBox: { ...w.boundingBox, x: w.boundingBox.x - windowBox.x, y: w.boundingBox.y - windowBox.y },
          }))
      }
      return []
    }
    return locateOnScreen(
      {
        original,
        target: { type: 'text', text: 'Medium', confidence: 0.9 },
        crop: cropKey(recorded.frame, cropBox.x, cropBox.y, 96, 40),
        cropBox,
        recordedFrame: recorded.frame,
        window: { recorded: windowBox, now: windowBox },
      },
      { capture: async () => current.frame, ocr },
    )
  }

  // (the branch that accepts a relabel at the window's place when the whole text changed is exercised by the games
  // bench on Iagno's German "Umgekehrtes Reversi"; on these small keys the edges do not reach the window place's bar
  // and the item is taken by the language strategy after it: either way the item at its place, and only then)
  it('every label in another language (of about the same length): the item at its place is clicked', async () => {
    const r = await replay([
      ['Kurz', 'Mittel', 'Hart'],
      ['Oben', 'Sein', 'Raus'],
    ])
    expect(r.status, JSON.stringify(r.attempts)).toBe('found')
    expect(r.attempts.at(-1)?.detail ?? '').toMatch(/changed as a whole/)
    expect(r.point).toEqual({ x: 200 + 94 + 45, y: 215 })
  }, 180_000)

  it('only the clicked item relabelled ("Medium" → "Custom"), the window otherwise as recorded: refused', async () => {
    const r = await replay([
      ['Easy', 'Custom', 'Hard'],
      ['Open', 'Save', 'Quit'],
    ])
    expect(r.status).toBe('not_found')
    expect(r.attempts.map((a) => a.detail ?? '').join(' | ')).toMatch(/only its label changed there/)
  }, 180_000)
})
