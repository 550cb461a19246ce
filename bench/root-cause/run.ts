/**
 * Root cause first: the replay time of a case whose element was removed, with N later steps
 * after it. Run from the repo root after building model, matcher, verifier, recorder-cdp and sample-app:
 * `node --import tsx bench/root-cause/run.ts` (options: --later N, default 7; --timeout MS, default 5000;
 * --verify to replay with screenshot verification).
 *
 * On v1 of the sample app a login flow is recorded with the real recorder: 아이디 and 비밀번호 typed, 로그인
 * clicked, then N clicks on the list page behind it. It is replayed on the `removal` variant (로그인 removed,
 * 간편 로그인 left as a look-alike): step 3 fails "not found" and the N later steps stay on the unchanged login
 * page. Printed: the time of the failing step and of the later steps, and the limit of the Done-when line:
 * the step timeout + 2 s per later step.
 */
import { argv } from 'node:process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestCase } from '@qa/model'
import { createWebRecorder, openBrowser, replayWebCase } from '@qa/recorder-cdp'
import { startSampleApp } from '@qa/sample-app'

const arg = (name: string, def: number) => {
  const i = argv.indexOf(name)
  return i >= 0 ? Number(argv[i + 1]) : def
}
const LATER = arg('--later', 7)
const TIMEOUT = arg('--timeout', 5_000)
const VERIFY = argv.includes('--verify')
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'qa-bench-root-cause-'))
  const app = await startSampleApp({ port: 0, version: 'v1' })
  const session = await openBrowser()
  const { page } = session
  try {
    const recorder = await createWebRecorder(page, { caseFile: join(dir, 'login.json'), screenshots: VERIFY })
    await recorder.start(`${app.url}/login`)
    const centre = async (loc: ReturnType<typeof page.locator>) => {
      const b = await loc.boundingBox({ timeout: 5_000 })
      if (!b) throw new Error('no box')
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 }
    }
    let p = await centre(page.getByPlaceholder('아이디'))
    await recorder.click(p.x, p.y)
    await recorder.type('qa')
    p = await centre(page.getByPlaceholder('비밀번호'))
    await recorder.click(p.x, p.y)
    await recorder.type('bench')
    p = await centre(page.getByRole('button', { name: '로그인', exact: true }))
    await recorder.click(p.x, p.y)
    await page.waitForURL(/\/list/)
    for (let i = 0; i < LATER; i++) {
      p = await centre(page.locator('[data-role=grid] [aria-pressed]').nth(i % 11))
      await recorder.click(p.x, p.y)
    }
    await recorder.save()
    const testCase: TestCase = recorder.testCase()
    const failing = testCase.actions.findIndex((a) => a.identity?.axName === '로그인')
    if (failing < 0) throw new Error('the 로그인 click was not recorded')
    const later = testCase.actions.length - failing - 1
    await session.context.clearCookies()

    const t = performance.now()
    let failingStarted = 0
    const stepEnds: number[] = []
    const out = await replayWebCase(testCase, {
      onStepStart: ({ index }) => {
        if (index === failing) failingStarted = performance.now()
      },
      onStep: () => stepEnds.push(performance.now()),
      page,
      caseDir: dir,
      url: `${app.url}/login?m=removal`,
      verify: VERIFY,
      env: { QA_SECRET_PASSWORD: 'bench' },
      actionTimeoutMs: TIMEOUT,
      artifactDir: join(dir, 'artifacts'),
    })
    const end = performance.now()
    const wall = end - t
    const fromFailureWall = end - failingStarted
    const gaps = stepEnds.map((e, i) => Math.round(e - (i === 0 ? t : (stepEnds[i - 1] as number))))
    const ms = out.replayResults.map((r) => r.durationMs ?? 0)
    const failingMs = ms[failing] ?? 0
    const laterMs = ms.slice(failing + 1).reduce((a, b) => a + b, 0)
    const fromFailure = failingMs + laterMs
    const limit = TIMEOUT + 2_000 * later
    const verdicts = out.report.verificationResults.map((v) => v.finalResult)
    console.log(`Case: ${testCase.actions.length} steps; step ${failing + 1} (로그인) removed; ${later} later steps`)
    console.log(`Verdicts: ${verdicts.join(' ')}`)
    console.log(`First cause: ${JSON.stringify((out.report as { firstCause?: unknown }).firstCause ?? null)}`)
    console.log(`Per step (ms): ${ms.join(' ')}`)
    if (argv.includes('--profile'))
      for (const r of out.replayResults.slice(failing))
        console.log(
          r.quickLocate ? 'quick' : 'full',
          (r.strategiesTried ?? []).map((a) => `${a.strategy}:${a.outcome}:${Math.round(a.durationMs ?? 0)}`).join(' '),
        )
    console.log(
      `Failing step: ${s(failingMs)}; the ${later} later steps: ${s(laterMs)} (${s(laterMs / Math.max(1, later))} each)`,
    )
    console.log(`Per step, wall clock with screenshots and verification (ms): ${gaps.join(' ')}`)
    console.log(
      `From the failing step's start to the end of the replay (wall clock): ${s(fromFailureWall)} (steps' own durations ${s(fromFailure)}); whole replay ${s(wall)}`,
    )
    console.log(
      `Limit (step timeout ${s(TIMEOUT)} + 2 s × ${later}): ${s(limit)} → ${fromFailureWall <= limit ? 'within' : 'OVER'}`,
    )
  } finally {
    await session.close()
    await app.close()
    await rm(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
