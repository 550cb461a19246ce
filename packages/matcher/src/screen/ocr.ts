import type { BoundingBox } from '@qa/model'
import { centerOf, isBox } from '../image/geometry'
import type { CascadeStep } from '../internal/cascade'
import { comparisonKey, textSimilarity } from '../text/text-similarity'
import { locateByAnchor } from './anchor-label'
import { fmt, type ScreenContext } from './context'
import type { UiElement } from './find-matching-element'
import type { OcrWord, ScreenSource } from './types'

/**
 * A recorded label whose comparison key (letters and digits) is shorter than this (8) must be read exactly by
 * the OCR strategy: in "Ctrl+A", "Add" or "7" a single misread character names another element.
 */
const SHORT_LABEL = 8

/**
 * How much larger a label is drawn now (its width now over its recorded width), when it was read exactly and its
 * recorded box is known: the scale a step's expected region is mapped with (a larger font). Null otherwise. Pure.
 */
export function textScale(recorded: BoundingBox | null | undefined, found: OcrWord, similarity: number): number | null {
  if (similarity < 1 || !isBox(recorded) || !(recorded.width > 0) || !(found.boundingBox.width > 0)) return null
  const scale = found.boundingBox.width / recorded.width
  return scale >= 0.5 && scale <= 2.5 ? Math.round(scale * 100) / 100 : null
}

/**
 * The OCR strategy: the recorded label read on the current screen (similarity ≥ `ocrThreshold`, exactly when short),
 * by a word read with trusted confidence, once or clearly nearest the recorded point; a text-less element by the
 * label beside or above it (`locateByAnchor`).
 */
export function ocrStrategy(ctx: ScreenContext): CascadeStep<UiElement> {
  const { step, source, text, labelConfidence, minLabelConfidence, ownLabel, anchorFrame, crop, screen } = ctx
  const canAnchor = anchorFrame !== null && crop !== null
  const ocrThresholdOption = ctx.ocrThreshold
  return {
    method: 'ocr',
    skip: !source.ocr
      ? 'the source has no OCR'
      : ownLabel === null && !canAnchor
        ? !text
          ? 'no target text recorded'
          : `the recorded label "${text.slice(0, 40)}" is low-confidence (${fmt(labelConfidence)} < ${fmt(minLabelConfidence)}): never used alone to click`
        : null,
    run: async () => {
      if (ownLabel === null) return locateByAnchor(ctx)
      // one character more or less in a short label is another label ("Ctrl+A" / "Ctrl+C", "7" / "1")
      const short = Array.from(comparisonKey(text)).length < SHORT_LABEL
      const ocrThreshold = short ? 1 : ocrThresholdOption
      const words = await (source.ocr as NonNullable<ScreenSource['ocr']>)(await screen())
      const all = words
        .filter((w) => isBox(w.boundingBox))
        .map((w) => ({ w, s: textSimilarity(text, w.text) }))
        .sort((a, b) => b.s - a.s)
      // a word read with low confidence is no place to click, however well its text agrees
      const ranked = all.filter((r) => (r.w.confidence ?? 1) >= minLabelConfidence)
      const [first, second] = ranked
      const unsure = all[0]
      if (!first && unsure && unsure.s >= ocrThreshold)
        return {
          outcome: 'below_threshold',
          candidates: all.length,
          confidence: unsure.s * (unsure.w.confidence ?? 0),
          detail: `"${unsure.w.text}" was read with confidence ${fmt(unsure.w.confidence ?? 0)} < ${fmt(minLabelConfidence)}`,
        }
      if (!first) return { outcome: 'none', candidates: 0 }
      if (first.s < ocrThreshold)
        return {
          outcome: 'below_threshold',
          candidates: ranked.length,
          confidence: first.s,
          detail: `best text "${first.w.text}" ${fmt(first.s)}`,
        }
      if (second && second.s >= first.s - 0.02) {
        // the same label twice: take the one nearer the recorded point, but only when clearly nearer
        const d = (w: OcrWord) =>
          Math.hypot(centerOf(w.boundingBox).x - step.original.x, centerOf(w.boundingBox).y - step.original.y)
        const [a, b] = [first, second].sort((p, q) => d(p.w) - d(q.w)) as [typeof first, typeof first]
        if (d(b.w) < 1.5 * d(a.w) + 1)
          return {
            outcome: 'ambiguous',
            candidates: ranked.length,
            confidence: first.s,
            detail: `"${first.w.text}" appears more than once`,
          }
        ranked[0] = a
      }
      const best = ranked[0] as typeof first
      const scale = textScale(step.target?.boundingBox, best.w, best.s)
      return {
        outcome: 'matched',
        element: {
          type: step.target?.type ?? 'text',
          text: best.w.text,
          boundingBox: best.w.boundingBox,
          confidence: best.w.confidence ?? null,
        },
        point: centerOf(best.w.boundingBox),
        ...(scale !== null ? { scale } : {}),
        confidence: best.s * (best.w.confidence ?? 1),
        candidates: ranked.length,
        ...(scale !== null && Math.abs(scale - 1) >= 0.03
          ? { detail: `the label is drawn ${scale.toFixed(2)}× as wide as recorded` }
          : {}),
      }
    },
  }
}
