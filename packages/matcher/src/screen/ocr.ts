import type { BoundingBox } from '@qa/model'
import { centerOf, isBox } from '../image/geometry'
import type { Frame } from '../image/frame'
import { type LabelRead, labelInkBox, labelReadImage, labelReadOf } from '../image/label-read'
import type { CascadeStep, StepOutcome } from '../internal/cascade'
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
 * by a word read with trusted confidence, once or clearly nearest the recorded point, else read again alone where
 * the whole screen's read glued it to its neighbours or read it unsure (`readAgainInPhrases`); a text-less element
 * by the label beside or above it (`locateByAnchor`).
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
      const ocr = source.ocr as NonNullable<ScreenSource['ocr']>
      const frame = await screen()
      const words = await ocr(frame)
      const found = fromWords(words, ocrThreshold)
      if (found.outcome !== 'none' && found.outcome !== 'below_threshold') return found
      // the label read glued to its neighbours, or unsure, in a read of the whole screen: read again alone
      return (await readAgainInPhrases(frame, words, ocrThreshold)) ?? found
    },
  }

  function fromWords(words: readonly OcrWord[], ocrThreshold: number): StepOutcome<UiElement> {
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
  }

  /**
   * The label inside phrases the whole screen's read glued it into, or read unsure ("Mines: 0/10 Time: 00:00 Easy"
   * at 0.44: a status bar's fields): each phrase holding the label's words (`labelPartsOf`, the nearest to the
   * recorded point first, at most `MAX_REREADS`) is read again on the label's own glyphs alone (`labelInkBox`,
   * `labelReadImage`), which must read the label (as the whole screen's read must) with trusted confidence. The
   * glyphs' box stops at a wider gap or a frame's border: a label within a sentence reads as the sentence and is
   * not taken. One such place, or one clearly nearest the recorded point, is matched; null when none.
   */
  async function readAgainInPhrases(
    frame: Frame,
    words: readonly OcrWord[],
    ocrThreshold: number,
  ): Promise<StepOutcome<UiElement> | null> {
    const ocr = source.ocr as NonNullable<ScreenSource['ocr']>
    const distance = (b: BoundingBox) => Math.hypot(centerOf(b).x - step.original.x, centerOf(b).y - step.original.y)
    const parts = words
      .filter((w) => isBox(w.boundingBox))
      .flatMap((w) => labelPartsOf(w, text, ocrThreshold).map((part) => ({ phrase: w, part })))
      .sort((a, b) => distance(a.part) - distance(b.part))
      .slice(0, MAX_REREADS)
    const hits: { read: LabelRead; phrase: OcrWord; s: number }[] = []
    for (const { phrase, part } of parts) {
      const box = labelInkBox(frame, part)
      const image = labelReadImage(frame, box)
      const read = labelReadOf(await ocr(image.image), image, box)
      if (!read || read.confidence < minLabelConfidence) continue
      const s = textSimilarity(text, read.text)
      if (s < ocrThreshold || hits.some((h) => overlaps(h.read.boundingBox, read.boundingBox))) continue
      hits.push({ read, phrase, s })
    }
    if (!hits.length) return null
    hits.sort((a, b) => distance(a.read.boundingBox) - distance(b.read.boundingBox))
    const [best, next] = hits as [(typeof hits)[number], ...typeof hits]
    if (next && distance(next.read.boundingBox) < 1.5 * distance(best.read.boundingBox) + 1)
      return {
        outcome: 'ambiguous',
        candidates: hits.length,
        confidence: best.s,
        detail: `"${best.read.text}" read again alone in ${hits.length} places`,
      }
    return {
      outcome: 'matched',
      element: {
        type: step.target?.type ?? 'text',
        text: best.read.text,
        boundingBox: best.read.boundingBox,
        confidence: best.read.confidence,
      },
      point: centerOf(best.read.boundingBox),
      confidence: best.s * best.read.confidence,
      candidates: hits.length,
      detail: `"${best.read.text}" read again alone (${fmt(best.read.confidence)}) in "${best.phrase.text.slice(0, 40)}" (${fmt(best.phrase.confidence ?? 0)}): its own glyphs, contrast stretched`,
    }
  }
}

/** At most this many phrases holding the label are read again alone (one small read each). */
const MAX_REREADS = 4

const overlaps = (a: BoundingBox, b: BoundingBox) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/**
 * Where a phrase read by OCR holds the label: for each run of as many of its words as the label has whose text is
 * the label (similarity ≥ `threshold`), the part of the phrase's box its characters take (in proportion to their
 * place in the phrase's text; the phrase's rows). Pure.
 */
export function labelPartsOf(phrase: OcrWord, label: string, threshold: number): BoundingBox[] {
  const n = label.trim().split(/\s+/).filter(Boolean).length
  const tokens = [...phrase.text.matchAll(/\S+/g)].map((m) => ({
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }))
  const length = phrase.text.length
  if (!n || !length || tokens.length < n) return []
  const out: BoundingBox[] = []
  for (let i = 0; i + n <= tokens.length; i++) {
    const start = (tokens[i] as { start: number }).start
    const end = (tokens[i + n - 1] as { end: number }).end
    if (textSimilarity(label, phrase.text.slice(start, end)) < threshold) continue
    const b = phrase.boundingBox
    const x0 = b.x + (b.width * start) / length
    const x1 = b.x + (b.width * end) / length
    out.push({ x: Math.floor(x0), y: b.y, width: Math.max(1, Math.ceil(x1) - Math.floor(x0)), height: b.height })
  }
  return out
}
