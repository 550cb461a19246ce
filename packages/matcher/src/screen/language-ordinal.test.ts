import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { crop as cropKey, decodePng } from '../__tests__/keypad-png'
import type { Frame } from '../image/match-template'
import { regionOf } from '../image/resample'
import { clickedGrid, gridOf, gridsLike, itemsIn, stretchedRegion } from './language-ordinal'
import { locateOnScreen } from './locate-on-screen'
import type { OcrWord } from './types'

// GNOME Mines' side column in English and in German (measured on run G's screens): three buttons of one shape,
// 150×58 at x 497 in English, 191×59 at x 456 in German (wider and higher: the column moved 41 px left, 19 px up),
// in a window of the same size. The second ("Change Difficulty") was clicked.
const W = 720
const H = 560
const win = { x: 60, y: 50, width: 610, height: 482 }

interface Column {
  x: number
  y: number
  width: number
  height: number
  gap: number
  labels: string[]
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')

/** A window with a title, two captions and columns of outlined buttons, rendered by sharp; and what an OCR reads. */
async function screen(title: string, captions: string[], columns: Column[]) {
  const parts: string[] = [
    `<rect width="${W}" height="${H}" fill="#3c3c3c"/>`,
    `<rect x="${win.x + 0.5}" y="${win.y + 0.5}" width="${win.width - 1}" height="${win.height - 1}" fill="#f6f5f4" stroke="#999"/>`,
  ]
  const words: OcrWord[] = []
  const text = (t: string, x: number, y: number, size = 14) => {
    parts.push(
      `<text x="${x}" y="${y}" font-family="DejaVu Sans, sans-serif" font-size="${size}" text-anchor="middle" fill="#2e3436">${esc(t)}</text>`,
    )
    const width = Math.round(t.length * size * 0.55)
    words.push({ text: t, boundingBox: { x: x - width / 2, y: y - size, width, height: size + 2 }, confidence: 0.9 })
  }
  text(title, win.x + win.width / 2, win.y + 30, 15)
  for (const [i, c] of captions.entries()) text(c, win.x + 150, win.y + 120 + 40 * i)
  const buttons: { x: number; y: number; width: number; height: number; label: string }[] = []
  for (const col of columns)
    col.labels.forEach((label, i) => {
      const b = { x: col.x, y: col.y + i * (col.height + col.gap), width: col.width, height: col.height, label }
      buttons.push(b)
      parts.push(
        `<rect x="${b.x + 0.5}" y="${b.y + 0.5}" width="${b.width - 1}" height="${b.height - 1}" rx="5" fill="#f4f3f2" stroke="#c0bcb7"/>`,
      )
      text(label, b.x + b.width / 2, b.y + b.height / 2 + 5)
    })
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${parts.join('')}</svg>`
  const frame = await decodePng(await sharp(Buffer.from(svg)).png().toBuffer())
  return { frame, words, buttons }
}

const english = (labels = ['Start Over', 'Change Difficulty', 'Pause']): Column[] => [
  { x: 497, y: 317, width: 150, height: 58, gap: 6, labels },
]
const german = (labels = ['Von neuem beginnen', 'Schwierigkeit verändern', 'Pause']): Column[] => [
  { x: 456, y: 298, width: 191, height: 59, gap: 5, labels },
]
const englishCaptions = ['Flags placed', 'Time elapsed']
const germanCaptions = ['Gesetzte Flaggen', 'Vergangene Zeit']

const nudges = [-2, -1, 0].flatMap((x) =>
  [-2, -1, 0].flatMap((y) => [0, 1, 2, 3, 4].flatMap((w) => [0, 1, 2, 3, 4].map((h) => ({ x, y, w, h })))),
)
const same = (a: Frame, b: Frame) =>
  a.width === b.width && a.height === b.height && Buffer.from(a.data).equals(Buffer.from(b.data))

/**
 * Replays the click on "Change Difficulty" onto `now`. `faint`: the window's read misses the other buttons' labels
 * (GNOME Mines' insensitive "Start Over" and "Pause", light grey: tesseract reads only the title and the clicked
 * label on the whole window) and reads each only on its button's own region, contrast stretched.
 */
async function replay(now: Awaited<ReturnType<typeof screen>>, opts: { faint?: boolean; captions?: string[] } = {}) {
  const rec = await screen('Mines', opts.captions ?? englishCaptions, english())
  const clicked = rec.buttons[1] as (typeof rec.buttons)[number]
  const original = { x: clicked.x + 74, y: clicked.y + 29 }
  const cropBox = { x: original.x - 48, y: original.y - 20, width: 96, height: 40 }
  // the OCR port: whole screens and the window's part of each, read as drawn (the port's input, not the result)
  const ocr = async (f: Frame): Promise<OcrWord[]> => {
    for (const s of [rec, now]) {
      const faintLabels = new Set(
        opts.faint
          ? s.buttons
              .filter((b) => b.label !== 'Change Difficulty' && !b.label.startsWith('Schwierig'))
              .map((b) => b.label)
          : [],
      )
      const read = s.words.filter((w) => !faintLabels.has(w.text))
      // a button's own region (the shape found around its outline: a pixel or two either side of the drawn box)
      for (const b of s.buttons)
        for (const d of nudges)
          if (
            f.width === b.width + d.w - 4 &&
            f.height === b.height + d.h - 4 &&
            same(
              f,
              stretchedRegion(s.frame, { x: b.x + d.x, y: b.y + d.y, width: b.width + d.w, height: b.height + d.h }),
            )
          )
            return [
              {
                text: b.label,
                boundingBox: { x: 8, y: b.height / 2 - 10, width: b.width - 20, height: 16 },
                confidence: 0.9,
              },
            ]
      if (same(f, s.frame)) return read
      if (same(f, regionOf(s.frame, win)))
        return read.map((w) => ({
          ...w,
          boundingBox: { ...w.boundingBox, x: w.boundingBox.x - win.x, y: w.boundingBox.y - win.y },
        }))
    }
    return []
  }
  const r = await locateOnScreen(
    {
      original,
      target: {
        type: 'text',
        text: 'Change Difficulty',
        boundingBox: { x: clicked.x + 20, y: clicked.y + 22, width: 110, height: 14 },
        confidence: 0.83,
      },
      crop: cropKey(rec.frame, cropBox.x, cropBox.y, cropBox.width, cropBox.height),
      cropBox,
      recordedFrame: rec.frame,
      window: { recorded: win, now: win },
    },
    { capture: async () => now.frame, ocr },
  )
  return { r, tried: r.attempts.map((a) => a.detail ?? '').join(' | ') }
}

describe('locateOnScreen: the item in another language by its ordinal among its look-alikes', () => {
  it('every label in German, the column of three wider, higher and moved: the second button is clicked', async () => {
    const now = await screen('Minen', germanCaptions, german())
    const { r, tried } = await replay(now)
    const target = now.buttons[1] as (typeof now.buttons)[number]
    expect(r.status, tried).toBe('found')
    expect(r.attempts.at(-1)?.detail ?? '').toMatch(/by its ordinal among its look-alikes: item 2 of 3/)
    // the recorded click was 74 px into a 150 px button: the same share of the 191 px one, and its middle row
    expect(Math.abs((r.point?.x ?? 0) - (target.x + (74 * target.width) / 150))).toBeLessThanOrEqual(2)
    expect(Math.abs((r.point?.y ?? 0) - (target.y + target.height / 2))).toBeLessThanOrEqual(2)
  }, 180_000)

  it('in German with one button fewer (the item gone): refused, the count differs', async () => {
    const now = await screen('Minen', germanCaptions, german(['Von neuem beginnen', 'Pause']))
    const { r, tried } = await replay(now)
    expect(r.status).toBe('not_found')
    expect(tried).toMatch(/no 3 items laid out like the recorded item 2 of 3/)
  }, 180_000)

  it('only the clicked button relabelled, the rest of the window in English: refused (not another language)', async () => {
    const now = await screen('Mines', englishCaptions, [
      { ...(german()[0] as Column), labels: ['Start Over', 'Schwierigkeit verändern', 'Pause'] },
    ])
    const { r, tried } = await replay(now)
    expect(r.status).toBe('not_found')
    expect(tried).toMatch(/the program's text is the same/)
  }, 180_000)

  it('two columns of three look-alikes in German, of two widths: refused (which one is not settled)', async () => {
    const col = german()[0] as Column
    const now = await screen('Minen', germanCaptions, [
      { ...col, x: 240, width: 170, labels: ['Eins', 'Zwei', 'Drei'] },
      col,
    ])
    const { r, tried } = await replay(now)
    expect(r.status).toBe('not_found')
    expect(tried).toMatch(/2 sets of 3 items .*: ambiguous/)
  }, 180_000)

  it('a second column of the same shape beside it (six look-alikes in two columns): refused, laid out otherwise', async () => {
    const col = german()[0] as Column
    const now = await screen('Minen', germanCaptions, [{ ...col, x: 240, labels: ['Eins', 'Zwei', 'Drei'] }, col])
    const { r, tried } = await replay(now)
    expect(r.status).toBe('not_found')
    expect(tried).toMatch(/no 3 items laid out like the recorded item 2 of 3/)
  }, 180_000)
})

describe('locateOnScreen by ordinal: the look-alikes’ labels read one by one', () => {
  it('a window whose read shows only its title: the other buttons read alone tell the language changed', async () => {
    const now = await screen('Minen', [], german())
    const { r, tried } = await replay(now, { faint: true, captions: [] })
    expect(r.status, tried).toBe('found')
    expect(r.attempts.at(-1)?.detail ?? '').toMatch(/item 2 of 3/)
  }, 180_000)

  it('the same window with the other buttons kept in English (read alone): refused', async () => {
    const now = await screen('Minen', [], german(['Start Over', 'Schwierigkeit verändern', 'Pause']))
    const { r, tried } = await replay(now, { faint: true, captions: [] })
    expect(r.status).toBe('not_found')
    expect(tried).toMatch(/the program's text is the same/)
  }, 180_000)
})

describe('language-ordinal parts', () => {
  it('itemsIn: each outlined button is one shape, buttons 5 px apart stay apart', async () => {
    const s = await screen('Minen', germanCaptions, german())
    const items = itemsIn(s.frame, { x: win.x + 4, y: win.y + 4, width: win.width - 8, height: win.height - 8 })
    for (const b of s.buttons)
      expect(
        items.some((i) => Math.abs(i.x - b.x) <= 1 && Math.abs(i.y - b.y) <= 1 && Math.abs(i.width - b.width) <= 2),
      ).toBe(true)
  }, 60_000)

  it('gridOf and clickedGrid: a 2×2 board of choices, the third clicked is row 2, column 1', () => {
    const board = [
      { x: 169, y: 118, width: 188, height: 188 },
      { x: 373, y: 118, width: 188, height: 188 },
      { x: 169, y: 322, width: 188, height: 188 },
      { x: 373, y: 322, width: 188, height: 188 },
    ]
    const text = { x: 223, y: 395, width: 80, height: 28 }
    const got = clickedGrid([...board, text], { x: 262, y: 414 }, text)
    expect(got?.item).toEqual(board[2])
    expect(got?.grid.signature).toBe('0,0 0,1 1,0 1,1')
    expect(got?.grid.cells[got.index]).toEqual({ row: 1, column: 0 })
    // a row of three tabs and a column of three buttons have other signatures
    expect(gridOf(board.slice(0, 2)).signature).toBe('0,0 0,1')
    // the same board now 20 % wider and moved is the one grid like it; a board with a choice fewer is none
    const wider = board.map((b) => ({ ...b, x: b.x - 30 + (b.x > 300 ? 40 : 0), width: 226 }))
    expect(gridsLike(wider, board[2] as (typeof board)[number], '0,0 0,1 1,0 1,1')).toHaveLength(1)
    expect(gridsLike(wider.slice(1), board[2] as (typeof board)[number], '0,0 0,1 1,0 1,1')).toHaveLength(0)
  })
})
