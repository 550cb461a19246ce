// `qa demo --desktop` end to end: the canvas sample game in Chromium on an X display, real XTest input recorded by
// the global hook, replay on the v2 build offline (template / OCR), verification and reports.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseReplayReport } from '@qa/model'
import { startXvfb } from '@qa/recorder-desktop'
import { describe, expect, it } from 'vitest'
import { qaAsync } from '../__tests__/run-cli'

interface Step {
  index: number
  description: string
  verdict: string
  method: string
  healed: boolean
  confidence: number
  failedFirst: string[]
}

const LOCATING = ['template', 'ocr', 'semantic']

describe('qa demo --desktop', () => {
  it('--json without DISPLAY: starts its own Xvfb, heals on v2 by template/OCR, every verdict pass or warning', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'qa-demo-desktop-')), 'tmp')
    const r = await qaAsync(['demo', '--desktop', '--json', '--out-dir', out], { env: { DISPLAY: '' } })
    expect(r.code, r.stderr).toBe(0)
    const summary = JSON.parse(r.stdout)
    expect(summary.passed).toBe(true)
    const steps = summary.steps as Step[]
    // start, type, back, settings, sound, close
    expect(steps.map((s) => s.method === 'none')).toEqual([false, true, false, false, false, false])
    const clicks = steps.filter((s) => s.method !== 'none')
    // every button moved on v2: nothing is where it was, so no click is found directly or by coordinates
    for (const s of clicks) {
      expect(LOCATING).toContain(s.method)
      expect(s.healed).toBe(true)
      expect(s.failedFirst.some((f) => f.startsWith('direct:'))).toBe(true)
    }
    for (const s of steps) expect(['pass', 'warning']).toContain(s.verdict)
    expect(summary.counts).toMatchObject({ total: 6, failed: 0 })

    for (const f of ['json', 'txt', 'html', 'junit']) expect(existsSync(summary.reports[f]), f).toBe(true)
    expect(summary.reports.html).toBe(join(out, 'reports', 'demo-report.html'))
    const report = parseReplayReport(JSON.parse(readFileSync(summary.reports.json, 'utf8')))
    expect(report.verificationResults.map((v) => v.finalResult)).toEqual(steps.map((s) => s.verdict))
    expect(readFileSync(summary.reports.html, 'utf8')).toContain('게임 시작')
    expect(existsSync(summary.caseFile)).toBe(true)
  })

  it('uses a working DISPLAY as it is and prints which strategy found each step', async () => {
    const xvfb = await startXvfb({ width: 1280, height: 720 })
    try {
      const out = join(mkdtempSync(join(tmpdir(), 'qa-demo-desktop-')), 'demo')
      const r = await qaAsync(['demo', '--desktop', '--out-dir', out], { env: { DISPLAY: xvfb.display } })
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toContain("qa demo --desktop: recorded 6 steps on the game's v1, replayed them on v2")
      expect(r.stdout).toMatch(/1\. (PASS|WARNING) +Click .*healed by (template|ocr) \(direct: [a-z_]+\)/)
      expect(r.stdout).toMatch(/2\. (PASS|WARNING) +Type "hero" +no element to find/)
      expect(r.stdout).toContain(`Display: ${xvfb.display}\n`)
      expect(r.stdout).toMatch(/Test PASSED: 6 actions/)
      expect(r.stdout).toContain('Report: ')
      expect(r.stderr).toContain(`shown on ${xvfb.display}`)
      expect(existsSync(join(out, 'reports', 'demo-report.html'))).toBe(true)
    } finally {
      await xvfb.stop()
    }
  })
})
