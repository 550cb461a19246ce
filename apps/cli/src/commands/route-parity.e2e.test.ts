// Issue 17: one web case and one desktop case give the same report through every route that replays them — one
// case, a folder, a shard, the server's in-process pool (`qa serve`) and a queued `qa worker` — with the same
// options honoured (--verify and the threshold). Real Chromium on the sample app, Xvfb for the desktop case, real
// Redis for the worker.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_CASES_DIR, startServer } from '@qa/api'
import { parseReplayReport, type ReplayReport } from '@qa/model'
import { startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { type SampleApp, startSampleApp } from '@qa/sample-app'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestRedis, type TestRedis } from '../../../../packages/runner/src/__tests__/redis-server'
import { writeDesktopKeyCase } from '../__tests__/desktop-key-case'
import { bin, ensureBuilt, qaAsync } from '../__tests__/run-cli'

/** What must not depend on the route: the counts, the verdict of each step and whether the case passed. */
const facts = (r: ReplayReport) => ({
  total: r.totalActions,
  passed: r.passedCount,
  failed: r.failedCount,
  warning: r.warningCount,
  verdicts: r.verificationResults.map((v) => v.finalResult),
  methods: (r.replayResults ?? []).map((x) => x.method),
  ok: r.passed,
})

let redis: TestRedis
let xvfb: VirtualDisplay
let app: SampleApp
let web = ''
let desktop = ''
const children: ChildProcess[] = []

beforeAll(async () => {
  ensureBuilt()
  ;[redis, xvfb, app] = await Promise.all([
    startTestRedis(),
    startXvfb({ width: 800, height: 600 }),
    startSampleApp({ version: 'v1', requireLogin: false }),
  ])
  web = mkdtempSync(join(tmpdir(), 'qa-parity-web-'))
  writeFileSync(join(web, 'login.json'), readFileSync(join(DEMO_CASES_DIR, 'login.json')))
  desktop = mkdtempSync(join(tmpdir(), 'qa-parity-desktop-'))
  writeDesktopKeyCase(desktop, 'keys.json', '키')
}, 300_000)

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM')
  await app?.close()
  await redis?.stop()
  await xvfb?.stop({ deferToExit: true })
})

const env = () => ({ DISPLAY: xvfb.display })
const options = ['--verify', '--threshold', '0.9']

async function viaCli(args: string[]): Promise<ReplayReport> {
  const r = await qaAsync([...args, ...options, '--json'], { env: env() })
  expect(r.code, r.stderr).toBe(0)
  return parseReplayReport(JSON.parse(r.stdout))
}

async function viaServer(dir: string, queue: boolean): Promise<ReplayReport> {
  const reportDir = mkdtempSync(join(tmpdir(), 'qa-parity-reports-'))
  // one worker per call: a worker reads the cases from its own --artifacts, which is this server's report folder
  let worker: ChildProcess | null = null
  if (queue) {
    const child = spawn(
      process.execPath,
      [bin, 'worker', '--queue', redis.url, '--tags', 'web,desktop', '--display', xvfb.display].concat([
        '--base-url',
        app.url,
        '--artifacts',
        reportDir,
        '--threshold',
        '0.9',
      ]),
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    children.push(child)
    worker = child
    await new Promise<void>((resolve, reject) => {
      let log = ''
      child.stdout?.on('data', (d: Buffer) => {
        log += d.toString()
        if (/serving/.test(log)) resolve()
      })
      child.once('exit', (code) => reject(new Error(`qa worker exited ${code}: ${log}`)))
    })
  }
  const { desktopReplayer } = await import('@qa/runner')
  const desk = desktopReplayer({ display: xvfb.display, vision: { provider: 'none' }, passSimilarity: 0.9 })
  const server = await startServer({
    dir,
    reportDir,
    port: 0,
    baseUrl: app.url,
    verify: true,
    passSimilarity: 0.9,
    replayers: { desktop: desk },
    ...(queue ? { queue: redis.url, attempts: 1, retryFailed: false } : {}),
  })
  try {
    const run = server.services.runner.enqueue((await server.services.catalog.list()).suites, { all: true })
    const done = await server.services.runner.waitFor(run.id)
    const json = done.suites[0]?.reports.json
    expect(json, done.suites[0]?.error ?? '').toBeTruthy()
    return parseReplayReport(JSON.parse(readFileSync(join(reportDir, json as string), 'utf8')))
  } finally {
    await server.close()
    await desk.close()
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker?.once('exit', resolve))
      worker.kill('SIGTERM')
      await exited
    }
  }
}

describe.each([
  ['web', () => web, 'login.json', ['--base-url']],
  ['desktop', () => desktop, 'keys.json', []],
] as const)('%s case: the same report through every route', (_platform, dirOf, file, urlFlag) => {
  test('single, folder, shard, the server pool and a queued worker agree', async () => {
    const dir = dirOf()
    const url = urlFlag.length ? [...urlFlag, app.url] : []
    const single = await viaCli(['replay', join(dir, file), ...url, '--report-dir', join(dir, 'r-single')])
    const routes: Record<string, ReplayReport> = {
      folder: await viaCli(['replay', dir, ...url, '--report-dir', join(dir, 'r-folder')]),
      shard: await viaCli(['replay', dir, '--shard', '1/1', ...url, '--report-dir', join(dir, 'r-shard')]),
      serve: await viaServer(dir, false),
      worker: await viaServer(dir, true),
    }
    expect(facts(single).total).toBeGreaterThan(1)
    expect(facts(single).ok).toBe(true)
    for (const [route, report] of Object.entries(routes))
      expect({ route, ...facts(report) }).toEqual({ route, ...facts(single) })
  }, 300_000)
})
