// Desktop suites outside `qa replay <case>`: a queued desktop suite run by `qa worker --tags
// desktop` on its own Xvfb display (real Redis, real X input), and a mixed folder where the web case runs in
// Chromium and the desktop case on the display.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_CASES_DIR, type RunningServer, startServer } from '@qa/api'
import { parseReplayReport } from '@qa/model'
import { startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { type SampleApp, startSampleApp } from '@qa/sample-app'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestRedis, type TestRedis } from '@qa/runner/testing'
import { writeDesktopKeyCase } from '../__tests__/desktop-key-case'
import { bin, ensureBuilt, qaAsync } from '../__tests__/run-cli'

const desktopCase = (dir: string, name: string) => writeDesktopKeyCase(dir, `${name}.json`, name)

let redis: TestRedis
let xvfb: VirtualDisplay
const children: ChildProcess[] = []

beforeAll(async () => {
  ensureBuilt()
  redis = await startTestRedis()
  xvfb = await startXvfb({ width: 800, height: 600 })
}, 180_000)

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM')
  await redis?.stop()
  await xvfb?.stop({ deferToExit: true })
})

function startWorker(args: string[], env: Record<string, string>): Promise<{ log: () => string }> {
  const child = spawn(process.execPath, [bin, 'worker', '--queue', redis.url, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let log = ''
  child.stderr?.on('data', (d: Buffer) => {
    log += d.toString()
  })
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      log += d.toString()
      if (/serving desktop/.test(log)) resolve({ log: () => log })
    })
    child.once('exit', (code) => reject(new Error(`qa worker exited ${code}: ${log}`)))
  })
}

describe('qa worker --tags desktop (real Redis, Xvfb)', () => {
  test('runs a queued desktop suite on the display it owns; the report comes back through the artifact store', async () => {
    const cases = mkdtempSync(join(tmpdir(), 'qa-desktop-queue-'))
    desktopCase(cases, '데스크톱 키')
    const reportDir = mkdtempSync(join(tmpdir(), 'qa-desktop-queue-reports-'))
    const server: RunningServer = await startServer({ dir: cases, reportDir, port: 0, queue: redis.url })
    try {
      // the worker's own display is --display; its DISPLAY points nowhere
      await startWorker(['--tags', 'desktop', '--display', xvfb.display, '--artifacts', reportDir, '--id', 'd1'], {
        DISPLAY: ':1999',
      })
      const suites = (await server.services.catalog.list()).suites
      expect(suites.map((s) => [s.name, s.platform])).toEqual([['데스크톱 키', 'desktop']])
      const run = server.services.runner.enqueue(suites, { all: true })
      const done = await server.services.runner.waitFor(run.id)
      const suite = done.suites[0]
      expect(suite?.error ?? null).toBeNull()
      expect(suite?.passed).toBe(true)
      expect(suite?.attempts?.map((a) => [a.workerId, a.outcome])).toEqual([['d1', 'passed']])
      expect(suite?.steps.map((s) => [s.action, s.passed])).toEqual([
        ['key_press', true],
        ['key_press', true],
      ])
      const json = join(reportDir, suite?.reports.json ?? 'missing')
      const report = parseReplayReport(JSON.parse(readFileSync(json, 'utf8')))
      expect(report.testCaseName).toBe('데스크톱 키')
      expect(report.replayResults?.map((r) => r.success)).toEqual([true, true])
    } finally {
      await server.close()
    }
  }, 180_000)

  test('a desktop worker whose display is not there fails the suite with the reason, never a pass', async () => {
    const cases = mkdtempSync(join(tmpdir(), 'qa-desktop-queue-'))
    desktopCase(cases, 'no-display')
    const reportDir = mkdtempSync(join(tmpdir(), 'qa-desktop-queue-reports-'))
    const server: RunningServer = await startServer({
      dir: cases,
      reportDir,
      port: 0,
      queue: redis.url,
      attempts: 1,
      retryFailed: false,
    })
    try {
      await startWorker(['--tags', 'desktop', '--display', ':1998', '--artifacts', reportDir, '--id', 'd2'], {})
      const run = server.services.runner.enqueue((await server.services.catalog.list()).suites, { all: true })
      const done = await server.services.runner.waitFor(run.id)
      expect(done.suites[0]?.passed).toBe(false)
      expect(done.suites[0]?.error).toMatch(/:1998|display/i)
    } finally {
      await server.close()
    }
  }, 180_000)
})

describe('qa replay <mixed folder>', () => {
  let app: SampleApp
  beforeAll(async () => {
    app = await startSampleApp({ version: 'v1', requireLogin: false })
  })
  afterAll(async () => {
    await app?.close()
  })

  test('the web case runs in Chromium and the desktop case on the display; one shard report of both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-mixed-'))
    writeFileSync(join(dir, 'login.json'), readFileSync(join(DEMO_CASES_DIR, 'login.json')))
    desktopCase(dir, '데스크톱 키')
    const reportDir = join(dir, 'reports')
    const junit = join(dir, 'mixed.xml')
    const r = await qaAsync(
      ['replay', dir, '--base-url', app.url, '--verify', '--report-dir', reportDir, '--junit', junit, '--json'],
      { env: { DISPLAY: xvfb.display } },
    )
    expect(r.code, r.stderr).toBe(0)
    const merged = parseReplayReport(JSON.parse(r.stdout))
    expect(merged.passed).toBe(true)
    expect(merged.failedCount).toBe(0)
    const names = merged.verificationResults.map((v) => v.actionDescription)
    expect(names.some((n) => n.includes('Escape 누르기'))).toBe(true)
    expect(names.length).toBeGreaterThan(2)
    expect(existsSync(join(reportDir, 'shard-1-of-1.json'))).toBe(true)
    expect(readFileSync(junit, 'utf8')).toContain('<testsuite')
  }, 240_000)
})
