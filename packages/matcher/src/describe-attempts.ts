import type { StrategyAttempt } from '@qa/model'

export interface DescribeAttemptsOptions {
  /** Name the skipped strategies too, with why they were skipped (default false). */
  skipped?: boolean
}

/**
 * The strategies a cascade tried, for a "not found" message: `direct: below_threshold (1), template: ambiguous
 * (2), ocr: none (0)`. Pure.
 */
export function describeAttempts(attempts: readonly StrategyAttempt[], opts: DescribeAttemptsOptions = {}): string {
  return attempts
    .filter((a) => opts.skipped || a.outcome !== 'skipped')
    .map((a) => {
      if (a.outcome === 'skipped') return `${a.strategy}: skipped${a.detail ? ` (${a.detail})` : ''}`
      const n = a.candidates !== undefined && a.candidates !== null ? ` (${a.candidates})` : ''
      return `${a.strategy}: ${a.outcome}${n}`
    })
    .join(', ')
}
