import { type ReplayReport, terminalSafe } from '@qa/model'
import {
  assertionOf,
  attemptLabel,
  durationLabel,
  healingLabel,
  healLine,
  healOf,
  percent,
  regionLabel,
  replayResultFor,
  screenSizeLabel,
  stepOf,
  VERDICT_LABEL,
  wasCompared,
} from './report-helpers'

/** The human summary: counts, success rate, the test's result and one line per action. */
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
    ...(report.firstCause
      ? [`First cause:   step ${report.firstCause.step} ${report.firstCause.description} — ${report.firstCause.reason}`]
      : []),
    ...(report.notRunCount
      ? [`Not run:       ${report.notRunCount} (--max-failures ${report.maxFailures ?? ''})`]
      : []),
    '',
    report.summary,
    '',
    'Steps:',
  ]
  report.verificationResults.forEach((v, i) => {
    const assertion = assertionOf(v)
    const r = replayResultFor(report, v, i)
    const compared = wasCompared(v, r)
    const heal = healOf(r)
    const duration = v.notRun ? null : durationLabel((r?.durationMs ?? 0) + (v.durationMs ?? 0))
    const mark = v.firstCause
      ? '  [first cause]'
      : v.afterFirstCause && v.finalResult === 'fail' && !v.notRun
        ? `  [after step ${v.afterFirstCause} failed]`
        : ''
    lines.push(
      `  [${v.notRun ? 'NOT RUN' : VERDICT_LABEL[v.finalResult]}] step ${stepOf(v)} ${v.actionDescription}${heal ? '  [healed]' : ''}${!assertion && compared ? `  similarity ${percent(v.screenshotSimilarity)}` : ''}${duration ? `  (${duration})` : ''}${mark}`,
    )
    const region = regionLabel(v)
    if (region && compared) lines.push(`         expected region: ${region}`)
    if (v.reason) lines.push(`         ${v.reason}`)
    if (assertion) lines.push(`         expected: ${assertion.expected}`, `         actual:   ${assertion.actual}`)
    if (heal) {
      lines.push(`         healed: ${healLine(heal)}`)
      for (const a of heal.triedFirst) lines.push(`           tried first: ${attemptLabel(a)}`)
    }
    const healing = v.notRun ? undefined : healingLabel(r)
    if (healing) lines.push(`         located by: ${healing}`)
    if (v.actualScreenshot && !v.notRun) lines.push(`         actual: ${v.actualScreenshot}`)
    if (v.diffScreenshot) lines.push(`         diff: ${v.diffScreenshot}`)
  })
  if (report.accuracyStats) {
    const s = report.accuracyStats
    lines.push(
      '',
      `Located: ${s.successCount}/${s.totalActions} (semantic ${s.semanticMatchCount}, coordinate ${s.coordinateMatchCount})`,
    )
  }
  // text from the case and the page never reaches a terminal as escapes, nor starts a line of its own
  return `${lines.map((line) => terminalSafe(line, { keepLineBreaks: false })).join('\n')}\n`
}
