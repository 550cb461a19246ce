import sharp from 'sharp'
import { afterAll, describe, expect, test } from 'vitest'
import {
  cropAndUpscale,
  inkBounds,
  medianInkRun,
  normalisePolarity,
  ocrScale,
  prepareForOcr,
  toOriginalBox,
} from './ocr-preprocess'
import { ocrProvider } from './providers/ocr'
import { type TextLabel, renderTextPng } from './testing/render-text'

/** A 40×20 greyscale image: the left half `left` with a vertical stroke at x=10, the right half `right` with one at x=30. */
function twoRegions(left: { bg: number; ink: number }, right: { bg: number; ink: number }): Uint8Array {
  const grey = new Uint8Array(40 * 20)
  for (let y = 0; y < 20; y++)
    for (let x = 0; x < 40; x++) {
      const half = x < 20 ? left : right
      grey[y * 40 + x] = x === 10 || x === 30 ? half.ink : half.bg
    }
  return grey
}

describe('normalisePolarity', () => {
  test('light text on a dark region and dark text on a light region both come out dark on white', () => {
    const grey = twoRegions({ bg: 40, ink: 220 }, { bg: 230, ink: 30 })
    const { data, invertedShare } = normalisePolarity(grey, 40, 20)
    for (let y = 0; y < 20; y++) {
      expect(data[y * 40 + 10], `dark region stroke, row ${y}`).toBeLessThan(60)
      expect(data[y * 40 + 30], `light region stroke, row ${y}`).toBeLessThan(60)
      expect(data[y * 40 + 4], `dark region paper, row ${y}`).toBe(255)
      expect(data[y * 40 + 36], `light region paper, row ${y}`).toBe(255)
    }
    expect(invertedShare).toBe(0.5)
  })

  test('white text on a mid-grey (hovered) button is light text too; black text on the same grey is kept', () => {
    const grey = twoRegions({ bg: 140, ink: 255 }, { bg: 140, ink: 20 })
    const { data } = normalisePolarity(grey, 40, 20)
    for (let y = 0; y < 20; y++) {
      expect(data[y * 40 + 10], `light stroke, row ${y}`).toBeLessThan(60)
      expect(data[y * 40 + 30], `dark stroke, row ${y}`).toBeLessThan(60)
      expect(data[y * 40 + 4], `paper left, row ${y}`).toBe(255)
      expect(data[y * 40 + 36], `paper right, row ${y}`).toBe(255)
    }
  })

  test('black text on a white screen is left as it is', () => {
    const grey = twoRegions({ bg: 255, ink: 0 }, { bg: 255, ink: 0 })
    const { data, invertedShare } = normalisePolarity(grey, 40, 20)
    expect([...data]).toEqual([...grey])
    expect(invertedShare).toBe(0)
  })
})

describe('mapping boxes back to the original', () => {
  test('a box on a 2× region starting at (100, 50) covers the original pixels it shows', () => {
    const region = { x: 100, y: 50, width: 60, height: 30, scale: 2 }
    expect(toOriginalBox({ x0: 11, y0: 4, x1: 31, y1: 20 }, region, { width: 1280, height: 800 })).toEqual({
      x0: 105,
      y0: 52,
      x1: 116,
      y1: 60,
    })
  })

  test('a box reaching past the region is clamped to the original image', () => {
    const region = { x: 1260, y: 790, width: 20, height: 10, scale: 2 }
    expect(toOriginalBox({ x0: 30, y0: 10, x1: 60, y1: 30 }, region, { width: 1280, height: 800 })).toEqual({
      x0: 1275,
      y0: 795,
      x1: 1280,
      y1: 800,
    })
  })

  test('upscaled pixel p of a region shows original pixel region.x + ⌊p / 2⌋', () => {
    // 3×2 image: 1 2 3 / 4 5 6; the region is its right two columns
    const grey = Uint8Array.from([1, 2, 3, 4, 5, 6])
    const out = cropAndUpscale(grey, 3, { x: 1, y: 0, width: 2, height: 2, scale: 2 })
    expect([...out]).toEqual([2, 2, 3, 3, 2, 2, 3, 3, 5, 5, 6, 6, 5, 5, 6, 6])
  })

  test('the ink bounds leave out the blank screen around a window, with a margin', () => {
    const data = new Uint8Array(50 * 40).fill(255)
    data[5 * 50 + 10] = 0
    data[20 * 50 + 30] = 0
    expect(inkBounds(data, 50, 40, 8)).toEqual({ x: 2, y: 0, width: 37, height: 29 })
    expect(inkBounds(new Uint8Array(50 * 40).fill(255), 50, 40, 8)).toBeNull()
  })

  test('thin text on screens up to 1920×1200 is upscaled 2×; thick text and larger screens are not', () => {
    expect(ocrScale(1280, 800, 1)).toBe(2)
    expect(ocrScale(1920, 1200, 2)).toBe(2)
    expect(ocrScale(1280, 800, 3)).toBe(1)
    expect(ocrScale(2560, 1440, 1)).toBe(1)
  })

  test('the median ink run is the stroke width of the text', () => {
    // 3 rows of 12 px: runs of 1, 1, 2 px; 3 px; 1 px and a 6 px rule → median of [1, 1, 2, 3, 1, 6] is 1
    const rows = ['#.#.##......', '...###......', '#...######..']
    const data = Uint8Array.from([...rows.join('')].map((c) => (c === '#' ? 0 : 255)))
    expect(medianInkRun(data, 12, 3)).toBe(1)
    const thick = Uint8Array.from([...'.###.####...'].map((c) => (c === '#' ? 0 : 255)))
    expect(medianInkRun(thick, 12, 1)).toBe(3)
    expect(medianInkRun(new Uint8Array(12).fill(255), 12, 1)).toBe(0)
  })
})

