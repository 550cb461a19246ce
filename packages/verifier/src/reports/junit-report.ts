import { isAbsolute, resolve } from 'node:path'
import type { ReplayReport, VerificationResult } from '@qa/model'
import {
  assertionOf,
  attemptLabel,
  healingLabel,
  healLine,
  healOf,
  percent,
  regionLabel,
  replayResultFor,
  stepOf,
  VERDICT_LABEL,
  wasCompared,
} from './report-helpers'

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

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3)

/** One `<testsuite>`: a run of cases (a folder, a shard, a single case, or the cases of a merged report). */
export interface JunitSuite {
  name: string
  /** One report per case; a merged report (`extra.merged`) counts as the cases it lists. */
  reports: readonly ReplayReport[]
}

export interface JunitOptions {
  /** Folder that relative screenshot paths of the reports are relative to (the case folder); they become absolute. */
  baseDir?: string
  /** Name of the `<testsuites>` root (default "qa replay"). */
  name?: string
}

/** One case inside a merged report (`extra.merged`, written by `qa report merge`). */
export interface MergedCaseEntry {
  testCaseName: string
  sessionId: string
  passed: boolean
  totalActions: number
  passedCount: number
  failedCount: number
  warningCount: number
}

/**
 * The cases of a report: itself, or for a merged report (`qa report merge`, whose `extra.merged` lists the cases
 * in the order their steps were appended) one report per case, with its own steps, counts and verdict.
 */
export function casesOfReport(report: ReplayReport): ReplayReport[] {
  const merged = (report.extra as { merged?: unknown } | undefined)?.merged
  if (!Array.isArray(merged) || merged.length === 0) return [report]
  const entries = merged as MergedCaseEntry[]
  const steps = entries.reduce((n, c) => n + c.totalActions, 0)
  if (steps !== report.verificationResults.length) return [report] // not a layout we can split: one testcase
  const cases: ReplayReport[] = []
  let offset = 0
  for (const entry of entries) {
    const prefix = `${entry.testCaseName}: `
    const own = (i: number) => i >= offset && i < offset + entry.totalActions
    const verificationResults = report.verificationResults
      .filter((_, i) => own(i))
      .map((v) => ({
        ...v,
        actionIndex: v.actionIndex - offset,
        actionDescription: v.actionDescription.startsWith(prefix)
          ? v.actionDescription.slice(prefix.length)
          : v.actionDescription,
      }))
    const replayResults = (report.replayResults ?? [])
      .filter((r) => r.actionIndex != null && own(r.actionIndex))
      .map((r) => ({ ...r, actionIndex: (r.actionIndex as number) - offset }))
    cases.push({
      testCaseName: entry.testCaseName,
      sessionId: entry.sessionId,
      startTime: report.startTime,
      endTime: report.endTime,
      totalActions: entry.totalActions,
      passedCount: entry.passedCount,
      failedCount: entry.failedCount,
      warningCount: entry.warningCount,
      successRate: entry.totalActions ? (entry.passedCount + entry.warningCount) / entry.totalActions : 0,
      passed: entry.passed,
      verificationResults,
      ...(replayResults.length ? { replayResults } : {}),
      summary: `${entry.testCaseName}: ${entry.passed ? 'PASSED' : 'FAILED'}`,
    })
    offset += entry.totalActions
  }
  return cases
}

const caseFailed = (r: ReplayReport) =>
  r.passed === false || r.verificationResults.some((v) => v.finalResult === 'fail')
const caseTimeMs = (r: ReplayReport) => {
  const steps = r.verificationResults.reduce((t, v) => t + (v.durationMs ?? 0), 0)
  const wall = Date.parse(r.endTime) - Date.parse(r.startTime)
  return steps > 0 ? steps : Number.isFinite(wall) ? wall : 0
}

/** `[[ATTACHMENT|/abs/path.png]]`: the line Jenkins (junit-attachments) and GitLab read as a test's attachment. */
const attachment = (path: string, baseDir: string | undefined) =>
  `[[ATTACHMENT|${baseDir && !isAbsolute(path) ? resolve(baseDir, path) : path}]]`

/** The first failed step of a case (a step not run is never one), or undefined. */
const firstCauseOf = (report: ReplayReport) =>
  report.verificationResults.find((v) => v.finalResult === 'fail' && !v.notRun)

