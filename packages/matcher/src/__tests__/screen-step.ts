import type { TargetElement } from '@qa/model'
import { cropFrame, noiseFrame } from '../internal/synthetic'
import type { UiAnalysis } from '../screen/find-matching-element'
import type { ScreenSource } from '../screen/types'

/** A recorded desktop step for the screen cascade's tests: a noise screen, a 48×30 crop of it, its target. */
export const recorded = noiseFrame(400, 300, 11, 6, 4)
export const crop = cropFrame(recorded, 180, 130, 48, 30)
export const target: TargetElement = {
  type: 'button',
  text: '입장',
  boundingBox: { x: 180, y: 130, width: 48, height: 30 },
}
export const original = { x: 204, y: 145 }

/** A screen source over one frame, with an analysis and OCR words when given (each analysis counted). */
export function source(
  frame = recorded,
  analysis?: UiAnalysis,
  words?: { text: string; x: number; y: number }[],
): ScreenSource & { analyses: number } {
  const s: ScreenSource & { analyses: number } = {
    analyses: 0,
    capture: async () => frame,
  }
  if (analysis)
    s.analyze = async () => {
      s.analyses++
      return analysis
    }
  if (words)
    s.ocr = async () =>
      words.map((w) => ({ text: w.text, boundingBox: { x: w.x, y: w.y, width: 40, height: 20 }, confidence: 0.9 }))
  return s
}
