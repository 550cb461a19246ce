import { randomBytes } from 'node:crypto'
import { join, relative, sep } from 'node:path'
import { isQaError, type ReplayReport } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import type { RunStore } from './run-store'
import type { JobRunner, ReplayerTable, ReportKind, RunnerEvent, RunRecord, SuiteRun } from './run-types'
import type { SuiteInfo } from './suite-catalog'
import { errorStep, type SuiteResultState, stepFromFacts, type TestBotStep } from './testbot-results'

/** Writes a suite's reports; returns the absolute paths written. */
export type ReportWriter = (
  report: ReplayReport,
  dir: string,
  opts: { baseDir: string; baseName: string },
) => Promise<Partial<Record<ReportKind, string>>>

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

const defaultWriter: ReportWriter = async (report, dir, opts) => {
  const { writeReports } = await import('@qa/verifier')
  return writeReports(report, dir, ['json', 'txt', 'html'], { baseDir: opts.baseDir, baseName: opts.baseName })
}

let sequence = 0
/** Sortable, unique, safe in file names and URLs: `20260101T120000Z-0001-a1b2c3`. */
/** A new run of these suites, queued, every suite planned (shared by the in-process and BullMQ runners). */
export function plannedRun(suites: readonly SuiteInfo[], request: RunRecord['request'], at: Date): RunRecord {
  return {
    id: newRunId(at),
    request,
    status: 'queued',
    passed: null,
    createdAt: at.toISOString(),
    startedAt: null,
    finishedAt: null,
    suites: suites.map((s) => ({
      index: s.index,
      name: s.name,
      file: s.file,
      platform: s.platform,
      status: 'planned',
      passed: false,
      steps: [],
      totalSteps: s.steps.length,
      error: null,
      reports: {},
      startedAt: null,
      finishedAt: null,
      durationMs: null,
    })),
  }
}

export function newRunId(now: Date): string {
  sequence = (sequence + 1) % 10_000
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')
  return `${stamp}-${String(sequence).padStart(4, '0')}-${randomBytes(3).toString('hex')}`
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

/**
 * Per catalogue suite, its latest state across runs (seed 004 `getResults`): the suite of the newest run that
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
  const writeReports = opts.writeReports ?? defaultWriter
  const now = opts.now ?? (() => new Date())
  const runs: RunRecord[] = [...(opts.initialRuns ?? [])].map((r) => structuredClone(r))
  const byId = new Map(runs.map((r) => [r.id, r]))
  const listeners = new Set<(e: RunnerEvent) => void>()
  const waiters = new Map<string, Array<(run: RunRecord) => void>>()
  const queue: Job[] = []
  const active = new Set<Job>()
  const activePromises = new Set<Promise<void>>()
  let closed = false

  const emit = (event: RunnerEvent) => {
    for (const l of listeners) {
      try {
        l(event)
      } catch {
        // A listener's bug must not stop the run.
      }
    }
  }
  const snapshot = (run: RunRecord) => structuredClone(run)
  const persist = (run: RunRecord) => {
    void opts.store.save(snapshot(run))
  }

  const finishSuite = (job: Job, patch: Partial<SuiteRun>) => {
    const s = job.state
    Object.assign(s, patch)
    s.status = 'done'
    s.finishedAt = now().toISOString()
    s.durationMs = s.startedAt ? Date.parse(s.finishedAt) - Date.parse(s.startedAt) : 0
    emit({ type: 'suite-finished', runId: job.run.id, suite: structuredClone(s) })
    maybeFinishRun(job.run)
    persist(job.run)
  }

  const maybeFinishRun = (run: RunRecord) => {
    if (run.status === 'done' || run.status === 'canceled' || run.status === 'interrupted') return
    if (run.suites.some((s) => s.status !== 'done')) return
    run.status = cancelled.has(run.id) ? 'canceled' : 'done'
    run.passed = run.suites.every((s) => s.passed)
    run.finishedAt = now().toISOString()
    run.startedAt ??= run.finishedAt
    emit({ type: 'run-finished', run: snapshot(run) })
    for (const w of waiters.get(run.id) ?? []) w(snapshot(run))
    waiters.delete(run.id)
  }
  const cancelled = new Set<string>()

  const executeJob = async (job: Job): Promise<void> => {
    const { run, suite, state } = job
    if (run.status === 'queued') {
      run.status = 'running'
      run.startedAt = now().toISOString()
      emit({ type: 'run-started', runId: run.id })
    }
    state.status = 'running'
    state.startedAt = now().toISOString()
    emit({ type: 'suite-started', runId: run.id, suiteIndex: suite.index, name: suite.name })
    persist(run)
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
            const step = stepFromFacts({
              actionType: e.action.actionType,
              description: planned[e.index]?.detail ?? e.action.description,
              success: e.result.success,
              errorMessage: e.result.errorMessage,
              verdict: e.verification?.finalResult ?? null,
              verdictReason: e.verification?.reason ?? null,
            })
            state.steps[e.index] = step
            emit({
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
          Object.entries(written).map(([k, p]) => [k, relativeTo(opts.reportDir, p as string)]),
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
      const run = plannedRun(suites, request, now())
      runs.push(run)
      byId.set(run.id, run)
      emit({ type: 'run-queued', run: snapshot(run) })
      persist(run)
      if (suites.length === 0) maybeFinishRun(run)
      suites.forEach((suite, i) => {
        queue.push({ run, suite, state: run.suites[i] as SuiteRun, controller: new AbortController() })
      })
      pump()
      return snapshot(run)
    },
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    cancel(runId) {
      const run = byId.get(runId)
      if (!run || (run.status !== 'queued' && run.status !== 'running')) return false
      cancelled.add(runId)
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
    getRun(runId) {
      const run = byId.get(runId)
      return run ? snapshot(run) : undefined
    },
    listRuns: () => runs.map(snapshot),
    // A run counts until its last suite is done (run-finished is emitted after this turns false).
    isRunning: () => runs.some((r) => r.status === 'queued' || r.status === 'running'),
    waitFor(runId) {
      const run = byId.get(runId)
      if (!run) return Promise.reject(new Error(`No run ${runId}.`))
      if (run.status !== 'queued' && run.status !== 'running') return Promise.resolve(snapshot(run))
      return new Promise((resolve) => {
        waiters.set(runId, [...(waiters.get(runId) ?? []), resolve])
      })
    },
    async close() {
      for (const run of runs) if (run.status === 'queued' || run.status === 'running') runner.cancel(run.id)
      closed = true
      await Promise.allSettled([...activePromises])
      await Promise.all(runs.map((r) => opts.store.save(snapshot(r))))
    },
  }
  return runner
}

function relativeTo(root: string, path: string): string {
  return relative(root, path).split(sep).join('/')
}
