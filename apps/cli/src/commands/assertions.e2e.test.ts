import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSampleApp } from '@qa/sample-app'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findOnPage } from '../__tests__/probe-page'
import { qaAsync } from '../__tests__/run-cli'

let app: Awaited<ReturnType<typeof startSampleApp>>
beforeAll(async () => {
  app = await startSampleApp({ version: 'v1', requireLogin: false })
})
afterAll(async () => {
  await app.close()
})

const launch = () =>
  chromium.launch({ executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] })

describe('assertions through the CLI', () => {
  it('hold on the app they were recorded on, fail on a reworded variant with expected/actual in HTML, JUnit and --json, and round-trip through DevTools', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-assert-'))
    // Where things are on the settings page, found as a person would (not by the code under test).
    const points = await findOnPage(`${app.url}/settings`, async (page, centre) => ({
      notify: await centre(page.getByLabel('알림 받기')),
      notifyText: await centre(page.getByText('알림 받기', { exact: true })),
      heading: await centre(page.getByRole('heading', { name: '설정' })),
    }))
    const script = join(dir, 'steps.json')
    writeFileSync(
      script,
      JSON.stringify([
        { type: 'assert', kind: 'visible', ...points.notify },
        { type: 'assert', kind: 'text', ...points.notifyText }, // expected read from the page: 알림 받기
        { type: 'assert', kind: 'text', ...points.heading, op: 'contains', expected: '설정' },
        { type: 'assert', kind: 'url', op: 'matches', expected: '/settings$' },
        { type: 'assert', kind: 'count', selector: 'input[type=radio]', expected: 2 },
        { type: 'assert', kind: 'hidden', selector: 'text/페이지를 찾을 수 없습니다' },
      ]),
    )
    const caseFile = join(dir, 'settings.json')
    const rec = await qaAsync(['record', 'web', `${app.url}/settings`, '--script', script, '--out', caseFile])
    expect(rec.code, rec.stderr).toBe(0)
    expect(rec.stdout).toContain('Assert text of label "알림 받기" equals "알림 받기"')
    const saved = JSON.parse(readFileSync(caseFile, 'utf8'))
    expect(saved.version).toBe('3.2')
    expect(saved.actions.map((a: { action_type: string }) => a.action_type)).toEqual(Array(6).fill('assert'))
    expect(saved.actions[1].assertion).toEqual({ kind: 'text', expected: '알림 받기' })
    expect(saved.actions.some((a: { warning?: string }) => a.warning)).toBe(false)

    // the unchanged app: every assertion holds
    const same = await qaAsync(['replay', caseFile, '--json', '--report-dir', join(dir, 'r1')])
    expect(same.code, same.stderr).toBe(0)
    const ok = JSON.parse(same.stdout)
    expect(ok.verification_results.map((v: { final_result: string }) => v.final_result)).toEqual(Array(6).fill('pass'))

    // the reworded variant: "알림 받기" is now "알림 수신"; only that assertion fails, with expected and actual
    app.setMutations(['reworded-labels'])
    try {
      const junit = join(dir, 'junit.xml')
      const changed = await qaAsync(['replay', caseFile, '--json', '--report-dir', join(dir, 'r2'), '--junit', junit])
      expect(changed.code).toBe(1)
      const report = JSON.parse(changed.stdout)
      const verdicts = report.verification_results.map((v: { final_result: string }) => v.final_result)
      expect(verdicts).toEqual(['pass', 'fail', 'pass', 'pass', 'pass', 'pass'])
      const failed = report.verification_results[1]
      expect(failed.reason).toBe('Assertion failed: expected text equals "알림 받기", actual "알림 수신".')
      expect(failed.details.assertion).toMatchObject({ expected: 'text equals "알림 받기"', actual: '"알림 수신"' })

      const xml = readFileSync(junit, 'utf8')
      // one testcase for the case: its failure names step 2 and the assertion
      expect(xml).toMatch(/<testsuite[^>]*tests="1"[^>]*failures="1"/)
      expect(xml).toMatch(
        /<failure message="1 of 6 steps failed: step 2 [^"]*: Assertion failed: expected text equals &quot;알림 받기&quot;/,
      )
      expect(xml).toContain('actual: &quot;알림 수신&quot;')

      // the HTML report, opened in a browser: the failing step shows expected and actual
      const html = readdirSync(join(dir, 'r2')).find((f) => f.endsWith('.html'))!
      const viewer = await launch()
      try {
        const page = await viewer.newPage()
        await page.goto(`file://${join(dir, 'r2', html)}`)
        const step = page.locator('#step-2') // step 2 (action_index 1): anchors number steps from 1
        expect(await step.getAttribute('data-verdict')).toBe('fail')
        // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees is what is asserted
        expect(await step.locator('.assertion-expected').innerText()).toBe('text equals "알림 받기"')
        // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees is what is asserted
        expect(await step.locator('.assertion-actual').innerText()).toBe('"알림 수신"')
        expect(await page.locator('#summary').getAttribute('data-passed')).toBe('false')
      } finally {
        await viewer.close()
      }
    } finally {
      app.setVersion('v1')
    }

    // export to a DevTools recording and back: the assertions survive and still hold
    const exported = join(dir, 'settings.devtools.json')
    const ex = await qaAsync(['export', 'devtools', caseFile, '--out', exported])
    expect(ex.code, ex.stderr).toBe(0)
    const recording = JSON.parse(readFileSync(exported, 'utf8'))
    const types = recording.steps.map((s: { type: string }) => s.type)
    expect(types.filter((t: string) => t === 'waitForElement').length).toBe(4)
    expect(types.filter((t: string) => t === 'waitForExpression').length).toBe(2)
    const back = join(dir, 'back.json')
    const im = await qaAsync(['import', 'devtools', exported, '--out', back])
    expect(im.code, im.stderr).toBe(0)
    const reimported = JSON.parse(readFileSync(back, 'utf8'))
    expect(reimported.actions.map((a: { assertion: unknown }) => a.assertion)).toEqual(
      saved.actions.map((a: { assertion: unknown }) => a.assertion),
    )
    const again = await qaAsync(['replay', back, '--json', '--report-dir', join(dir, 'r3')])
    expect(again.code, again.stderr).toBe(0)
  })
})
