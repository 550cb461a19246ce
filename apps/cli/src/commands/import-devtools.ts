import { basename, dirname, join, resolve } from 'node:path'
import { parseJsonText } from '@qa/model'
import { readTextFile, saveTestCase } from '@qa/model/node'
import { rebaseCaseUrls } from '@qa/recorder-cdp'
import { importDevtoolsRecording } from '@qa/recorder-cdp/devtools'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { EXIT_PASS } from '../exit-codes'
import { guardOutputs } from '../output-guard'
import { parseUrlFlag } from '../usage-error'

/** `flow.json` → `flow.case.json` beside it. */
export function defaultCasePath(recording: string): string {
  return join(dirname(recording), `${basename(recording).replace(/\.json$/i, '')}.case.json`)
}

export class ImportDevtoolsCommand extends QaCommand {
  static override paths = [['import', 'devtools']]
  static override usage = Command.Usage({
    category: 'Import & export',
    description: 'Convert a Chrome DevTools Recorder export (JSON) into a web test case.',
    details: `
      Reads the JSON that DevTools → Recorder → Export → JSON writes and saves a format-3.0 web case: clicks,
      double/right clicks, changes (typing), key presses, scrolls and navigations become actions whose element
      identity (role, name, id, test id, XPath, text) comes from the recorded selectors; hovers, modifier keys
      held around clicks, back/forward mouse buttons, popup targets and waits come along. Steps with no
      equivalent (custom steps, …) are reported as warnings on stderr and become steps that fail on replay
      with the reason (never a silent pass); \`qa export devtools\` writes them back as they were. Values typed into password fields are never stored: the
      case names an environment variable (QA_SECRET_…) to supply at replay.
      --url sets the case's start URL exactly as given and --base-url moves every URL on the recording's
      origin onto another base, with the rules of qa replay. The recording is only read. Exit code: 0 when the case was saved, 2 on bad input.
    `,
    examples: [
      ['Import a recording', '$0 import devtools recordings/login.json --out cases/login.json'],
      ['Machine-readable summary', '$0 import devtools login.json --json'],
    ],
  })

  recording = Option.String({ name: 'recording.json' })
  outFile = Option.String('--out', {
    description: 'Where to save the case (default: <recording>.case.json beside it).',
  })
  name = Option.String('--name', { description: 'Name of the case (default: the recording title).' })
  url = Option.String('--url', {
    description:
      "The case's start URL, exactly as given; later recorded URLs on the recording's origin move to its origin.",
  })
  baseUrl = Option.String('--base-url', {
    description: "Move every URL on the recording's origin onto this base URL.",
  })
  force = Option.Boolean('--force', false, { description: 'Overwrite --out when it exists.' })
  json = Option.Boolean('--json', false, { description: 'Print one JSON object on stdout, nothing else.' })

  async run(): Promise<number> {
    const input = resolve(this.recording)
    const outFile = this.outFile ?? defaultCasePath(this.recording)
    parseUrlFlag(this.url, '--url')
    parseUrlFlag(this.baseUrl, '--base-url')
    await guardOutputs({
      outputs: [{ path: outFile, flag: '--out' }],
      inputs: [{ path: input, what: 'the recording' }],
      force: this.force,
      nothing: 'nothing was imported',
    })
    const text = await readTextFile(input, 'recording')
    const imported = importDevtoolsRecording(parseJsonText(text, { file: this.recording }), {
      file: this.recording,
    })
    const warnings = imported.warnings
    const testCase = rebaseCaseUrls(imported.testCase, {
      ...(this.url ? { url: this.url } : {}),
      ...(this.baseUrl ? { baseUrl: this.baseUrl } : {}),
    })
    if (this.name) testCase.name = this.name
    await saveTestCase(outFile, testCase, { overwrite: this.force })
    for (const w of warnings) this.err(`warning: ${w}`)
    if (this.json) {
      this.out(JSON.stringify({ file: outFile, name: testCase.name, actions: testCase.actions.length, warnings }))
    } else {
      this.out(`Imported ${testCase.actions.length} actions from ${this.recording} into ${outFile}`)
      for (const [i, a] of testCase.actions.entries()) this.out(`  ${String(i + 1).padStart(2)}. ${a.description}`)
      if (warnings.length > 0) this.out(`${warnings.length} warning(s) on stderr.`)
    }
    return EXIT_PASS
  }
}
