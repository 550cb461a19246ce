import { join } from 'node:path'
import { isQaError, type ReplayReport } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import { createRunBook } from './run-book'
import { defaultReportWriter, type ReportWriter, relativePosix } from './report-paths'
import type { RunStore } from './run-store'
import type { JobRunner, ReplayerTable, ReplayStepEvent, RunRecord, SuiteRun } from './run-types'
import type { SuiteInfo } from './suite-catalog'
import { errorStep, type SuiteResultState, stepFromFacts, type TestBotStep } from './testbot-results'

export interface RunnerOptions {
  replayers: ReplayerTable
  /** Report folder: run files go to `runs/`, each suite's reports to `runs/<runId>/<nn>-<slug>/`. */
  reportDir: string
  store: RunStore
  /** Suites replayed at the same time, across runs (default 1). */
  concurrency?: number
  /** A suite still running after this long is aborted and failed (default 15 min). */
  suiteTimeoutMs?: number
  /** Default: JSON, TXT and HTML through @qa/verifier (loaded on first use). */
  writeReports?: ReportWriter
  /** Runs loaded from the store at start (see {@link createRunner}). */
  initialRuns?: readonly RunRecord[]
  now?: () => Date
}

/** A folder name for a suite's reports: index plus an ASCII-safe slug of the name. */
export function suiteSlug(index: number, name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
  return `${String(index).padStart(3, '0')}${slug ? `-${slug}` : ''}`
}

const messageOf = (error: unknown): string => {
  if (isQaError(error)) return error.hint ? `${error.message} ${error.hint}` : error.message
  if (error instanceof Error) return error.message.split('\n')[0] ?? String(error)
  return String(error)
}

/** The steps of a finished replay, from its report (authoritative over streamed events). */
export function stepsFromReport(report: ReplayReport, actions: SuiteInfo['steps']): TestBotStep[] {
  return actions.map((planned, i) => {
    const r = report.replayResults?.[i]
    const v = report.verificationResults.find((x) => x.actionIndex === i)
    if (!r && !v) return errorStep(planned.detail, 'The replay ended before this step.')
    return stepFromFacts({
      actionType: planned.action,
      description: planned.detail,
      success: r ? r.success : v?.finalResult !== 'fail',
      errorMessage: r?.errorMessage ?? null,
      verdict: v?.finalResult ?? null,
      verdictReason: v?.reason ?? null,
    })
  })
}

/** The state of a step as it is replayed, named as planned. */
export function stepFromEvent(e: ReplayStepEvent, planned: SuiteInfo['steps']): TestBotStep {
  return stepFromFacts({
    actionType: e.action.actionType,
    description: planned[e.index]?.detail ?? e.action.description,
    success: e.result.success,
    errorMessage: e.result.errorMessage,
    verdict: e.verification?.finalResult ?? null,
    verdictReason: e.verification?.reason ?? null,
  })
}

/**
 * Per catalogue suite, its latest state across runs (`getResults`): the suite of the newest run that
 * contains the same case file and name, or `planned` when it never ran.
 */
export function latestSuiteStates(
  suites: readonly SuiteInfo[],
  runs: readonly RunRecord[],
): Array<SuiteResultState & { runId: string | null; run: SuiteRun | null }> {
  return suites.map((s) => {
    for (let r = runs.length - 1; r >= 0; r--) {
      const run = runs[r] as RunRecord
      const hit = run.suites.find((x) => x.file === s.file && x.name === s.name)
      if (hit)
        return { name: s.name, status: hit.status, passed: hit.passed, steps: hit.steps, runId: run.id, run: hit }
    }
    return { name: s.name, status: 'planned' as const, passed: false, steps: [], runId: null, run: null }
  })
}

interface Job {
  run: RunRecord
  suite: SuiteInfo
  state: SuiteRun
  controller: AbortController
}

/**
 * The in-process job runner: a queue of suite jobs executed with bounded concurrency. A suite that throws,
 * hangs or crashes its browser fails with an `error` step; the runner and the server keep going.
 */
