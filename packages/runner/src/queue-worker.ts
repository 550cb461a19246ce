import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { importOptional, isQaError, type Platform } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import type { Job, Worker } from 'bullmq'
import type { Redis } from 'ioredis'
import type { ArtifactStore } from './artifact-store'
import { ServerError } from './errors'
import { bullmqConnection } from './bullmq-job-runner'
import {
  cancelKeyFor,
  jobBaseUrl,
  QUEUE_KEY_PREFIX,
  queueNameFor,
  type SuiteJobData,
  type SuiteJobResult,
  shouldRetry,
  type WorkerProgress,
} from './queue-protocol'
import { defaultReportWriter, type ReportWriter, rebaseReport, relativePosix } from './report-paths'
import { safeFile } from './safe-path'
import { stepFromEvent, stepsFromReport } from './runner'
import type { ReplayerTable } from './run-types'
import { errorStep, type TestBotStep } from './testbot-results'

export interface QueueWorkerOptions {
  /** `redis://host:port[/db]`, the same as the server's `--queue`. */
  url: string
  replayers: ReplayerTable
  /** Where the cases are read and the reports written (the server's store). */
  artifacts: ArtifactStore
  /** Platform queues served (`--tags web,desktop`); default: every platform with a replayer. */
  platforms?: readonly Platform[]
  /** Suites at a time per queue (default 1). */
  concurrency?: number
  /** Shown in the attempt history (default `<host>-<pid>`). */
  workerId?: string
  /** A job whose worker stops renewing its lock for this long is retried elsewhere (default 30 000). */
  lockDurationMs?: number
  /** How often lost jobs are looked for (default: lockDurationMs). */
  stalledIntervalMs?: number
  /** How often an active job checks whether its run was canceled (default 500). */
  cancelPollMs?: number
  writeReports?: ReportWriter
  onLog?: (line: string) => void
}

export interface QueueWorkerHandle {
  id: string
  platforms: Platform[]
  /** Stops taking jobs, lets the active ones finish (or aborts them with `force`) and disconnects. */
  close(opts?: { force?: boolean }): Promise<void>
}

const messageOf = (error: unknown): string => {
  if (isQaError(error)) return error.hint ? `${error.message} ${error.hint}` : error.message
  if (error instanceof Error) return error.message.split('\n')[0] ?? String(error)
  return String(error)
}

/**
 * A `qa worker`: pulls suite jobs from the platform queues, replays and verifies each with the same replay
 * functions as the in-process runner, writes the reports to the artifact store and reports progress and
 * results back through BullMQ. A worker that dies loses its lock; another worker then retries the job.
 */
