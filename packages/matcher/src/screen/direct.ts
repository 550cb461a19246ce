import type { BoundingBox } from '@qa/model'
import type { Frame } from '../image/match-template'
import { templateScoreAt } from '../image/match-template'
import type { CascadeStep } from '../internal/cascade'
import { fmt, type ScreenContext } from './context'
import type { UiElement } from './find-matching-element'

/** The fast path: the recorded crop's pixels still at the recorded place (NCC ≥ `directThreshold`), no analysis. */
export function directStrategy(ctx: ScreenContext): CascadeStep<UiElement> {
  const { crop, cropBox, step, directThreshold, screen } = ctx
  return {
    method: 'direct',
    skip: crop && cropBox ? null : 'no recorded crop',
    run: async () => {
      const box = cropBox as BoundingBox
      // the animation inside the crop, in crop pixels: not evidence either way
      const animated = (step.animated ?? []).map((a) => ({
        x: a.x - box.x,
        y: a.y - box.y,
        width: a.width,
        height: a.height,
      }))
      const score = templateScoreAt(await screen(), crop as Frame, box.x, box.y, animated)
      if (score < directThreshold)
        return {
          outcome: 'below_threshold',
          candidates: 1,
          confidence: Math.max(0, score),
          detail: `NCC at the recorded place ${fmt(score)} < ${fmt(directThreshold)}`,
          near: { x: step.original.x, y: step.original.y },
        }
      return {
        outcome: 'matched',
        element: {
          type: step.target?.type ?? 'unknown',
          text: step.target?.text ?? null,
          boundingBox: cropBox as BoundingBox,
        },
        point: { x: step.original.x, y: step.original.y },
        confidence: score,
        candidates: 1,
      }
    },
  }
}
