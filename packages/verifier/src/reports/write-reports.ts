import { join } from 'node:path'
import type { ReplayReport } from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import { VerifierError } from '../errors'
import { type HtmlReportOptions, renderHtmlReport } from './html-report'
import { renderJsonReport } from './json-report'
import { renderJunitReport } from './junit-report'
import { renderTextReport } from './text-report'

export type ReportFormat = 'json' | 'txt' | 'html' | 'junit'
export const REPORT_FORMATS: readonly ReportFormat[] = ['json', 'txt', 'html', 'junit']
const EXTENSION: Record<ReportFormat, string> = { json: '.json', txt: '.txt', html: '.html', junit: '.junit.xml' }

export function assertReportFormat(format: string): ReportFormat {
  if ((REPORT_FORMATS as readonly string[]).includes(format)) return format as ReportFormat
  throw new VerifierError('VERIFIER_BAD_OPTION', `Unknown report format "${format}".`, {
    hint: `Use one of: ${REPORT_FORMATS.join(', ')}.`,
  })
}

/** Renders a report in one format (HTML reads the screenshots it embeds). */
export async function renderReport(
  report: ReplayReport,
  format: ReportFormat,
  opts: HtmlReportOptions = {},
): Promise<string> {
  switch (format) {
    case 'json':
      return renderJsonReport(report)
    case 'txt':
      return renderTextReport(report)
    case 'junit':
      return renderJunitReport(report, opts.baseDir ? { baseDir: opts.baseDir } : {})
    case 'html':
      return renderHtmlReport(report, opts)
  }
}

export interface WriteReportsOptions extends HtmlReportOptions {
  /** File name without extension. Default `replay_<sessionId>`. */
  baseName?: string
  /** Replace existing files. Default true. */
  overwrite?: boolean
}

/** Writes the report in each format to `dir` (atomically); returns the path per format. */
export async function writeReports(
  report: ReplayReport,
  dir: string,
  formats: readonly ReportFormat[] = ['json', 'txt'],
  opts: WriteReportsOptions = {},
): Promise<Partial<Record<ReportFormat, string>>> {
  const base = opts.baseName ?? `replay_${report.sessionId.replace(/[^\w.-]+/g, '_')}`
  const written: Partial<Record<ReportFormat, string>> = {}
  // the HTML names the JSON beside it in its accept commands (`qa accept <report.json> --steps N`)
  const jsonPath = formats.includes('json') ? join(dir, `${base}${EXTENSION.json}`) : null
  const render = { ...opts, ...(opts.reportJsonPath === undefined ? { reportJsonPath: jsonPath } : {}) }
  for (const format of formats) {
    const path = join(dir, `${base}${EXTENSION[assertReportFormat(format)]}`)
    await writeFileAtomic(path, await renderReport(report, format, render), { overwrite: opts.overwrite ?? true })
    written[format] = path
  }
  return written
}
