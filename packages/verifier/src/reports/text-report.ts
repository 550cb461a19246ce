import type { ReplayReport } from '@qa/model'
import {
  assertionOf,
  healingLabel,
  percent,
  regionLabel,
  replayResultFor,
  screenSizeLabel,
  VERDICT_LABEL,
} from './report-helpers'

/** The human summary of seed 000: counts, success rate, the test's result and one line per action. */
export function renderTextReport(report: ReplayReport): string {
  const passed = report.passed ?? report.failedCount === 0
  const lines = [
    `Replay report: ${report.testCaseName}`,
    `Session:       ${report.sessionId}`,
    `Started:       ${report.startTime}`,
    `Ended:         ${report.endTime}`,
    `Result:        ${passed ? 'PASSED' : 'FAILED'}`,
    `Actions:       ${report.totalActions} (passed ${report.passedCount}, failed ${report.failedCount}, warnings ${report.warningCount})`,
    `Success rate:  ${percent(report.successRate, 1)}`,
    ...(report.screenSizeChange ? [`Screen size:   ${screenSizeLabel(report.screenSizeChange)}`] : []),
    '',
    report.summary,
    '',
    'Steps:',
  ]
  report.verificationResults.forEach((v, i) => {
    const assertion = assertionOf(v)
    lines.push(
      `  [${VERDICT_LABEL[v.finalResult]}] #${v.actionIndex} ${v.actionDescription}${assertion ? '' : `  similarity ${percent(v.screenshotSimilarity)}`}`,
    )
    const region = regionLabel(v)
    if (region) lines.push(`         expected region: ${region}`)
    if (v.reason) lines.push(`         ${v.reason}`)
    if (assertion) lines.push(`         expected: ${assertion.expected}`, `         actual:   ${assertion.actual}`)
    const healing = healingLabel(replayResultFor(report, v, i))
    if (healing) lines.push(`         located by: ${healing}`)
    if (v.diffScreenshot) lines.push(`         diff: ${v.diffScreenshot}`)
  })
  if (report.accuracyStats) {
    const s = report.accuracyStats
    lines.push(
      '',
      `Located: ${s.successCount}/${s.totalActions} (semantic ${s.semanticMatchCount}, coordinate ${s.coordinateMatchCount})`,
    )
  }
  return `${lines.join('\n')}\n`
}
