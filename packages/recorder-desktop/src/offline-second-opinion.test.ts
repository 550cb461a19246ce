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

describe('offlineSecondOpinion: confirms or abstains, never guesses', () => {
  const abstains = { code: 'VISION_UNAVAILABLE' }

  it('confirms a restyled region with the same content; abstains on the text in another field', async () => {
    const expected = await region(light)
    expect(await structureAgreement(expected, await region(dark))).toBeGreaterThanOrEqual(STRUCTURE_AGREEMENT)
    // the region mapped through a healed click 3 px off still agrees
    expect(await structureAgreement(expected, await region(dark, 0, 3))).toBeGreaterThanOrEqual(STRUCTURE_AGREEMENT)
    expect(await structureAgreement(expected, await region(dark, 1))).toBeLessThan(STRUCTURE_AGREEMENT)
    const opinion = offlineSecondOpinion({ compare: null, read: null })
    expect(await opinion.compareScreens(expected, await region(dark), 'type')).toMatchObject({ match: true })
    await expect(opinion.compareScreens(expected, await region(dark, 1), 'type')).rejects.toMatchObject(abstains)
  })

  it('on an unchanged palette compares the structure where the pixels differ: a wrong key is no match', async () => {
    // the same look, the strokes in the other entry: most of the region is alike, the strokes are not
    const expected = await region(light)
    const wrong = await region(light, 1)
    expect(await structureAgreement(expected, wrong)).toBeLessThan(0.5)
    expect(await structureAgreement(expected, await region(light))).toBe(1)
    const opinion = offlineSecondOpinion({ compare: null, read: null })
    await expect(opinion.compareScreens(expected, wrong, 'click "3"')).rejects.toMatchObject(abstains)
  })

  it('asks the OCR where the structure does not agree, and takes only its yes', async () => {
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
    // the structure disagrees: the OCR's yes is a match, its no is no evidence
    expect(
      await ocrSays({ match: true, reason: 'same text' }).compareScreens(expected, changed, 'click'),
    ).toMatchObject({ match: true, reason: 'same text' })
    await expect(misread.compareScreens(expected, changed, 'click')).rejects.toMatchObject(abstains)
    const noText = new VisionError('VISION_ALL_FAILED', 'Every vision provider failed (ocr: VISION_UNAVAILABLE).')
    await expect(ocrSays(noText).compareScreens(expected, changed, 'click')).rejects.toMatchObject(abstains)
    await expect(ocrSays(new Error('disk full')).compareScreens(expected, changed, 'click')).rejects.toThrow(/disk/)
  })

  it('confirms a typing step when OCR reads the typed text in the actual region, and only then', async () => {
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
    // not read there, and the strokes are in the other entry: no evidence
    await expect(reading(['Address:'])).rejects.toMatchObject(abstains)
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
