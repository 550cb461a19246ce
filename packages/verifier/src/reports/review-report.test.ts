// The report a reviewer reads in one pass — step numbers from 1, the first cause, a heal as
// "recorded name → found name" with the strategies tried first, the command that accepts a step, no similarity
// for steps that did not run, warnings as warnings, every string from the case HTML-escaped.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReplayReport, ReplayResult } from '@qa/model'
import { beforeAll, describe, expect, test } from 'vitest'
import { syntheticFrame, toPng } from '../__tests__/images'
import { createReplayVerifier } from '../replay-verifier'
import { notRunResult } from '../root-cause'
import { renderHtmlReport } from './html-report'
import { renderJunitReport } from './junit-report'
import { acceptCommand } from './report-helpers'
import { renderTextReport } from './text-report'
import { writeReports } from './write-reports'

const replayed = (i: number, extra: Partial<ReplayResult>): ReplayResult => ({
  actionId: `action-00${i}`,
  actionIndex: i,
  success: true,
  method: 'role',
  originalCoords: { x: 10, y: 10 },
  matchConfidence: 0.97,
  screenTransitionVerified: true,
  errorMessage: '',
  durationMs: 420,
  ...extra,
})

let dir: string
let report: ReplayReport
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'qa-review-report-'))
  const screen = syntheticFrame(320, 200, 7)
  writeFileSync(join(dir, 'expected.png'), await toPng(screen))
  writeFileSync(join(dir, 'found.png'), await toPng(syntheticFrame(80, 24, 8)))
  const v = createReplayVerifier({
    testCaseName: 'Sign-in <flow>',
    sessionId: 's-1',
    baseDir: dir,
    artifactDir: join(dir, 'artifacts'),
    keepActual: 'always',
  })
  const click = (i: number, description: string) => ({
    timestamp: i,
    actionType: 'click' as const,
    x: 10,
    y: 10,
    description,
    screenshotPath: 'expected.png',
  })
  // 1 passes, 2 is healed (Login → Sign in) and passes, 3 is not found (the first cause), 4 a warning, 5 not run
  await v.verifyAction(0, click(0, 'Click textbox "Email"'), screen)
  v.recordReplayResult(replayed(0, {}))
  await v.verifyAction(1, click(1, 'Click button "Login"'), screen)
  v.recordReplayResult(
    replayed(1, {
      method: 'css',
      matchConfidence: 0.86,
      recordedName: 'Login',
      foundName: 'Sign in',
      foundBox: { x: 40, y: 30, width: 80, height: 24 },
      foundCrop: 'found.png',
      strategiesTried: [
        { strategy: 'role', outcome: 'none', candidates: 0 },
        { strategy: 'aria_label', outcome: 'skipped' },
        { strategy: 'text', outcome: 'below_threshold', candidates: 1, detail: '"Sign up" <b>disagrees</b>' },
        { strategy: 'css', outcome: 'matched', candidates: 1, confidence: 0.86 },
      ],
    }),
  )
  v.recordResult({
    actionIndex: 2,
    actionDescription: 'Click link "Reports"',
    screenshotMatch: false,
    screenshotSimilarity: 0,
    visionVerified: false,
    visionMatch: false,
    finalResult: 'fail',
    reason: 'The step did not run: Element not found: link "Reports" (tried role: none (0)).',
    expectedScreenshot: 'expected.png',
  })
  v.recordReplayResult(
    replayed(2, {
      success: false,
      method: 'failed',
      matchConfidence: 0,
      errorMessage: 'Element not found: link "Reports" (tried role: none (0)).',
      strategiesTried: [{ strategy: 'role', outcome: 'none', candidates: 0 }],
    }),
  )
  v.recordResult({
    actionIndex: 3,
    actionDescription: 'Press Enter',
    screenshotMatch: false,
    screenshotSimilarity: 0.91,
    visionVerified: false,
    visionMatch: false,
    finalResult: 'warning',
    reason: 'Similarity 91.00% < 95.00%; vision was unavailable.',
  })
  v.recordReplayResult(replayed(3, { method: 'none', matchConfidence: 0 }))
  v.recordResult(notRunResult({ actionIndex: 4, description: 'Click button "Save"', maxFailures: 1 }))
  v.recordReplayResult(replayed(4, { success: false, method: 'none', matchConfidence: 0, errorMessage: 'Not run.' }))
  report = v.buildReport({ maxFailures: 1 })
  // the evidence `qa accept` works from: every step that ran (the not-found one and the not-run one never do)
  report.acceptance = {
    caseFile: '/cases/sign-in.json',
    caseSha256: 'c'.repeat(64),
    steps: [0, 1, 3].map((actionIndex) => ({ actionIndex })),
  }
})

const section = (html: string, step: number) => {
  const start = html.indexOf(`id="step-${step}"`)
  const end = html.indexOf('</section>', start)
  return html.slice(start, end)
}

