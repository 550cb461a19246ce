export {
  CHROMIUM_ARGS,
  DEFAULT_CHROMIUM_PATH,
  type BrowserSession,
  type LaunchOptions,
  attachToCurrentTab,
  gotoOrExplain,
  openBrowser,
} from './browser/browser'
export { type CapturedElement, type CdpIdentityReader, createCdpIdentityReader } from './browser/cdp-identity'
export { WebError, type WebErrorCode } from './errors'
export { type OwnClickPoint, ownClickPoint } from './browser/own-click-point'
export { clickAsAPerson } from './browser/styled-control'
export type { PageElementDescription } from './injected/page-scripts'
export {
  createWebRecorder,
  type ListenOptions,
  type RecordedStep,
  type WebRecorder,
  type WebRecorderOptions,
} from './record/recorder'
export {
  type HandStopReason,
  type RecordByHandOptions,
  type RecordByHandResult,
  recordByHand,
} from './record/record-by-hand'
export {
  installRecorderToolbarInPage,
  showToolbarHighlightInPage,
  TOOLBAR_BINDING,
  TOOLBAR_HIGHLIGHT_KEY,
  TOOLBAR_SCREENSHOT_STYLE,
  TOOLBAR_TAG,
  type ToolbarAssertKind,
  type ToolbarHighlight,
  type ToolbarAssertOp,
  type ToolbarEditRequest,
  type ToolbarRequest,
} from './injected/recorder-toolbar'
export { parseScript, type ScriptAssertStep, type ScriptStep, validateScript } from './record/script'
export {
  type AssertionProbe,
  type PageAssertionProbe,
  pageAssertionProbe,
  type PolledAssertion,
  type PollAssertionOptions,
  pollAssertion,
} from './replay/assert-step'
export { captureAssertion } from './record/record-assertion'
export {
  INTERACTIVE_SELECTOR,
  listCandidateLabels,
  type PlaywrightCandidate,
  type PlaywrightCandidateSourceOptions,
  playwrightCandidateSource,
  resolveFrameScope,
} from './replay/candidate-source'
export { replayWebCase, type WebReplayOptions, type WebReplayOutcome, type WebStepEvent } from './replay/replayer'
export { replayOnPage, type WebReplayLoopOptions } from './replay/web-replay-loop'
export type { HealedIdentity, LocatedElement, LocatedTarget, ReplayPage, ReplayPageStep } from './replay/replay-page'
export { type PlaywrightReplayPageOptions, playwrightReplayPage } from './replay/playwright-replay-page'
export {
  type FakeReplayPage,
  type FakeReplayPageOptions,
  type FakeStepScript,
  fakeReplayPage,
} from './replay/fake-replay-page'
export {
  assertDevtoolsRecording,
  DEVTOOLS_STEP_TYPES,
  type DevtoolsExportResult,
  type DevtoolsImportOptions,
  type DevtoolsImportResult,
  type DevtoolsRecording,
  type DevtoolsSelector,
  type DevtoolsStep,
  devtoolsSelectorsFor,
  exportDevtoolsRecording,
  identityFromDevtoolsSelectors,
  type ImportedTarget,
  importDevtoolsRecording,
} from './devtools-web'
export { decodeFrame, findCropOnScreen, saveElementCrop } from './browser/visual'
export { type EnrichWebOptions, type EnrichWebOutcome, enrichWebCase } from './record/enrich-web'
export { type HealingLocatorResult, healingLocator } from './replay/healing-locator'
export { planUrls, rebaseCaseUrls, rebaseUrl, type UrlPlan, type UrlPlanOptions } from './replay/url-plan'
export { maskedScreenshot, passwordMasks } from './browser/masked-screenshot'
export { settle } from './browser/settle'
export { secretEnvName } from './record/secret-names'
