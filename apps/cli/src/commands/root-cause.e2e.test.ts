// "Root cause first": a removed element makes one first cause; the steps after it say they ran
// after it (and, on a page unchanged since, were looked for once without waiting); --max-failures stops early.
// Real CLI, real Chromium, the sample app's `removal` variant. No wall-clock assertions: counts, flags, reasons.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseReplayReport, type ReplayReport } from '@qa/model'
import { startSampleApp } from '@qa/sample-app'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findOnPage } from '../__tests__/probe-page'
import { qaAsync } from '../__tests__/run-cli'

let app: Awaited<ReturnType<typeof startSampleApp>>
const dir = mkdtempSync(join(tmpdir(), 'qa-root-cause-'))
const caseFile = join(dir, 'new-item.json')

beforeAll(async () => {
  app = await startSampleApp({ version: 'v1', requireLogin: false })
  // On the list page: 새로 만들기 (removed under `removal`), the dialog's 이름 field, typing, 취소, then an item card
  // (still there under `removal`: a later step that passes).
  const steps = await findOnPage(`${app.url}/list`, async (page, centre) => {
    const create = await centre(page.getByRole('button', { name: '새로 만들기', exact: true }))
    await page.mouse.click(create.x, create.y)
    const name = await centre(page.getByRole('dialog').getByLabel('이름'))
    const cancel = await centre(page.getByRole('button', { name: '취소', exact: true }))
    await page.mouse.click(cancel.x, cancel.y)
    const card = await centre(page.locator('[data-role=grid] [aria-pressed]').nth(2))
    return [
      { type: 'click', ...create },
      { type: 'click', ...name },
      { type: 'type', text: '전설의 방패' },
      { type: 'click', ...cancel },
      { type: 'click', ...card },
    ]
  })
  const script = join(dir, 'steps.json')
  writeFileSync(script, JSON.stringify(steps))
  const rec = await qaAsync(['record', 'web', `${app.url}/list`, '--script', script, '--out', caseFile])
  expect(rec.code, rec.stderr).toBe(0)
  app.setMutations(['removal'])
}, 240_000)
afterAll(async () => {
  await app?.close()
})

async function replay(reportDir: string, ...flags: string[]) {
  const r = await qaAsync(['replay', caseFile, '--verify', '--report-dir', reportDir, ...flags])
  const json = readdirSync(reportDir).find((f) => f.endsWith('.json'))
  const report: ReplayReport = parseReplayReport(JSON.parse(readFileSync(join(reportDir, json as string), 'utf8')))
  return { ...r, report, html: readFileSync(join(reportDir, (json as string).replace(/\.json$/, '.html')), 'utf8') }
}

const consistent = (r: ReplayReport) => expect(r.passedCount + r.failedCount + r.warningCount).toBe(r.totalActions)

describe('root cause first', () => {
  it('a removed element: one first cause, the steps after it ran after it, every failed line says why', async () => {
    const r = await replay(join(dir, 'all'))
    expect(r.code, r.stderr).toBe(1)
    const { report } = r
    consistent(report)
    expect(report.totalActions).toBe(5)
    expect(report.verificationResults.map((v) => v.step)).toEqual([1, 2, 3, 4, 5])
    expect(report.verificationResults.map((v) => v.actionIndex)).toEqual([0, 1, 2, 3, 4])
    expect(report.firstCause).toMatchObject({ step: 1, actionIndex: 0 })
    expect(report.firstCause?.reason).toMatch(/Element not found: button "새로 만들기"/)
    const [first, ...later] = report.verificationResults
    expect(first?.firstCause).toBe(true)
    expect(report.verificationResults.filter((v) => v.firstCause)).toHaveLength(1)
    for (const v of later) expect(v.afterFirstCause).toBe(1)
    // the dialog never opened: its field, the typing and 취소 are not found on the unchanged list page, looked for
    // once without waiting; the item card is still there and passes (every step runs)
    const verdicts = report.verificationResults.map((v) => v.finalResult)
    expect(verdicts.slice(0, 4)).toEqual(['fail', 'fail', 'fail', 'fail'])
    expect(verdicts[4]).not.toBe('fail')
    const quick = (report.replayResults ?? []).map((x) => x.quickLocate === true)
    expect(quick.slice(1, 4)).toEqual([true, true, true])
    expect(quick[0]).toBe(false)
    for (const v of later.slice(0, 3)) expect(v.reason).toMatch(/It ran after step 1 failed, on a page unchanged since/)
    // the page when each step failed is in the report
    for (const v of report.verificationResults.slice(0, 4)) expect(v.actualScreenshot).toBeTruthy()

    // the terminal: numbers from 1, the first cause named, the later failures pointing at it, a reason on each
    const lines = r.stderr.split('\n').filter((l) => /^\s+\[\d+\/5\]/.test(l))
    expect(lines).toHaveLength(5)
    expect(lines[0]).toMatch(/^\s+\[1\/5\] FAIL .* — not found — .*Element not found.*\[first cause\]$/)
    for (const l of lines.slice(1, 4)) expect(l).toMatch(/FAIL .* — .+ \[after step 1 failed\]$/)
    expect(r.stdout).toMatch(/^First cause: step 1 Click button "새로 만들기" — /m)

    // the HTML names it before the steps; a step that did not run has no similarity
    expect(r.html).toMatch(/id="first-cause" data-step="1"/)
    const stepOne = r.html.slice(r.html.indexOf('id="step-1"'), r.html.indexOf('id="step-2"'))
    expect(stepOne).toContain('FIRST CAUSE')
    expect(stepOne).not.toContain('class="similarity"')
    expect(stepOne).toContain('Actual (the page when the step failed)')
  }, 240_000)

  it('--max-failures 2 stops the case after the second failed step: the rest are reported as not run', async () => {
    const r = await replay(join(dir, 'max2'), '--max-failures', '2', '--junit', join(dir, 'max2.xml'))
    expect(r.code, r.stderr).toBe(1)
    const { report } = r
    consistent(report)
    expect(report.totalActions).toBe(5)
    expect(report.maxFailures).toBe(2)
    expect(report.notRunCount).toBe(3)
    expect(report.verificationResults.map((v) => v.notRun === true)).toEqual([false, false, true, true, true])
    for (const v of report.verificationResults.slice(2)) {
      expect(v.finalResult).toBe('fail')
      expect(v.reason).toMatch(/^Not run: the replay stopped after 2 failed steps \(--max-failures 2\)/)
      expect(v.actualScreenshot ?? null).toBeNull()
    }
    expect(report.firstCause?.step).toBe(1)
    const notRunLines = r.stderr.split('\n').filter((l) => /NOT RUN/.test(l))
    expect(notRunLines).toHaveLength(3)
    expect(r.html).toContain('data-not-run="true"')
    const junit = readFileSync(join(dir, 'max2.xml'), 'utf8')
    expect(junit).toContain('[NOT RUN] step 3')
    expect(junit).toMatch(/step 1 Click button &quot;새로 만들기&quot;: [^"]*\(first cause\)/)
  }, 240_000)

  it('--max-failures that is no positive integer is refused with exit 2, nothing replayed', async () => {
    const r = await qaAsync(['replay', caseFile, '--max-failures', '0', '--report-dir', join(dir, 'bad')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--max-failures: expected a positive integer, got "0"/)
  })
})
