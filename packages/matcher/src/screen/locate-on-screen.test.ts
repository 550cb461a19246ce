import type { TargetElement } from '@qa/model'
import { describe, expect, it } from 'vitest'
import type { UiAnalysis } from './find-matching-element'
import { cropFrame, noiseFrame, pasteScaled, uiFrame } from '../internal/synthetic'
import type { Frame } from '../image/match-template'
import { crop as cropKey, type KeyBox, keypadPng } from '../__tests__/keypad-png'
import {
  cropInsideWindow,
  elementStillThere,
  locateOnScreen,
  matchWithSurroundings,
  type ScreenSource,
  settleByPrior,
} from './locate-on-screen'

const recorded = noiseFrame(400, 300, 11, 6, 4)
const crop = cropFrame(recorded, 180, 130, 48, 30)
const target: TargetElement = { type: 'button', text: '입장', boundingBox: { x: 180, y: 130, width: 48, height: 30 } }
const original = { x: 204, y: 145 }

function source(
  frame = recorded,
  analysis?: UiAnalysis,
  words?: { text: string; x: number; y: number }[],
): ScreenSource & { analyses: number } {
  const s: ScreenSource & { analyses: number } = {
    analyses: 0,
    capture: async () => frame,
  }
  if (analysis)
    s.analyze = async () => {
      s.analyses++
      return analysis
    }
  if (words)
    s.ocr = async () =>
      words.map((w) => ({ text: w.text, boundingBox: { x: w.x, y: w.y, width: 40, height: 20 }, confidence: 0.9 }))
  return s
}

