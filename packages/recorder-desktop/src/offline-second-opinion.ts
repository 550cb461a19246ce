import { comparisonKey, type Frame, keySimilarity, scoreResampled, structureFrame } from '@qa/matcher'
import type { VisionReverifier } from '@qa/verifier'
import { isVisionError } from '@qa/vision'
import { decodeImage } from './frame'

/**
 * Two regions whose structure (edges, whatever the colours) agrees this much (0.9) show the same thing restyled:
 * the same text typed into a recoloured entry, the same dialog in a dark theme. A wrong key's digits, text in
 * another field or a widget that did not open agree far less.
 */
export const STRUCTURE_AGREEMENT = 0.9

/** How far (4 px) the actual region may sit off the expected one: a healed click lands a few pixels off the recorded one. */
const SHIFT = 4

/**
 * How well the structure of `actual` (resampled to the expected region's size) agrees with `expected`'s: NCC of
 * their gradient magnitudes (`structureFrame`), in [-1, 1], the best over shifts of up to 4 px (the region is
 * mapped through a healed click, which may sit a few pixels off); 0 when either is flat.
 */
export async function structureAgreement(expected: Uint8Array, actual: Uint8Array): Promise<number> {
  const [e, a] = await Promise.all([decodeImage(expected), decodeImage(actual)])
  const template = structureFrame({ ...e, channels: 4 })
  const now = structureFrame({ ...a, channels: 4 })
  const whole = scoreResampled(now, template, { x: 0, y: 0, width: now.width, height: now.height })
  if (template.width <= 4 * SHIFT || template.height <= 4 * SHIFT) return whole
  // the expected region less a margin, looked for at every shift within the margin
  const inner = cropStructure(template, SHIFT, SHIFT, template.width - 2 * SHIFT, template.height - 2 * SHIFT)
  const sx = now.width / template.width
  const sy = now.height / template.height
  let best = whole
  for (let dy = -SHIFT; dy <= SHIFT; dy++)
    for (let dx = -SHIFT; dx <= SHIFT; dx++) {
      const box = {
        x: Math.round((SHIFT + dx) * sx),
        y: Math.round((SHIFT + dy) * sy),
        width: Math.round(inner.width * sx),
        height: Math.round(inner.height * sy),
      }
      best = Math.max(best, scoreResampled(now, inner, box))
    }
  return best
}

function cropStructure(f: Frame, x: number, y: number, width: number, height: number): Frame {
  const data = new Uint8Array(width * height)
  for (let j = 0; j < height; j++)
    data.set(f.data.subarray((y + j) * f.width + x, (y + j) * f.width + x + width), j * width)
  return { width, height, data, channels: 1 }
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
 * The desktop verifier's second opinion without a vision LLM (issue 14 Build 1, colours, themes and fonts): a
 * typing step whose typed text OCR reads in the actual region is a match; else the regions' structure (edges)
 * agreeing is; else the OCR comparison of their text decides, when both show text. A restyled screen fails the pixel comparison
 * everywhere; this tells a restyle of the expected effect (match, a warning) from another effect (mismatch, a
 * fail). A region OCR reads differently stays a mismatch.
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
      // the structure first: it sees focus rings, selections and glyphs whatever the palette; the OCR comparison of
      // the regions' text only when the structure does not agree (a theme that draws its widgets differently)
      const agreement = await structureAgreement(expected, actual)
      if (agreement >= STRUCTURE_AGREEMENT)
        return {
          match: true,
          reason: `the regions' structure (edges, not colours) agrees ${agreement.toFixed(2)} (≥ ${STRUCTURE_AGREEMENT})`,
          confidence: Math.round(agreement * 100) / 100,
        }
      if (readers.compare) {
        try {
          return await readers.compare.compareScreens(expected, actual, intent, opts)
        } catch (error) {
          // no text to compare (or no OCR): the structure's answer stands; anything else is a failure to report
          if (!isVisionError(error)) throw error
        }
      }
      return {
        match: false,
        reason: `the regions' structure (edges, not colours) agrees only ${agreement.toFixed(2)} (< ${STRUCTURE_AGREEMENT})`,
        confidence: Math.max(0, Math.round(agreement * 100) / 100),
      }
    },
  }
}