describe('the HTML report a reviewer reads in one pass', () => {
  test('a healed step: HEALED mark, "Login → Sign in", the strategy, the strategies tried first and why, the accept command', async () => {
    const html = await renderHtmlReport(report, { baseDir: dir, reportJsonPath: '/reports/run 1.json' })
    const healed = section(html, 2)
    expect(healed).toContain('data-healed="true"')
    expect(healed).toContain('<span class="badge healed">HEALED</span>')
    expect(healed).toContain('Login → Sign in, found by css')
    expect(healed).toContain('<li>role: none (0 candidates)</li>')
    // the tried strategy's detail comes from the page: escaped; a skipped strategy is not listed
    expect(healed).toContain('text: below threshold (1 candidate) — &quot;Sign up&quot; &lt;b&gt;disagrees&lt;/b&gt;')
    expect(healed).not.toContain('aria_label')
    expect(healed).toContain(`qa accept &#39;/reports/run 1.json&#39; --steps 2`.replace(/&#39;/g, '&apos;'))
    // the element found: the crop the replay cut at its box before the input
    expect(healed).toMatch(/<figure class="element"><img class="element-image" [^>]*src="data:image\/png;base64,/)
  })

  test('numbers from 1, the first cause named before the steps, the steps after it say so', async () => {
    const html = await renderHtmlReport(report, { baseDir: dir, reportJsonPath: 'r.json' })
    expect(html).toMatch(
      /<p class="first-cause" id="first-cause" data-step="3"><b>First cause:<\/b> <a href="#step-3">step 3 · Click link &quot;Reports&quot;<\/a>/,
    )
    expect(html).toContain('Step 1 · Click textbox &quot;Email&quot;')
    expect(section(html, 3)).toContain('FIRST CAUSE')
    expect(section(html, 3)).toContain('data-action-index="2"')
    expect(section(html, 4)).toContain('Ran after step <a href="#step-3">3</a> failed')
    // a not-found step cannot be accepted; a passed step that was not healed needs no accepting
    expect(section(html, 3)).not.toContain('qa accept')
    expect(section(html, 1)).not.toContain('qa accept')
  })

  test('steps that did not run show no similarity; a step not run says so; warnings are warnings', async () => {
    const html = await renderHtmlReport(report, { baseDir: dir })
    expect(section(html, 3)).not.toContain('class="similarity"')
    expect(section(html, 5)).not.toContain('class="similarity"')
    expect(section(html, 5)).toContain('data-not-run="true"')
    expect(section(html, 5)).toContain('<span class="badge not-run">NOT RUN</span>')
    expect(section(html, 1)).toContain('class="similarity"')
    expect(section(html, 4)).toContain('<span class="badge warning">WARNING</span>')
    // no accept command without the JSON's path
    expect(html).not.toContain('qa accept')
    // the filter is radio buttons and CSS: no script, no inline handlers
    expect(html).toContain('<label for="f-healed">Healed (1)</label>')
    expect(html).toContain('<label for="f-notrun">Not run (1)</label>')
    expect(html).not.toMatch(/<script|\son\w+=/i)
    expect(html).toContain('<title>Replay report — Sign-in &lt;flow&gt;</title>')
  })

  test('no accept command for a step the replay kept no evidence of (qa accept would refuse it)', async () => {
    const without = { ...report, acceptance: { ...report.acceptance!, steps: [] } }
    const html = await renderHtmlReport(without, { baseDir: dir, reportJsonPath: '/reports/run 1.json' })
    expect(html).not.toContain('qa accept')
    const noEvidence = { ...report, acceptance: null }
    expect(await renderHtmlReport(noEvidence, { baseDir: dir, reportJsonPath: '/reports/r.json' })).not.toContain(
      'qa accept',
    )
  })

  test('writeReports gives the HTML the JSON beside it for the accept command', async () => {
    const out = join(dir, 'out')
    const written = await writeReports(report, out, ['json', 'html'], { baseDir: dir })
    const { readFileSync } = await import('node:fs')
    const html = readFileSync(written.html as string, 'utf8')
    expect(html).toContain(acceptCommand(written.json as string, 2))
  })
})

describe('text and JUnit', () => {
  test('text: steps from 1, the first cause, the heal, not run without similarity', () => {
    const t = renderTextReport(report)
    expect(t).toMatch(/^First cause: {3}step 3 Click link "Reports" — The step did not run: Element not found/m)
    expect(t).toMatch(/\[PASS\] step 2 Click button "Login" {2}\[healed\] {2}similarity 100\.00%/)
    expect(t).toContain('healed: Login → Sign in, found by css')
    expect(t).toContain('tried first: role: none (0 candidates)')
    expect(t).toMatch(/\[FAIL\] step 3 Click link "Reports" {2}\(420 ms\) {2}\[first cause\]/)
    expect(t).toMatch(/\[WARNING\] step 4 Press Enter {2}similarity 91\.00%/)
    expect(t).toMatch(/\[NOT RUN\] step 5 Click button "Save"\n/)
    expect(t).toContain('Not run:       1 (--max-failures 1)')
  })

  test('JUnit: the failure message names the first cause; steps from 1; no similarity for steps not run', () => {
    const x = renderJunitReport(report)
    expect(x).toMatch(
      /<failure message="2 of 5 steps failed: step 3 Click link &quot;Reports&quot;: [^"]*\(first cause\); step 5 /,
    )
    expect(x).toContain('[NOT RUN] step 5 Click button &quot;Save&quot;\n  reason: Not run')
    expect(x).toContain('[FAIL] step 3 Click link &quot;Reports&quot; (first cause)\n  reason:')
    expect(x).toContain('healed: Login → Sign in, found by css')
  })
})
