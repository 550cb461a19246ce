import { QaError } from '@qa/model'

export type DesktopErrorCode =
  | 'DESKTOP_NO_DISPLAY'
  | 'DESKTOP_NO_RECORD'
  | 'DESKTOP_NATIVE_MISSING'
  | 'DESKTOP_CAPTURE_FAILED'
  | 'DESKTOP_INPUT_FAILED'
  | 'DESKTOP_BAD_OPTION'
  | 'DESKTOP_BAD_STATE'
  | 'DESKTOP_NOT_DESKTOP_CASE'
  | 'DESKTOP_GAME_FAILED'
  | 'DESKTOP_FIELD_NOT_FOUND'

/** Errors of @qa/recorder-desktop; branch on `err.code`. */
export class DesktopError extends QaError<DesktopErrorCode> {
  override get name(): string {
    return 'DesktopError'
  }
}
