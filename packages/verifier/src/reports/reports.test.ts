import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseReplayReport } from '@qa/model'
import { loadReplayReport } from '@qa/model/node'
import { beforeAll, describe, expect, test } from 'vitest'
import { threeStepRun } from '../__tests__/three-step-run'
import type { ReplayReport } from '@qa/model'
import { renderHtmlReport } from './html-report'
import { renderJsonReport } from './json-report'
import { escapeXml, renderJunitReport } from './junit-report'
import { renderTextReport } from './text-report'
import { writeReports } from './write-reports'

let run: { dir: string; report: ReplayReport }
beforeAll(async () => {
  run = await threeStepRun()
})

describe('reports of a 3-step run with one failure', () => {
  test('the run itself: pass, not compared (no screenshot: named once), fail with a diff', () => {
    expect(run.report.verificationResults.map((r) => r.finalResult)).toEqual(['pass', 'pass', 'fail'])
    expect(run.report.unverifiedSteps).toEqual([1])
    expect(run.report.verificationResults[2]?.diffScreenshot).toMatch(/step-002-diff\.png$/)
    expect(run.report.passed).toBe(false)
  })

  test('JSON is lossless', () => {
    expect(parseReplayReport(JSON.parse(renderJsonReport(run.report)))).toEqual(run.report)
  })

  test('text names the result, counts, every step, the reason and the healing method', () => {
    const t = renderTextReport(run.report)
    expect(t).toContain('Result:        FAILED')
    expect(t).toContain('Actions:       3 (passed 2, failed 1, warnings 0)')
    expect(t).toContain('Success rate:  66.7%')
    expect(t).toMatch(/\[PASS\] step 1 홈 버튼 클릭/)
    expect(t).toMatch(/\[PASS\] step 2 이름 입력/)
    expect(t).toMatch(/\[FAIL\] step 3 설정 열기/)
    expect(t).toContain('설정 화면 대신 오류 대화상자가 보입니다')
    expect(t).toContain('located by: similarity')
  })

  test('JUnit has one testcase for the case and one failure with the reason', () => {
    const x = renderJunitReport(run.report)
    expect(x.match(/<testcase /g)).toHaveLength(1)
    expect(x.match(/<failure /g)).toHaveLength(1)
    expect(x).toMatch(/<testsuite name="로그인 흐름" tests="1" failures="1"/)
    expect(x).toMatch(/<failure message="[^"]*설정 화면 대신 오류 대화상자가 보입니다/)
    expect(escapeXml('a<b>&"\'\u0001')).toBe('a&lt;b&gt;&amp;&quot;&apos;')
  })

  test('HTML is one file with embedded thumbnails and the failed step’s diff and reason', async () => {
    const html = await renderHtmlReport(run.report, { baseDir: run.dir })
    expect(html).toContain('<meta charset="utf-8">')
    expect(html).toContain('Noto Sans CJK KR')
    expect(html).not.toMatch(/src="(?!data:)/) // nothing loaded from outside the file
    const failed = html.slice(html.indexOf('id="step-2"'))
    expect(failed).toContain('class="diff-image"')
    expect(failed).toMatch(/src="data:image\/png;base64,/)
    expect(failed).toContain('설정 화면 대신 오류 대화상자가 보입니다')
    expect(failed).toContain('similarity, confidence 80%')
  })

  test('HTML made several steps at a time is the same file, its steps in order', async () => {
    const steps = run.report.verificationResults
    // twelve steps, each with another step's screenshots, so that a step finished out of turn would show
    const many: ReplayReport = {
      ...run.report,
      verificationResults: Array.from({ length: 12 }, (_, i) => ({ ...steps[i % steps.length]!, actionIndex: i })),
    }
    const oneAtATime = await renderHtmlReport(many, { baseDir: run.dir, stepsAtOnce: 1 })
    const together = await renderHtmlReport(many, { baseDir: run.dir, stepsAtOnce: 6 })
    expect(together).toBe(oneAtATime)
    expect([...together.matchAll(/id="step-(\d+)"/g)].map((m) => Number(m[1]))).toEqual(
      Array.from({ length: 12 }, (_, i) => (i % steps.length) + 1),
    )
  })

  test('HTML outlines the animated regions on the recorded screenshot and lists them; JSON keeps them', async () => {
    const first = run.report.verificationResults[0] as ReplayReport['verificationResults'][number]
    const animated = { x: 4, y: 6, width: 16, height: 16 }
    const report: ReplayReport = {
      ...run.report,
      verificationResults: [
        { ...first, details: { ...(first.details ?? {}), animated_regions: [animated] } },
        ...run.report.verificationResults.slice(1),
      ],
    }
    const html = await renderHtmlReport(report, { baseDir: run.dir })
    const step1 = html.slice(html.indexOf('id="step-1"'), html.indexOf('id="step-2"'))
    expect(step1).toMatch(/<svg viewBox="0 0 \d+ \d+"[^>]*><rect class="animated" x="4" y="6" width="16" height="16"/)
    expect(step1).toContain('dashed: animated, not compared')
    expect(step1).toContain('16×16 at (4, 6): moved by itself while recorded, not compared')
    // the other steps have none
    expect(html.slice(html.indexOf('id="step-2"'))).not.toContain('class="animated"')
    expect(
      parseReplayReport(JSON.parse(renderJsonReport(report))).verificationResults[0]?.details?.animated_regions,
    ).toEqual([animated])
  })

  test('writeReports writes every format atomically; JSON loads back through @qa/model', async () => {
    const out = join(run.dir, 'reports')
    const paths = await writeReports(run.report, out, ['json', 'txt', 'html', 'junit'], { baseDir: run.dir })
    expect(paths.json).toBe(join(out, 'replay_run-1.json'))
    expect(await loadReplayReport(paths.json as string)).toEqual(run.report)
    expect(readFileSync(paths.junit as string, 'utf8')).toContain('<testsuites')
    await expect(writeReports(run.report, out, ['pdf' as never])).rejects.toMatchObject({ code: 'VERIFIER_BAD_OPTION' })
  })
})

describe('a step replayed by coordinates for want of a real target', () => {
  test('every format says the warning next to the strategy', async () => {
    const report: ReplayReport = structuredClone(run.report)
    const step = report.replayResults?.[0]
    if (!step) throw new Error('the run has no replay results')
    step.method = 'coordinate'
    step.warning =
      'the recorded target is <body>, the page itself, not an element a person clicks; replayed by coordinates'
    expect(renderTextReport(report)).toContain('located by: coordinate, confidence')
    expect(renderTextReport(report)).toContain('warning: the recorded target is <body>')
    expect(await renderHtmlReport(report, { baseDir: run.dir })).toContain(
      'warning: the recorded target is &lt;body&gt;',
    )
    expect(renderJunitReport(report)).toContain('warning: the recorded target is &lt;body&gt;')
    expect(parseReplayReport(JSON.parse(renderJsonReport(report))).replayResults?.[0]?.warning).toBe(step.warning)
  })
})

describe('reports of assert steps', () => {
  const report: ReplayReport = {
    testCaseName: '장바구니',
    sessionId: 's1',
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-01T00:00:02.000Z',
    totalActions: 2,
    passedCount: 1,
    failedCount: 1,
    warningCount: 0,
    successRate: 0.5,
    passed: false,
    summary: '1 of 2 steps failed',
    verificationResults: [
      {
        actionIndex: 0,
        actionDescription: 'Assert URL matches "/cart$"',
        screenshotMatch: false,
        screenshotSimilarity: 0,
        visionVerified: false,
        visionMatch: false,
        finalResult: 'pass',
        reason: 'Assertion held.',
        details: { assertion: { kind: 'url', expected: 'url matches "/cart$"', actual: '"http://x/cart"' } },
      },
      {
        actionIndex: 1,
        actionDescription: 'Assert text of status "장바구니 <3>"',
        screenshotMatch: false,
        screenshotSimilarity: 0,
        visionVerified: false,
        visionMatch: false,
        finalResult: 'fail',
        reason: 'Assertion failed.',
        details: { assertion: { kind: 'text', expected: 'text equals "장바구니 3개"', actual: '"장바구니 <2>개"' } },
      },
    ],
  }

  test('text, JUnit and HTML show expected and actual of each assertion', async () => {
    const t = renderTextReport(report)
    expect(t).toContain('expected: text equals "장바구니 3개"')
    expect(t).toContain('actual:   "장바구니 <2>개"')
    const x = renderJunitReport(report)
    expect(x).toMatch(
      /<failure message="1 of 2 steps failed: step 2 [^"]*: Assertion failed\." type="assertion">[^<]*expected: text equals &quot;장바구니 3개&quot;\n {2}actual: &quot;장바구니 &lt;2&gt;개&quot;/,
    )
    const html = await renderHtmlReport(report)
    expect(html).toContain('<dd class="assertion-expected">text equals &quot;장바구니 3개&quot;</dd>')
    expect(html).toContain('<dd class="assertion-actual">&quot;장바구니 &lt;2&gt;개&quot;</dd>')
    // no screenshot frames for a step that compares none
    expect(html.match(/<figure/g) ?? []).toHaveLength(0)
  })
})

