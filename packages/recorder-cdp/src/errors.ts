import { QaError } from '@qa/model'

export type WebErrorCode =
  | 'WEB_BROWSER_NOT_FOUND'
  | 'WEB_BROWSER_LAUNCH_FAILED'
  | 'WEB_CDP_CONNECT_FAILED'
  | 'WEB_URL_UNREACHABLE'
  | 'WEB_BAD_URL'
  | 'WEB_BAD_SCRIPT'
  | 'WEB_NOT_A_WEB_CASE'
  | 'WEB_NO_START_URL'
  | 'WEB_SECRET_MISSING'
  | 'WEB_ELEMENT_NOT_FOUND'
  | 'WEB_NEW_PAGE_MISSING'
  | 'WEB_POINT_OFF_SCREEN'
  | 'WEB_BAD_DEVTOOLS_RECORDING'
  | 'WEB_BROWSER_CRASHED'
  | 'WEB_CDP_NO_TAB'
  | 'WEB_ASSERTION_FAILED'
  | 'WEB_UNSUPPORTED_STEP'
  | 'WEB_NAVIGATION_MISSING'
  | 'WEB_FILE_MISSING'
  | 'WEB_FILE_CHOOSER_MISSING'

export class WebError extends QaError<WebErrorCode> {
  override get name(): string {
    return 'WebError'
  }
}
