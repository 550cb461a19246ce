import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type SampleApp, startSampleApp } from '@qa/sample-app'
import type { RunnerEvent } from '@qa/runner'
import { DEMO_CASES_DIR, type RunningServer, startServer } from '@qa/api'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestRedis, type TestRedis } from '@qa/runner/testing'
import { bin, ensureBuilt } from '../__tests__/run-cli'

/** 12 suites: the three passing demo cases, four times each under new names. */
function twelveCases(): string {
  const dir = mkdtempSync(join(tmpdir(), 'qa-worker-cases-'))
  for (const file of ['login.json', 'search.json', 'settings.json']) {
    const doc = JSON.parse(readFileSync(join(DEMO_CASES_DIR, file), 'utf8')) as { name: string }
    for (let i = 1; i <= 4; i++) {
      writeFileSync(
        join(dir, `${file.replace('.json', '')}-${i}.json`),
        JSON.stringify({ ...doc, name: `${doc.name} #${i}` }),
      )
    }
  }
  return dir
}

let redis: TestRedis
let app: SampleApp
let server: RunningServer
const workers = new Map<string, ChildProcess>()
const logs = new Map<string, string>()
let reportDir = ''

function startWorker(id: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      bin,
      'worker',
      '--queue',
      redis.url,
      '--url',
      app.url,
      '--artifacts',
      reportDir,
      '--lock-duration',
      '3000',
      '--id',
      id,
    ],
    { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  workers.set(id, child)
  logs.set(id, '')
  const add = (d: Buffer) => logs.set(id, (logs.get(id) ?? '') + d.toString())
  child.stderr?.on('data', add)
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      add(d)
      if (/serving web/.test(logs.get(id) ?? '')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`worker ${id} exited ${code}: ${logs.get(id)}`)))
  })
}

beforeAll(async () => {
  ensureBuilt()
  redis = await startTestRedis()
  app = await startSampleApp({ version: 'v1', requireLogin: false })
  reportDir = mkdtempSync(join(tmpdir(), 'qa-worker-reports-'))
  server = await startServer({ dir: twelveCases(), reportDir, port: 0, queue: redis.url, attempts: 3 })
  await Promise.all(['w1', 'w2', 'w3'].map(startWorker))
}, 180_000)

afterAll(async () => {
  for (const w of workers.values()) if (w.exitCode === null && w.signalCode === null) w.kill('SIGTERM')
  await server?.close()
  await app?.close()
  await redis?.stop()
})

describe('qa serve --queue + three qa worker processes (real Redis, Chromium)', () => {
  test('12 suites; a worker SIGKILLed mid-suite; every suite ends exactly once, the retried one with its attempts', async () => {
    const events: RunnerEvent[] = []
    let victim: { worker: string; suiteIndex: number } | null = null
    server.services.runner.onEvent((e) => {
      events.push(e)
      // Kill the first worker that is in the middle of a suite (one step done, more to go).
      if (!victim && e.type === 'step-done' && e.stepIndex === 0 && e.total > 1) {
        const run = server.services.runner.getRun(e.runId)
        const suite = run?.suites.find((s) => s.index === e.suiteIndex)
        const attempt = suite?.attempts?.at(-1)
        const proc = attempt ? workers.get(attempt.workerId) : undefined
        if (attempt && proc) {
          victim = { worker: attempt.workerId, suiteIndex: e.suiteIndex }
          proc.kill('SIGKILL')
        }
      }
    })
    const res = await fetch(`${server.url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ all: true }),
    })
    expect(res.status).toBe(202)
    const { run } = (await res.json()) as { run: { id: string } }
    const done = await server.services.runner.waitFor(run.id)

    expect(victim).not.toBeNull()
    const v = victim as unknown as { worker: string; suiteIndex: number }
    expect(done.status).toBe('done')
    expect(done.suites).toHaveLength(12)
    // every suite exactly once
    const finishedPerSuite = new Map<number, number>()
    for (const e of events)
      if (e.type === 'suite-finished')
        finishedPerSuite.set(e.suite.index, (finishedPerSuite.get(e.suite.index) ?? 0) + 1)
    expect([...finishedPerSuite.values()]).toEqual(Array(12).fill(1))
    expect(done.suites.every((s) => s.status === 'done')).toBe(true)
    // the retried suite: attempt 1 lost on the killed worker, then finished on another one
    const retried = done.suites.find((s) => s.index === v.suiteIndex)
    const attempts = retried?.attempts ?? []
    expect(attempts[0]).toMatchObject({ attempt: 1, workerId: v.worker, outcome: 'lost' })
    expect(attempts.length).toBeGreaterThanOrEqual(2)
    expect(attempts.at(-1)?.workerId).not.toBe(v.worker)
    expect(['passed', 'failed']).toContain(attempts.at(-1)?.outcome)
    expect(retried?.passed).toBe(attempts.at(-1)?.outcome === 'passed')
    // the inspector's data: every suite's report is readable through the server
    const results = (await (await fetch(`${server.url}/api/results`)).json()) as { summary: { total: number } }
    expect(results.summary.total).toBe(12)
    const state = (await (await fetch(`${server.url}/api/state`)).json()) as {
      suites: Array<{ reports: { json?: string } }>
    }
    for (const s of state.suites) {
      expect(s.reports.json).toBeTruthy()
      const r = await fetch(`${server.url}${s.reports.json}`)
      expect(r.status).toBe(200)
    }
    // the run record on the server lists the attempt history too
    const api = (await (await fetch(`${server.url}/api/runs/${run.id}`)).json()) as {
      run: { suites: Array<{ index: number; attempts?: Array<{ outcome: string }> }> }
    }
    expect(api.run.suites.find((s) => s.index === v.suiteIndex)?.attempts?.[0]?.outcome).toBe('lost')
  }, 300_000)
})