describe('locateOnScreen', () => {
  it('takes the fast path without an analysis when the pixels are unchanged', async () => {
    const s = source(recorded, { elements: [] })
    const r = await locateOnScreen({ original, target, crop, cropBox: { x: 180, y: 130, width: 48, height: 30 } }, s)
    expect(r).toMatchObject({ status: 'found', strategy: 'direct', point: original })
    expect(s.analyses).toBe(0)
  })

  it('leaves the recorded animation out of the fast path: a sprite over the item, the item unchanged', async () => {
    // a sprite (a 20×30 block of other pixels) over the left part of the item on today's screen
    const now = { ...recorded, data: new Uint8Array(recorded.data) }
    const sprite = noiseFrame(20, 30, 99, 2, 4)
    for (let j = 0; j < 30; j++)
      for (let i = 0; i < 20; i++)
        for (let c = 0; c < 4; c++)
          now.data[((130 + j) * now.width + 180 + i) * 4 + c] = sprite.data[(j * 20 + i) * 4 + c] as number
    const cropBox = { x: 180, y: 130, width: 48, height: 30 }
    const blind = await locateOnScreen({ original, target, crop, cropBox }, source(now, { elements: [] }))
    expect(blind.attempts[0]).toMatchObject({ strategy: 'direct', outcome: 'below_threshold' })
    const animated = [{ x: 176, y: 128, width: 24, height: 34 }] // where the sprite moves, in screen pixels
    const r = await locateOnScreen({ original, target, crop, cropBox, animated }, source(now, { elements: [] }))
    expect(r).toMatchObject({ status: 'found', strategy: 'direct', point: original })
  })

  it('uses the semantic match when the element moved and the analysis finds it', async () => {
    const moved = noiseFrame(400, 300, 12, 6, 4)
    const ui: UiAnalysis = {
      width: 400,
      height: 300,
      elements: [{ type: 'button', text: '입장', boundingBox: { x: 300, y: 200, width: 48, height: 30 } }],
    }
    const r = await locateOnScreen({ original, target, crop }, source(moved, ui))
    expect(r.strategy).toBe('semantic')
    expect(r.point).toEqual({ x: 324, y: 215 })
    expect(r.attempts[0]).toMatchObject({ strategy: 'direct', outcome: 'below_threshold' })
  })

  it('falls to template matching when the analysis is not confident, keeping the click offset', async () => {
    const moved = noiseFrame(400, 300, 13, 6, 4)
    pasteScaled(moved, crop, 40, 60, 1)
    const ui: UiAnalysis = {
      elements: [{ type: 'icon', text: '설정', boundingBox: { x: 5, y: 5, width: 20, height: 20 } }],
    }
    const r = await locateOnScreen(
      { original, target, crop, cropBox: { x: 180, y: 130, width: 48, height: 30 } },
      source(moved, ui),
    )
    expect(r.strategy).toBe('template')
    expect(r.point?.x).toBeCloseTo(64, 0)
    expect(r.point?.y).toBeCloseTo(75, 0)
    expect(r.attempts.map((a) => a.outcome)).toEqual(['below_threshold', 'below_threshold', 'matched'])
  })

  it('a low-confidence label is never used alone to click', async () => {
    const blank = noiseFrame(400, 300, 14, 6, 4)
    const words = [{ text: '입장', x: 10, y: 250 }]
    // recorded at 41 %: the OCR strategy does not run, nothing is clicked
    const lowRecorded = await locateOnScreen(
      { original, target: { ...target, confidence: 0.41 } },
      source(blank, undefined, words),
    )
    expect(lowRecorded.status).toBe('not_found')
    expect(lowRecorded.attempts.find((a) => a.strategy === 'ocr')).toMatchObject({ outcome: 'skipped' })
    expect(lowRecorded.attempts.find((a) => a.strategy === 'ocr')?.detail).toMatch(/low-confidence \(0\.41 < 0\.60\)/)
    // read now at 41 %: the word agrees but is no place to click
    const unsure: ScreenSource = {
      capture: async () => blank,
      ocr: async () => [{ text: '입장', boundingBox: { x: 10, y: 250, width: 40, height: 20 }, confidence: 0.41 }],
    }
    const lowNow = await locateOnScreen({ original, target }, unsure)
    expect(lowNow.status).toBe('not_found')
    expect(lowNow.attempts.find((a) => a.strategy === 'ocr')).toMatchObject({ outcome: 'below_threshold' })
    // the same label recorded and read with confidence is found
    const sure = await locateOnScreen(
      { original, target: { ...target, confidence: 0.9 } },
      source(blank, undefined, words),
    )
    expect(sure).toMatchObject({ status: 'found', strategy: 'ocr' })
  })

  it('finds the label by OCR, refuses an ambiguous label; coordinates only when allowed', async () => {
    const blank = noiseFrame(400, 300, 14, 6, 4)
    const ocr = await locateOnScreen(
      { original, target },
      source(blank, undefined, [
        { text: '입장', x: 10, y: 250 },
        { text: '나가기', x: 200, y: 20 },
      ]),
    )
    expect(ocr).toMatchObject({ strategy: 'ocr', point: { x: 30, y: 260 } })
    const words = [
      { text: '입장', x: 10, y: 250 },
      { text: '입장', x: 300, y: 10 },
    ]
    // by default nothing is clicked blindly: not found, the coordinate fallback named as not allowed
    const twice = await locateOnScreen({ original, target }, source(blank, undefined, words))
    expect(twice).toMatchObject({ status: 'not_found', strategy: 'failed', coordinateFallback: false })
    expect(twice.point).toBeUndefined()
    expect(twice.attempts.find((a) => a.strategy === 'ocr')?.outcome).toBe('ambiguous')
    expect(twice.attempts.at(-1)).toMatchObject({ strategy: 'coordinate', outcome: 'skipped' })
    expect(twice.attempts.at(-1)?.detail).toMatch(/--allow-coordinates/)
    const allowed = await locateOnScreen({ original, target }, source(blank, undefined, words), {
      allowCoordinateFallback: true,
    })
    expect(allowed).toMatchObject({ strategy: 'coordinate', coordinateFallback: true, point: original, confidence: 0 })
  })

  it('a label read exactly gives the scale it is drawn at now (its width ratio); a misread one gives none', async () => {
    const blank = noiseFrame(400, 300, 14, 6, 4)
    const search: TargetElement = {
      type: 'text',
      text: 'Search button',
      boundingBox: { x: 100, y: 50, width: 80, height: 12 },
    }
    const read = (text: string) => ({
      capture: async () => blank,
      ocr: async () => [{ text, boundingBox: { x: 20, y: 200, width: 100, height: 15 }, confidence: 0.9 }],
    })
    // the recorded label 80 px wide, 100 px now: a font 1.25× as large
    const exact = await locateOnScreen({ original, target: search }, read('Search button'))
    expect(exact).toMatchObject({ strategy: 'ocr', scale: 1.25 })
    expect(exact.attempts.at(-1)?.detail).toMatch(/drawn 1\.25× as wide/)
    // one letter misread: found (a long label), but its width says nothing sure about the font
    const misread = await locateOnScreen({ original, target: search }, read('Search buttom'))
    expect(misread.strategy).toBe('ocr')
    expect(misread.scale).toBeUndefined()
  })

  it('a short label must be read exactly: "Ctrl+C" is not "Ctrl+A", a longer label tolerates a misread letter', async () => {
    const blank = noiseFrame(400, 300, 15, 6, 4)
    const shortcut = { ...target, text: 'Ctrl+A' }
    const other = await locateOnScreen(
      { original, target: shortcut },
      source(blank, undefined, [{ text: 'Ctrl+C', x: 20, y: 200 }]),
    )
    expect(other.status).toBe('not_found')
    expect(other.attempts.find((a) => a.strategy === 'ocr')).toMatchObject({ outcome: 'below_threshold' })
    const same = await locateOnScreen(
      { original, target: shortcut },
      source(blank, undefined, [{ text: 'ctrl+a', x: 20, y: 200 }]),
    )
    expect(same).toMatchObject({ status: 'found', strategy: 'ocr', point: { x: 40, y: 210 } })
    const long = await locateOnScreen(
      { original, target: { ...target, text: 'Delete Entry' } },
      source(blank, undefined, [{ text: 'Delete Entrv', x: 20, y: 200 }]),
    )
    expect(long).toMatchObject({ status: 'found', strategy: 'ocr' })
  })
})

