import type { BoundingBox, ScreenTransition, SemanticInfo, TargetElement } from '@qa/model'
import type { RgbaFrame } from './frame'
import { type ElementAtResult, lineNearness, TRUSTED_LABEL_SCORE, type UIAnalyzer } from '@qa/vision'

/** What the recorder and the enricher need of @qa/vision's UIAnalyzer (`analyzeScreen`, when given: a label read again on its own box). */
export type ElementAnalyzer = Pick<UIAnalyzer, 'analyzeElementAt' | 'inferIntent'> &
  Partial<Pick<UIAnalyzer, 'analyzeScreen'>> & {
    readonly lastCall?: { provider: string } | undefined
  }

/** `semantic_info` from an element analysis; null when the analyzer saw no element. Pure. */
export function toSemanticInfo(
  result: ElementAtResult,
  intent: string,
  transition?: ScreenTransition | null,
): SemanticInfo | null {
  const e = result.element
  if (!e) return null
  const target: TargetElement = {
    type: e.type || 'unknown',
    text: e.text ?? null,
    description: e.description ?? null,
    boundingBox: { ...e.boundingBox },
    confidence: typeof e.confidence === 'number' ? e.confidence : null,
  }
  if (result.visualFeatures !== undefined && result.visualFeatures !== null)
    target.visualFeatures = result.visualFeatures as TargetElement['visualFeatures']
  if (result.relativePosition) target.relativePosition = result.relativePosition
  const context: NonNullable<SemanticInfo['context']> = { screenState: result.screenState ?? null }
  if (result.nearbyElements?.length) context.nearbyElements = [...result.nearbyElements]
  if (transition?.resultState) context.expectedResult = transition.resultState
  return { intent, targetElement: target, context }
}

/** Runs the element analysis and builds semantic_info; `status` is `pending` when no provider could see it. */
export async function analyzeClick(
  analyzer: ElementAnalyzer,
  image: Uint8Array,
  x: number,
  y: number,
  transition?: ScreenTransition | null,
): Promise<{ semanticInfo: SemanticInfo | null; status: 'enriched' | 'pending'; error?: string }> {
  try {
    const result = await analyzer.analyzeElementAt(image, x, y)
    const intent = analyzer.inferIntent(
      result.element ? { ...result.element, ...(result.intent ? { intent: result.intent } : {}) } : null,
      transition ?? null,
    )
    const info = toSemanticInfo(result, intent, transition)
    return info
      ? { semanticInfo: info, status: 'enriched' }
      : { semanticInfo: null, status: 'pending', error: 'no element seen at the point' }
  } catch (error) {
    return { semanticInfo: null, status: 'pending', error: error instanceof Error ? error.message : String(error) }
  }
}

export type ClickRead = Awaited<ReturnType<typeof analyzeClick>>

const labelText = (r: ClickRead) =>
  (r.semanticInfo?.targetElement?.text ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/**
 * The click's label from two reads of the item: `atRest`, the frame from before the pointer came near,
 * and `pressed`, the frame at the press (a game item lit up, enlarged, recoloured under the pointer, often read
 * worse than its neighbours). Reads that agree give the surer one. Reads that disagree: the one whose text lies on
 * the click's own line (the item at rest first, the look replay sees with the pointer elsewhere); when neither or
 * both do, the surer one, kept as a low-confidence label (under TRUSTED_LABEL_SCORE: never shown as what was
 * clicked, never used alone to click). Pure.
 */
export function pickClickLabel(atRest: ClickRead, pressed: ClickRead, y: number): ClickRead {
  const a = labelText(atRest)
  const p = labelText(pressed)
  if (!a) return p ? pressed : atRest.semanticInfo ? atRest : pressed
  if (!p) return atRest
  const score = (r: ClickRead) => r.semanticInfo?.targetElement?.confidence ?? 0
  if (a === p) return score(pressed) > score(atRest) ? pressed : atRest
  const onLine = (r: ClickRead) => {
    const box = r.semanticInfo?.targetElement?.boundingBox
    return box ? lineNearness(box, y) === 1 : false
  }
  if (onLine(atRest) !== onLine(pressed)) return onLine(atRest) ? atRest : pressed
  const surer = score(pressed) > score(atRest) ? pressed : atRest
  const target = surer.semanticInfo?.targetElement
  if (!surer.semanticInfo || !target) return surer
  const capped = Math.min(score(surer), TRUSTED_LABEL_SCORE - 0.01)
  return {
    ...surer,
    semanticInfo: {
      ...surer.semanticInfo,
      targetElement: {
        ...target,
        confidence: capped,
        description: `two reads disagree ("${target.text}" and "${(surer === atRest ? pressed : atRest).semanticInfo?.targetElement?.text}"): low-confidence label`,
      },
    },
  }
}

/** The box around every pixel that differs between two frames of one size (any channel by more than 24), or null. */
export function changedBox(a: RgbaFrame, b: RgbaFrame): BoundingBox | null {
  if (a.width !== b.width || a.height !== b.height) return null
  let x0 = a.width
  let y0 = a.height
  let x1 = -1
  let y1 = -1
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 4
      if (
        Math.abs((a.data[i] as number) - (b.data[i] as number)) > 24 ||
        Math.abs((a.data[i + 1] as number) - (b.data[i + 1] as number)) > 24 ||
        Math.abs((a.data[i + 2] as number) - (b.data[i + 2] as number)) > 24
      ) {
        if (x < x0) x0 = x
        if (x > x1) x1 = x
        if (y < y0) y0 = y
        if (y > y1) y1 = y
      }
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 }
}

