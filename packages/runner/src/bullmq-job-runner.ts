import { basename, dirname, join } from 'node:path'
import { importOptional, type Platform } from '@qa/model'
import { MAX_IMAGE_FILE_BYTES, readInputFile, readTextFile } from '@qa/model/node'
import type { Job, Queue, QueueEvents } from 'bullmq'
import type { Redis } from 'ioredis'
import type { ArtifactStore } from './artifact-store'
import { ServerError } from './errors'
import {
  cancelKeyFor,
  finalSuitePatch,
  jobIdFor,
  parseJobResult,
  parseRedisUrl,
  parseWorkerProgress,
  QUEUE_KEY_PREFIX,
  queueNameFor,
  reconnectDelayMs,
  recordAttemptResult,
  recordAttemptStart,
  recordStalled,
  referencedFiles,
  type SuiteJobData,
  type SuiteJobResult,
} from './queue-protocol'
import type { RunStore } from './run-store'
import { createRunBook } from './run-book'
import { suiteSlug } from './runner'
import type { JobRunner, RunRecord, SuiteRun } from './run-types'
import type { SuiteInfo } from './suite-catalog'
import { errorStep } from './testbot-results'

export interface BullmqJobRunnerOptions {
  /** `redis://host:port[/db]`. */
  url: string
  store: RunStore
  /** Where workers read the cases and write the reports (the server reads reports back through it). */
  artifacts: ArtifactStore
  /** Attempts per suite in all: crashes, killed workers and retried failures (default 3). */
  attempts?: number
  /** Retry a suite whose steps failed; a pass on retry is reported as flaky (default true). */
  retryFailed?: boolean
  suiteTimeoutMs?: number
  /** Where the app under test is (`--base-url`, the `--demo` sample app): every job carries it to the workers. */
  baseUrl?: string | null
  initialRuns?: readonly RunRecord[]
  /** How often unfinished jobs are checked against Redis (missed events, a Redis restart). Default 2000. */
  reconcileIntervalMs?: number
  /** Give up connecting at start after this long (default 5000). */
  connectTimeoutMs?: number
  now?: () => Date
}

/** BullMQ connection options for a URL: reconnect with backoff, never fail a command while Redis is away. */
export function bullmqConnection(url: string) {
  return {
    ...parseRedisUrl(url),
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: reconnectDelayMs,
  }
}

interface Tracked {
  run: RunRecord
  suite: SuiteRun
  data: SuiteJobData
  dispatched: boolean
}

/**
 * The job runner on BullMQ/Redis: a run is a set of suite jobs on per-platform queues, executed by `qa worker`
 * processes on any number of hosts. Worker progress and results come back as BullMQ events and feed the same
 * `RunnerEvent` stream as the in-process runner (SSE, Runner Inspector, MCP). A suite counts once: the first
 * final result wins, later or stale messages are ignored.
 */