// two places that match the recorded crop equally well are ambiguous (next strategy or "not
// found") unless the recorded position settles it. Real PNG frames: a keypad with two identical "7" keys.
describe('locateOnScreen template ambiguity on a keypad with two identical keys', () => {
  const rows = [
    ['7', '8', '9', '7'],
    ['4', '5', '6', '*'],
    ['1', '2', '3', '-'],
  ]
  const keyTarget: TargetElement = { type: 'button', text: '7' }

  it('refuses when the keypad moved: neither "7" is at the recorded place, nothing is clicked', async () => {
    const recorded = await keypadPng({ x: 700, y: 400, rows })
    const a = recorded.keys[0] as KeyBox
    const moved = await keypadPng({ x: 760, y: 430, rows })
    const r = await locateOnScreen(
      {
        original: { x: a.x + 32, y: a.y + 24 },
        target: keyTarget,
        crop: cropKey(recorded.frame, a.x, a.y, a.width, a.height),
        cropBox: { x: a.x, y: a.y, width: a.width, height: a.height },
      },
      { capture: async () => moved.frame },
    )
    expect(r.status).toBe('not_found')
    const template = r.attempts.find((t) => t.strategy === 'template')
    expect(template).toMatchObject({ outcome: 'ambiguous', candidates: 2 })
    expect(template?.detail).toMatch(/\(760, 430\).*\(970, 430\)|\(970, 430\).*\(760, 430\)/)
  })

  it('takes the "7" still at the recorded place when the look changed (another key colour)', async () => {
    const recorded = await keypadPng({ x: 700, y: 400, rows })
    const b = recorded.keys[3] as KeyBox
    const themed = await keypadPng({ x: 700, y: 400, rows, keyFill: '#b8c0cc' })
    const r = await locateOnScreen(
      {
        original: { x: b.x + 32, y: b.y + 24 },
        target: keyTarget,
        crop: cropKey(recorded.frame, b.x, b.y, b.width, b.height),
        cropBox: { x: b.x, y: b.y, width: b.width, height: b.height },
      },
      { capture: async () => themed.frame },
    )
    expect(r.attempts[0]).toMatchObject({ strategy: 'direct', outcome: 'below_threshold' })
    expect(r).toMatchObject({ status: 'found', strategy: 'template', point: { x: b.x + 32, y: b.y + 24 } })
    expect(r.attempts.find((t) => t.strategy === 'template')?.detail).toMatch(/the one at the recorded place/)
  })
})

