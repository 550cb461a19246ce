import type { AccuracyStats, ReplayResult, Verdict, VerificationResult } from './types'

export interface VerdictCounts {
  totalActions: number
  passedCount: number
  failedCount: number
  warningCount: number
  /** (passed + warning) / total; 0 when there are no actions. */
  successRate: number
}

/** Counts of a list of verification results (the three counts sum to the total). */
export function countVerdicts(results: readonly Pick<VerificationResult, 'finalResult'>[]): VerdictCounts {
  let passedCount = 0
  let failedCount = 0
  let warningCount = 0
  for (const r of results) {
    if (r.finalResult === 'pass') passedCount++
    else if (r.finalResult === 'warning') warningCount++
    else failedCount++
  }
  const totalActions = results.length
  return {
    totalActions,
    passedCount,
    failedCount,
    warningCount,
    successRate: successRate(passedCount, warningCount, totalActions),
  }
}

export function successRate(passed: number, warning: number, total: number): number {
  return total === 0 ? 0 : (passed + warning) / total
}

/** The test passes when no action failed; an empty run passes. */
export function determineTestResult(results: readonly Pick<VerificationResult, 'finalResult'>[]): boolean {
  return results.every((r) => r.finalResult !== 'fail')
}

/** Exit code of a finished run: 0 passed, 1 failed. */
export function exitCodeFor(passed: boolean): 0 | 1 {
  return passed ? 0 : 1
}

export const isVerdict = (v: unknown): v is Verdict => v === 'pass' || v === 'fail' || v === 'warning'

const NOT_LOCATED = new Set(['coordinate', 'none', 'failed'])

/**
 * Replay statistics of a list of results. Always: sum(byMethod) + failedCount = totalActions, and
 * semanticMatchCount + coordinateMatchCount + failedCount = totalActions.
 * `reasons` maps a failed result's actionId to a reason code; otherwise its errorMessage (or `unknown`).
 */
export function computeAccuracyStats(
  results: readonly ReplayResult[],
  reasons: ReadonlyMap<string, string> = new Map(),
): AccuracyStats {
  const byMethod = new Map<string, number>()
  const failureReasons = new Map<string, number>()
  let successCount = 0
  let semanticMatchCount = 0
  let confidenceSum = 0
  let shiftSum = 0
  let shiftCount = 0
  for (const r of results) {
    if (!r.success) {
      const reason = reasons.get(r.actionId) ?? (r.errorMessage.trim() || 'unknown')
      failureReasons.set(reason, (failureReasons.get(reason) ?? 0) + 1)
      continue
    }
    successCount++
    byMethod.set(r.method, (byMethod.get(r.method) ?? 0) + 1)
    if (!NOT_LOCATED.has(r.method)) semanticMatchCount++
    confidenceSum += r.matchConfidence
    if (r.coordinateChange) {
      shiftSum += Math.hypot(r.coordinateChange.x, r.coordinateChange.y)
      shiftCount++
    }
  }
  return {
    totalActions: results.length,
    successCount,
    failedCount: results.length - successCount,
    semanticMatchCount,
    coordinateMatchCount: successCount - semanticMatchCount,
    byMethod: Object.fromEntries(byMethod),
    failureReasons: Object.fromEntries(failureReasons),
    averageMatchConfidence: successCount === 0 ? 0 : Math.min(1, Math.max(0, confidenceSum / successCount)),
    averageCoordinateShift: shiftCount === 0 ? 0 : shiftSum / shiftCount,
  }
}
