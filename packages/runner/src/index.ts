export { ServerError, type ServerErrorCode, STATUS_OF } from './errors'
export {
  buildResultsJson,
  buildTestBotResults,
  errorStep,
  type StepFacts,
  stepFromFacts,
  stepResultAttr,
  type SuiteResultState,
  type SuiteStatus,
  testBotAction,
  type TestBotJsonEntry,
  type TestBotResults,
  type TestBotStep,
} from './testbot-results'
export {
  compareCasePaths,
  createSuiteCatalog,
  type InvalidCase,
  scanSuites,
  type SuiteCatalog,
  type SuiteCatalogOptions,
  type SuiteCatalogSnapshot,
  type SuiteInfo,
} from './suite-catalog'
export type {
  AttemptRecord,
  JobRunner,
  ReplayerTable,
  ReplayStepEvent,
  ReportKind,
  RunnerEvent,
  RunRecord,
  RunRequest,
  RunStatus,
  SuiteReplayFn,
  SuiteReplayInput,
  SuiteReplayOutcome,
  SuiteRun,
} from './run-types'
export {
  createRunner,
  latestSuiteStates,
  type RunnerOptions,
  stepsFromReport,
  suiteSlug,
} from './runner'
export { createRunBook, newRunId, plannedRun, type RunBook } from './run-book'
export { fileRunStore, memoryRunStore, reviveRun, type RunStore } from './run-store'
export { contentTypeOf, resolveInside, safeFile, servedFileHeaders } from './safe-path'
export {
  type DesktopReplayerOptions,
  type DesktopSuiteReplayFn,
  type DesktopVisionConfig,
  desktopReplayer,
} from './desktop-replayer'
export {
  type WebReplayerOptions,
  type WebSuiteReplayFn,
  webReplayer,
  webReplayerOptionsOf,
} from './web-replayer'
export { parseShardSpec, selectShard, type ShardSpec } from './select-shard'
export { type MergedCaseEntry, type MergeReportsOptions, mergeReplayReports } from './merge-replay-reports'
export { type ReplayFolderOptions, type ReplayFolderOutcome, replayFolder } from './replay-folder'
export {
  defaultReportWriter,
  type ReportWriter,
  rebasePath,
  rebaseReport,
  relativePosix,
} from './report-paths'
export {
  type ArtifactStore,
  assertArtifactKey,
  localArtifactStore,
  parseArtifactSpec,
  type S3StoreOptions,
} from './artifact-store'
export { openArtifactStore } from './open-artifact-store'
export { s3ArtifactStore } from './s3-artifact-store'
export {
  cancelKeyFor,
  finalSuitePatch,
  jobBaseUrl,
  jobIdFor,
  parseRedisUrl,
  queueNameFor,
  reconnectDelayMs,
  recordAttemptResult,
  recordAttemptStart,
  referencedFiles,
  shouldRetry,
  type SuiteJobData,
  type SuiteJobResult,
  type WorkerProgress,
} from './queue-protocol'
export { type BullmqJobRunnerOptions, bullmqConnection, createBullmqJobRunner } from './bullmq-job-runner'
export { type QueueWorkerHandle, type QueueWorkerOptions, startQueueWorker } from './queue-worker'
export { CONFIG_FILE_NAME, ConfigError, loadConfig, readConfigFiles } from './load-config'
export {
  type CaseAtHand,
  type ReplayCaseOutcome,
  type ReplayCaseReports,
  type ReplayCaseRun,
  replayCase,
} from './replay-case'
export { type LocateOptions, replayWebSuite, type WebSuiteInput, type WebSuiteOptions } from './web-replayer'
export { type DesktopSuiteInput, replayDesktopSuite } from './desktop-replayer'