export async function createBullmqJobRunner(opts: BullmqJobRunnerOptions): Promise<JobRunner> {
  const { Queue, QueueEvents, Job } = await importOptional('queue', 'bullmq', () => import('bullmq'))
  const { Redis: IORedis } = await importOptional('queue', 'ioredis', () => import('ioredis'))
  const connection = bullmqConnection(opts.url)
  const maxAttempts = Math.max(1, Math.floor(opts.attempts ?? 3))
  const retryFailed = opts.retryFailed ?? true
  const suiteTimeoutMs = opts.suiteTimeoutMs ?? 15 * 60_000
  const now = opts.now ?? (() => new Date())
  const iso = () => now().toISOString()

  const redis: Redis = new IORedis({ ...connection, lazyConnect: true })
  redis.on('error', () => undefined)
  try {
    await Promise.race([
      redis.connect().then(() => redis.ping()),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('timeout')), opts.connectTimeoutMs ?? 5000).unref?.(),
      ),
    ])
  } catch (error) {
    redis.disconnect()
    throw new ServerError('SERVER_BAD_OPTION', `Cannot reach Redis at ${opts.url}.`, {
      hint: 'Start Redis (redis-server --port 6379) or fix --queue redis://host:port.',
      cause: error,
    })
  }

  const book = createRunBook({ store: opts.store, initialRuns: opts.initialRuns, now })
  const { emit, persist } = book
  const tracked = new Map<string, Tracked>()
  const platforms: Platform[] = ['web', 'desktop']
  const queues = new Map<Platform, Queue>()
  const events: QueueEvents[] = []
  let closed = false

  for (const p of platforms) {
    queues.set(p, new Queue(queueNameFor(p), { connection, prefix: QUEUE_KEY_PREFIX }))
    const qe = new QueueEvents(queueNameFor(p), { connection, prefix: QUEUE_KEY_PREFIX })
    qe.on('error', () => undefined)
    events.push(qe)
    qe.on('progress', ({ jobId, data }) => onProgress(jobId, data))
    qe.on('completed', ({ jobId, returnvalue }) => {
      const t = tracked.get(jobId)
      const r = parseJobResult(returnvalue)
      if (t && r) finalizeWithResult(t, r)
    })
    qe.on('failed', ({ jobId, failedReason }) => {
      const t = tracked.get(jobId)
      if (t) finalizeFailed(t, failedReason)
    })
    qe.on('stalled', ({ jobId }) => {
      const t = tracked.get(jobId)
      if (!t || t.suite.status === 'done') return
      recordStalled(t.suite, iso())
      persist(t.run)
    })
  }
  for (const q of queues.values()) q.on('error', () => undefined)
  await Promise.all(events.map((e) => e.waitUntilReady()))

  /** The one place a suite ends: a second call for the same suite is ignored (never counted twice). */
  const finishSuite = (t: Tracked, patch: Partial<SuiteRun>) => book.finishSuite(t.run, t.suite, patch)

  const markStarted = (t: Tracked) => book.markStarted(t.run)

  const latestAttempt = (s: SuiteRun) => (s.attempts ?? []).reduce((m, a) => Math.max(m, a.attempt), 0)

  const onProgress = (jobId: string, data: unknown) => {
    const t = tracked.get(jobId)
    const msg = parseWorkerProgress(data)
    if (!t || !msg || t.suite.status === 'done') return
    const s = t.suite
    if (msg.type === 'attempt-started') {
      if (!recordAttemptStart(s, msg)) return
      markStarted(t)
      const first = s.status === 'planned'
      s.status = 'running'
      s.startedAt ??= msg.at
      s.steps = []
      s.totalSteps = msg.totalSteps
      if (first) emit({ type: 'suite-started', runId: t.run.id, suiteIndex: s.index, name: s.name })
      const a = s.attempts?.find((x) => x.attempt === msg.attempt)
      if (a) emit({ type: 'suite-attempt', runId: t.run.id, suiteIndex: s.index, name: s.name, attempt: { ...a } })
      persist(t.run)
    } else if (msg.type === 'step-done') {
      if (msg.attempt !== latestAttempt(s)) return
      s.steps[msg.stepIndex] = msg.step
      emit({
        type: 'step-done',
        runId: t.run.id,
        suiteIndex: s.index,
        name: s.name,
        stepIndex: msg.stepIndex,
        total: msg.total,
        step: msg.step,
      })
    } else {
      if (msg.result.attempt < latestAttempt(s)) return
      recordAttemptResult(s, msg.result)
      const a = s.attempts?.find((x) => x.attempt === msg.result.attempt)
      if (a) emit({ type: 'suite-attempt', runId: t.run.id, suiteIndex: s.index, name: s.name, attempt: { ...a } })
      persist(t.run)
    }
  }

  const finalizeWithResult = (t: Tracked, r: SuiteJobResult) => {
    if (t.suite.status === 'done') return
    markStarted(t)
    recordAttemptResult(t.suite, r)
    finishSuite(t, finalSuitePatch(t.suite, r))
  }

  const finalizeFailed = (t: Tracked, reason: string) => {
    if (t.suite.status === 'done') return
    markStarted(t)
    const attempts = t.suite.attempts ?? []
    const last = attempts[attempts.length - 1]
    recordStalled(t.suite, iso())
    if (last && last.outcome === 'failed' && !/canceled/i.test(reason)) {
      finishSuite(t, { passed: false, error: last.error ?? `Failed on every attempt (${attempts.length}).` })
      return
    }
    const message = `${reason || 'The job failed.'}${attempts.length ? ` (after ${attempts.length} attempt${attempts.length === 1 ? '' : 's'})` : ''}`
    finishSuite(t, {
      passed: false,
      error: message,
      steps: [...t.suite.steps.filter(Boolean), errorStep(t.suite.file, message)],
    })
  }

  const queueOf = (platform: Platform) => queues.get(platform) as Queue

  const jobOptions = (jobId: string) => ({
    jobId,
    attempts: maxAttempts,
    backoff: { type: 'fixed' as const, delay: 250 },
    removeOnComplete: { age: 7 * 24 * 3600 },
    removeOnFail: { age: 7 * 24 * 3600 },
  })

  const dispatch = async (t: Tracked, path: string) => {
    try {
      const text = await readTextFile(path, 'test case')
      await opts.artifacts.put(`${t.data.inputPrefix}${t.data.caseFileName}`, text)
      let doc: unknown = null
      try {
        doc = JSON.parse(text)
      } catch {
        // The worker reports the unreadable case.
      }
      for (const rel of referencedFiles(doc)) {
        // only a regular file of a sane size inside the case's folder goes to the workers
        const body = await readInputFile(join(dirname(path), ...rel.split('/')), {
          what: 'screenshot file',
          maxBytes: MAX_IMAGE_FILE_BYTES,
          root: dirname(path),
        }).catch(() => null)
        if (body) await opts.artifacts.put(`${t.data.inputPrefix}${rel}`, body)
      }
      if (t.suite.status === 'done') return
      await queueOf(t.suite.platform).add('suite', t.data, jobOptions(jobIdFor(t.run.id, t.suite.index)))
      t.dispatched = true
    } catch (error) {
      const message = `The suite could not be queued: ${(error as Error).message ?? String(error)}`
      finishSuite(t, { passed: false, error: message, steps: [errorStep(t.suite.file, message)] })
    }
  }

  // Events can be missed (a connection blip, a Redis restart that lost the queue): the job's state in Redis is
  // the truth; a job Redis no longer has is queued again under the same id.
  let reconciling = false
  const reconcile = async () => {
    if (reconciling || closed) return
    reconciling = true
    try {
      for (const [jobId, t] of tracked) {
        if (t.suite.status === 'done') {
          tracked.delete(jobId)
          continue
        }
        if (!t.dispatched) continue
        const q = queueOf(t.suite.platform)
        const job: Job | undefined = await Job.fromId(q, jobId)
        if (!job) {
          await q.add('suite', t.data, jobOptions(jobId))
          continue
        }
        const state = await job.getState()
        if (state === 'completed') {
          const r = parseJobResult(job.returnvalue)
          if (r) finalizeWithResult(t, r)
        } else if (state === 'failed') finalizeFailed(t, job.failedReason)
      }
    } catch {
      // Redis is away: try again on the next tick.
    } finally {
      reconciling = false
    }
  }
  const timer = setInterval(() => void reconcile(), opts.reconcileIntervalMs ?? 2000)
  timer.unref?.()

  const runner: JobRunner = {
    enqueue(suites, request = null) {
      if (closed) throw new Error('The runner is closed.')
      const run = book.open(suites, request)
      for (const suite of run.suites) suite.attempts = []
      suites.forEach((s: SuiteInfo, i) => {
        const slug = suiteSlug(s.index, s.name)
        const { path, ...info } = s
        const t: Tracked = {
          run,
          suite: run.suites[i] as SuiteRun,
          dispatched: false,
          data: {
            runId: run.id,
            suite: info,
            inputPrefix: `runs/${run.id}/${slug}/case/`,
            caseFileName: basename(path),
            outputPrefix: `runs/${run.id}/${slug}/`,
            maxAttempts,
            retryFailed,
            suiteTimeoutMs,
            ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
          },
        }
        tracked.set(jobIdFor(run.id, s.index), t)
        void dispatch(t, path)
      })
      return book.snapshot(run)
    },
    cancel(runId) {
      const run = book.markCanceled(runId)
      if (!run) return false
      void redis.set(cancelKeyFor(runId), '1', 'EX', 24 * 3600).catch(() => undefined)
      for (const [jobId, t] of tracked) {
        if (t.run.id !== runId || t.suite.status === 'done') continue
        for (const a of t.suite.attempts ?? []) if (a.outcome === 'running') a.outcome = 'canceled'
        finishSuite(t, {
          passed: false,
          error: 'The run was canceled.',
          steps: [...t.suite.steps.filter(Boolean), errorStep(t.suite.file, 'The run was canceled.')],
        })
        // Waiting jobs are removed; an active one stops when its worker sees the cancel flag.
        void Job.fromId(queueOf(t.suite.platform), jobId)
          .then(async (job) => {
            if (job && ['waiting', 'delayed', 'prioritized'].includes(await job.getState())) await job.remove()
          })
          .catch(() => undefined)
      }
      book.maybeFinishRun(run)
      persist(run)
      return true
    },
    ...book.queries,
    async close() {
      book.cancelOpenRuns(runner.cancel)
      closed = true
      clearInterval(timer)
      await book.saveAll()
      const quit = async (c: { close(): Promise<void> }) => {
        await Promise.race([c.close().catch(() => undefined), new Promise((r) => setTimeout(r, 3000).unref?.())])
      }
      await Promise.all([...events, ...queues.values()].map(quit))
      await redis.quit().catch(() => redis.disconnect())
    },
  }
  return runner
}
