import type { BoundingBox } from '@qa/model'
import { isBox } from '../image/geometry'
import { type CascadeStep, type LocateResult, runCascade } from '../internal/cascade'
import { screenContext } from './context'
import { directStrategy } from './direct'
import type { UiElement } from './find-matching-element'
import { ocrStrategy } from './ocr'
import { semanticStrategy } from './semantic'
import { templateStrategy } from './template'
import { languageOrdinalStrategy } from './language-ordinal'
import { languagePlaceStrategy } from './language-place'
import type { LocateOnScreenOptions, ScreenSource, ScreenTarget } from './types'
import { windowPlaceStrategy } from './window-place'

export type { LocateOnScreenOptions, OcrWord, ScreenSource, ScreenTarget, WindowPlacement } from './types'

/**
 * The desktop healing cascade on the same engine as the web one: direct (recorded pixels still there,
 * no LLM call) → semantic (analysis + `findMatchingElement`, confidence ≥ 0.7) → template (multi-scale NCC
 * of the recorded crop) → OCR text search → recorded coordinates (only with `allowCoordinateFallback`). The
 * screen is captured once.
 */
export async function locateOnScreen(
  step: ScreenTarget,
  source: ScreenSource,
  opts: LocateOnScreenOptions = {},
): Promise<LocateResult<UiElement>> {
  const ctx = screenContext(step, source, opts)
  const atWindowPlace = windowPlaceStrategy(ctx)
  const inAnotherLanguage = languagePlaceStrategy(ctx)
  const byOrdinal = languageOrdinalStrategy(ctx)
  const steps: CascadeStep<UiElement>[] = [
    directStrategy(ctx),
    semanticStrategy(ctx),
    templateStrategy(ctx),
    ocrStrategy(ctx),
    ...(atWindowPlace ? [atWindowPlace] : []),
    ...(inAnotherLanguage ? [inAnotherLanguage] : []),
    ...(byOrdinal ? [byOrdinal] : []),
    {
      method: 'coordinate',
      skip: opts.allowCoordinateFallback
        ? null
        : 'coordinate fallback not allowed (allowCoordinateFallback; `qa replay --allow-coordinates`)',
      run: async () => ({
        outcome: 'matched',
        element: {
          type: step.target?.type ?? 'unknown',
          text: step.target?.text ?? null,
          boundingBox: isBox(step.target?.boundingBox)
            ? (step.target?.boundingBox as BoundingBox)
            : { x: step.original.x, y: step.original.y, width: 0, height: 0 },
        },
        point: { x: step.original.x, y: step.original.y },
        confidence: 0,
        detail: 'recorded coordinates',
      }),
    },
  ]
  return runCascade(steps)
}
