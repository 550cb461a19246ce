import type { TargetElement } from '@qa/model'
import type { CascadeStep } from '../internal/cascade'
import { fmt, type ScreenContext } from './context'
import { decideReplayTarget, findMatchingElement, type UiElement } from './find-matching-element'
import type { ScreenSource } from './types'

/** The screen analysis (a vision model) and `findMatchingElement`: the best element at confidence ≥ `semanticThreshold`. */
export function semanticStrategy(ctx: ScreenContext): CascadeStep<UiElement> {
  const { step, source, opts, semanticThreshold, screen } = ctx
  return {
    method: 'semantic',
    skip: !step.target ? 'no target_element recorded' : !source.analyze ? 'the source has no screen analysis' : null,
    run: async () => {
      const analysis = await (source.analyze as NonNullable<ScreenSource['analyze']>)(await screen())
      const match = findMatchingElement(step.target as TargetElement, analysis, opts.match)
      const decision = decideReplayTarget(match, step.original, semanticThreshold)
      if (!match) return { outcome: 'none', candidates: analysis.elements?.length ?? 0 }
      if (!decision.useMatch)
        return {
          outcome: 'below_threshold',
          candidates: analysis.elements.length,
          confidence: match.confidence,
          detail: `best element confidence ${fmt(match.confidence)} < ${fmt(semanticThreshold)}`,
        }
      return {
        outcome: 'matched',
        element: match.element,
        point: decision.coords,
        confidence: match.confidence,
        candidates: analysis.elements.length,
      }
    },
  }
}