// on a dialog whose buttons were replaced ("Archive" became "Open" at the same place) the recorded
// crop still matched the look-alike at NCC 0.83 (the same outline, the same surroundings), and it was clicked
describe('locateOnScreen with the recorded screen: look-alikes and surroundings (real PNG frames)', () => {
  // small same-style buttons: the crop of one scores 0.87–0.89 on another at the same place (the old failure)
  const size = { width: 640, height: 400, keyWidth: 56, keyHeight: 26, gap: 4, fontSize: 10 }
  const buttons = [['Archive', 'Delete', 'Keep', 'Cancel']]
  /** The recorder's crop: 96×40 around the click point (the key's centre). */
  const stepFor = (recorded: { frame: Frame; keys: KeyBox[] }, label: string) => {
    const k = recorded.keys.find((x) => x.label === label) as KeyBox
    const original = { x: k.x + k.width / 2, y: k.y + k.height / 2 }
    const cropBox = { x: original.x - 48, y: original.y - 20, width: 96, height: 40 }
    return {
      original,
      crop: cropKey(recorded.frame, cropBox.x, cropBox.y, 96, 40),
      cropBox,
      recordedFrame: recorded.frame,
    }
  }

  it('never clicks a same-style button with another label at the recorded place: not found', async () => {
    const recorded = await keypadPng({ ...size, x: 120, y: 300, rows: buttons })
    const replaced = await keypadPng({ ...size, x: 120, y: 300, rows: [['Open', 'Print', 'Rename']] })
    for (const label of ['Archive', 'Cancel']) {
      const r = await locateOnScreen(stepFor(recorded, label), { capture: async () => replaced.frame })
      expect(r.status, `${label}: ${JSON.stringify(r.attempts)}`).toBe('not_found')
      expect(r.point).toBeUndefined()
    }
  }, 120_000)

  it('finds every button of the moved dialog, at its own place', async () => {
    const recorded = await keypadPng({ ...size, x: 120, y: 300, rows: buttons })
    const moved = await keypadPng({ ...size, x: 330, y: 120, rows: buttons })
    for (const label of buttons[0] as string[]) {
      const r = await locateOnScreen(stepFor(recorded, label), { capture: async () => moved.frame })
      const k = moved.keys.find((x) => x.label === label) as KeyBox
      expect(r.status, label).toBe('found')
      expect(r.point?.x).toBeCloseTo(k.x + k.width / 2, 0)
      expect(r.point?.y).toBeCloseTo(k.y + k.height / 2, 0)
    }
  }, 120_000)

  it('two identical keys in a moved keypad: the neighbours settle which is which', async () => {
    const rows = [
      ['7', '8', '9', '7'],
      ['4', '5', '6', '*'],
    ]
    const opts = { width: 800, height: 600, rows }
    const recorded = await keypadPng({ ...opts, x: 100, y: 200 })
    const moved = await keypadPng({ ...opts, x: 380, y: 330 })
    for (const index of [0, 3]) {
      const a = recorded.keys[index] as KeyBox
      const r = await locateOnScreen(
        {
          original: { x: a.x + 32, y: a.y + 24 },
          crop: cropKey(recorded.frame, a.x, a.y, a.width, a.height),
          cropBox: { x: a.x, y: a.y, width: a.width, height: a.height },
          recordedFrame: recorded.frame,
        },
        { capture: async () => moved.frame },
      )
      const b = moved.keys[index] as KeyBox
      expect(r.status).toBe('found')
      expect(r.point).toEqual({ x: b.x + 32, y: b.y + 24 })
      expect(r.attempts.find((t) => t.strategy === 'template')?.detail).toMatch(
        /two places score alike.*with its surroundings/,
      )
    }
  }, 120_000)
})

