import type { ReportFormat } from '@qa/verifier'

/** `Report: <files>` for the formats written (`replay.reportFormats` in the config), the HTML first. */
export function reportLine(written: Partial<Record<ReportFormat, string>>): string {
  const order: ReportFormat[] = ['html', 'txt', 'json', 'junit']
  const files = order.flatMap((f) => (written[f] ? [written[f]] : []))
  return files.length > 0 ? `Report: ${files.join(', ')}` : 'Report: none written (replay.reportFormats is empty)'
}
