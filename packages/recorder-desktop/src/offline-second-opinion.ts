import { comparisonKey, keySimilarity, structureFrame } from '@qa/matcher'
import { resampleBilinear } from '@qa/matcher/image'
import type { VisionReverifier } from '@qa/verifier'
import { isVisionError, VisionError } from '@qa/vision'
import { decodeImage } from './frame'

/**
 * Two regions whose structure (edges, whatever the colours) agrees this much (0.9) where their pixels differ show
 * the same thing restyled: the same text typed into a recoloured entry, the same dialog in a dark theme. A wrong
 * key's digit, text in another field or a widget that did not open differ exactly there, and agree far less.
 */
export const STRUCTURE_AGREEMENT = 0.9

/** How far (4 px) the actual region may sit off the expected one: a healed click lands a few pixels off the recorded one. */
const SHIFT = 4
/** Two pixels whose luma differs by more than this (0–255) differ; the structure is compared there. */
const DIFFERS = 32
/** Above this many pixels (a whole screen) the shifts are not searched. */
const SHIFTED_SEARCH_PIXELS = 200_000

const lumaOf = (f: { data: Uint8Array | Uint8ClampedArray }, i: number) =>
  0.299 * (f.data[i * 4] as number) + 0.587 * (f.data[i * 4 + 1] as number) + 0.114 * (f.data[i * 4 + 2] as number)

/**
 * How well the structure of `actual` (resampled to the expected region's size) agrees with `expected`'s where
 * their pixels differ (by more than 32 in luma, grown by 2 px): NCC of their gradient magnitudes
 * (`structureFrame`) over those pixels, the best over shifts of up to 4 px (the region is mapped through a healed
 * click, which may sit a few pixels off). A restyle differs everywhere and agrees everywhere; a wrong key differs
 * at its digit, and there the strokes are others. 1 when no pixel differs; 0 when either side is flat there.
 */
export async function structureAgreement(expected: Uint8Array, actual: Uint8Array): Promise<number> {
  const [e, raw] = await Promise.all([decodeImage(expected), decodeImage(actual)])
  const a = { ...resampleBilinear({ ...raw, channels: 4 }, e.width, e.height), channels: 4 as const }
  const { width: w, height: h } = e
  const differs = new Uint8Array(w * h)
  for (let i = 0; i < w * h; i++) if (Math.abs(lumaOf(e, i) - lumaOf(a, i)) > DIFFERS) differs[i] = 1
  const mask = new Uint8Array(w * h)
  let count = 0
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let hit = 0
      for (let dy = -2; dy <= 2 && !hit; dy++)
        for (let dx = -2; dx <= 2 && !hit; dx++) {
          const yy = y + dy
          const xx = x + dx
          if (yy >= 0 && xx >= 0 && yy < h && xx < w && differs[yy * w + xx]) hit = 1
        }
      mask[y * w + x] = hit
      count += hit
    }
  if (count === 0) return 1
  const se = structureFrame({ ...e, channels: 4 }).data
  const sa = structureFrame({ ...a, channels: 4 }).data
  const shift = w * h > SHIFTED_SEARCH_PIXELS ? 0 : SHIFT
  let best = -1
  for (let dy = -shift; dy <= shift; dy++)
    for (let dx = -shift; dx <= shift; dx++) {
      let n = 0
      let sE = 0
      let sA = 0
      let sEE = 0
      let sAA = 0
      let sEA = 0
      for (let y = 0; y < h; y++) {
        const ay = y + dy
        if (ay < 0 || ay >= h) continue
        for (let x = 0; x < w; x++) {
          const ax = x + dx
          if (ax < 0 || ax >= w || !mask[y * w + x]) continue
          const p = se[y * w + x] as number
          const q = sa[ay * w + ax] as number
          n++
          sE += p
          sA += q
          sEE += p * p
          sAA += q * q
          sEA += p * q
        }
      }
      if (n === 0) continue
      const ve = sEE - (sE * sE) / n
      const va = sAA - (sA * sA) / n
      if (ve <= 1e-6 * n || va <= 1e-6 * n) continue
      best = Math.max(best, (sEA - (sE * sA) / n) / Math.sqrt(ve * va))
    }
  return best < -1 ? 0 : Math.max(0, best)
}

/** A typed text counts as shown when some run of the region's letters and digits reads as it this well (0.8). */
const TYPED_TEXT_AGREEMENT = 0.8

/**
 * How well the best run of `haystack`'s letters and digits reads as `needle`'s (0–1): the typed "Ada Lovelace"
 * in an entry OCR reads as "Name: Ada Lovelace|" scores 1. Pure.
 */
export function containedTextSimilarity(haystack: string, needle: string): number {
  const h = comparisonKey(haystack)
  const n = comparisonKey(needle)
  if (!n || !h) return 0
  let best = 0
  for (let len = Math.max(1, n.length - 2); len <= n.length + 2; len++)
    for (let i = 0; i + len <= h.length; i++) best = Math.max(best, keySimilarity(h.slice(i, i + len), n))
  return best
}

/** The offline readers a second opinion may use: OCR's comparison of two regions, and OCR's words of one. */
export interface OfflineReaders {
  compare: VisionReverifier | null
  read: ((png: Uint8Array) => Promise<string[]>) | null
}

/**
 * The desktop verifier's second opinion without a vision LLM, for changed colours, themes and fonts. It
 * confirms or abstains, never guesses: a match when OCR reads a typing step's text in the actual region, when the
 * regions' structure agrees where their pixels differ (a restyle), or when OCR reads the same words in both;
 * otherwise it throws VISION_UNAVAILABLE and the verdict falls back on the pixels, as with no second opinion.
 */
export function offlineSecondOpinion(readers: OfflineReaders): VisionReverifier {
  return {
    async compareScreens(expected, actual, intent, opts) {
      if (opts?.expectedText && readers.read) {
        const seen = (await readers.read(actual)).join(' ')
        const similarity = containedTextSimilarity(seen, opts.expectedText)
        if (similarity >= TYPED_TEXT_AGREEMENT)
          return {
            match: true,
            reason: `OCR reads the typed text in the region (similarity ${similarity.toFixed(2)})`,
            confidence: Math.round(similarity * 100) / 100,
          }
      }
      // the structure where the pixels differ: it sees focus rings, selections and glyphs whatever the palette
      const agreement = await structureAgreement(expected, actual)
      if (agreement >= STRUCTURE_AGREEMENT)
        return {
          match: true,
          reason: `the regions' structure (edges, not colours) agrees ${agreement.toFixed(2)} where their pixels differ (≥ ${STRUCTURE_AGREEMENT})`,
          confidence: Math.round(agreement * 100) / 100,
        }
      // the OCR comparison of their words, when it finds them the same
      let ocrSaid = ''
      if (readers.compare) {
        try {
          const answer = await readers.compare.compareScreens(expected, actual, intent, opts)
          if (answer.match) return answer
          ocrSaid = `; ${answer.reason}`
        } catch (error) {
          // no text to compare (or no OCR): no evidence either way; anything else is a failure to report
          if (!isVisionError(error)) throw error
        }
      }
      // offline, only evidence that the step did its job is an answer: without it the verdict falls back on the
      // pixels (the fallback threshold), as without any second opinion — never a guess either way
      throw new VisionError(
        'VISION_UNAVAILABLE',
        `The offline second opinion found no evidence either way: the regions' structure agrees ${agreement.toFixed(2)} where their pixels differ (< ${STRUCTURE_AGREEMENT})${ocrSaid}.`,
        { provider: 'offline', retryable: false },
      )
    },
  }
}