describe('locateOnScreen: a template match away from its recorded place brings its surroundings along', () => {
  const cropBox = { x: 180, y: 130, width: 48, height: 30 }
  /** The recorded screen moved by (dx, dy) as a whole, the uncovered strip left flat grey. */
  function movedScreen(dx: number, dy: number): Frame {
    const out = noiseFrame(400, 300, 99, 6, 4)
    out.data.fill(128)
    for (let y = 0; y < 300; y++)
      for (let x = 0; x < 400; x++) {
        const sx = x - dx
        const sy = y - dy
        if (sx < 0 || sy < 0 || sx >= 400 || sy >= 300) continue
        const from = (sy * 400 + sx) * 4
        out.data.set(recorded.data.subarray(from, from + 4), (y * 400 + x) * 4)
      }
    return out
  }

  it('takes the match when the whole screen moved with it', async () => {
    const r = await locateOnScreen(
      { original, crop, cropBox, recordedFrame: recorded },
      { capture: async () => movedScreen(-90, 60) },
    )
    expect(r.strategy).toBe('template')
    expect(r.point).toEqual({ x: 114, y: 205 })
  })

  it('refuses the same pixels elsewhere among other surroundings (a board cell beside other digits)', async () => {
    const elsewhere = noiseFrame(400, 300, 17, 6, 4)
    pasteScaled(elsewhere, crop, 40, 200, 1)
    const r = await locateOnScreen(
      { original, crop, cropBox, recordedFrame: recorded },
      { capture: async () => elsewhere },
    )
    expect(r.status).toBe('not_found')
    expect(r.attempts.find((a) => a.strategy === 'template')?.detail).toMatch(
      /away from its recorded place, but its surroundings there agree only/,
    )
  })
})

describe('locateOnScreen: the screen around the recorded place unchanged, the element there changed', () => {
  it('refuses a look-alike elsewhere (a sudoku cell filled in; another empty cell with similar neighbours)', async () => {
    const cropBox = { x: 180, y: 130, width: 48, height: 30 }
    const now = noiseFrame(400, 300, 11, 6, 4) // the recorded screen, as it was
    // the element at the recorded place changed: its middle filled with another pattern
    pasteScaled(now, cropFrame(noiseFrame(400, 300, 31, 6, 4), 0, 0, 24, 14), 192, 138, 1)
    // elsewhere: the same element, among neighbours partly like the recorded ones (a grid's lines)
    const context = cropFrame(recorded, 180 - 48, 130 - 30, 144, 90)
    pasteScaled(now, context, 10, 190, 1)
    pasteScaled(now, cropFrame(noiseFrame(400, 300, 41, 6, 4), 0, 0, 144, 30), 10, 190, 1)
    const r = await locateOnScreen({ original, crop, cropBox, recordedFrame: recorded }, { capture: async () => now })
    expect(r.status).toBe('not_found')
    expect(r.attempts.find((a) => a.strategy === 'template')?.detail).toMatch(/whose surroundings are still there/)
  })
})

describe('locateOnScreen: a theme or palette change (every pixel repainted, the edges where they were)', () => {
  it("finds the element on the screens' structure when its pixels inverted, at its place", async () => {
    const ui = uiFrame(480, 320, 5)
    const cropBox = { x: 200, y: 140, width: 96, height: 40 }
    const uiCrop = cropFrame(ui, cropBox.x, cropBox.y, cropBox.width, cropBox.height)
    const dark = { ...ui, data: ui.data.map((v, i) => (i % 4 === 3 ? v : 255 - v)) }
    const r = await locateOnScreen(
      { original: { x: 248, y: 160 }, crop: uiCrop, cropBox, recordedFrame: ui },
      { capture: async () => dark },
    )
    expect(r.strategy).toBe('template')
    expect(r.point).toEqual({ x: 248, y: 160 })
    expect(r.attempts.find((a) => a.strategy === 'template')?.detail).toMatch(/^on edges \(colours ignored\)/)
    // on the pixels alone it is not there (NCC -1)
    expect(r.attempts[0]).toMatchObject({ strategy: 'direct', outcome: 'below_threshold', confidence: 0 })
  })
})

