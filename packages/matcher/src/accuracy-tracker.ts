import { type AccuracyStats, computeAccuracyStats, type Point, type ReplayMethod, type ReplayResult } from '@qa/model'
import { MatcherError } from './errors'

/** What the tracker needs of an action: its recorded point; an id and index when the caller has them. */
export interface TrackedAction {
  x: number
  y: number
  actionId?: string | null
  actionIndex?: number | null
  description?: string | null
}

export type CoordinateChange = Point | readonly [number, number] | { x: number; y: number }

/** `accuracy_tracker`: one ReplayResult per recorded outcome, and the statistics over them. */
export interface AccuracyTracker {
  /** The action was replayed; `method` says how it was located (`coordinate` for raw coordinates). */
  recordSuccess(
    action: TrackedAction,
    method: ReplayMethod,
    coordinateChange?: CoordinateChange | null,
    confidence?: number,
  ): ReplayResult
  /** The action failed; `reason` is a short code such as `element_not_found` or `unexpected_transition`. */
  recordFailure(action: TrackedAction, reason: string): ReplayResult
  results(): ReplayResult[]
  /** Always: semantic + coordinate + failed = total (the counts always add up), via @qa/model computeAccuracyStats. */
  stats(): AccuracyStats
  reset(): void
}

const toPoint = (c: CoordinateChange): Point => {
  if (Array.isArray(c)) return { x: Number(c[0]), y: Number(c[1]) }
  const p = c as { x: number; y: number }
  return { x: p.x, y: p.y }
}

export function createAccuracyTracker(): AccuracyTracker {
  let list: ReplayResult[] = []
  const base = (action: TrackedAction) => {
    if (!action || !Number.isFinite(action.x) || !Number.isFinite(action.y)) {
      throw new MatcherError('MATCHER_BAD_ARGUMENT', 'The tracked action has no numeric x and y.', {
        hint: 'Pass the recorded action (it has x and y), or { x, y, actionId }.',
      })
    }
    const index = list.length
    return {
      actionId: action.actionId ?? `action_${String(action.actionIndex ?? index).padStart(4, '0')}`,
      actionIndex: action.actionIndex ?? index,
      originalCoords: { x: action.x, y: action.y },
    }
  }
  return {
    recordSuccess(action, method, coordinateChange, confidence) {
      if (method === 'failed') {
        throw new MatcherError('MATCHER_BAD_ARGUMENT', 'recordSuccess was called with method "failed".', {
          hint: 'Call recordFailure(action, reason) for a failed action.',
        })
      }
      const b = base(action)
      const change = coordinateChange ? toPoint(coordinateChange) : null
      const result: ReplayResult = {
        ...b,
        success: true,
        method,
        actualCoords: change
          ? { x: b.originalCoords.x + change.x, y: b.originalCoords.y + change.y }
          : { ...b.originalCoords },
        coordinateChange: change,
        matchConfidence: Math.min(1, Math.max(0, confidence ?? (method === 'coordinate' ? 0 : 1))),
        screenTransitionVerified: false,
        errorMessage: '',
      }
      list.push(result)
      return result
    },
    recordFailure(action, reason) {
      const b = base(action)
      const result: ReplayResult = {
        ...b,
        success: false,
        method: 'failed',
        actualCoords: null,
        coordinateChange: null,
        matchConfidence: 0,
        screenTransitionVerified: false,
        errorMessage: reason?.trim() || 'unknown',
      }
      list.push(result)
      return result
    },
    results: () => list.map((r) => ({ ...r })),
    stats: () => computeAccuracyStats(list),
    reset() {
      list = []
    },
  }
}
