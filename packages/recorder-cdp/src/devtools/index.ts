/**
 * The DevTools room: Chrome DevTools Recorder recordings (the `@puppeteer/replay` `UserFlow` JSON) to web test cases
 * and back, and what a replay must honour of a step imported from one. Pure functions over `@qa/model` types, and
 * nothing else (the architecture check holds every file of this folder to it), published on its own as
 * `@qa/recorder-cdp/devtools`. Resolving a recording's selectors on a live page is the replay's
 * (`devtools-selectors.ts`, over Playwright).
 *
 * - `types.ts` the recording's shape; `validation.ts` what a recording must be; `errors.ts` the error it throws.
 * - `selectors.ts` the selector grammar; `identity.ts` selectors ↔ an element identity.
 * - `import.ts` + `import-steps.ts` (one importer per step type) recording → case; `export.ts` case → recording.
 * - `assertions.ts` assertions ↔ `waitForElement` / `waitForExpression`; `keys.ts`, `timer.ts`, `secret.ts`, `kept.ts`
 *   the conventions import and export share.
 * - `replay-plan.ts` what the replay does for an imported step beyond its action.
 */
export { DevtoolsError, type DevtoolsErrorCode } from './errors'
export { exportDevtoolsRecording } from './export'
export { devtoolsSelectorsFor, type ImportedTarget, identityFromDevtoolsSelectors } from './identity'
export { importDevtoolsRecording } from './import'
export {
  type DevtoolsReplayPlan,
  devtoolsReplayPlan,
  isDevtoolsImported,
  recordedDevtoolsSelectors,
} from './replay-plan'
export {
  ariaQueryOf,
  cssEscapeIdent,
  type DevtoolsSelectorKind,
  type DevtoolsSelectorPart,
  devtoolsSelectorPart,
  framePathFromIndices,
  parseAriaSelector,
} from './selectors'
export { timerExpression, timerExpressionMs } from './timer'
export {
  DEVTOOLS_STEP_TYPES,
  type DevtoolsExportResult,
  type DevtoolsImportOptions,
  type DevtoolsImportResult,
  type DevtoolsRecording,
  type DevtoolsSelector,
  type DevtoolsStep,
} from './types'
export { assertDevtoolsRecording } from './validation'
