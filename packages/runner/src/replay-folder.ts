import { dirname, resolve } from 'node:path'
import type { ReplayReport } from '@qa/model'
import { mergeReplayReports } from './merge-replay-reports'
import { memoryRunStore } from './run-store'
import { defaultReportWriter, type ReportWriter, rebaseReport } from './report-paths'
import { createRunner } from './runner'
import type { ReplayerTable, RunnerEvent, RunRecord } from './run-types'
import { type ShardSpec, selectShard } from './select-shard'
import { type SuiteInfo, scanSuites } from './suite-catalog'

export interface ReplayFolderOptions {
  /** Folder of cases (every `*.json` case under it). */
  dir: string
  /** Default 1/1: every case. */
  shard?: ShardSpec
  replayers: ReplayerTable
  /** Per-case reports go to `<reportDir>/runs/<runId>/<nnn-slug>/`. */
  reportDir: string
  concurrency?: number
  suiteTimeoutMs?: number
  writeReports?: ReportWriter
  onEvent?: (event: RunnerEvent) => void
}

export interface ReplayFolderOutcome {
  /** The cases of this shard, in run order. */
  suites: SuiteInfo[]
  run: RunRecord
  /** One report per case that produced one (a case that could not run at all has none). */
  reports: ReplayReport[]
  /** Every case report merged (screenshot paths absolute), null when no case produced a report. */
  merged: ReplayReport | null
  passed: boolean
}

/**
 * Replays the cases of one shard of a folder with the in-process runner (the same replay functions as
 * `qa serve`), then merges their reports into one shard report (`qa report merge` combines shard reports).
 */
export async function replayFolder(opts: ReplayFolderOptions): Promise<ReplayFolderOutcome> {
  const reportDir = resolve(opts.reportDir)
  const snap = await scanSuites(opts.dir, { excludeDirs: [reportDir] })
  const shard = opts.shard ?? { k: 1, n: 1 }
  const picked = new Set(
    selectShard(
      snap.suites.map((s) => s.file),
      shard.k,
      shard.n,
    ),
  )
  const suites = snap.suites.filter((s) => picked.has(s.file))
  const captured = new Map<string, { report: ReplayReport; caseDir: string }>()
  const inner = opts.writeReports ?? defaultReportWriter
  const writer: ReportWriter = async (report, dir, w) => {
    captured.set(dir, { report, caseDir: w.baseDir })
    return inner(report, dir, w)
  }
  const runner = createRunner({
    replayers: opts.replayers,
    reportDir,
    store: memoryRunStore(),
    writeReports: writer,
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    ...(opts.suiteTimeoutMs ? { suiteTimeoutMs: opts.suiteTimeoutMs } : {}),
  })
  const off = opts.onEvent ? runner.onEvent(opts.onEvent) : () => undefined
  try {
    const queued = runner.enqueue(suites, null)
    const run = await runner.waitFor(queued.id)
    // Reports in run order; screenshot paths made absolute so the merge can be written anywhere.
    const reports: ReplayReport[] = []
    for (const s of run.suites) {
      const json = s.reports.json
      const hit = json ? captured.get(dirname(resolve(reportDir, json))) : undefined
      if (!hit) {
        reports.push(unrunnableReport(s.name, s.file, s.error ?? 'The case did not run.', run))
        continue
      }
      reports.push({ ...rebaseReport(hit.report, hit.caseDir), testCasePath: hit.report.testCasePath ?? s.file })
    }
    const name = shard.n === 1 ? `${suites.length} cases of ${snap.dir}` : `shard ${shard.k}/${shard.n} of ${snap.dir}`
    const merged = reports.length ? mergeReplayReports(reports, { name }) : null
    return { suites, run, reports, merged, passed: run.passed !== false && (merged?.passed ?? true) }
  } finally {
    off()
    await runner.close()
  }
}

/** A case that could not run at all (unreadable, app down, crash) counts as one failed step in the merge. */
function unrunnableReport(name: string, file: string, error: string, run: RunRecord): ReplayReport {
  const at = run.finishedAt ?? run.createdAt
  return {
    testCaseName: name,
    sessionId: `${run.id}-${file}`,
    startTime: run.startedAt ?? at,
    endTime: at,
    totalActions: 1,
    passedCount: 0,
    failedCount: 1,
    warningCount: 0,
    successRate: 0,
    passed: false,
    testCasePath: file,
    verificationResults: [
      {
        actionIndex: 0,
        actionDescription: 'Run the case',
        screenshotMatch: false,
        screenshotSimilarity: 0,
        visionVerified: false,
        visionMatch: false,
        finalResult: 'fail',
        reason: error,
      },
    ],
    replayResults: null,
    summary: `${name}: FAILED — ${error}`,
  }
}
