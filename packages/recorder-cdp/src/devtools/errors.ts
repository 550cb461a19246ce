import { QaError } from '@qa/model'

export type DevtoolsErrorCode = 'WEB_BAD_DEVTOOLS_RECORDING'

/**
 * A file that is not a DevTools recording. The code is the web recorder's own (`WEB_BAD_DEVTOOLS_RECORDING`):
 * the package's main entry rethrows it as a `WebError` with the same code, message and hint (`devtools-web.ts`).
 */
export class DevtoolsError extends QaError<DevtoolsErrorCode> {
  override get name(): string {
    return 'DevtoolsError'
  }
}
