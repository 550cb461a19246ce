import { isAbsolute, relative, resolve, sep } from 'node:path'
import type { ReplayReport } from '@qa/model'
import type { ReportKind } from './run-types'

/** Writes a suite's reports; returns the absolute paths written. */
export type ReportWriter = (
  report: ReplayReport,
  dir: string,
  opts: { baseDir: string; baseName: string },
) => Promise<Partial<Record<ReportKind, string>>>

/** JSON, TXT and HTML through @qa/verifier (loaded on first use): what every runner writes unless told otherwise. */
export const defaultReportWriter: ReportWriter = async (report, dir, opts) => {
  const { writeReports } = await import('@qa/verifier')
  return writeReports(report, dir, ['json', 'txt', 'html'], { baseDir: opts.baseDir, baseName: opts.baseName })
}

/** A path as seen from `fromDir` with `/` separators (for reports written into `fromDir`). */
export function relativePosix(fromDir: string, path: string): string {
  return relative(fromDir, path).split(sep).join('/')
}

/**
 * One screenshot path of a report moved: a relative path is read from `fromDir`; the answer is relative to
 * `toDir` (with `/`), or absolute without `toDir`.
 */
export function rebasePath(path: string, fromDir: string, toDir?: string): string {
  const absolute = isAbsolute(path) ? path : resolve(fromDir, path)
  return toDir === undefined ? absolute : relativePosix(toDir, absolute)
}

/**
 * The report with its screenshot paths moved (see {@link rebasePath}): relative inputs are relative to `fromDir`
 * (the case folder, or the folder a report was read from); outputs are relative to `toDir` (where the report is
 * written, so the written tree reads back anywhere), or absolute without it.
 */
export function rebaseReport(report: ReplayReport, fromDir: string, toDir?: string): ReplayReport {
  const move = (p: string | null | undefined) => (p ? rebasePath(p, fromDir, toDir) : null)
  return {
    ...report,
    verificationResults: report.verificationResults.map((v) => ({
      ...v,
      expectedScreenshot: move(v.expectedScreenshot),
      actualScreenshot: move(v.actualScreenshot),
      diffScreenshot: move(v.diffScreenshot),
    })),
  }
}
