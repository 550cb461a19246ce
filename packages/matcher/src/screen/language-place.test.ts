import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { crop as cropKey, decodePng, type KeyBox, keypadPng } from '../__tests__/keypad-png'
import type { Frame } from '../image/match-template'
import { labelRows, textChangedAsAWhole, wordsOf } from './language-place'
import { locateOnScreen } from './locate-on-screen'
import type { OcrWord } from './types'

// A program window of same-style buttons whose labels all changed language (KMines' "Game" → "Spiel", a
// drop-down's "Easy" → "Leicht"): the window keeps its size and each button its place and outline.
describe('locateOnScreen: the item in another language, by its shape at the window place', () => {
  const english = [
    ['New', 'Open', 'Save'],
    ['Easy', 'Medium', 'Hard'],
  ]
  const german = [
    ['Neu', 'Öffnen', 'Speichern'],
    ['Leicht', 'Mittel', 'Schwer'],
  ]
  // the same window with one button relabelled (a dialog whose "Medium" became another entry): not a language
  const relabelled = [
    ['New', 'Open', 'Save'],
    ['Easy', 'Off', 'Hard'],
  ]
  const layout = { width: 800, height: 500, x: 200, y: 200, keyWidth: 110, keyHeight: 40, gap: 10, fontSize: 16 }
  // the window keypadPng draws around the keys (its frame from x − 8, y − 72)
  const windowAt = (x: number, y: number) => ({
    x: x - 8,
    y: y - 72,
    width: 3 * 120 + 10 + 16,
    height: 2 * 50 + 10 + 80,
  })
  /** What an OCR reads on a keypad screen: each key's label where it is drawn (the port's input, not the result). */
  const wordsOn = (keys: KeyBox[]): OcrWord[] =>
    keys.map((k) => ({
      text: k.label,
      boundingBox: { x: k.x + 20, y: k.y + 12, width: k.width - 40, height: 16 },
      confidence: 0.9,
    }))
  const shifted = (words: OcrWord[], by: { x: number; y: number }): OcrWord[] =>
    words.map((w) => ({
      ...w,
      boundingBox: { ...w.boundingBox, x: w.boundingBox.x - by.x, y: w.boundingBox.y - by.y },
    }))
  const sameFrame = (a: Frame, b: Frame) =>
    a.width === b.width && a.height === b.height && Buffer.from(a.data).equals(Buffer.from(b.data))

  async function run(nowRows: string[][], nowAt = { x: layout.x, y: layout.y }) {
    const recorded = await keypadPng({ ...layout, rows: english })
    const current = await keypadPng({ ...layout, ...nowAt, rows: nowRows })
    const key = recorded.keys[4] as KeyBox // "Medium"
    const cropBox = { x: key.x - 8, y: key.y - 8, width: key.width + 16, height: key.height + 16 }
    const wasWindow = windowAt(layout.x, layout.y)
    const isWindow = windowAt(nowAt.x, nowAt.y)
    const recordedWords = wordsOn(recorded.keys)
    const nowWords = wordsOn(current.keys)
    // the OCR port: the whole screens and the windows' parts of them, read as drawn
    const regions: [Frame, OcrWord[]][] = [
      [recorded.frame, recordedWords],
      [current.frame, nowWords],
    ]
    const ocr = async (f: Frame): Promise<OcrWord[]> => {
      for (const [frame, words] of regions) if (sameFrame(f, frame)) return words
      if (f.width === wasWindow.width && f.height === wasWindow.height) {
        const [w, h] = [wasWindow.width, wasWindow.height]
        const part = (frame: Frame, at: { x: number; y: number }) => {
          const data = new Uint8Array(w * h * 4)
          for (let j = 0; j < h; j++)
            data.set(
              frame.data.subarray(((at.y + j) * frame.width + at.x) * 4, ((at.y + j) * frame.width + at.x + w) * 4),
              j * w * 4,
            )
          return { width: w, height: h, data, channels: 4 as const }
        }
        if (sameFrame(f, part(recorded.frame, wasWindow))) return shifted(recordedWords, wasWindow)
        if (sameFrame(f, part(current.frame, isWindow))) return shifted(nowWords, isWindow)
      }
      return []
    }
    const r = await locateOnScreen(
      {
        original: { x: key.x + key.width / 2, y: key.y + key.height / 2 },
        target: {
          type: 'button',
          text: 'Medium',
          boundingBox: { x: key.x + 30, y: key.y + 14, width: 50, height: 13 },
          confidence: 0.9,
        },
        crop: cropKey(recorded.frame, cropBox.x, cropBox.y, cropBox.width, cropBox.height),
        cropBox,
        recordedFrame: recorded.frame,
        window: { recorded: wasWindow, now: isWindow },
      },
      { capture: async () => current.frame, ocr },
    )
    return { r, target: current.keys[4] as KeyBox }
  }

  it('every label in German: the button at its place in the window, with its outline, is clicked', async () => {
    const { r, target } = await run(german)
    expect(r).toMatchObject({ status: 'found', strategy: 'template' })
    expect(Math.abs((r.point?.x ?? 0) - (target.x + target.width / 2))).toBeLessThanOrEqual(2)
    expect(Math.abs((r.point?.y ?? 0) - (target.y + target.height / 2))).toBeLessThanOrEqual(2)
    expect(r.attempts.at(-1)?.detail ?? '').toMatch(/in another language, at the window's place/)
  }, 180_000) // a multi-scale template search over a whole screen first: minutes on a loaded 2-core machine

  it('in German in a moved window: found where the window puts it', async () => {
    const { r, target } = await run(german, { x: 420, y: 260 })
    expect(r.status).toBe('found')
    expect(Math.abs((r.point?.x ?? 0) - (target.x + target.width / 2))).toBeLessThanOrEqual(2)
    expect(Math.abs((r.point?.y ?? 0) - (target.y + target.height / 2))).toBeLessThanOrEqual(2)
  }, 180_000)

  it('only the clicked button relabelled, its neighbours unchanged: refused (the item is gone, not translated)', async () => {
    const { r } = await run(relabelled)
    expect(r.status).toBe('not_found')
    const tried = r.attempts.map((a) => a.detail ?? '').join(' | ')
    expect(tried).toMatch(/the program's text is the same/)
  }, 180_000)
})

// KMines' difficulty drop-down: its list is a window of its own, 82 px wide in English and 143 in German (its right
// edge kept under the drop-down), with the same four 25 px rows; the third row was clicked
describe('locateOnScreen: a row of a list that grew sideways in another language', () => {
  const rowH = 25
  /** A list of rows in its window; `lit`: the row drawn highlighted (Qt's blue bar, white text). */
  async function listScreen(
    labels: string[],
    box: { x: number; y: number; width: number; height: number },
    lit: number | null = null,
  ) {
    const bar =
      lit === null
        ? ''
        : `<rect x="${box.x + 1}" y="${box.y + 6 + lit * rowH}" width="${box.width - 2}" height="${rowH}" fill="#308cc6" stroke="#1d5f8a"/>`
    const rows = labels
      .map(
        (l, i) =>
          `<text x="${box.x + 8}" y="${box.y + 6 + i * rowH + 17}" font-family="DejaVu Sans, sans-serif" font-size="14" fill="${i === lit ? '#fff' : '#111'}">${l}</text>`,
      )
      .join('')
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="640" height="480" fill="#8a8a8a"/><rect x="60" y="50" width="512" height="320" fill="#efefef"/><rect x="${box.x + 0.5}" y="${box.y + 0.5}" width="${box.width - 1}" height="${box.height - 1}" fill="#f4f4f4" stroke="#777"/>${bar}${rows}</svg>`
    const frame = await decodePng(await sharp(Buffer.from(svg)).png().toBuffer())
    const words: OcrWord[] = labels.map((l, i) => ({
      text: l,
      boundingBox: { x: box.x + 8, y: box.y + 10 + i * rowH, width: 9 * l.length, height: 14 },
      confidence: 0.9,
    }))
    return { frame, words }
  }
  const was = { x: 468, y: 343, width: 82, height: 102 }
  const cropBox = { x: 453, y: 386, width: 96, height: 40 }

  async function run(labels: string[], is: typeof was, lit: { recorded: number; now: number } | null = null) {
    const recorded = await listScreen(['Easy', 'Medium', 'Hard', 'Custom'], was, lit?.recorded ?? null)
    const current = await listScreen(labels, is, lit?.now ?? null)
    const ocr = async (f: Frame): Promise<OcrWord[]> => {
      // the windows' parts of the screens (what the strategy reads), in the part's coordinates
      const [frame, words, win] =
        f.width === was.width ? [recorded.frame, recorded.words, was] : [current.frame, current.words, is]
      if (f.width !== win.width && f.width !== frame.width) return []
      if (f.width === frame.width) return words
      return words.map((w) => ({
        ...w,
        boundingBox: { ...w.boundingBox, x: w.boundingBox.x - win.x, y: w.boundingBox.y - win.y },
      }))
    }
    return locateOnScreen(
      {
        original: { x: 501, y: 406 },
        target: { type: 'text', text: 'Hard', boundingBox: { x: 476, y: 403, width: 36, height: 14 }, confidence: 0.9 },
        crop: cropKey(recorded.frame, cropBox.x, cropBox.y, cropBox.width, cropBox.height),
        cropBox,
        recordedFrame: recorded.frame,
        window: { recorded: was, now: is },
      },
      { capture: async () => current.frame, ocr },
    )
  }

  it('every row in German, the list 143 px wide: the third row is clicked, at its recorded offset from the left', async () => {
    const is = { x: 407, y: 343, width: 143, height: 102 }
    const r = await run(['Einfach', 'Mittel', 'Schwierig', 'Benutzerdefiniert'], is)
    expect(r.status).toBe('found')
    expect(r.point?.x).toBe(407 + (501 - 468))
    expect(Math.abs((r.point?.y ?? 0) - 406)).toBeLessThanOrEqual(2)
    expect(r.attempts.at(-1)?.detail ?? '').toMatch(/row profile/)
  }, 180_000)

  // KMines on German (games bench): the person rested on "Hard" before clicking it, so the recorded list shows it
  // lit; the replayed list opens with the current entry ("Einfach") lit. A highlight bar is no row of its own.
  it('the recorded row lit under the pointer, another row lit now: the third row is still clicked', async () => {
    const is = { x: 407, y: 343, width: 143, height: 102 }
    const r = await run(['Einfach', 'Mittel', 'Schwierig', 'Benutzerdefiniert'], is, { recorded: 2, now: 0 })
    expect(r.status).toBe('found')
    expect(r.point?.x).toBe(407 + (501 - 468))
    expect(Math.abs((r.point?.y ?? 0) - 406)).toBeLessThanOrEqual(2)
  }, 180_000)

  it('the same list with only the clicked row relabelled: refused', async () => {
    const is = { x: 407, y: 343, width: 143, height: 102 }
    const r = await run(['Easy', 'Medium', 'Expert', 'Custom'], is)
    expect(r.status).toBe('not_found')
  }, 180_000)

  it('lit rows and only the clicked row relabelled: refused', async () => {
    const is = { x: 407, y: 343, width: 143, height: 102 }
    const r = await run(['Easy', 'Medium', 'Expert', 'Custom'], is, { recorded: 2, now: 0 })
    expect(r.status).toBe('not_found')
  }, 180_000)

  it('a list of other rows (one row fewer: another height): refused', async () => {
    const is = { x: 407, y: 343, width: 143, height: 77 }
    const r = await run(['Einfach', 'Mittel', 'Benutzerdefiniert'], is)
    expect(r.status).toBe('not_found')
  }, 180_000)
})

describe('language-place parts', () => {
  it('textChangedAsAWhole: most words gone is a language, most kept is a relabel, too few words tell nothing', () => {
    const was = new Set(['game', 'settings', 'help', 'mines', 'time'])
    expect(textChangedAsAWhole(was, new Set(['spiel', 'einstellungen', 'hilfe', 'minen', 'zeit'])).changed).toBe(true)
    expect(textChangedAsAWhole(was, new Set(['game', 'settings', 'hilfe', 'minen', 'zeit'])).changed).toBe(false)
    expect(textChangedAsAWhole(new Set(['game', 'help']), new Set(['spiel', 'hilfe'])).changed).toBe(false)
    // a window that shows hardly any text now (another screen, a blank one) is not a translation
    expect(textChangedAsAWhole(was, new Set(['spiel'])).changed).toBe(false)
  })

  it('wordsOf: words of 3 letters or more, trusted reads only, the item’s own text left out', () => {
    const words: OcrWord[] = [
      { text: 'Mines: 0/10 Time: 00:00', boundingBox: { x: 0, y: 0, width: 100, height: 10 }, confidence: 0.9 },
      { text: 'Spielstufe', boundingBox: { x: 0, y: 20, width: 60, height: 10 }, confidence: 0.3 },
      { text: 'Easy', boundingBox: { x: 200, y: 200, width: 30, height: 10 }, confidence: 0.9 },
    ]
    expect([...wordsOf(words, { x: 190, y: 190, width: 60, height: 40 })].sort()).toEqual(['mines', 'time'])
  })

  it('labelRows: the recorded label box widened, else the middle half', () => {
    expect(labelRows({ x: 100, y: 100, width: 96, height: 40 }, { x: 120, y: 114, width: 30, height: 12 })).toEqual({
      top: 11,
      bottom: 29,
    })
    expect(labelRows({ x: 100, y: 100, width: 96, height: 40 }, null)).toEqual({ top: 10, bottom: 30 })
  })
})
