import type { HealingRecord, Point, ReplayMethod } from '@qa/model'
import type { LocateResult } from './internal/cascade'

export interface HealingRecordOptions {
  /** The strategy the step was recorded for; defaults to the first strategy that was not skipped. */
  primary?: ReplayMethod | null
  previousSelector?: string | null
  newSelector?: string | null
  /** The recorded click point, to fill `coordinateChange`. */
  original?: { x: number; y: number } | null
  /** Defaults to now. */
  healedAt?: Date | string
  verified?: boolean | null
}

/**
 * A `HealingRecord` (for the step's `healing_history`) when the element was found by another strategy than
 * the recorded one; null when the primary strategy found it, when nothing was found, or for a bare
 * coordinate fallback (not a heal).
 */
export function toHealingRecord(result: LocateResult<unknown>, opts: HealingRecordOptions = {}): HealingRecord | null {
  if (result.status !== 'found' || result.coordinateFallback) return null
  const primary = opts.primary ?? result.attempts.find((a) => a.outcome !== 'skipped')?.strategy
  if (primary === result.strategy) return null
  const record: HealingRecord = {
    healedAt: opts.healedAt instanceof Date ? opts.healedAt.toISOString() : (opts.healedAt ?? new Date().toISOString()),
    strategy: result.strategy,
    confidence: result.confidence,
    strategiesTried: result.attempts.map((a) => ({ ...a })),
  }
  if (opts.previousSelector !== undefined) record.previousSelector = opts.previousSelector
  if (opts.newSelector !== undefined) record.newSelector = opts.newSelector
  if (opts.original && result.point) {
    const change: Point = { x: result.point.x - opts.original.x, y: result.point.y - opts.original.y }
    record.coordinateChange = change
  }
  if (opts.verified !== undefined) record.verified = opts.verified
  return record
}
