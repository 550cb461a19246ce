import { dirname, resolve } from 'node:path'
import { loadReplayReport, writeFileAtomic } from '@qa/model/node'
import { assertReportFormat, renderReport } from '@qa/verifier'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { EXIT_PASS } from '../exit-codes'
import { guardOutputs, reportInputs } from '../output-guard'

export class ReportCommand extends QaCommand {
  static override paths = [['report']]
  static override usage = Command.Usage({
    description: 'Render a saved replay report (JSON) as HTML, text or JUnit XML.',
    details: `
      HTML is one self-contained file: per step the expected, actual and diff thumbnails, similarity, verdict,
      reason and healing method. Screenshot paths in the report are read relative to the report's folder, and only
      images inside that folder are embedded (a path leading out of it, ../ or absolute, is refused and named).
      Without --out the result is printed; --out never names the report or one of its screenshots, and an
      existing file is replaced only with --force. Exit code: 0 when rendered, 2 when the report cannot be read.
    `,
    examples: [
      ['HTML next to the JSON', '$0 report reports/replay_1.json --format html --out reports/replay_1.html'],
      ['JUnit for CI', '$0 report reports/replay_1.json --format junit --out junit.xml'],
      ['Text summary', '$0 report reports/replay_1.json --format txt'],
    ],
  })

  format = Option.String('--format', 'txt', { description: 'html, txt, junit or json (default txt).' })
  outFile = Option.String('--out', { description: 'Write to this file instead of printing.' })
  force = Option.Boolean('--force', false, { description: 'Overwrite the --out file if it exists.' })
  file = Option.String({ name: 'report.json' })

  async run(): Promise<number> {
    const format = assertReportFormat(this.format)
    const report = await loadReplayReport(this.file)
    await guardOutputs({
      outputs: [this.outFile && { path: this.outFile, flag: '--out' }],
      inputs: reportInputs(this.file, report),
      force: this.force,
      nothing: 'nothing was rendered',
    })
    const text = await renderReport(report, format, {
      baseDir: dirname(this.file),
      // a report may name any image on disk (../, absolute paths): only those in its own folder are embedded
      imageRoot: dirname(resolve(this.file)),
      onImageNotEmbedded: (_, reason) => this.err(`Image not embedded: ${reason}`),
    })
    if (this.outFile) {
      await writeFileAtomic(this.outFile, text, { overwrite: this.force })
      this.out(`wrote ${this.outFile}`)
    } else {
      this.context.stdout.write(text)
    }
    return EXIT_PASS
  }
}
