import { describe, expect, it } from 'vitest'
import { labelAnchorOf, placeByAnchor } from './anchor-label'
import type { Frame } from '../image/match-template'
import { locateOnScreen } from './locate-on-screen'
import type { OcrWord, ScreenSource } from './types'
import { structureFrame } from '../image/structure-frame'

const word = (text: string, x: number, y: number, width: number, height: number, confidence = 0.95): OcrWord => ({
  text,
  boundingBox: { x, y, width, height },
  confidence,
})

/** A form as Tk draws it: a right-aligned label and an entry (a white box with a dark outline) on one row. */
function form(opts: {
  scale: number
  dx: number
  dy: number
  background: number
  inside: number
  line: number
  /** A larger font in Tk does not scale a form as a whole: the label column and the entries grow apart. */
  relaid?: boolean
}) {
  const { scale: s, dx, dy } = opts
  const entryX = opts.relaid ? 130 : 100
  const entryWidth = opts.relaid ? 300 : 200
  const width = 640
  const height = 400
  const data = new Uint8Array(width * height * 4).fill(255)
  const fill = (x0: number, y0: number, w: number, h: number, v: number) => {
    for (let y = Math.round(y0); y < Math.round(y0 + h); y++)
      for (let x = Math.round(x0); x < Math.round(x0 + w); x++)
        data.fill(v, (y * width + x) * 4, (y * width + x) * 4 + 3)
  }
  fill(0, 0, width, height, opts.background)
  // two entries, one under the other: look-alikes only their labels tell apart
  for (const row of [0, 1]) {
    const ex = dx + entryX * s
    const ey = dy + (40 + row * 30) * s
    fill(ex, ey, entryWidth * s, 22 * s, opts.line)
    fill(ex + 2 * s, ey + 2 * s, (entryWidth - 4) * s, 18 * s, opts.inside)
  }
  const frame: Frame = { width, height, data, channels: 4 }
  const words = [
    word('Name:', dx + (entryX - 50) * s, dy + 46 * s, 44 * s, 11 * s),
    word('Address:', dx + (entryX - 70) * s, dy + 76 * s, 64 * s, 11 * s),
  ]
  return { frame, words }
}

describe('labelAnchorOf', () => {
  const words = [word('Name:', 50, 46, 44, 11), word('Address:', 30, 76, 64, 11), word('Contact', 100, 20, 60, 11)]
  it('names an element by the nearest phrase left of it on its row', () => {
    const a = labelAnchorOf(words, { x: 200, y: 51 }, { x: 152, y: 31, width: 96, height: 40 })
    expect(a).toMatchObject({ text: 'Name:', side: 'left' })
  })
  it('takes the phrase just above when none is left of it', () => {
    const a = labelAnchorOf(words.slice(1), { x: 130, y: 51 }, { x: 82, y: 36, width: 96, height: 30 })
    expect(a).toMatchObject({ text: 'Contact', side: 'above' })
  })
  it('never takes a run of digits (a sudoku row "934" above a cell names no field)', () => {
    const digits = [word('934', 100, 20, 30, 11), word('2 8', 40, 46, 30, 11)]
    expect(labelAnchorOf(digits, { x: 130, y: 51 }, { x: 82, y: 36, width: 96, height: 30 })).toBeNull()
  })
  it('never takes text inside the element, text read poorly, or a glyph', () => {
    const inside = [word('Ada', 160, 46, 30, 11), word('Name:', 50, 46, 44, 11, 0.4), word('x', 120, 46, 8, 11)]
    expect(labelAnchorOf(inside, { x: 200, y: 51 }, { x: 152, y: 31, width: 96, height: 40 })).toBeNull()
  })
})

describe('placeByAnchor', () => {
  const anchor = { text: 'Name:', box: { x: 50, y: 46, width: 44, height: 11 }, side: 'left' as const }
  it('keeps the recorded offset from the label, scaled as its text', () => {
    const placed = placeByAnchor(anchor, { x: 200, y: 51 }, [word('Name:', 80, 100, 66, 16)], 0.8)
    // 106 px right of the label's end at 1.5×: 146 + 159; the label's middle row: 108 - 0.5 × 1.5
    expect(placed).toMatchObject({ point: { x: 305, y: 107.25 }, scale: 1.5 })
  })
  it('refuses a label read twice at places equally near, a label gone, and a short label misread', () => {
    const twice = [word('Name:', 50, 146, 44, 11), word('Name:', 50, -54, 44, 11)]
    expect(placeByAnchor(anchor, { x: 200, y: 51 }, twice, 0.8).point).toBeNull()
    expect(placeByAnchor(anchor, { x: 200, y: 51 }, [word('Fax:', 50, 46, 30, 11)], 0.8).point).toBeNull()
    expect(placeByAnchor(anchor, { x: 200, y: 51 }, [word('Nane:', 50, 46, 44, 11)], 0.8).point).toBeNull()
  })
})

