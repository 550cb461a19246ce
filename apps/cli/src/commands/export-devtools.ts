import { basename, dirname, join } from 'node:path'
import { stringifyDocument } from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import { exportDevtoolsRecording } from '@qa/recorder-cdp/devtools'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { EXIT_PASS } from '../exit-codes'
import { loadWebCaseToExport } from '../export-case'

/** `login.json` → `login.devtools.json` beside it. */
export function defaultRecordingPath(casePath: string): string {
  return join(dirname(casePath), `${basename(casePath).replace(/\.json$/i, '')}.devtools.json`)
}

export class ExportDevtoolsCommand extends QaCommand {
  static override paths = [['export', 'devtools']]
  static override usage = Command.Usage({
    category: 'Import & export',
    description: 'Write a web test case as a Chrome DevTools Recorder recording (JSON).',
    details: `
      The recording can be imported in DevTools → Recorder (Import recording) or replayed with
      @puppeteer/replay. Each step gets selectors most stable first: aria name+role, data-testid, id, the stored
      CSS and fallbacks, XPath, text. Password steps are written with an empty value (never the secret), steps
      DevTools cannot express (coordinate-only clicks, drags) are skipped; both are reported as warnings on stderr.
      The case is only read. Exit code: 0 when the recording was written, 2 on bad input.
    `,
    examples: [['Export a case', '$0 export devtools cases/login.json --out login.recording.json']],
  })

  casePath = Option.String({ name: 'case.json' })
  outFile = Option.String('--out', {
    description: 'Where to write the recording (default: <case>.devtools.json beside it).',
  })
  force = Option.Boolean('--force', false, { description: 'Overwrite --out when it exists.' })
  json = Option.Boolean('--json', false, { description: 'Print one JSON object on stdout, nothing else.' })

  async run(): Promise<number> {
    const outFile = this.outFile ?? defaultRecordingPath(this.casePath)
    const loaded = await loadWebCaseToExport({ casePath: this.casePath, outFile, force: this.force, to: 'DevTools' })
    const { recording, warnings } = exportDevtoolsRecording(loaded.testCase)
    await writeFileAtomic(outFile, stringifyDocument(recording), { overwrite: this.force })
    for (const w of warnings) this.err(`warning: ${w}`)
    if (this.json)
      this.out(JSON.stringify({ file: outFile, title: recording.title, steps: recording.steps.length, warnings }))
    else {
      this.out(`Exported ${recording.steps.length} DevTools steps from ${this.casePath} into ${outFile}`)
      if (warnings.length > 0) this.out(`${warnings.length} warning(s) on stderr.`)
    }
    return EXIT_PASS
  }
}
