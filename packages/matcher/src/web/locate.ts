import type { ElementIdentity } from '@qa/model'
import { isBox } from '../image/geometry'
import { type CascadeStep, type LocateResult, runCascade } from '../internal/cascade'
import type { CandidateElement } from '../score-candidate'
import { webContext } from './context'
import { ariaLabelStrategy, roleStrategy, testIdStrategy, textStrategy } from './lookups'
import { nameStrategy } from './name'
import { selectorStrategies } from './selectors'
import { similarityStrategy } from './similarity'
import type { CandidateSource, LocateOptions } from './types'
import { visualStrategy } from './visual'

export type { LocateResult } from '../internal/cascade'
export {
  type CandidateSource,
  DEFAULT_VISUAL_THRESHOLD,
  type LocateOptions,
  type LookupAttribute,
  SAME_PIXELS_VISUAL_THRESHOLD,
  STRATEGY_BASE_CONFIDENCE,
  UNCHECKED_VISUAL_THRESHOLD,
  type VisualHit,
  WEB_STRATEGIES,
  type WebStrategy,
} from './types'

/**
 * The self-healing cascade for web steps: role+name → aria-label → form name → data-testid →
 * stored CSS → XPath → text → similarity → visual → coordinates. Precision rule: every element a strategy
 * returns must agree with what the user saw — its label agrees with the recorded one (≥ minLabelScore, and
 * it is not a recorded neighbour) and it stands where the user saw it (context ≥ minContextScore) — unless
 * it carries the recorded non-generated id (or, for the label only, data-testid / form name). A strategy
 * wins only with exactly one such visible element scoring at least `minExactScore`; several are resolved
 * by the similarity score (best ≥ minScore and ahead by minMargin), never by order. Never throws for a
 * failing source: the attempt is recorded as `error` and the cascade goes on.
 */
export async function locate<H = unknown>(
  identity: ElementIdentity,
  source: CandidateSource<H>,
  opts: LocateOptions = {},
): Promise<LocateResult<CandidateElement<H>>> {
  const ctx = webContext(identity, source, opts)
  const { step, recordedPoint } = ctx
  const [css, xpath] = selectorStrategies(ctx)
  const steps: CascadeStep<CandidateElement<H>>[] = [
    roleStrategy(ctx),
    ariaLabelStrategy(ctx),
    nameStrategy(ctx),
    testIdStrategy(ctx),
    css,
    xpath,
    textStrategy(ctx),
    similarityStrategy(ctx),
    visualStrategy(ctx),
    step(
      'coordinate',
      opts.allowCoordinateFallback ? null : 'coordinate fallback not allowed (allowCoordinateFallback)',
      async () => ({
        outcome: 'matched',
        element: { boundingBox: isBox(identity.boundingBox) ? identity.boundingBox : null },
        point: { x: recordedPoint.x, y: recordedPoint.y },
        confidence: 0,
        detail: 'recorded coordinates',
      }),
    ),
  ]
  return runCascade(steps)
}
