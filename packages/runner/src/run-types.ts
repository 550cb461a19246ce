import type { Action, Platform, ReplayReport, ReplayResult, TestCase, VerificationResult } from '@qa/model'
import type { SuiteInfo } from './suite-catalog'
import type { SuiteStatus, TestBotStep } from './testbot-results'

/** What to run (`POST /api/runs`, MCP `run_suite` / `run_all`). */
export type RunRequest = { all: true } | { index: number } | { name: string }

export type ReportKind = 'json' | 'txt' | 'html'

/** One suite inside a run. */
export interface SuiteRun {
  index: number
  name: string
  /** Case file relative to the case folder. */
  file: string
  platform: Platform
  status: SuiteStatus
  passed: boolean
  steps: TestBotStep[]
  totalSteps: number
  /** Why the whole suite failed (case unreadable, app down, crash, canceled), else null. */
  error: string | null
  /** Report files relative to the report folder (`/` separators). */
  reports: Partial<Record<ReportKind, string>>
  startedAt: string | null
  finishedAt: string | null
  durationMs: number | null
  /** Queued runs (BullMQ): every attempt at this suite, in order (a killed worker's attempt is `lost`). */
  attempts?: AttemptRecord[]
  /** Passed only on a retry: not silently green. */
  flaky?: boolean
  /** Steps that failed on an earlier attempt and passed on the last one. */
  flakySteps?: number[]
}

/** One attempt at a suite by a queue worker. */
export interface AttemptRecord {
  attempt: number
  workerId: string
  startedAt: string
  finishedAt: string | null
  outcome: 'running' | 'passed' | 'failed' | 'lost' | 'canceled'
  error: string | null
  /** Indexes of the steps that failed in this attempt. */
  failedSteps: number[]
  /** This attempt's report keys. */
  reports: Partial<Record<ReportKind, string>>
}

export type RunStatus = 'queued' | 'running' | 'done' | 'canceled' | 'interrupted'

/** A run: a set of suite jobs, persisted as `<reportDir>/runs/<id>.json`. */
export interface RunRecord {
  id: string
  request: RunRequest | null
  status: RunStatus
  /** True when every suite passed; null until the run ends. */
  passed: boolean | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  suites: SuiteRun[]
}

/** Live progress, sent as server-sent events (`event: <type>`) and to MCP/in-process listeners. */
export type RunnerEvent =
  | { type: 'run-queued'; run: RunRecord }
  | { type: 'run-started'; runId: string }
  | { type: 'suite-started'; runId: string; suiteIndex: number; name: string }
  | {
      type: 'step-done'
      runId: string
      suiteIndex: number
      name: string
      stepIndex: number
      total: number
      step: TestBotStep
    }
  | { type: 'suite-finished'; runId: string; suite: SuiteRun }
  | { type: 'suite-attempt'; runId: string; suiteIndex: number; name: string; attempt: AttemptRecord }
  | { type: 'run-finished'; run: RunRecord }

/** One replayed step, as a replayer reports it. */
export interface ReplayStepEvent {
  index: number
  total: number
  action: Action
  result: ReplayResult
  verification?: VerificationResult
}

export interface SuiteReplayInput {
  suite: SuiteInfo
  testCase: TestCase
  caseDir: string
  caseFile: string
  /** Folder for this suite's artefacts (actual and diff screenshots). */
  artifactDir: string
  /** Aborted on cancel, timeout or shutdown: stop and release the browser/screen. */
  signal: AbortSignal
  /**
   * Where the app under test is when the run says so (a queued job from a server with `--base-url` or
   * `--demo`); a replayer with a base URL of its own keeps that one.
   */
  baseUrl?: string | null
  onStep(event: ReplayStepEvent): void
}

export interface SuiteReplayOutcome {
  report: ReplayReport
  passed: boolean
}

/** Replays one case on one platform. Web is built in; desktop plugs in through the same function. */
export type SuiteReplayFn = (input: SuiteReplayInput) => Promise<SuiteReplayOutcome>

/** The replay function of each platform. A platform without one fails its suites with a clear error. */
export type ReplayerTable = Partial<Record<Platform, SuiteReplayFn>>

/**
 * The job-runner port: the in-process runner implements it now; a BullMQ backend implements the same interface
 * for many machines.
 */
export interface JobRunner {
  /** Queues a run of these suites; returns at once with the queued record. */
  enqueue(suites: readonly SuiteInfo[], request?: RunRequest | null): RunRecord
  /** Subscribes to progress; returns the unsubscribe function. */
  onEvent(listener: (event: RunnerEvent) => void): () => void
  /** Cancels a queued or running run; false when it is unknown or already over. */
  cancel(runId: string): boolean
  getRun(runId: string): RunRecord | undefined
  /** All known runs, oldest first (including the ones loaded from the report folder). */
  listRuns(): RunRecord[]
  isRunning(): boolean
  /** Resolves with the finished record. */
  waitFor(runId: string): Promise<RunRecord>
  /** Cancels everything, waits for running suites to stop and flushes the run files. */
  close(): Promise<void>
}
