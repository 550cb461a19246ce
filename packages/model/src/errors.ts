/**
 * The error base of every package: a permanent code, a message from the user's side, and a hint saying
 * what to do. Branch on `err.code`, not on `instanceof` (still works when a package is installed twice).
 */
export class QaError<C extends string = string> extends Error {
  readonly code: C
  readonly hint?: string

  constructor(code: C, message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.code = code
    if (opts.hint !== undefined) this.hint = opts.hint
  }

  override get name(): string {
    return 'QaError'
  }

  toJSON(): { name: string; code: C; message: string; hint?: string } {
    return { name: this.name, code: this.code, message: this.message, ...(this.hint ? { hint: this.hint } : {}) }
  }

  /** Normalises anything thrown into a QaError, once, at a boundary (CLI, server). */
  static from(error: unknown, code = 'UNEXPECTED'): QaError {
    if (isQaError(error)) return error
    if (error instanceof Error) return new QaError(code, error.message, { cause: error })
    return new QaError(code, String(error))
  }
}

export function isQaError(error: unknown): error is QaError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string' &&
    typeof (error as { toJSON?: unknown }).toJSON === 'function'
  )
}

/** One problem found while validating a document: where, what was expected, and what was there. */
export interface ValidationIssue {
  /** JSON path from the document root, e.g. `actions[3].x`; `$` for the root itself. */
  path: string
  expected: string
  /** A short rendering of the value found, e.g. `"12"`, `null`, `missing`. */
  got: string
}

export type ModelErrorCode =
  | 'MODEL_FILE_NOT_FOUND'
  | 'MODEL_FILE_UNREADABLE'
  | 'MODEL_FILE_TOO_LARGE'
  | 'MODEL_FILE_OUTSIDE_ROOT'
  | 'MODEL_INVALID_JSON'
  | 'MODEL_INVALID_ENCODING'
  | 'MODEL_INVALID'
  | 'MODEL_VERSION_UNSUPPORTED'
  | 'MODEL_WOULD_OVERWRITE'
  | 'MODEL_WRITE_FAILED'

export class ModelError extends QaError<ModelErrorCode> {
  /** The file the problem is in, when there is one. */
  readonly file?: string
  /** Every schema problem found (MODEL_INVALID), not only the first. */
  readonly issues: readonly ValidationIssue[]

  constructor(
    code: ModelErrorCode,
    message: string,
    opts: { hint?: string; cause?: unknown; file?: string; issues?: readonly ValidationIssue[] } = {},
  ) {
    super(code, message, opts)
    if (opts.file !== undefined) this.file = opts.file
    this.issues = opts.issues ?? []
  }

  override get name(): string {
    return 'ModelError'
  }

  override toJSON() {
    return { ...super.toJSON(), ...(this.file ? { file: this.file } : {}), issues: [...this.issues] }
  }
}

/** `actions[3].x: expected integer, got "12"` */
export function formatIssue(issue: ValidationIssue): string {
  return `${issue.path}: expected ${issue.expected}, got ${issue.got}`
}
