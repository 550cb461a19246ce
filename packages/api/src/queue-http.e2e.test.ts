import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type ArtifactStore,
  createBullmqJobRunner,
  createSuiteCatalog,
  type JobRunner,
  localArtifactStore,
  memoryRunStore,
  type QueueWorkerHandle,
  type RunnerEvent,
  type SuiteInfo,
  type SuiteReplayFn,
  startQueueWorker,
} from '@qa/runner'
import { caseFolder, fakeReplayer, fakeWriter, tempDir } from '@qa/runner/testing'
import { startTestRedis, type TestRedis } from '@qa/runner/testing'
import { createHttpApp } from './http-app'

let redis: TestRedis
beforeAll(async () => {
  redis = await startTestRedis()
})
afterAll(async () => {
  await redis?.stop()
})

async function setup(
  names: string[],
  replay: SuiteReplayFn,
  opts: { workers?: number; artifacts?: ArtifactStore; attempts?: number } = {},
) {
  const dir = caseFolder(names, 3)
  const catalog = createSuiteCatalog(dir)
  const suites = (await catalog.list()).suites
  const reportDir = tempDir()
  const artifacts = opts.artifacts ?? localArtifactStore(reportDir)
  const runner = await createBullmqJobRunner({
    url: redis.url,
    store: memoryRunStore(),
    artifacts,
    attempts: opts.attempts ?? 3,
    reconcileIntervalMs: 500,
  })
  const workers: QueueWorkerHandle[] = []
  for (let i = 0; i < (opts.workers ?? 2); i++) {
    workers.push(
      await startQueueWorker({
        url: redis.url,
        replayers: { web: replay },
        artifacts,
        workerId: `w${i}`,
        writeReports: fakeWriter,
        lockDurationMs: 2000,
        stalledIntervalMs: 1000,
        cancelPollMs: 100,
      }),
    )
  }
  const events: RunnerEvent[] = []
  runner.onEvent((e) => events.push(e))
  const close = async () => {
    await Promise.all(workers.map((w) => w.close({ force: true })))
    await runner.close()
  }
  return { dir, catalog, suites, reportDir, artifacts, runner, workers, events, close }
}

/** Fails step 1 of the named suites on their first attempt only. */
function flakyOnce(names: string[]): SuiteReplayFn {
  const seen = new Set<string>()
  const ok = fakeReplayer()
  const bad = fakeReplayer({ failing: names })
  return (input) => {
    const first = !seen.has(input.testCase.name)
    seen.add(input.testCase.name)
    return (first ? bad : ok)(input)
  }
}

const finished = (runner: JobRunner, id: string) =>
  Promise.race([
    runner.waitFor(id),
    new Promise<never>((_, r) => setTimeout(() => r(new Error('run did not finish')), 60_000)),
  ])