describe('reports of a step verified on its expected region', () => {
  const report: ReplayReport = {
    testCaseName: 'keypad',
    sessionId: 's-region',
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-01T00:00:01.000Z',
    totalActions: 1,
    passedCount: 0,
    failedCount: 1,
    warningCount: 0,
    successRate: 0,
    passed: false,
    summary: 'Test FAILED',
    verificationResults: [
      {
        actionIndex: 0,
        actionDescription: 'Click "3"',
        screenshotMatch: true,
        screenshotSimilarity: 0.9996,
        visionVerified: false,
        visionMatch: false,
        finalResult: 'fail',
        reason: 'Expected region similarity 12.50% < 95.00%',
        regionSimilarity: 0.125,
        expectedRegion: { x: 250, y: 52, width: 96, height: 237 },
        actualRegion: { x: 370, y: 122, width: 96, height: 237 },
      },
    ],
  }

  test('JSON keeps the new fields under their file names; text, HTML and JUnit show them', async () => {
    const json = JSON.parse(renderJsonReport(report))
    expect(json.verification_results[0]).toMatchObject({
      screenshot_similarity: 0.9996,
      region_similarity: 0.125,
      expected_region: { x: 250, y: 52, width: 96, height: 237 },
      actual_region: { x: 370, y: 122, width: 96, height: 237 },
    })
    expect(parseReplayReport(json)).toEqual(report)
    const line = 'expected region: 12.50% of 96×237 at (250, 52) → (370, 122)'
    expect(renderTextReport(report)).toContain(line)
    expect(renderJunitReport(report)).toContain(line)
    const html = await renderHtmlReport(report)
    expect(html).toMatch(/<dd class="region-similarity">12\.50% of 96×237 at \(250, 52\) → \(370, 122\)<\/dd>/)
  })
})