describe('elementStillThere: an empty cell has no label to agree on', () => {
  it('a centre of one colour but for a faint pixel counts as flat (a sudoku cell scaled 1.38×)', () => {
    // a 40×20 crop: a dark border, a white inside with one faint grey pixel in the middle
    const crop = { width: 40, height: 20, data: new Uint8Array(40 * 20 * 4).fill(255), channels: 4 as const }
    for (let x = 0; x < 40; x++) for (const y of [0, 19]) crop.data.fill(60, (y * 40 + x) * 4, (y * 40 + x) * 4 + 3)
    crop.data.fill(240, (10 * 40 + 20) * 4, (10 * 40 + 20) * 4 + 3)
    // the same cell on the screen without the faint pixel
    const now = { width: 100, height: 60, data: new Uint8Array(100 * 60 * 4).fill(255), channels: 4 as const }
    for (let x = 30; x < 70; x++) for (const y of [20, 39]) now.data.fill(60, (y * 100 + x) * 4, (y * 100 + x) * 4 + 3)
    const r = elementStillThere(now, crop, { x: 30, y: 20, width: 40, height: 20 }, 0.8, 1)
    expect(r).toMatchObject({ ok: true, detail: expect.stringMatching(/centre is flat/) })
  })
})

describe('settleByPrior', () => {
  const box = (x: number, y: number) => ({ box: { x, y, width: 64, height: 48 } })
  const recorded = { x: 100, y: 100, width: 64, height: 48 }
  it('picks the one at the recorded place, only when the other is not there', () => {
    expect(settleByPrior([box(300, 100), box(102, 99)], recorded)).toEqual(box(102, 99))
    expect(settleByPrior([box(300, 100), box(400, 100)], recorded)).toBeNull()
    expect(settleByPrior([box(100, 100), box(101, 100)], recorded)).toBeNull()
    expect(settleByPrior([box(100, 100), box(300, 100)], null)).toBeNull()
  })
})

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

// Tk's rolodex on a larger font: the surroundings of a click in the middle of a wide entry (rows of
// entries above and below, no label in them) fit as well anywhere along the row, and the found offset sent the
// typing's expected region 83 px off the text
describe('matchWithSurroundings: a place along a uniform stretch is no place', () => {
  /** A grey window with rows of wide white entries (1 px dark border) at (x, y). */
  function entries(x: number, y: number): Frame {
    const W = 1100
    const H = 500
    const data = new Uint8Array(W * H * 4).fill(217)
    for (let i = 3; i < data.length; i += 4) data[i] = 255
    for (let row = 0; row < 6; row++) {
      const top = y + row * 27
      for (let yy = top; yy < top + 23; yy++)
        for (let xx = x; xx < x + 900; xx++) {
          const edge = yy === top || yy === top + 22 || xx === x || xx === x + 899
          const v = edge ? 90 : 255
          data.set([v, v, v], (yy * W + xx) * 4)
        }
    }
    return { width: W, height: H, channels: 4, data }
  }
  it('refuses surroundings that fit as well a quarter crop to the side', () => {
    const recorded = entries(100, 60)
    const cropBox = { x: 502, y: 104, width: 96, height: 40 }
    const r = matchWithSurroundings(entries(150, 90), recorded, cropBox, {
      threshold: 0.8,
      ambiguityMargin: 0.03,
      lookAlikeMargin: 0.1,
    })
    expect(r.match).toBeNull()
    expect(r.detail).toMatch(/fits as well \d+ px (left|right) \(a uniform stretch: no place along it\)/)
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