/**
 * A click whose only effect was to change the text it was read on (a toggle's value, "On" → "Off", a choice
 * cycling through its values): that text is what the click changes, not what it means. True when every pixel that
 * changed lies within the label's box grown by its height up and down and by its width (at least two heights)
 * sideways. Pure.
 */
export function clickChangedOnlyItsLabel(label: BoundingBox, before: RgbaFrame, after: RgbaFrame): boolean {
  const changed = changedBox(before, after)
  if (!changed) return false
  // a value's text grows or shrinks sideways ("On" → "Off", "8" → "10"), within its own line
  const my = Math.max(4, label.height)
  const mx = Math.max(2 * label.height, label.width)
  return (
    changed.x >= label.x - mx &&
    changed.y >= label.y - my &&
    changed.x + changed.width <= label.x + label.width + mx &&
    changed.y + changed.height <= label.y + label.height + my
  )
}

/** How far left of a toggle's value the recorder looks for its row's label, and in what steps. */
const ROW_LABEL_STEP = 60
const ROW_LABEL_PROBES = 6
/** Texts that read as a setting's value rather than as what a control does. */
const VALUE_WORD = /^(on|off|yes|no|true|false|enabled|disabled|an|aus|ein|ja|nein|\d+\s*%?)$/i

/**
 * The label of a toggle's row: when the click's read label is the value the click changed,
 * the element analysis is asked again further left on the same line, step by step, for a trusted label on the
 * click's line whose place the click did not change ("Sound:" of "Sound:  On"). Null when none is found.
 */
export async function rowLabelOfToggle(
  analyzer: ElementAnalyzer,
  image: Uint8Array,
  y: number,
  value: BoundingBox,
  valueText: string,
  before: RgbaFrame,
  after: RgbaFrame,
  transition?: ScreenTransition | null,
): Promise<ClickRead | null> {
  for (let k = 1; k <= ROW_LABEL_PROBES; k++) {
    const px = value.x - k * ROW_LABEL_STEP + ROW_LABEL_STEP / 2
    if (px < 0) break
    const r = await analyzeClick(analyzer, image, px, y, transition)
    const t = r.semanticInfo?.targetElement
    const box = t?.boundingBox
    if (!t?.text || !box || (t.confidence ?? 0) < TRUSTED_LABEL_SCORE) continue
    if (lineNearness(box, y) !== 1 || box.x + box.width > value.x) continue
    if (changedWithin(box, before, after)) continue
    // a row's label ("Sound:"), or any text left of a value that reads as one ("On", "Off", "8"): never the
    // neighbouring button of a button whose own text changed ("New" left of "Pause" → "Resume")
    if (!/:\s*$/.test(t.text) && !VALUE_WORD.test(valueText.trim())) continue
    return r
  }
  return null
}

/** Some pixel inside `box` differs between the frames. Pure. */
function changedWithin(box: BoundingBox, a: RgbaFrame, b: RgbaFrame): boolean {
  for (let y = Math.max(0, box.y); y < Math.min(a.height, box.y + box.height); y++) {
    for (let x = Math.max(0, box.x); x < Math.min(a.width, box.x + box.width); x++) {
      const i = (y * a.width + x) * 4
      if (Math.abs((a.data[i] as number) - (b.data[i] as number)) > 24) return true
    }
  }
  return false
}
