/**
 * The DevTools room as this package's main entry exports it: a bad recording throws `WebError`, like every other
 * web input error of the package. The `@qa/recorder-cdp/devtools` subpath throws the room's own `DevtoolsError`
 * (same code, message and hint) and imports nothing but `@qa/model`.
 */
import * as devtools from './devtools'
import { WebError } from './errors'

export * from './devtools'

function asWebError(error: unknown): unknown {
  return error instanceof devtools.DevtoolsError
    ? new WebError(error.code, error.message, { ...(error.hint ? { hint: error.hint } : {}), cause: error })
    : error
}

/** `assertDevtoolsRecording` of the DevTools room, throwing `WebError`. */
export function assertDevtoolsRecording(json: unknown, file?: string): devtools.DevtoolsRecording {
  try {
    return devtools.assertDevtoolsRecording(json, file)
  } catch (error) {
    throw asWebError(error)
  }
}

/** `importDevtoolsRecording` of the DevTools room, throwing `WebError`. */
export function importDevtoolsRecording(
  json: unknown,
  opts?: devtools.DevtoolsImportOptions,
): devtools.DevtoolsImportResult {
  try {
    return devtools.importDevtoolsRecording(json, opts)
  } catch (error) {
    throw asWebError(error)
  }
}
