/**
 * `qa serve --demo --queue` with a `qa worker` failed every demo suite ("Could not open
 * http://127.0.0.1:4173/login … ERR_CONNECTION_REFUSED"): the worker never learnt where the demo's sample app
 * was. Each job now carries the server's base URL; a worker started with no --base-url replays against it. The
 * built CLI as processes, real Redis, real Chromium.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestRedis, type TestRedis } from '@qa/runner/testing'
import { runAllAndWait } from '../__tests__/run-all'
import { bin, ensureBuilt } from '../__tests__/run-cli'

let redis: TestRedis
const children: ChildProcess[] = []

beforeAll(async () => {
  ensureBuilt()
  redis = await startTestRedis()
}, 120_000)

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM')
  await redis?.stop()
})

/** Starts the built `qa` and resolves once its output matches `ready`. */
function startCli(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, NO_COLOR: '1', QA_VISION: 'none' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let log = ''
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      log += d.toString()
      const m = ready.exec(log)
      if (m) resolve({ child, match: m })
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`qa ${args[0]} exited ${code}: ${log}`)))
  })
}

interface Suite {
  name: string
  passed: boolean
  error: string | null
  steps: { passed: boolean; error: string | null }[]
}

describe('qa serve --demo --queue with a qa worker (real Redis)', () => {
  test('the demo suites run through the queue against the demo app the server started', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'qa-demo-queue-'))
    // the worker has no --base-url: it learns where the app is from the jobs
    await startCli(['worker', '--queue', redis.url, '--artifacts', reportDir, '--tags', 'web'], /serving/)
    const server = await startCli(
      ['serve', '--demo', '--port', '0', '--queue', redis.url, '--report-dir', reportDir],
      /Runner Inspector: (http:\/\/127\.0\.0\.1:\d+)\//,
    )
    const url = server.match[1] as string
    const done = await runAllAndWait<{ status: string; suites: Suite[] }>(url)
    const text = JSON.stringify(done.suites)
    expect(text).not.toContain('ERR_CONNECTION_REFUSED')
    // the three demo flows pass; the failure example fails on its one step whose button is gone from the app
    expect(done.suites.map((s) => [s.name, s.passed]).sort()).toEqual([
      ['로그인: 아이디와 비밀번호', true],
      ['목록: 전설의 검 상세 보기', true],
      ['설정: 사라진 저장 버튼 (실패 예시)', false],
      ['설정: 알림 받기 저장', true],
    ])
    const failed = done.suites.find((s) => !s.passed)
    expect(failed?.error ?? null).toBeNull()
    expect(failed?.steps.map((s) => s.passed)).toEqual([true, false])
    expect(failed?.steps[1]?.error).toMatch(/Element not found: button "저장"/)
  }, 600_000)
})
