import { QaError } from '@qa/model'

/** Permanent codes: deprecate, never rename. Branch on `err.code`. */
export type VisionErrorCode =
  | 'VISION_AUTH'
  | 'VISION_RATE_LIMITED'
  | 'VISION_UNAVAILABLE'
  | 'VISION_TIMEOUT'
  | 'VISION_ABORTED'
  | 'VISION_BAD_REQUEST'
  | 'VISION_BAD_ANSWER'
  | 'VISION_BAD_IMAGE'
  | 'VISION_BAD_CONFIG'
  | 'VISION_SDK_MISSING'
  | 'VISION_OCR_DATA_MISSING'
  | 'VISION_UNSUPPORTED'
  | 'VISION_ALL_FAILED'

export interface VisionErrorOptions {
  hint?: string
  cause?: unknown
  /** The provider that failed. */
  provider?: string
  /** The raw model output, kept for the report when it could not be used. */
  raw?: string
  /** HTTP status of the failed call, when there was one. */
  status?: number
  /** Whether trying the same call again may succeed (throttling, 5xx, timeouts). */
  retryable?: boolean
}

const RETRYABLE: ReadonlySet<VisionErrorCode> = new Set(['VISION_RATE_LIMITED', 'VISION_UNAVAILABLE', 'VISION_TIMEOUT'])

export class VisionError extends QaError<VisionErrorCode> {
  readonly provider?: string
  readonly raw?: string
  readonly status?: number
  readonly retryable: boolean

  constructor(code: VisionErrorCode, message: string, opts: VisionErrorOptions = {}) {
    super(code, message, opts)
    if (opts.provider !== undefined) this.provider = opts.provider
    if (opts.raw !== undefined) this.raw = opts.raw
    if (opts.status !== undefined) this.status = opts.status
    this.retryable = opts.retryable ?? RETRYABLE.has(code)
  }

  override get name(): string {
    return 'VisionError'
  }

  override toJSON() {
    return {
      ...super.toJSON(),
      ...(this.provider ? { provider: this.provider } : {}),
      ...(this.status ? { status: this.status } : {}),
      ...(this.raw !== undefined ? { raw: this.raw } : {}),
    }
  }
}

export function isVisionError(error: unknown): error is VisionError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    (error as { code: string }).code.startsWith('VISION_')
  )
}
