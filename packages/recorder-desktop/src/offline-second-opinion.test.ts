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
function region(palette: { background: number; inside: number; line: number; ink: number }, typedInto = 0, shift = 0) {
  const width = 240
  const height = 90
  const data = new Uint8Array(width * height * 4).fill(255)
  // everything drawn `shift` px right and down (the background too): the region mapped a few pixels off
  const fill = (x0: number, y0: number, w: number, h: number, v: number) => {
    for (let y = Math.max(0, y0 + shift); y < Math.min(height, y0 + h + shift); y++)
      for (let x = Math.max(0, x0 + shift); x < Math.min(width, x0 + w + shift); x++)
        data.fill(v, (y * width + x) * 4, (y * width + x) * 4 + 3)
  }
  fill(-shift, -shift, width + shift, height + shift, palette.background)
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
    // the region mapped through a healed click 3 px off still agrees
    expect(await structureAgreement(expected, await region(dark, 0, 3))).toBeGreaterThanOrEqual(STRUCTURE_AGREEMENT)
    expect(elsewhere).toBeLessThan(STRUCTURE_AGREEMENT)
    const opinion = offlineSecondOpinion({ compare: null, read: null })
    expect(await opinion.compareScreens(expected, await region(dark), 'type')).toMatchObject({ match: true })
    expect(await opinion.compareScreens(expected, await region(dark, 1), 'type')).toMatchObject({ match: false })
  })

  it('takes the structure first; the OCR comparison decides only where the structure does not agree', async () => {
    const expected = await region(light)
    const restyled = await region(dark)
    const changed = await region(dark, 1)
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
    // a restyle whose grid lines the OCR misreads: the structure agrees, a match
    const misread = ocrSays({ match: false, reason: 'reads "리 2 8|", then "89/174]"' })
    expect(await misread.compareScreens(expected, restyled, 'click')).toMatchObject({
      match: true,
      reason: expect.stringMatching(/structure/),
    })
    // the structure disagrees: the OCR's word stands, either way
    expect(
      await ocrSays({ match: true, reason: 'same text' }).compareScreens(expected, changed, 'click'),
    ).toMatchObject({ match: true, reason: 'same text' })
    expect(await misread.compareScreens(expected, changed, 'click')).toMatchObject({ match: false })
    // no text to compare: the structure's no
    const noText = new VisionError('VISION_ALL_FAILED', 'Every vision provider failed (ocr: VISION_UNAVAILABLE).')
    expect(await ocrSays(noText).compareScreens(expected, changed, 'click')).toMatchObject({
      match: false,
      reason: expect.stringMatching(/structure .* agrees only/),
    })
    await expect(ocrSays(new Error('disk full')).compareScreens(expected, changed, 'click')).rejects.toThrow(/disk/)
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
