import { dirname, resolve } from 'node:path'
import type { ReplayReport } from '@qa/model'
import { loadReplayReport, saveReplayReport, writeFileAtomic } from '@qa/model/node'
import { mergeReplayReports, rebasePath } from '@qa/runner'
import { renderJunitReport } from '@qa/verifier'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { UsageError } from '../usage-error'
import { EXIT_PASS } from '../exit-codes'
import { guardOutputs, reportInputs } from '../output-guard'

export class ReportMergeCommand extends QaCommand {
  static override paths = [['report', 'merge']]
  static override usage = Command.Usage({
    description: 'Merge replay reports (e.g. the shard reports of `qa replay --shard k/n <dir>`) into one report.',
    details: `
      Steps are renumbered one after another and prefixed with their case name; passed + failed + warning = total
      steps and the success rate are recomputed; the merged report passes only when every input passed.
      Screenshot paths are rewritten relative to the --out file. --out never names one of the reports (or their
      screenshots), and an existing file is replaced only with --force. Render it with \`qa report <merged.json>\`.
      Exit code: 0 when merged (the verdict is in the report), 2 when a report cannot be read.
    `,
    examples: [
      [
        'Four CI shards into one',
        '$0 report merge shard-1/shard-1-of-4.json shard-2/shard-2-of-4.json --out merged.json',
      ],
    ],
  })

  outFile = Option.String('--out', { required: true, description: 'The merged report JSON to write.' })
  force = Option.Boolean('--force', false, { description: 'Overwrite the --out file if it exists.' })
  name = Option.String('--name', { description: 'Name of the merged report (default: "<n> cases merged").' })
  junit = Option.String('--junit', {
    description: 'Also write JUnit XML: one testsuite, one testcase per merged case.',
  })
  files = Option.Rest({ required: 1, name: 'report.json' })

  async run(): Promise<number> {
    const reports: ReplayReport[] = []
    for (const f of this.files) reports.push(await loadReplayReport(f))
    // the same report twice (one file named twice, or a copy of it) would count its cases twice
    const firstOf = new Map<string, string>()
    for (const [i, r] of reports.entries()) {
      const file = this.files[i] as string
      for (const key of [`file:${resolve(file)}`, `session:${r.sessionId}`]) {
        const earlier = firstOf.get(key)
        if (earlier !== undefined)
          throw new UsageError(
            `${file} is the same report as ${earlier} (${key.startsWith('file:') ? 'the same file' : `session ${r.sessionId}`}); its cases would be counted twice, so nothing was merged.`,
            'Name each replay report once.',
          )
        firstOf.set(key, file)
      }
    }
    await guardOutputs({
      outputs: [{ path: this.outFile, flag: '--out' }, this.junit && { path: this.junit, flag: '--junit' }],
      inputs: reports.flatMap((r, i) => reportInputs(this.files[i] as string, r, 'one of the reports')),
      force: this.force,
      nothing: 'nothing was merged',
    })
    const outDir = dirname(resolve(this.outFile))
    const merged = mergeReplayReports(reports, {
      ...(this.name ? { name: this.name } : {}),
      rebasePath: (p, i) => rebasePath(p, dirname(resolve(this.files[i] ?? '.')), outDir),
    })
    await saveReplayReport(this.outFile, merged, { overwrite: this.force })
    if (this.junit)
      await writeFileAtomic(this.junit, renderJunitReport(merged, { baseDir: outDir }), { overwrite: this.force })
    this.out(merged.summary)
    this.out(`wrote ${this.outFile}${this.junit ? ` and ${this.junit}` : ''}`)
    return EXIT_PASS
  }
}