export function createRunner(opts: RunnerOptions): JobRunner {
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1))
  const suiteTimeoutMs = opts.suiteTimeoutMs ?? 15 * 60_000
  const writeReports = opts.writeReports ?? defaultReportWriter
  const now = opts.now ?? (() => new Date())
  const book = createRunBook({ store: opts.store, initialRuns: opts.initialRuns, now })
  const queue: Job[] = []
  const active = new Set<Job>()
  const activePromises = new Set<Promise<void>>()
  let closed = false
  const finishSuite = (job: Job, patch: Partial<SuiteRun>) => book.finishSuite(job.run, job.state, patch)

  const executeJob = async (job: Job): Promise<void> => {
    const { run, suite, state } = job
    book.markStarted(run)
    state.status = 'running'
    state.startedAt = now().toISOString()
    book.emit({ type: 'suite-started', runId: run.id, suiteIndex: suite.index, name: suite.name })
    book.persist(run)
    const timer = setTimeout(() => job.controller.abort(new Error('timeout')), suiteTimeoutMs)
    timer.unref?.()
    try {
      const replay = opts.replayers[suite.platform]
      if (!replay) {
        throw new Error(
          `${suite.file} is a ${suite.platform} case, and this server has no ${suite.platform} replayer. Run ${suite.platform} cases on a machine where one is installed.`,
        )
      }
      const loaded = await loadTestCase(suite.path)
      state.totalSteps = loaded.testCase.actions.length
      const planned = loaded.testCase.actions.map((a) => ({
        action: a.actionType,
        detail: a.description || `${a.actionType} at (${a.x}, ${a.y})`,
      }))
      const suiteDir = join(opts.reportDir, 'runs', run.id, suiteSlug(suite.index, suite.name))
      const aborted = new Promise<never>((_, reject) => {
        const onAbort = () => {
          const reason = job.controller.signal.reason
          reject(
            new Error(
              reason instanceof Error && reason.message === 'timeout'
                ? `The suite did not finish within ${Math.round(suiteTimeoutMs / 1000)} s and was stopped.`
                : 'The run was canceled.',
            ),
          )
        }
        if (job.controller.signal.aborted) onAbort()
        else job.controller.signal.addEventListener('abort', onAbort, { once: true })
      })
      aborted.catch(() => undefined)
      const outcome = await Promise.race([
        replay({
          suite,
          testCase: loaded.testCase,
          caseDir: loaded.dir,
          caseFile: loaded.file,
          artifactDir: join(suiteDir, 'artifacts'),
          signal: job.controller.signal,
          onStep: (e) => {
            const step = stepFromEvent(e, planned)
            state.steps[e.index] = step
            book.emit({
              type: 'step-done',
              runId: run.id,
              suiteIndex: suite.index,
              name: suite.name,
              stepIndex: e.index,
              total: e.total,
              step,
            })
          },
        }),
        aborted,
      ])
      const steps = stepsFromReport(outcome.report, planned)
      let reports: SuiteRun['reports'] = {}
      let reportError: string | null = null
      try {
        const written = await writeReports(outcome.report, suiteDir, { baseDir: loaded.dir, baseName: 'report' })
        reports = Object.fromEntries(
          Object.entries(written).map(([k, p]) => [k, relativePosix(opts.reportDir, p as string)]),
        ) as SuiteRun['reports']
      } catch (error) {
        reportError = `The reports could not be written: ${messageOf(error)}`
      }
      finishSuite(job, {
        steps,
        passed: outcome.passed && steps.every((s) => s.passed),
        error: reportError,
        reports,
      })
    } catch (error) {
      const message = messageOf(error)
      const steps = state.steps.filter(Boolean)
      finishSuite(job, { steps: [...steps, errorStep(suite.file, message)], passed: false, error: message })
    } finally {
      clearTimeout(timer)
    }
  }

  const pump = () => {
    while (!closed && active.size < concurrency && queue.length > 0) {
      const job = queue.shift() as Job
      active.add(job)
      const p = executeJob(job)
        .catch(() => undefined)
        .finally(() => {
          active.delete(job)
          activePromises.delete(p)
          pump()
        })
      activePromises.add(p)
    }
  }

  const runner: JobRunner = {
    enqueue(suites, request = null) {
      if (closed) throw new Error('The runner is closed.')
      const run = book.open(suites, request)
      suites.forEach((suite, i) => {
        queue.push({ run, suite, state: run.suites[i] as SuiteRun, controller: new AbortController() })
      })
      pump()
      return book.snapshot(run)
    },
    cancel(runId) {
      if (!book.markCanceled(runId)) return false
      for (let i = queue.length - 1; i >= 0; i--) {
        const job = queue[i] as Job
        if (job.run.id !== runId) continue
        queue.splice(i, 1)
        finishSuite(job, {
          passed: false,
          error: 'The run was canceled.',
          steps: [errorStep(job.suite.file, 'The run was canceled.')],
        })
      }
      for (const job of active) if (job.run.id === runId) job.controller.abort(new Error('canceled'))
      return true
    },
    ...book.queries,
    async close() {
      book.cancelOpenRuns(runner.cancel)
      closed = true
      await Promise.allSettled([...activePromises])
      await book.saveAll()
    },
  }
  return runner
}
