import { QaError } from '@qa/model'

/** Permanent error codes of the runner and the server API (never renamed; deprecate instead). */
export type ServerErrorCode =
  | 'SERVER_BAD_REQUEST'
  | 'SERVER_NOT_FOUND'
  | 'SERVER_SUITE_NOT_FOUND'
  | 'SERVER_RUN_NOT_FOUND'
  | 'SERVER_UNAUTHORIZED'
  | 'SERVER_FORBIDDEN_HOST'
  | 'SERVER_TOKEN_REQUIRED'
  | 'SERVER_BAD_OPTION'
  | 'SERVER_DIR_NOT_FOUND'
  | 'SERVER_INTERNAL'

/** HTTP status each code is answered with. */
export const STATUS_OF: Readonly<Record<ServerErrorCode, number>> = {
  SERVER_BAD_REQUEST: 400,
  SERVER_NOT_FOUND: 404,
  SERVER_SUITE_NOT_FOUND: 404,
  SERVER_RUN_NOT_FOUND: 404,
  SERVER_UNAUTHORIZED: 401,
  SERVER_FORBIDDEN_HOST: 403,
  SERVER_TOKEN_REQUIRED: 400,
  SERVER_BAD_OPTION: 400,
  SERVER_DIR_NOT_FOUND: 400,
  SERVER_INTERNAL: 500,
}

/** An error of the server: a permanent code, what happened, what to do; sent to clients as `{ code, message, hint }`. */
export class ServerError extends QaError<ServerErrorCode> {
  /** Extra JSON fields sent with the error (e.g. the list of suite names). */
  readonly details?: Record<string, unknown>
  constructor(
    code: ServerErrorCode,
    message: string,
    opts: { hint?: string; cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(code, message, opts)
    if (opts.details) this.details = opts.details
  }
  override get name(): string {
    return 'ServerError'
  }
  get statusCode(): number {
    return STATUS_OF[this.code]
  }
}
