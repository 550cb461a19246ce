import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReplayReport, ReplayResult, VerificationResult } from '@qa/model'
import type { ReportWriter } from '../report-paths'
import type { SuiteReplayFn } from '../run-types'

/** Writes a minimal valid web case file. */
export function writeCase(
  dir: string,
  file: string,
  name: string,
  steps = 2,
  platform: 'web' | 'desktop' = 'web',
): string {
  const path = join(dir, file)
  const actions = Array.from({ length: steps }, (_, i) => ({
    timestamp: 1_700_000_000_000 + i,
    action_type: 'click',
    x: 10 + i,
    y: 20,
    description: `Click step ${i}`,
  }))
  writeFileSync(
    path,
    JSON.stringify({ name, version: '3.0', platform, start_url: 'http://127.0.0.1:1/', actions }, null, 2),
  )
  return path
}

export function tempDir(prefix = 'qa-server-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

/** A case folder with `names.length` web cases, `case-<i>.json`. */
export function caseFolder(names: readonly string[], steps = 2): string {
  const dir = tempDir()
  for (const [i, n] of names.entries()) writeCase(dir, `case-${String(i).padStart(2, '0')}.json`, n, steps)
  return dir
}

function report(name: string, results: ReplayResult[], verifications: VerificationResult[]): ReplayReport {
  const failed = verifications.filter((v) => v.finalResult === 'fail').length
  return {
    testCaseName: name,
    sessionId: `s-${name}`,
    startTime: new Date().toISOString(),
    endTime: new Date().toISOString(),
    totalActions: results.length,
    passedCount: results.length - failed,
    failedCount: failed,
    warningCount: 0,
    successRate: results.length ? (results.length - failed) / results.length : 0,
    passed: failed === 0,
    verificationResults: verifications,
    replayResults: results,
    summary: `${name}: ${failed === 0 ? 'PASSED' : 'FAILED'}`,
  }
}

export interface FakeReplayerOptions {
  /** Suite names whose step 1 fails to find its element. */
  failing?: readonly string[]
  /** Suite names whose replay throws (app down). */
  throwing?: readonly string[]
  /** Delay per step. */
  stepDelayMs?: number
  /** Observes concurrency. */
  onActive?: (active: number) => void
}

/** A replay function without a browser: every step succeeds except the configured ones. */
export function fakeReplayer(opts: FakeReplayerOptions = {}): SuiteReplayFn {
  let active = 0
  return async ({ testCase, onStep, signal }) => {
    active++
    opts.onActive?.(active)
    try {
      if (opts.throwing?.includes(testCase.name)) {
        throw new Error(`Could not open http://127.0.0.1:1/: net::ERR_CONNECTION_REFUSED`)
      }
      const results: ReplayResult[] = []
      const verifications: VerificationResult[] = []
      for (const [index, action] of testCase.actions.entries()) {
        if (opts.stepDelayMs) await new Promise((r) => setTimeout(r, opts.stepDelayMs))
        if (signal.aborted) throw new Error('aborted')
        const fails = index === 1 && opts.failing?.includes(testCase.name)
        const result: ReplayResult = {
          actionId: `action-${index}`,
          actionIndex: index,
          success: !fails,
          method: fails ? 'failed' : 'role',
          originalCoords: { x: action.x, y: action.y },
          matchConfidence: fails ? 0 : 1,
          screenTransitionVerified: !fails,
          errorMessage: fails ? 'Element not found: button "저장"' : '',
        }
        const verification: VerificationResult = {
          actionIndex: index,
          actionDescription: action.description,
          screenshotMatch: !fails,
          screenshotSimilarity: fails ? 0 : 1,
          visionVerified: false,
          visionMatch: false,
          finalResult: fails ? 'fail' : 'pass',
          reason: fails ? 'The step did not run: Element not found: button "저장"' : 'same',
        }
        results.push(result)
        verifications.push(verification)
        onStep({ index, total: testCase.actions.length, action, result, verification })
      }
      const r = report(testCase.name, results, verifications)
      return { report: r, passed: r.passed === true }
    } finally {
      active--
    }
  }
}

/** Writes only a tiny JSON file per suite (fast, no @qa/verifier). */
export const fakeWriter: ReportWriter = async (rep, dir) => {
  const { mkdir, writeFile } = await import('node:fs/promises')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'report.json'), JSON.stringify(rep))
  await writeFile(join(dir, 'report.html'), `<h1>${rep.testCaseName}</h1>`)
  return { json: join(dir, 'report.json'), html: join(dir, 'report.html') }
}
