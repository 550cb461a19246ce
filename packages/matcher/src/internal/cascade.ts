import type { ReplayMethod, StrategyAttempt, StrategyOutcome } from '@qa/model'
import type { XY } from '../image/geometry'

/** What one strategy found. Only `matched` ends the cascade. */
export type StepOutcome<E> =
  | {
      outcome: 'matched'
      element: E
      point: XY
      confidence: number
      candidates?: number
      detail?: string
      /** The found element's size relative to what was recorded, when the strategy measured it. */
      scale?: number
    }
  | {
      outcome: Exclude<StrategyOutcome, 'matched' | 'error'>
      candidates?: number
      confidence?: number
      detail?: string
      /** The best candidate's point, when there was one that did not qualify (a near miss). */
      near?: XY
    }

export interface CascadeStep<E> {
  method: ReplayMethod
  /** When set, the step is recorded as `skipped` with this reason and not run. */
  skip?: string | null
  run: () => Promise<StepOutcome<E>>
}

export interface LocateResult<E> {
  status: 'found' | 'not_found'
  /** The strategy that found the element; `failed` when none did. */
  strategy: ReplayMethod
  /** 0–1; 0 for a coordinate fallback and for not_found. */
  confidence: number
  element?: E
  /** Where to act (the element's centre, or the recorded point for a coordinate fallback). */
  point?: XY
  /**
   * The found element's size relative to the recorded one, when the strategy measured it (a template match at
   * 1.3×, a label read 1.24× as wide): what the step's expected region scales by.
   */
  scale?: number
  /** True when nothing located the element and the recorded coordinates were used instead. */
  coordinateFallback: boolean
  /** Every strategy, in order, with its outcome (→ `healing_history`, `strategies_tried`). */
  attempts: StrategyAttempt[]
  /** Not found: the best candidate a strategy saw and did not take (for a second look, e.g. after hovering it). */
  nearMiss?: { strategy: ReplayMethod; point: XY; confidence: number }
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now())
const round = (v: number, digits = 4): number => Math.round(v * 10 ** digits) / 10 ** digits

/** Runs the steps in order; the first `matched` wins. A throwing step is recorded as `error` and skipped. */
export async function runCascade<E>(steps: readonly CascadeStep<E>[]): Promise<LocateResult<E>> {
  const attempts: StrategyAttempt[] = []
  let nearMiss: LocateResult<E>['nearMiss']
  for (const step of steps) {
    if (step.skip) {
      attempts.push({ strategy: step.method, outcome: 'skipped', detail: step.skip })
      continue
    }
    const started = now()
    let out: StepOutcome<E>
    try {
      out = await step.run()
    } catch (error) {
      attempts.push({
        strategy: step.method,
        outcome: 'error',
        durationMs: round(now() - started, 3),
        detail: error instanceof Error ? error.message : String(error),
      })
      continue
    }
    const attempt: StrategyAttempt = {
      strategy: step.method,
      outcome: out.outcome,
      durationMs: round(now() - started, 3),
    }
    if (out.candidates !== undefined) attempt.candidates = out.candidates
    if (out.confidence !== undefined) attempt.confidence = round(out.confidence)
    if (out.detail) attempt.detail = out.detail
    attempts.push(attempt)
    if (out.outcome !== 'matched' && out.near && (!nearMiss || (out.confidence ?? 0) > nearMiss.confidence))
      nearMiss = { strategy: step.method, point: out.near, confidence: out.confidence ?? 0 }
    if (out.outcome === 'matched') {
      return {
        status: 'found',
        strategy: step.method,
        confidence: round(out.confidence),
        element: out.element,
        point: out.point,
        ...(out.scale !== undefined ? { scale: out.scale } : {}),
        coordinateFallback: step.method === 'coordinate',
        attempts,
      }
    }
  }
  return {
    status: 'not_found',
    strategy: 'failed',
    confidence: 0,
    coordinateFallback: false,
    attempts,
    ...(nearMiss ? { nearMiss } : {}),
  }
}
