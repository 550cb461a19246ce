import { VisionError } from '@qa/vision'
import { describe, expect, it } from 'vitest'
import { encodePng, type RgbaFrame } from './frame'
import {
  containedTextSimilarity,
  offlineSecondOpinion,
  STRUCTURE_AGREEMENT,
  structureAgreement,
} from './offline-second-opinion'

/** A region as a toolkit draws it: two entries, text-like strokes in the first, in the given palette. */
function region(palette: { background: number; inside: number; line: number; ink: number }, typedInto = 0) {
  const width = 240
  const height = 90
  const data = new Uint8Array(width * height * 4).fill(255)
  const fill = (x0: number, y0: number, w: number, h: number, v: number) => {
    for (let y = y0; y < y0 + h; y++)
      for (let x = x0; x < x0 + w; x++) data.fill(v, (y * width + x) * 4, (y * width + x) * 4 + 3)
  }
  fill(0, 0, width, height, palette.background)
  for (const row of [0, 1]) {
    fill(20, 10 + row * 40, 200, 24, palette.line)
    fill(22, 12 + row * 40, 196, 20, palette.inside)
  }
  // "typed text": vertical strokes of glyph size in one entry
  for (let k = 0; k < 9; k++) fill(30 + k * 9, 16 + typedInto * 40, 2 + (k % 3), 12, palette.ink)
  return encodePng({ width, height, data } as RgbaFrame)
}

const light = { background: 217, inside: 255, line: 90, ink: 0 }
const dark = { background: 48, inside: 30, line: 180, ink: 240 }

describe('offlineSecondOpinion', () => {
  it('calls a restyled region with the same content a match, and the text typed into another field a mismatch', async () => {
    const expected = await region(light)
    const restyled = await structureAgreement(expected, await region(dark))
    const elsewhere = await structureAgreement(expected, await region(dark, 1))
    expect(restyled).toBeGreaterThanOrEqual(STRUCTURE_AGREEMENT)
    expect(elsewhere).toBeLessThan(STRUCTURE_AGREEMENT)
    const opinion = offlineSecondOpinion({ compare: null, read: null })
    expect(await opinion.compareScreens(expected, await region(dark), 'type')).toMatchObject({ match: true })
    expect(await opinion.compareScreens(expected, await region(dark, 1), 'type')).toMatchObject({ match: false })
  })

  it('asks the OCR first, and falls back on the structure only when neither region shows text', async () => {
    const expected = await region(light)
    const actual = await region(dark)
    const ocrSays = (answer: { match: boolean; reason: string } | Error) =>
      offlineSecondOpinion({
        compare: {
          compareScreens: async () => {
            if (answer instanceof Error) throw answer
            return answer
          },
        },
        read: null,
      })
    const mismatch = ocrSays({ match: false, reason: 'reads "13", not "60"' })
    expect(await mismatch.compareScreens(expected, actual, 'click')).toMatchObject({ match: false })
    const noText = new VisionError(
      'VISION_ALL_FAILED',
      'Every vision provider failed (ocr: OCR found no text in either region to compare.).',
    )
    expect(await ocrSays(noText).compareScreens(expected, actual, 'click')).toMatchObject({
      match: true,
      reason: expect.stringMatching(/structure/),
    })
    const broken = new VisionError('VISION_UNAVAILABLE', 'Tesseract could not read the image')
    await expect(ocrSays(broken).compareScreens(expected, actual, 'click')).rejects.toThrow(/Tesseract/)
  })

  it('calls a typing step a match when OCR reads the typed text in the actual region, and only then', async () => {
    const expected = await region(light)
    const actual = await region(dark, 1)
    const reading = (words: string[]) =>
      offlineSecondOpinion({ compare: null, read: async () => words }).compareScreens(expected, actual, 'type', {
        expectedText: 'Ada Lovelace',
      })
    expect(await reading(['Name:', 'Ada Lovelace|'])).toMatchObject({
      match: true,
      reason: expect.stringMatching(/typed text/),
    })
    // not read there: the structure decides, and the strokes are in the other entry
    expect(await reading(['Address:'])).toMatchObject({ match: false, reason: expect.stringMatching(/structure/) })
  })
})

describe('containedTextSimilarity', () => {
  it('finds the typed text inside what OCR read around it, misreads and all', () => {
    expect(containedTextSimilarity('Name: Ada Lovelace|', 'Ada Lovelace')).toBe(1)
    expect(containedTextSimilarity('ime: Ada Lovetace ess:', 'Ada Lovelace')).toBeGreaterThanOrEqual(0.9)
    expect(containedTextSimilarity('Address: Seoul', 'Ada Lovelace')).toBeLessThan(0.5)
    expect(containedTextSimilarity('', 'Ada')).toBe(0)
  })
})