describe('locateOnScreen: a text-less element by its label', () => {
  const recorded = form({ scale: 1, dx: 0, dy: 0, background: 217, inside: 255, line: 90 })
  const original = { x: 200, y: 51 }
  const cropBox = { x: 152, y: 31, width: 96, height: 40 }
  const crop = (() => {
    const data = new Uint8Array(cropBox.width * cropBox.height * 4)
    for (let y = 0; y < cropBox.height; y++) {
      const from = ((cropBox.y + y) * recorded.frame.width + cropBox.x) * 4
      data.set(recorded.frame.data.subarray(from, from + cropBox.width * 4), y * cropBox.width * 4)
    }
    return { width: cropBox.width, height: cropBox.height, data, channels: 4 as const }
  })()
  const sourceOf = (now: ReturnType<typeof form>): ScreenSource => ({
    capture: async () => now.frame,
    ocr: async (f) => (f === recorded.frame ? recorded.words : now.words),
  })

  it('finds an empty entry in a larger font and another palette, beside its label', async () => {
    // 1.3× and dark: every pixel differs, the two entries look alike, only "Name:" says which one
    const now = form({ scale: 1.3, dx: 40, dy: 30, background: 48, inside: 60, line: 200, relaid: true })
    const r = await locateOnScreen({ original, crop, cropBox, recordedFrame: recorded.frame }, sourceOf(now))
    expect(r.status).toBe('found')
    expect(r.strategy).toBe('ocr')
    // the first entry's box now (relaid: x 40 + 130 × 1.3 onwards, 300 × 1.3 wide; y 30 + 40 × 1.3, 22 × 1.3 high)
    expect(r.point?.x).toBeGreaterThan(209)
    expect(r.point?.x).toBeLessThan(599)
    expect(r.point?.y).toBeGreaterThan(82)
    expect(r.point?.y).toBeLessThan(110.6)
  })

  it('answers not found when the label is gone, or when nothing like the element is beside it', async () => {
    const gone = form({ scale: 1, dx: 0, dy: 0, background: 217, inside: 255, line: 90 })
    const noLabel = { ...gone, words: gone.words.filter((w) => w.text !== 'Name:') }
    const r1 = await locateOnScreen({ original, crop, cropBox, recordedFrame: recorded.frame }, sourceOf(noLabel))
    // the fast path would find the unchanged pixels: move the look-alike screen so only the label could say
    expect(r1.status).toBe('found')
    const shifted = form({ scale: 1.3, dx: 40, dy: 30, background: 48, inside: 60, line: 200, relaid: true })
    const r2 = await locateOnScreen(
      { original, crop, cropBox, recordedFrame: recorded.frame },
      sourceOf({ ...shifted, words: shifted.words.filter((w) => w.text !== 'Name:') }),
    )
    expect(r2.status).toBe('not_found')
    const blank = form({ scale: 1.3, dx: 40, dy: 30, background: 48, inside: 48, line: 48, relaid: true })
    const r3 = await locateOnScreen({ original, crop, cropBox, recordedFrame: recorded.frame }, sourceOf(blank))
    expect(r3.status).toBe('not_found')
    expect(r3.attempts.find((a) => a.strategy === 'ocr')?.detail).toMatch(/structure there agrees only/)
  })

  it('refuses the place when it shows text now that the recorded element had none of (a cell filled in)', async () => {
    const now = form({ scale: 1.3, dx: 40, dy: 30, background: 48, inside: 60, line: 200, relaid: true })
    const filled = { ...now, words: [...now.words, word('7', 333, 87, 12, 20)] }
    const r = await locateOnScreen({ original, crop, cropBox, recordedFrame: recorded.frame }, sourceOf(filled))
    expect(r.status).toBe('not_found')
    expect(r.attempts.find((a) => a.strategy === 'ocr')?.detail).toMatch(/now shows text \("7"\)/)
  })

  it('does not name by its neighbour an element whose own text was read', async () => {
    const withText = { ...recorded, words: [...recorded.words, word('Ada', 180, 46, 30, 11, 0.5)] }
    const now = form({ scale: 1.3, dx: 40, dy: 30, background: 48, inside: 60, line: 200, relaid: true })
    const r = await locateOnScreen(
      { original, crop, cropBox, recordedFrame: recorded.frame },
      { capture: async () => now.frame, ocr: async (f) => (f === recorded.frame ? withText.words : now.words) },
    )
    expect(r.status).toBe('not_found')
    expect(r.attempts.find((a) => a.strategy === 'ocr')?.detail).toMatch(/own text/)
  })
})

describe('structureFrame', () => {
  it('gives a palette change and its negative the same structure', () => {
    const light = form({ scale: 1, dx: 0, dy: 0, background: 217, inside: 255, line: 90 }).frame
    const dark = form({ scale: 1, dx: 0, dy: 0, background: 38, inside: 0, line: 165 }).frame
    const a = structureFrame(light)
    const b = structureFrame(dark)
    let same = 0
    for (let i = 0; i < a.data.length; i++) if (Math.abs((a.data[i] as number) - (b.data[i] as number)) <= 8) same++
    expect(same / a.data.length).toBeGreaterThan(0.99)
    // and it is not blind: an empty screen has no structure where the entries were
    const flat = structureFrame(form({ scale: 1, dx: 0, dy: 0, background: 90, inside: 90, line: 90 }).frame)
    expect(flat.data.every((v) => v === 0)).toBe(true)
  })
})
