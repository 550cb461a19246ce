/** Permanent error codes of @qa/sample-app. */
export type SampleAppErrorCode =
  | 'SAMPLE_APP_UNKNOWN_MUTATION'
  | 'SAMPLE_APP_UNKNOWN_VERSION'
  | 'SAMPLE_APP_BAD_OPTION'
  | 'SAMPLE_APP_LISTEN_FAILED'
  | 'SAMPLE_APP_EVENT_TIMEOUT'

/**
 * Error of the sample app. Same shape as `QaError` of @qa/model (code, message, hint, toJSON); the package
 * keeps zero runtime dependencies, so it does not import @qa/model.
 */
export class SampleAppError extends Error {
  override readonly name = 'SampleAppError'
  readonly hint?: string
  constructor(
    readonly code: SampleAppErrorCode,
    message: string,
    opts: { hint?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause })
    if (opts.hint !== undefined) this.hint = opts.hint
  }
  toJSON() {
    return { name: this.name, code: this.code, message: this.message, hint: this.hint }
  }
}