describe('BullmqJobRunner + queue workers (real Redis)', () => {
  test('every suite ends once, events feed the stream, reports are readable from the server', async () => {
    const names = ['가', '나', '다', '라', '마', '바']
    const s = await setup(names, fakeReplayer({ failing: ['다'], stepDelayMs: 20 }), { attempts: 1 })
    try {
      const run = s.runner.enqueue(s.suites, { all: true })
      const done = await finished(s.runner, run.id)
      expect(done.status).toBe('done')
      expect(done.suites.map((x) => [x.name, x.status, x.passed])).toEqual(names.map((n) => [n, 'done', n !== '다']))
      for (const e of ['run-queued', 'run-started', 'suite-started', 'step-done', 'suite-finished', 'run-finished'])
        expect(s.events.some((x) => x.type === e)).toBe(true)
      expect(s.events.filter((e) => e.type === 'suite-finished')).toHaveLength(names.length)
      // Every suite names the worker that ran it (a missing id would be `undefined`, which a Set also
      // counts), and with six suites of 20 ms steps both workers took some of the work.
      const workerIds = done.suites.map((x) => x.attempts?.[0]?.workerId)
      for (const id of workerIds) expect(['w0', 'w1']).toContain(id)
      expect(new Set(workerIds)).toEqual(new Set(['w0', 'w1']))
      const app = await createHttpApp({
        catalog: s.catalog,
        runner: s.runner,
        reportDir: s.reportDir,
        artifacts: s.artifacts,
      })
      const url = `/files/reports/${done.suites[0]?.reports.json}`
      const res = await app.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(200)
      expect(JSON.parse(res.body).testCaseName).toBe('가')
      await app.close()
    } finally {
      await s.close()
    }
  })

  test('a suite that passes only on retry is flaky with its failed steps, and its attempts are recorded', async () => {
    const s = await setup(['안정', '불안정'], flakyOnce(['불안정']), { workers: 1 })
    try {
      const run = s.runner.enqueue(s.suites, { all: true })
      const done = await finished(s.runner, run.id)
      const flaky = done.suites.find((x) => x.name === '불안정')
      expect(flaky?.passed).toBe(true)
      expect(flaky?.flaky).toBe(true)
      expect(flaky?.flakySteps).toEqual([1])
      expect(flaky?.error).toMatch(/Flaky: failed on attempt 1, passed on attempt 2/)
      expect(flaky?.attempts?.map((a) => a.outcome)).toEqual(['failed', 'passed'])
      expect(done.suites.find((x) => x.name === '안정')?.flaky).toBe(false)
    } finally {
      await s.close()
    }
  })

  test('cancel stops queued and running suites; the run ends canceled', async () => {
    const s = await setup(['a', 'b', 'c', 'd', 'e', 'f'], fakeReplayer({ stepDelayMs: 400 }), { workers: 1 })
    try {
      const run = s.runner.enqueue(s.suites, { all: true })
      await new Promise<void>((resolve) => {
        const off = s.runner.onEvent((e) => {
          if (e.type === 'step-done') {
            off()
            resolve()
          }
        })
      })
      expect(s.runner.cancel(run.id)).toBe(true)
      const done = await finished(s.runner, run.id)
      expect(done.status).toBe('canceled')
      expect(done.suites.filter((x) => x.error === 'The run was canceled.').length).toBeGreaterThanOrEqual(5)
    } finally {
      await s.close()
    }
  })

  test('a Redis restart that loses the queue is survived: the jobs are queued again and the run finishes', async () => {
    const gate: { open: boolean } = { open: false }
    const inner = fakeReplayer()
    const replay: SuiteReplayFn = async (input) => {
      while (!gate.open) await new Promise((r) => setTimeout(r, 50))
      return inner(input)
    }
    const s = await setup(['x', 'y', 'z'], replay, { workers: 1, attempts: 3 })
    try {
      const run = s.runner.enqueue(s.suites, { all: true })
      await new Promise((r) => setTimeout(r, 500))
      await redis.stop()
      await new Promise((r) => setTimeout(r, 500))
      await redis.start()
      gate.open = true
      const done = await finished(s.runner, run.id)
      expect(done.suites.map((x) => x.status)).toEqual(['done', 'done', 'done'])
      expect(done.suites.every((x) => x.passed)).toBe(true)
    } finally {
      await s.close()
    }
  })
})

describe('S3 artifact store (s3rver on loopback)', () => {
  let s3: { close(): Promise<void> } | null = null
  let endpoint = ''
  beforeAll(async () => {
    const { default: S3rver } = await import('s3rver')
    const server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: mkdtempSync(join(tmpdir(), 'qa-s3-')),
      configureBuckets: [{ name: 'qa-artifacts', configs: [] }],
    })
    const addr = await server.run()
    endpoint = `http://127.0.0.1:${addr.port}`
    s3 = server
  })
  afterAll(async () => {
    await s3?.close()
  })

  test('a worker writes the report to S3 and the server reads it back through the file route', async () => {
    const { s3ArtifactStore } = await import('@qa/runner')
    const store = s3ArtifactStore({
      bucket: 'qa-artifacts',
      prefix: 'nightly/',
      endpoint,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    })
    const s = await setup(['저장소'], fakeReplayer(), { workers: 1, artifacts: store })
    try {
      const run = s.runner.enqueue(s.suites as SuiteInfo[], { all: true })
      const done = await finished(s.runner, run.id)
      const key = done.suites[0]?.reports.json as string
      expect(key).toMatch(/^runs\/.+\/attempt-1\/report\.json$/)
      expect(await store.list(`runs/${run.id}/`)).toContain(key)
      const app = await createHttpApp({
        catalog: s.catalog,
        runner: s.runner,
        reportDir: s.reportDir,
        artifacts: store,
      })
      const res = await app.inject({ method: 'GET', url: `/files/reports/${key}` })
      expect(res.statusCode).toBe(200)
      expect(JSON.parse(res.body).testCaseName).toBe('저장소')
      const html = await app.inject({ method: 'GET', url: `/files/reports/${done.suites[0]?.reports.html}` })
      expect(html.headers['content-type']).toMatch(/text\/html/)
      expect((await app.inject({ method: 'GET', url: '/files/reports/runs/../x' })).statusCode).toBe(404)
      await app.close()
    } finally {
      await s.close()
    }
  })
})