export async function startQueueWorker(opts: QueueWorkerOptions): Promise<QueueWorkerHandle> {
  const { Worker: BullWorker, UnrecoverableError } = await importOptional('queue', 'bullmq', () => import('bullmq'))
  const { Redis: IORedis } = await importOptional('queue', 'ioredis', () => import('ioredis'))
  const connection = bullmqConnection(opts.url)
  const id = opts.workerId ?? `${hostname()}-${process.pid}`
  const platforms = [...(opts.platforms ?? (Object.keys(opts.replayers) as Platform[]))]
  const writeReports = opts.writeReports ?? defaultReportWriter
  const lockDuration = opts.lockDurationMs ?? 30_000
  const log = opts.onLog ?? (() => undefined)
  const redis: Redis = new IORedis(connection)
  redis.on('error', () => undefined)
  const active = new Set<AbortController>()

  const processJob = async (job: Job<SuiteJobData>): Promise<SuiteJobResult> => {
    const data = job.data
    const attempt = Math.max(1, job.attemptsStarted ?? job.attemptsMade + 1)
    if (await redis.exists(cancelKeyFor(data.runId))) throw new UnrecoverableError('The run was canceled.')
    if (attempt > data.maxAttempts) {
      throw new UnrecoverableError(
        `Gave up after ${data.maxAttempts} attempts: the workers running it stopped answering each time.`,
      )
    }
    log(`${data.suite.name} (run ${data.runId}, attempt ${attempt}/${data.maxAttempts})`)
    let chain: Promise<unknown> = Promise.resolve()
    const send = (p: WorkerProgress) => {
      chain = chain.then(() => job.updateProgress(p as unknown as object)).catch(() => undefined)
      return chain
    }
    const startedAt = new Date().toISOString()
    void send({ type: 'attempt-started', attempt, workerId: id, at: startedAt, totalSteps: data.suite.steps.length })
    const controller = new AbortController()
    active.add(controller)
    const timeout = setTimeout(() => controller.abort(new Error('timeout')), data.suiteTimeoutMs)
    const poll = setInterval(() => {
      void redis
        .exists(cancelKeyFor(data.runId))
        .then((n) => {
          if (n) controller.abort(new Error('canceled'))
        })
        .catch(() => undefined)
    }, opts.cancelPollMs ?? 500)
    const tmp = await mkdtemp(join(tmpdir(), 'qa-worker-'))
    const caseDir = join(tmp, 'case')
    const outDir = join(tmp, `attempt-${attempt}`)
    const steps: TestBotStep[] = []
    let result: SuiteJobResult
    try {
      const replay = opts.replayers[data.suite.platform]
      if (!replay) {
        throw new Error(`Worker ${id} has no ${data.suite.platform} replayer; run this worker with --tags web.`)
      }
      await mkdir(caseDir, { recursive: true })
      await opts.artifacts.getDir(data.inputPrefix, caseDir)
      // the job names its case inside the folder the worker just filled, never elsewhere on this disk
      const caseFile = await safeFile(caseDir, String(data.caseFileName ?? ''))
      if (!caseFile) {
        throw new ServerError(
          'SERVER_BAD_REQUEST',
          `The job names a case file outside its own case folder or one that is not there (${JSON.stringify(String(data.caseFileName ?? '').slice(0, 120))}); it was not replayed.`,
        )
      }
      const loaded = await loadTestCase(caseFile)
      const planned = data.suite.steps
      const aborted = new Promise<never>((_, reject) => {
        const onAbort = () => {
          const reason = controller.signal.reason
          reject(
            new Error(
              reason instanceof Error && reason.message === 'timeout'
                ? `The suite did not finish within ${Math.round(data.suiteTimeoutMs / 1000)} s and was stopped.`
                : 'The run was canceled.',
            ),
          )
        }
        if (controller.signal.aborted) onAbort()
        else controller.signal.addEventListener('abort', onAbort, { once: true })
      })
      aborted.catch(() => undefined)
      const outcome = await Promise.race([
        replay({
          suite: { ...data.suite, path: loaded.file },
          testCase: loaded.testCase,
          caseDir: loaded.dir,
          caseFile: loaded.file,
          artifactDir: join(outDir, 'artifacts'),
          signal: controller.signal,
          baseUrl: jobBaseUrl(data),
          onStep: (e) => {
            const step = stepFromEvent(e, planned)
            steps[e.index] = step
            void send({ type: 'step-done', attempt, stepIndex: e.index, total: e.total, step })
          },
        }),
        aborted,
      ])
      const finalSteps = stepsFromReport(outcome.report, planned)
      const report = rebaseReport(outcome.report, loaded.dir, outDir)
      const written = await writeReports(report, outDir, { baseDir: outDir, baseName: 'report' })
      const prefix = `${data.outputPrefix}attempt-${attempt}/`
      await opts.artifacts.putDir(outDir, prefix)
      const reports = Object.fromEntries(
        Object.entries(written).map(([k, p]) => [k, `${prefix}${relativePosix(outDir, p as string)}`]),
      )
      result = {
        attempt,
        workerId: id,
        passed: outcome.passed && finalSteps.every((s) => s.passed),
        steps: finalSteps,
        totalSteps: planned.length,
        error: null,
        reports,
        startedAt,
        finishedAt: new Date().toISOString(),
      }
    } catch (error) {
      const reason = controller.signal.reason
      if (controller.signal.aborted && !(reason instanceof Error && reason.message === 'timeout')) {
        throw new UnrecoverableError('The run was canceled.')
      }
      const message = messageOf(error)
      result = {
        attempt,
        workerId: id,
        passed: false,
        steps: [...steps.filter(Boolean), errorStep(data.suite.file, message)],
        totalSteps: data.suite.steps.length,
        error: message,
        reports: {},
        startedAt,
        finishedAt: new Date().toISOString(),
      }
    } finally {
      clearTimeout(timeout)
      clearInterval(poll)
      active.delete(controller)
      await rm(tmp, { recursive: true, force: true }).catch(() => undefined)
    }
    await send({ type: 'attempt-finished', result })
    log(`${data.suite.name}: ${result.passed ? 'passed' : 'failed'} (attempt ${attempt})`)
    if (shouldRetry(result, data)) {
      throw new Error(`Attempt ${attempt} failed${result.error ? `: ${result.error}` : ''}; retrying.`)
    }
    return result
  }

  const workers: Worker[] = platforms.map((p) => {
    const w = new BullWorker<SuiteJobData, SuiteJobResult>(queueNameFor(p), processJob, {
      connection,
      prefix: QUEUE_KEY_PREFIX,
      concurrency: Math.max(1, Math.floor(opts.concurrency ?? 1)),
      lockDuration,
      stalledInterval: opts.stalledIntervalMs ?? lockDuration,
      // Attempts are counted by the processor (attemptsStarted vs maxAttempts); BullMQ must not give up first.
      maxStalledCount: 100,
      autorun: true,
    })
    w.on('error', () => undefined)
    return w
  })
  await Promise.all(workers.map((w) => w.waitUntilReady()))
  return {
    id,
    platforms,
    async close({ force = false } = {}) {
      if (force) for (const c of active) c.abort(new Error('canceled'))
      await Promise.all(workers.map((w) => w.close(force).catch(() => undefined)))
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
