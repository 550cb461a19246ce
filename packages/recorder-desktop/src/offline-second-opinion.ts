import { scoreResampled, structureFrame } from '@qa/matcher'
import type { VisionReverifier } from '@qa/verifier'
import { isVisionError } from '@qa/vision'
import { decodeImage } from './frame'

/**
 * Two regions whose structure (edges, whatever the colours) agrees this much (0.9) show the same thing restyled:
 * the same text typed into a recoloured entry, the same dialog in a dark theme. A wrong key's digits, text in
 * another field or a widget that did not open agree far less.
 */
export const STRUCTURE_AGREEMENT = 0.9

/**
 * How well the structure of `actual` (resampled to the expected region's size) agrees with `expected`'s: NCC of
 * their gradient magnitudes (`structureFrame`), in [-1, 1]; 0 when either is flat.
 */
export async function structureAgreement(expected: Uint8Array, actual: Uint8Array): Promise<number> {
  const [e, a] = await Promise.all([decodeImage(expected), decodeImage(actual)])
  const template = structureFrame({ ...e, channels: 4 })
  const now = structureFrame({ ...a, channels: 4 })
  return scoreResampled(now, template, { x: 0, y: 0, width: now.width, height: now.height })
}

/**
 * The desktop verifier's second opinion without a vision LLM (issue 14 Build 1, colours and themes): the OCR
 * comparison of the two regions' text when both show text (`ocr`, if given), else their structure. A restyled
 * screen fails the pixel comparison everywhere; this tells a restyle of the expected effect (match, a warning)
 * from another effect (mismatch, a fail). A region OCR reads differently stays a mismatch.
 */
export function offlineSecondOpinion(ocr: VisionReverifier | null): VisionReverifier {
  return {
    async compareScreens(expected, actual, intent, opts) {
      if (ocr) {
        try {
          return await ocr.compareScreens(expected, actual, intent, opts)
        } catch (error) {
          // no text in either region: the structure decides; anything else is the OCR's failure to report
          if (!isVisionError(error) || !/no text/i.test(error.message)) throw error
        }
      }
      const agreement = await structureAgreement(expected, actual)
      return {
        match: agreement >= STRUCTURE_AGREEMENT,
        reason: `the regions' structure (edges, not colours) agrees ${agreement.toFixed(2)} (${agreement >= STRUCTURE_AGREEMENT ? '≥' : '<'} ${STRUCTURE_AGREEMENT})`,
        confidence: Math.max(0, Math.round(agreement * 100) / 100),
      }
    },
  }
}
