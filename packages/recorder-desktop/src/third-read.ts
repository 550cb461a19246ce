import type { BoundingBox, ScreenTransition } from '@qa/model'
import {
  comparisonKey,
  type LabelReadImage,
  labelInkBox,
  labelReadImage,
  labelReadOf,
  textSimilarity,
} from '@qa/matcher'
import { lineNearness, TRUSTED_LABEL_SCORE, type UiElement } from '@qa/vision'
import type { RgbaFrame } from './frame'
import { analyzeClick, type ClickRead, type ElementAnalyzer, pickClickLabel } from './semantic-info'

/** Two reads of one label agree from this text similarity (0.75: "dard" for "Hard", "fficulty" for "Difficulty"). */
const READS_AGREE = 0.75

/**
 * The words read again on the label's own box (`labelReadImage`) as one read of the click's label (`labelReadOf`),
 * or null. Pure.
 */
export function thirdReadOf(
  words: readonly UiElement[],
  read: LabelReadImage,
  label: BoundingBox,
  intent: string,
): ClickRead | null {
  const got = labelReadOf(words, read, label)
  if (!got) return null
  return {
    status: 'enriched',
    semanticInfo: {
      intent,
      targetElement: {
        type: 'text',
        text: got.text,
        description: null,
        boundingBox: got.boundingBox,
        confidence: got.confidence,
      },
      context: { screenState: null },
    },
  }
}

const textOf = (r: ClickRead | null) => r?.semanticInfo?.targetElement?.text?.trim() ?? ''
const confidenceOf = (r: ClickRead | null) => r?.semanticInfo?.targetElement?.confidence ?? 0
const onLine = (r: ClickRead | null, y: number) => {
  const box = r?.semanticInfo?.targetElement?.boundingBox
  return box ? lineNearness(box, y) === 1 : false
}

/**
 * The box the third read looks at: the box of a read on the click's line (at most one text height left or right of
 * the click), the one nearest the click, widened over its whole text (`labelInkBox`). Null when no read lies
 * there: a label is never settled from a neighbour's line. Pure.
 */
export function thirdReadBox(
  frame: RgbaFrame,
  reads: readonly (ClickRead | null)[],
  x: number,
  y: number,
): BoundingBox | null {
  let best: { box: BoundingBox; distance: number } | null = null
  for (const r of reads) {
    const box = r?.semanticInfo?.targetElement?.boundingBox
    if (!box || !textOf(r) || !onLine(r, y)) continue
    const distance = Math.max(0, box.x - x, x - (box.x + box.width))
    if (distance > Math.max(8, box.height)) continue
    if (!best || distance < best.distance) best = { box, distance }
  }
  if (!best) return null
  const ink = labelInkBox(frame, best.box)
  return ink.width > 0 && ink.height > 0 ? ink : null
}

/**
 * Two of three reads of a click's label settle it. `reads` are the first two (the item at rest and as pressed; one
 * may be missing), `third` the read of the label's own box alone. When the third read agrees with one of them (text
 * similarity ≥ 0.75, which allows OCR noise: "dard" and "Hard", a read cut short, "fficulty" and "Difficulty"),
 * on the click's line, the label is the third read's text, trusted (confidence at least TRUSTED_LABEL_SCORE): as the
 * surer of the reads that read exactly that text, else as the third read itself (the label's whole box, never
 * cut short). Otherwise null: the label stays as the first two reads left it (untrusted). Pure.
 */
export function settleByThirdRead(
  reads: readonly (ClickRead | null)[],
  third: ClickRead | null,
  y: number,
): ClickRead | null {
  if (!third?.semanticInfo || !textOf(third) || !onLine(third, y)) return null
  const agreeing = reads.filter(
    (r): r is ClickRead => !!r?.semanticInfo && onLine(r, y) && textSimilarity(textOf(r), textOf(third)) >= READS_AGREE,
  )
  if (!agreeing.length) return null
  const exact = agreeing.filter((r) => comparisonKey(textOf(r)) === comparisonKey(textOf(third)))
  const chosen = exact.reduce((a, b) => (confidenceOf(b) > confidenceOf(a) ? b : a), third)
  const target = chosen.semanticInfo?.targetElement
  if (!chosen.semanticInfo || !target) return null
  const others = [third, ...agreeing].filter((r) => r !== chosen).map((r) => `"${textOf(r)}"`)
  return {
    ...chosen,
    semanticInfo: {
      ...chosen.semanticInfo,
      targetElement: {
        ...target,
        confidence: Math.max(...[third, ...agreeing].map(confidenceOf), TRUSTED_LABEL_SCORE),
        description: `read alike by two of three reads (${others.join(', ')}; a third read of the label's own box)`,
      },
    },
  }
}

/** The frames of one click, as PNG bytes (for the element analysis) and pixels (for the label's own box). */
export interface ClickFrames {
  /** The frame at the press (the item lit, enlarged, recoloured under the pointer). */
  pressed: { png: Uint8Array; frame: RgbaFrame }
  /** The frame from before the pointer came near (the look replay sees), when the ring had one. */
  atRest: { png: Uint8Array; frame: RgbaFrame } | null
}

/**
 * The click's label: the element analysis of both looks (`pickClickLabel`), and when that leaves it untrusted
 * (the reads disagree, or the one read is unsure), a third read of the label's own box alone (`labelReadImage`)
 * in the look at rest, settled two of three (`settleByThirdRead`).
 */
export async function readClickLabel(
  analyzer: ElementAnalyzer,
  frames: ClickFrames,
  x: number,
  y: number,
  transition?: ScreenTransition | null,
): Promise<ClickRead> {
  const pressed = await analyzeClick(analyzer, frames.pressed.png, x, y, transition)
  const atRest = frames.atRest ? await analyzeClick(analyzer, frames.atRest.png, x, y, transition) : null
  const picked = atRest ? pickClickLabel(atRest, pressed, y) : pressed
  const target = picked.semanticInfo?.targetElement
  const trusted = typeof target?.confidence !== 'number' || target.confidence >= TRUSTED_LABEL_SCORE
  if (!analyzer.analyzeScreen || !target?.text || trusted) return picked
  const frame = (frames.atRest ?? frames.pressed).frame
  const box = thirdReadBox(frame, [atRest, pressed], x, y)
  if (!box) return picked
  try {
    const read = labelReadImage(frame, box)
    const words = (await analyzer.analyzeScreen(read.image)).elements
    const third = thirdReadOf(words, read, box, picked.semanticInfo?.intent ?? 'click')
    return settleByThirdRead([atRest, pressed], third, y) ?? picked
  } catch {
    return picked
  }
}