describe('a step judged by the step after it', () => {
  test('shows no similarity anywhere: nothing of it was compared', async () => {
    const report: ReplayReport = {
      testCaseName: 'judged',
      sessionId: 's-judged',
      startTime: '2026-01-01T00:00:00.000Z',
      endTime: '2026-01-01T00:00:01.000Z',
      totalActions: 1,
      passedCount: 1,
      failedCount: 0,
      warningCount: 0,
      successRate: 1,
      passed: true,
      summary: 'Test PASSED',
      verificationResults: [
        {
          actionIndex: 0,
          actionDescription: 'Click textbox "Project name"',
          screenshotMatch: false,
          screenshotSimilarity: 0,
          visionVerified: false,
          visionMatch: false,
          finalResult: 'pass',
          reason: 'The click put the caret in textbox "Project name"; step 2 is verified instead.',
          actualScreenshot: 'step-000-actual.png',
          details: { skipped: false, judged_by_action_index: 1 },
        },
      ],
    }
    expect(await renderHtmlReport(report)).not.toContain('class="similarity"')
    expect(renderTextReport(report)).not.toMatch(/similarity/i)
  })
})

describe('a desktop replay on a screen of another size', () => {
  const change = {
    recorded: { width: 1280, height: 720 },
    replayed: { width: 1600, height: 900 },
    message: 'elements are searched at 0.5–2× and the expected regions compared at the located scale',
  }
  test('JSON keeps both sizes and the message as screen_size_change', () => {
    const report = { ...run.report, screenSizeChange: change }
    const json = JSON.parse(renderJsonReport(report))
    expect(json.screen_size_change).toEqual(change)
    expect(parseReplayReport(json).screenSizeChange).toEqual(change)
  })
  test('text and HTML say so next to the result; a run on the recorded size says nothing', async () => {
    const report = { ...run.report, screenSizeChange: change }
    expect(renderTextReport(report)).toContain(
      'Screen size:   1600×900 now, 1280×720 when recorded (×1.25 wide, ×1.25 high): elements are searched',
    )
    const html = await renderHtmlReport(report, { baseDir: run.dir })
    expect(html).toMatch(/id="screen-size-change" data-recorded="1280x720" data-replayed="1600x900"/)
    expect(html).toContain('1600×900 now, 1280×720 when recorded')
    expect(renderTextReport(run.report)).not.toContain('Screen size:')
    expect(await renderHtmlReport(run.report, { baseDir: run.dir })).not.toContain('screen-size-change"')
  })
})
