import {
  computeAccuracyStats,
  countVerdicts,
  determineTestResult,
  type JsonObject,
  type ReplayReport,
  type ReplayResult,
  type VerificationResult,
} from '@qa/model'
import type { MergedCaseEntry } from '@qa/verifier'
import { ServerError } from './errors'

export type { MergedCaseEntry }

export interface MergeReportsOptions {
  /** Name of the merged report (default: "N reports merged"). */
  name?: string
  sessionId?: string
  /** Rewrites a screenshot path of report `reportIndex` (e.g. relative to the merged file's folder). */
  rebasePath?: (path: string, reportIndex: number) => string
}

const casesOf = (r: ReplayReport): MergedCaseEntry[] => {
  const merged = (r.extra as { merged?: unknown } | undefined)?.merged
  if (Array.isArray(merged)) return merged as MergedCaseEntry[]
  return [
    {
      testCaseName: r.testCaseName,
      sessionId: r.sessionId,
      passed: r.passed !== false && determineTestResult(r.verificationResults),
      totalActions: r.totalActions,
      passedCount: r.passedCount,
      failedCount: r.failedCount,
      warningCount: r.warningCount,
    },
  ]
}

const isMerged = (r: ReplayReport) => Array.isArray((r.extra as { merged?: unknown } | undefined)?.merged)

/**
 * Combines replay reports (one per case, or shard reports that are merges already) into one report: steps are
 * renumbered one after the other and prefixed with their case name, the verdict counts are recounted
 * (passed + failed + warning = total), the success rate is recomputed, and the merged report passes only when
 * every input passed. `extra.merged` lists the cases (flattened, so merging merges equals merging the cases).
 */
export function mergeReplayReports(reports: readonly ReplayReport[], opts: MergeReportsOptions = {}): ReplayReport {
  if (reports.length === 0) {
    throw new ServerError('SERVER_BAD_OPTION', 'There are no reports to merge.', {
      hint: 'Pass one or more report JSON files, e.g. qa report merge shard-*.json --out merged.json',
    })
  }
  const rebase = (p: string | null | undefined, i: number) => (p && opts.rebasePath ? opts.rebasePath(p, i) : p)
  const verifications: VerificationResult[] = []
  const results: ReplayResult[] = []
  let allHaveResults = true
  let offset = 0
  reports.forEach((r, i) => {
    const prefix = isMerged(r) ? '' : `${r.testCaseName}: `
    for (const v of r.verificationResults) {
      verifications.push({
        ...v,
        actionIndex: offset + v.actionIndex,
        actionDescription: `${prefix}${v.actionDescription}`,
        ...(v.expectedScreenshot ? { expectedScreenshot: rebase(v.expectedScreenshot, i) } : {}),
        ...(v.actualScreenshot ? { actualScreenshot: rebase(v.actualScreenshot, i) } : {}),
        ...(v.diffScreenshot ? { diffScreenshot: rebase(v.diffScreenshot, i) } : {}),
      })
    }
    if (r.replayResults) {
      r.replayResults.forEach((x, j) => {
        results.push({ ...x, actionIndex: offset + (x.actionIndex ?? j) })
      })
    } else allHaveResults = false
    const highest = Math.max(
      -1,
      ...r.verificationResults.map((v) => v.actionIndex),
      ...(r.replayResults ?? []).map((x, j) => x.actionIndex ?? j),
    )
    offset += Math.max(r.totalActions, r.verificationResults.length, r.replayResults?.length ?? 0, highest + 1)
  })
  const counts = countVerdicts(verifications)
  const cases = reports.flatMap(casesOf)
  const passed = determineTestResult(verifications) && reports.every((r) => r.passed !== false)
  const times = (pick: (r: ReplayReport) => string) => reports.map(pick).filter(Boolean).sort()
  const starts = times((r) => r.startTime)
  const ends = times((r) => r.endTime)
  const name = opts.name ?? `${cases.length} case${cases.length === 1 ? '' : 's'} merged`
  const failedCases = cases.filter((c) => !c.passed).map((c) => c.testCaseName)
  return {
    testCaseName: name,
    sessionId: opts.sessionId ?? `merged-${reports.map((r) => r.sessionId).join('+')}`.slice(0, 200),
    startTime: starts[0] ?? '',
    endTime: ends[ends.length - 1] ?? '',
    ...counts,
    passed,
    verificationResults: verifications,
    replayResults: allHaveResults ? results : null,
    accuracyStats: allHaveResults ? computeAccuracyStats(results) : null,
    summary:
      `${name}: ${passed ? 'PASSED' : 'FAILED'} — ${cases.length - failedCases.length}/${cases.length} cases passed, ` +
      `${counts.passedCount} passed, ${counts.failedCount} failed, ${counts.warningCount} warning of ` +
      `${counts.totalActions} steps (${(counts.successRate * 100).toFixed(1)}%)` +
      (failedCases.length ? `; failed: ${failedCases.join(', ')}` : ''),
    extra: { merged: cases as unknown as JsonObject[] } as JsonObject,
  }
}