function stepLines(report: ReplayReport, v: VerificationResult, position: number): string[] {
  const r = replayResultFor(report, v, position)
  const healing = v.notRun ? undefined : healingLabel(r)
  const heal = healOf(r)
  const assertion = assertionOf(v)
  const first = firstCauseOf(report)
  const several = report.verificationResults.filter((x) => x.finalResult === 'fail').length > 1
  const mark =
    first && v === first && several
      ? ' (first cause)'
      : first && v.finalResult === 'fail' && !v.notRun && v.actionIndex > first.actionIndex
        ? ` (after step ${stepOf(first)} failed)`
        : ''
  return [
    `[${v.notRun ? 'NOT RUN' : VERDICT_LABEL[v.finalResult]}] step ${stepOf(v)} ${v.actionDescription}${heal ? ' [healed]' : ''}${mark}`,
    ...(assertion
      ? [`  expected: ${assertion.expected}`, `  actual: ${assertion.actual}`]
      : wasCompared(v, r)
        ? [`  similarity: ${percent(v.screenshotSimilarity)}`]
        : []),
    ...(regionLabel(v) && wasCompared(v, r) ? [`  expected region: ${regionLabel(v)}`] : []),
    ...(v.reason ? [`  reason: ${v.reason}`] : []),
    ...(heal
      ? [`  healed: ${healLine(heal)}`, ...heal.triedFirst.map((a) => `    tried first: ${attemptLabel(a)}`)]
      : []),
    ...(healing ? [`  located by: ${healing}`] : []),
  ]
}

function renderCase(report: ReplayReport, suite: string, opts: JunitOptions): string {
  const failed = report.verificationResults.filter((v) => v.finalResult === 'fail')
  const out = [
    `${report.totalActions} steps: ${report.passedCount} passed, ${report.failedCount} failed, ${report.warningCount} warnings (success rate ${percent(report.successRate, 1)})`,
    ...report.verificationResults.flatMap((v, i) => stepLines(report, v, i)),
  ]
  // screenshots of the steps that did not pass, as attachments (a passed step has nothing to look at)
  const attachments = report.verificationResults
    .filter((v) => v.finalResult !== 'pass')
    .flatMap((v) => [v.actualScreenshot, v.diffScreenshot, v.expectedScreenshot])
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .map((p) => attachment(p, opts.baseDir))
  let failure = ''
  if (caseFailed(report)) {
    const first = firstCauseOf(report)
    const messages = failed.map(
      (v) =>
        `step ${stepOf(v)} ${v.actionDescription}: ${v.reason ?? 'verification failed'}${v === first && failed.length > 1 ? ' (first cause)' : ''}`,
    )
    const message =
      failed.length > 0
        ? `${failed.length} of ${report.totalActions} steps failed: ${messages.join('; ')}`
        : report.summary || 'the case failed'
    const type = failed.some((v) => assertionOf(v)) ? 'assertion' : 'verification'
    const body = failed.flatMap((v) => stepLines(report, v, report.verificationResults.indexOf(v))).join('\n')
    failure = `\n      <failure message="${escapeXml(message)}" type="${type}">${escapeXml(body || message)}</failure>`
  }
  const systemOut = `\n      <system-out>${escapeXml([...out, ...attachments].join('\n'))}</system-out>`
  const classname = escapeXml(report.testCasePath ?? suite)
  return `    <testcase classname="${classname}" name="${escapeXml(report.testCaseName)}" time="${seconds(caseTimeMs(report))}">${failure}${systemOut}\n    </testcase>`
}

/**
 * JUnit XML as CI tools read it (Jenkins, GitLab, GitHub reporters): one `<testsuite>` per run, one `<testcase>`
 * per case (never per step); a failed case carries one `<failure>` with the failing steps' messages; every step
 * with its verdict and healing is in `<system-out>`, followed by `[[ATTACHMENT|path]]` lines for the screenshots
 * of the steps that did not pass. Valid against the Jenkins JUnit XSD.
 */
export function renderJunitXml(suites: readonly JunitSuite[], opts: JunitOptions = {}): string {
  let tests = 0
  let failures = 0
  let totalMs = 0
  const rendered = suites.map((suite) => {
    const cases = suite.reports.flatMap(casesOfReport)
    const failedCases = cases.filter(caseFailed).length
    const ms = cases.reduce((t, c) => t + caseTimeMs(c), 0)
    const steps = cases.reduce((n, c) => n + c.totalActions, 0)
    const failedSteps = cases.reduce((n, c) => n + c.failedCount, 0)
    const warnings = cases.reduce((n, c) => n + c.warningCount, 0)
    const start = cases.map((c) => c.startTime).sort()[0] ?? new Date(0).toISOString()
    tests += cases.length
    failures += failedCases
    totalMs += ms
    const name = escapeXml(suite.name)
    return [
      `  <testsuite name="${name}" tests="${cases.length}" failures="${failedCases}" errors="0" skipped="0" timestamp="${escapeXml(start)}" time="${seconds(ms)}">`,
      `    <properties><property name="steps" value="${steps}"/><property name="failed_steps" value="${failedSteps}"/><property name="warnings" value="${warnings}"/></properties>`,
      ...cases.map((c) => renderCase(c, suite.name, opts)),
      '  </testsuite>',
    ].join('\n')
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(opts.name ?? 'qa replay')}" tests="${tests}" failures="${failures}" errors="0" time="${seconds(totalMs)}">`,
    ...rendered,
    '</testsuites>',
    '',
  ].join('\n')
}

/** JUnit XML of one report: one suite named after it, one testcase per case (one, or each case of a merge). */
export function renderJunitReport(report: ReplayReport, opts: JunitOptions = {}): string {
  return renderJunitXml([{ name: report.testCaseName, reports: [report] }], opts)
}
