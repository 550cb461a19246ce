import { type ReplayReport, serializeReplayReport, stringifyDocument } from '@qa/model'

/** The report as JSON in the model's on-disk form (snake_case); loads back losslessly with parseReplayReport. */
export function renderJsonReport(report: ReplayReport): string {
  return stringifyDocument(serializeReplayReport(report))
}
