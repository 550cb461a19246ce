import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type ReplayReport, serializeReplayReport, stringifyDocument } from '@qa/model'

/**
 * A replay report of case `name` with one step per verdict: a failing step says why in Korean, as a real report
 * would, and every step points at its own screenshot under `artifacts/`.
 */
export function replayReportOf(
  name: string,
  verdicts: Array<'pass' | 'fail' | 'warning'>,
  describeStep: (index: number) => string = (i) => `step ${i}`,
): ReplayReport {
  const passedCount = verdicts.filter((v) => v === 'pass').length
  const failedCount = verdicts.filter((v) => v === 'fail').length
  return {
    testCaseName: name,
    sessionId: name,
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-01T00:00:02.000Z',
    totalActions: verdicts.length,
    passedCount,
    failedCount,
    warningCount: verdicts.length - passedCount - failedCount,
    successRate: (verdicts.length - failedCount) / verdicts.length,
    passed: failedCount === 0,
    testCasePath: `cases/${name}.json`,
    verificationResults: verdicts.map((v, i) => ({
      actionIndex: i,
      actionDescription: describeStep(i),
      screenshotMatch: v !== 'fail',
      screenshotSimilarity: v === 'fail' ? 0.5 : 1,
      visionVerified: false,
      visionMatch: false,
      finalResult: v,
      reason: v === 'fail' ? '저장 대화상자가 열리지 않았습니다' : null,
      actualScreenshot: `artifacts/${name}-${i}.png`,
      durationMs: 500,
    })),
    summary: '',
  }
}

/** Writes `report` as JSON at `<dir>/<relativePath>`, creating folders, and returns the path. */
export function writeReportFile(dir: string, relativePath: string, report: ReplayReport): string {
  const path = join(dir, relativePath)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, stringifyDocument(serializeReplayReport(report)))
  return path
}
