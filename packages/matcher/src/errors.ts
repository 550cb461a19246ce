import { QaError } from '@qa/model'

/** Permanent error codes of @qa/matcher. Deprecate a code, never rename it. */
export type MatcherErrorCode =
  | 'MATCHER_BAD_FRAME'
  | 'MATCHER_BAD_TEMPLATE'
  | 'MATCHER_FLAT_TEMPLATE'
  | 'MATCHER_BAD_OPTION'
  | 'MATCHER_BAD_ARGUMENT'

/** A broken input or setup (not a failed match: a failed match is a value, e.g. `null` or `not_found`). */
export class MatcherError extends QaError<MatcherErrorCode> {
  override get name(): string {
    return 'MatcherError'
  }
}

/** Throws MATCHER_BAD_OPTION unless `value` is a finite number in [min, max]. */
export function assertRange(field: string, value: number, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new MatcherError(
      'MATCHER_BAD_OPTION',
      `${field}: expected a number in [${min}, ${max}], got ${String(value)}.`,
      {
        hint: `Pass ${field} between ${min} and ${max}.`,
      },
    )
  }
}
