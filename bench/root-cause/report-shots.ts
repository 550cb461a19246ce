/**
 * Screenshots of the HTML report: a case with a passed, a healed and a failed step, replayed
 * with verification, its reports written, and the HTML opened in headless Chromium. Run from the repo root after
 * `pnpm build`: `node --import tsx bench/root-cause/report-shots.ts [out-dir]` (default /tmp/report-shots).
 *
 * On v1 of the sample app: 아이디 and 비밀번호 typed, 로그인 clicked, an item card, 새로 만들기, 취소 and 설정 clicked.
 * Replayed on `reworded-labels` (로그인 → 로그인하기, label 아이디 → 사용자 아이디: heals), with `removal` from the
 * 로그인 step on (the list page has no 새로 만들기: not found, the first cause; 취소 after it).
 */
import { mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { argv } from 'node:process'
import { pathToFileURL } from 'node:url'
import type { TestCase } from '@qa/model'
import { createWebRecorder, openBrowser, replayWebCase } from '@qa/recorder-cdp'
import { startSampleApp } from '@qa/sample-app'
import { writeReports } from '@qa/verifier'

const out = argv[2] ?? '/tmp/report-shots'

async function main() {
  await mkdir(out, { recursive: true })
  const dir = await mkdtemp(join(tmpdir(), 'qa-report-shots-'))
  const app = await startSampleApp({ port: 0, version: 'v1' })
  const session = await openBrowser()
  const { page } = session
  try {
    const recorder = await createWebRecorder(page, { caseFile: join(dir, 'login.json'), name: '로그인 후 새 아이템' })
    await recorder.start(`${app.url}/login`)
    const click = async (loc: ReturnType<typeof page.locator>) => {
      const b = await loc.boundingBox({ timeout: 5_000 })
      if (!b) throw new Error('no box')
      await recorder.click(b.x + b.width / 2, b.y + b.height / 2)
    }
    await click(page.getByPlaceholder('아이디'))
    await recorder.type('qa')
    await click(page.getByPlaceholder('비밀번호'))
    await recorder.type('secret-pw')
    await click(page.getByRole('button', { name: '로그인', exact: true }))
    await page.waitForURL(/\/list/)
    await click(page.locator('[data-role=grid] [aria-pressed]').first())
    await click(page.getByRole('button', { name: '새로 만들기', exact: true }))
    await click(page.getByRole('button', { name: '취소', exact: true }))
    await click(page.getByRole('link', { name: '설정', exact: true }))
    await recorder.save()
    const testCase: TestCase = recorder.testCase()
    const env: Record<string, string> = {}
    for (const a of testCase.actions) if (a.secretEnv) env[a.secretEnv] = 'secret-pw'
    await session.context.clearCookies()

    app.setMutations(['reworded-labels'])
    const login = testCase.actions.findIndex((a) => a.identity?.axName === '로그인')
    const reportDir = join(dir, 'report')
    const outcome = await replayWebCase(testCase, {
      page,
      caseDir: dir,
      caseFile: join(dir, 'login.json'),
      verify: true,
      env,
      artifactDir: join(reportDir, 'artifacts'),
      keepActual: 'always',
      onStepStart: ({ index }) => {
        if (index === login) app.setMutations(['reworded-labels', 'removal'])
      },
    })
    const written = await writeReports(outcome.report, reportDir, ['json', 'txt', 'html'], { baseDir: dir })
    console.log(`Reports: ${Object.values(written).join(', ')}`)
    console.log(
      outcome.report.verificationResults
        .map((v) => `step ${v.step} ${v.finalResult}${v.firstCause ? ' first-cause' : ''}: ${v.actionDescription}`)
        .join('\n'),
    )

    const view = await session.context.newPage()
    await view.setViewportSize({ width: 1280, height: 900 })
    await view.goto(pathToFileURL(written.html as string).href)
    await view.screenshot({ path: join(out, 'report-top.png') })
    await view.screenshot({ path: join(out, 'report-full.png'), fullPage: true })
    const shoot = async (selector: string, name: string) => {
      const section = view.locator(selector).first()
      if ((await section.count()) === 0) return console.log(`no ${selector}`)
      await section.screenshot({ path: join(out, name) })
      console.log(`${name}: ${selector}`)
    }
    await shoot('section.step[data-verdict="pass"]:not([data-healed])', 'step-passed.png')
    await shoot('section.step[data-healed="true"]', 'step-healed.png')
    await shoot('section.step[data-first-cause="true"]', 'step-failed-first-cause.png')
    await shoot('section.step[data-verdict="fail"]:not([data-first-cause])', 'step-after-first-cause.png')
    await view.locator('label[for=f-fail]').click()
    await view.screenshot({ path: join(out, 'report-filter-failed.png'), fullPage: true })
    console.log(`Screenshots in ${out}; case and report in ${dir}`)
  } finally {
    await session.close()
    await app.close()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