/** A screen like a dark-themed program under a light title bar: an X root window (black), a light bar on top with
 * dark text, a dark dialog with light text; UI-sized 13 px labels. Tesseract alone misses one polarity here. */
const SIZE = { width: 900, height: 240, background: '#000000' }
const TITLE_BAR = { x: 0, y: 0, width: 900, height: 32, color: '#e8e8e8' }
const DARK_DIALOG = { x: 300, y: 60, width: 500, height: 160, color: '#353535' }
const LABELS: (TextLabel & { panel: typeof TITLE_BAR })[] = [
  { text: 'Archive', x: 60, y: 22, fontSize: 13, color: '#202020', panel: TITLE_BAR },
  { text: 'Settings', x: 420, y: 22, fontSize: 13, color: '#202020', panel: TITLE_BAR },
  { text: 'Delete', x: 520, y: 120, fontSize: 13, color: '#eeeeee', panel: DARK_DIALOG },
  { text: 'Keep', x: 660, y: 120, fontSize: 13, color: '#eeeeee', panel: DARK_DIALOG },
]
const render = (labels: typeof LABELS) =>
  renderTextPng(
    labels.map((l, i) => ({
      ...l,
      background: labels.findIndex((o) => o.panel === l.panel) === i ? l.panel : undefined,
    })),
    SIZE,
  )

/** The box of the pixels of one label, rendered alone on its panel, that differ from the panel's colour. */
async function inkBox(label: (typeof LABELS)[number]) {
  const png = await render([label])
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true })
  const { panel } = label
  const paper = data[panel.y * info.width + panel.x] as number
  let x0 = info.width
  let y0 = info.height
  let x1 = -1
  let y1 = -1
  for (let y = panel.y; y < panel.y + panel.height; y++)
    for (let x = panel.x; x < panel.x + panel.width; x++)
      if (Math.abs((data[y * info.width + x] as number) - paper) > 96) {
        x0 = Math.min(x0, x)
        y0 = Math.min(y0, y)
        x1 = Math.max(x1, x + 1)
        y1 = Math.max(y1, y + 1)
      }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

describe('OCR of a real PNG with both polarities (sharp-rendered text, real Tesseract)', () => {
  const provider = ocrProvider({ languages: ['eng'] })
  afterAll(() => provider.close?.())

  test('the dark part is inverted, the image upscaled 2× and cropped to its ink', async () => {
    const input = await prepareForOcr(await render(LABELS))
    expect(input.region.scale).toBe(2)
    // everything but the title bar has a dark background
    expect(input.invertedShare).toBeCloseTo(1 - (TITLE_BAR.width * TITLE_BAR.height) / (SIZE.width * SIZE.height), 2)
    const inks = await Promise.all(LABELS.map(inkBox))
    expect(input.region.x).toBeLessThanOrEqual(Math.min(...inks.map((b) => b.x)))
    expect(input.region.x + input.region.width).toBeGreaterThanOrEqual(Math.max(...inks.map((b) => b.x + b.width)))
    expect(input.region.width).toBeLessThan(SIZE.width)
  })

  test('labels dark on light and light on dark are both read, their boxes on the original pixels', async () => {
    const png = await render(LABELS)
    const answer = await provider.ask({
      task: 'screen',
      images: [{ bytes: png, format: 'png', width: SIZE.width, height: SIZE.height }],
      prompt: 'screen',
    })
    const elements = (answer.data as { elements: { text: string; bounding_box: Record<string, number> }[] }).elements
    for (const label of LABELS) {
      const found = elements.find((e) => e.text === label.text)
      expect(found, `"${label.text}" in ${JSON.stringify(elements.map((e) => e.text))}`).toBeDefined()
      const truth = await inkBox(label)
      const b = found!.bounding_box as { x: number; y: number; width: number; height: number }
      const edges = [
        [b.x, truth.x],
        [b.y, truth.y],
        [b.x + b.width, truth.x + truth.width],
        [b.y + b.height, truth.y + truth.height],
      ]
      for (const [got, want] of edges)
        expect(
          Math.abs(got! - want!),
          `${label.text}: ${JSON.stringify(b)} vs ink ${JSON.stringify(truth)}`,
        ).toBeLessThanOrEqual(2)
    }
  })
})
