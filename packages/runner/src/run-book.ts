import { randomBytes } from 'node:crypto'
import type { RunStore } from './run-store'
import type { JobRunner, RunnerEvent, RunRecord, SuiteRun } from './run-types'
import type { SuiteInfo } from './suite-catalog'

/**
 * The run records of one job runner and their event stream — the bookkeeping the in-process pool and the BullMQ
 * runner share: listeners, snapshots, persistence, the end of a suite and of a run, and the waiters of `waitFor`.
 * The runners only decide where suites execute.
 */
export interface RunBook {
  /** The read side of the `JobRunner` port, the same for every runner. */
  readonly queries: Pick<JobRunner, 'onEvent' | 'getRun' | 'listRuns' | 'isRunning' | 'waitFor'>
  readonly runs: readonly RunRecord[]
  /** Cancels every run still queued or running (on close). */
  cancelOpenRuns(cancel: (runId: string) => boolean): void
  find(runId: string): RunRecord | undefined
  /** A new planned run of these suites, recorded, announced (`run-queued`) and saved; ends at once when empty. */
  open(suites: readonly SuiteInfo[], request: RunRecord['request']): RunRecord
  emit(event: RunnerEvent): void
  snapshot(run: RunRecord): RunRecord
  /** Saves the run in the store (in the background: a failing disk never stops a run). */
  persist(run: RunRecord): void
  /** Marks the run as running on its first suite (`run-started`). */
  markStarted(run: RunRecord): void
  /** Whether a run can still be canceled; if so, it is marked so that it ends as `canceled`. */
  markCanceled(runId: string): RunRecord | undefined
  /** The one place a suite ends (`suite-finished`, then the run's end when it was the last); a second call is ignored. */
  finishSuite(run: RunRecord, suite: SuiteRun, patch: Partial<SuiteRun>): void
  /** Ends the run when every suite is done: its status and verdict, `run-finished`, and the waiters. */
  maybeFinishRun(run: RunRecord): void
  /** Saves every run and waits for the store. */
  saveAll(): Promise<void>
}

let sequence = 0
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

/** Sortable, unique, safe in file names and URLs: `20260101T120000Z-0001-a1b2c3`. */
export function newRunId(now: Date): string {
  sequence = (sequence + 1) % 10_000
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')
  return `${stamp}-${String(sequence).padStart(4, '0')}-${randomBytes(3).toString('hex')}`
}

const isOpen = (run: RunRecord) => run.status === 'queued' || run.status === 'running'

export function createRunBook(opts: {
  store: RunStore
  initialRuns?: readonly RunRecord[] | undefined
  now: () => Date
}): RunBook {
  const runs: RunRecord[] = [...(opts.initialRuns ?? [])].map((r) => structuredClone(r))
  const byId = new Map(runs.map((r) => [r.id, r]))
  const listeners = new Set<(e: RunnerEvent) => void>()
  const waiters = new Map<string, Array<(run: RunRecord) => void>>()
  const canceled = new Set<string>()
  const iso = () => opts.now().toISOString()
  const snapshot = (run: RunRecord) => structuredClone(run)

  const book: RunBook = {
    runs,
    find: (runId) => byId.get(runId),
    emit(event) {
      for (const l of listeners) {
        try {
          l(event)
        } catch {
          // A listener's bug must not stop the run.
        }
      }
    },
    snapshot,
    persist(run) {
      void opts.store.save(snapshot(run)).catch(() => undefined)
    },
    open(suites, request) {
      const run = plannedRun(suites, request, opts.now())
      runs.push(run)
      byId.set(run.id, run)
      book.emit({ type: 'run-queued', run: snapshot(run) })
      book.persist(run)
      if (suites.length === 0) book.maybeFinishRun(run)
      return run
    },
    markStarted(run) {
      if (run.status !== 'queued') return
      run.status = 'running'
      run.startedAt = iso()
      book.emit({ type: 'run-started', runId: run.id })
    },
    markCanceled(runId) {
      const run = byId.get(runId)
      if (!run || !isOpen(run)) return undefined
      canceled.add(runId)
      return run
    },
    finishSuite(run, s, patch) {
      if (s.status === 'done') return
      Object.assign(s, patch)
      s.status = 'done'
      s.finishedAt = iso()
      s.durationMs = s.startedAt ? Date.parse(s.finishedAt) - Date.parse(s.startedAt) : 0
      book.emit({ type: 'suite-finished', runId: run.id, suite: structuredClone(s) })
      book.maybeFinishRun(run)
      book.persist(run)
    },
    maybeFinishRun(run) {
      if (!isOpen(run)) return
      if (run.suites.some((s) => s.status !== 'done')) return
      run.status = canceled.has(run.id) ? 'canceled' : 'done'
      run.passed = run.suites.every((s) => s.passed)
      run.finishedAt = iso()
      run.startedAt ??= run.finishedAt
      book.emit({ type: 'run-finished', run: snapshot(run) })
      for (const w of waiters.get(run.id) ?? []) w(snapshot(run))
      waiters.delete(run.id)
    },
    async saveAll() {
      await Promise.all(runs.map((r) => opts.store.save(snapshot(r))))
    },
    cancelOpenRuns(cancel) {
      for (const run of runs) if (isOpen(run)) cancel(run.id)
    },
    queries: {
      onEvent(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      getRun(runId) {
        const run = byId.get(runId)
        return run ? snapshot(run) : undefined
      },
      listRuns: () => runs.map(snapshot),
      // A run counts until its last suite is done (run-finished is emitted after this turns false).
      isRunning: () => runs.some(isOpen),
      waitFor(runId) {
        const run = byId.get(runId)
        if (!run) return Promise.reject(new Error(`No run ${runId}.`))
        if (!isOpen(run)) return Promise.resolve(snapshot(run))
        return new Promise((resolve) => {
          waiters.set(runId, [...(waiters.get(runId) ?? []), resolve])
        })
      },
    },
  }
  return book
}
