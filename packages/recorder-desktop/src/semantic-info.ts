import type { ScreenTransition, SemanticInfo, TargetElement } from '@qa/model'
import type { ElementAtResult, UIAnalyzer } from '@qa/vision'

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
