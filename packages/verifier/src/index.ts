export {
  compareScreenshots,
  sizeMismatchReason,
  type CompareOptions,
  type CompareResult,
  type Rect,
  type Size,
  type SizeMismatch,
} from './compare-screenshots'
export {
  decodeScreenshot,
  MAX_IMAGE_PIXELS,
  normalizeRawFrame,
  type DecodedScreenshot,
  type RawFrame,
  type ScreenshotInput,
} from './decode-screenshot'
export { createScreenshotCache, type ScreenshotCache, type ScreenshotCacheOptions } from './screenshot-cache'
export {
  decideVerdict,
  type AskVision,
  type DecidingVerdictInput,
  type VerdictOutcome,
  DEFAULT_FALLBACK_SIMILARITY,
  DEFAULT_PASS_SIMILARITY,
  type VerdictDecision,
  type VerdictInput,
  type RegionEvidence,
  type RelaidOutEvidence,
  type VerdictPolicy,
  type VisionOutcome,
} from './decide-verdict'
export {
  verifyStep,
  type ActualScreenshot,
  type VerifierIO,
  type VerifyStepInput,
  type VisionReverifier,
} from './verify-step'
export {
  assessExpectedChange,
  changedRegions,
  changeMask,
  unionBox,
  type ChangedRegionOptions,
  type ChangeMaskOptions,
  type Displacement,
  type ExpectedChangeInput,
  type ExpectedChangeResult,
  type RelaidOutComparison,
  type RelaidOutResult,
  type RgbaImage,
  type WindowPlace,
} from './expected-change'
export { compareRelaidOut, layoutItems, type LayoutItem } from './window-layout'
export { fakeReverifier, type FakeReverifier, type FakeReverifierOptions } from './fake-reverifier'
export {
  createReplayVerifier,
  recordedTargetBox,
  resultWithoutScreenshot,
  summarizeResults,
  unverifiedSteps,
  type StepContext,
  type BuildReportOptions,
  type ReplayVerifier,
  type ReplayVerifierOptions,
} from './replay-verifier'
export { renderJsonReport } from './reports/json-report'
export { renderTextReport } from './reports/text-report'
export {
  casesOfReport,
  type JunitOptions,
  type JunitSuite,
  type MergedCaseEntry,
  renderJunitReport,
  renderJunitXml,
} from './reports/junit-report'
export { renderHtmlReport, type HtmlReportOptions } from './reports/html-report'
export {
  assertReportFormat,
  renderReport,
  writeReports,
  REPORT_FORMATS,
  type ReportFormat,
  type WriteReportsOptions,
} from './reports/write-reports'
export { VerifierError, type VerifierErrorCode } from './errors'
export {
  createRootCauseGate,
  isNotFoundMessage,
  markRootCause,
  notRunResult,
  notRunStep,
  type RootCauseGate,
  type StepOutcome,
  type StepPlan,
  stepNumber,
} from './root-cause'
export {
  decideStepVerdict,
  stepVerification,
  type StepVerdict,
  type StepVerdictInput,
} from './step-verdict'
export { createStepBook, healProven, stepTimer, type StepBook, type StepEnd } from './step-book'
