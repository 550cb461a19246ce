import type { ScreenTransition, SemanticInfo, TargetElement } from '@qa/model'
import { type ElementAtResult, lineNearness, TRUSTED_LABEL_SCORE, type UIAnalyzer } from '@qa/vision'

/** What the recorder and the enricher need of @qa/vision's UIAnalyzer. */
export type ElementAnalyzer = Pick<UIAnalyzer, 'analyzeElementAt' | 'inferIntent'> & {
  readonly lastCall?: { provider: string } | undefined
}

/** Seed 001 `semantic_info` from an element analysis; null when the analyzer saw no element. Pure. */
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

type ClickRead = Awaited<ReturnType<typeof analyzeClick>>

const labelText = (r: ClickRead) =>
  (r.semanticInfo?.targetElement?.text ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/**
 * The click's label from two reads of the item (issue 30): `atRest`, the frame from before the pointer came near,
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
