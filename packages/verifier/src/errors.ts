import { QaError } from '@qa/model'

/** Permanent error codes of @qa/verifier: branch on `err.code`, never rename one. */
export type VerifierErrorCode =
  | 'VERIFIER_FILE_NOT_FOUND'
  | 'VERIFIER_FILE_UNREADABLE'
  | 'VERIFIER_EMPTY_IMAGE'
  | 'VERIFIER_NOT_AN_IMAGE'
  | 'VERIFIER_CORRUPT_IMAGE'
  | 'VERIFIER_BAD_FRAME'
  | 'VERIFIER_BAD_OPTION'
  | 'VERIFIER_SHARP_MISSING'
  | 'VERIFIER_IMAGE_TOO_LARGE'

export class VerifierError extends QaError<VerifierErrorCode> {
  override get name(): string {
    return 'VerifierError'
  }
}
