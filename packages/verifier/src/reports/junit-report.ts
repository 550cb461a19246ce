import type { ReplayReport } from '@qa/model'
import { assertionOf, healingLabel, percent, regionLabel, replayResultFor } from './report-helpers'

// biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters; they are removed
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g

export function escapeXml(s: string): string {
  return s
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

const seconds = (ms: number | null | undefined) => ((ms ?? 0) / 1000).toFixed(3)

/** JUnit XML for CI: one testcase per action; failed actions carry a <failure> with the reason. */
export function renderJunitReport(report: ReplayReport): string {
  const suite = escapeXml(report.testCaseName)
  const totalMs = Math.max(0, Date.parse(report.endTime) - Date.parse(report.startTime)) || 0
  const cases = report.verificationResults.map((v, i) => {
    const name = escapeXml(`#${v.actionIndex} ${v.actionDescription}`)
    const healing = healingLabel(replayResultFor(report, v, i))
    const assertion = assertionOf(v)
    const info = [
      `verdict: ${v.finalResult}`,
      ...(assertion
        ? [`expected: ${assertion.expected}`, `actual: ${assertion.actual}`]
        : [`similarity: ${percent(v.screenshotSimilarity)}`]),
      ...(regionLabel(v) ? [`expected region: ${regionLabel(v)}`] : []),
      ...(v.reason ? [`reason: ${v.reason}`] : []),
      ...(healing ? [`located by: ${healing}`] : []),
      ...(v.diffScreenshot ? [`diff: ${v.diffScreenshot}`] : []),
    ].join('\n')
    const body =
      v.finalResult === 'fail'
        ? `\n      <failure message="${escapeXml(v.reason ?? 'verification failed')}" type="${assertion ? 'assertion' : 'verification'}">${escapeXml(info)}</failure>\n    `
        : `\n      <system-out>${escapeXml(info)}</system-out>\n    `
    return `    <testcase classname="${suite}" name="${name}" time="${seconds(v.durationMs)}">${body}</testcase>`
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="qa replay" tests="${report.totalActions}" failures="${report.failedCount}" errors="0" time="${seconds(totalMs)}">`,
    `  <testsuite name="${suite}" tests="${report.totalActions}" failures="${report.failedCount}" errors="0" skipped="0" timestamp="${escapeXml(report.startTime)}" time="${seconds(totalMs)}">`,
    `    <properties><property name="session_id" value="${escapeXml(report.sessionId)}"/><property name="success_rate" value="${report.successRate}"/><property name="warnings" value="${report.warningCount}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
