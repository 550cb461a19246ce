import { QaError } from '@qa/model'

export type PlaywrightQaErrorCode =
  | 'PW_NO_SUCH_STEP'
  | 'PW_NO_IDENTITY'
  | 'PW_ELEMENT_NOT_FOUND'
  | 'PW_NOT_A_WEB_CASE'
  | 'PW_CASE_FAILED'
  | 'PW_NO_ASSERTION'

export class PlaywrightQaError extends QaError<PlaywrightQaErrorCode> {
  override get name(): string {
    return 'PlaywrightQaError'
  }
}
