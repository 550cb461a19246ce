import { basename, dirname, join, resolve } from 'node:path'
import { isQaError, ModelError } from '@qa/model'
import { readTextFile } from '@qa/model/node'
import { createWebRecorder, openBrowser, parseScript } from '@qa/recorder-cdp'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { EXIT_PASS } from '../exit-codes'
import { guardOutputs } from '../output-guard'
import { parseViewport, UsageError } from '../usage-error'

export class RecordWebCommand extends QaCommand {
  static override paths = [['record', 'web']]
  static override usage = Command.Usage({
    category: 'Record & replay',
    description: 'Record a web flow in Chromium: what was clicked (role, name, attributes) plus screenshots.',
    details: `
      With --script, the steps of a JSON file are dispatched as real input events and recorded through the same
      path as a person's input. With --headed, a browser window opens and your clicks and typing are recorded
      until you close it or press Ctrl-C.
      Script steps: {"type":"click","x":..,"y":..}, {"type":"type","text":".."}, {"type":"press","key":"Enter"},
      {"type":"scroll","dy":..}, {"type":"wait","ms":..}, {"type":"navigate","url":".."}, {"type":"select","x":..,"y":..,"value":".."}.
      Password fields are masked: the case stores an environment variable name (QA_SECRET_…) instead of the
      value, and their boxes are painted over in every screenshot.
      --out must be a .json file; its screenshots go to the folder of the same name beside it. An existing case
      (or a screenshot folder that is not empty) is replaced only with --force, and this is checked before the
      browser starts, so a refused recording changes nothing.
      Chromium: /usr/bin/chromium, or set QA_CHROMIUM. Exit code 0 when the case was saved, 2 on bad input.
    `,
    examples: [
      [
        'Record a scripted flow',
        '$0 record web http://127.0.0.1:3000/login --script steps.json --out cases/login.json',
      ],
      ['Record by hand in a window', '$0 record web http://127.0.0.1:3000/ --headed --out cases/flow.json'],
    ],
  })

  url = Option.String({ name: 'url' })
  script = Option.String('--script', { description: 'JSON file of input steps to dispatch and record.' })
  outFile = Option.String('--out', 'case.json', {
    description: 'Where to save the case (screenshots go to a folder beside it).',
  })
  viewport = Option.String('--viewport', { description: 'Viewport WIDTHxHEIGHT (default 1280x720).' })
  headed = Option.Boolean('--headed', false, { description: 'Open a visible browser window and record your input.' })
  cdp = Option.String('--cdp', { description: 'Attach to a running browser (ws://… or http://127.0.0.1:9222).' })
  name = Option.String('--name', { description: 'Name of the case (default: the file name).' })
  force = Option.Boolean('--force', false, {
    description: 'Replace --out and its screenshot folder when they exist.',
  })
  json = Option.Boolean('--json', false, { description: 'Print one JSON object, nothing else.' })

  async run(): Promise<number> {
    const viewport = parseViewport(this.viewport)
    if (!this.script && !this.headed) {
      throw new UsageError(
        'Nothing to record: give --script steps.json, or --headed to record by hand.',
        'See `qa record web --help`.',
      )
    }
    if (this.headed) {
      throw new UsageError(
        'Interactive recording (--headed) is not available in this build yet.',
        'Record with --script steps.json; interactive recording is tracked in the web recorder issue.',
      )
    }
    const scriptFile = resolve(this.script as string)
    if (!/\.json$/i.test(this.outFile) || /[/\\]$/.test(this.outFile)) {
      throw new UsageError(
        `--out: expected a .json file to save the case to, got "${this.outFile}".`,
        `For example --out ${/[/\\]$/.test(this.outFile) ? join(this.outFile, 'flow.json') : `${this.outFile}.json`} (its screenshots go to a folder of the same name beside it).`,
      )
    }
    const caseFile = resolve(this.outFile)
    let text: string
    try {
      text = await readTextFile(scriptFile, 'script')
    } catch (cause) {
      if (isQaError(cause) && cause.code === 'MODEL_INVALID_ENCODING') throw cause
      throw new ModelError('MODEL_FILE_NOT_FOUND', `${this.script}: cannot read the script file.`, {
        cause,
        file: this.script,
      })
    }
    const steps = parseScript(text, this.script)
    await guardOutputs({
      outputs: [
        { path: caseFile, flag: '--out' },
        { path: join(dirname(caseFile), basename(caseFile).replace(/\.json$/i, '')), flag: '--out', folder: true },
      ],
      inputs: [{ path: scriptFile, what: 'the script' }],
      force: this.force,
      nothing: 'nothing was recorded',
    })
    const session = await openBrowser({
      headless: true,
      ...(process.env.QA_CHROMIUM ? { executablePath: process.env.QA_CHROMIUM } : {}),
      ...(this.cdp ? { cdpUrl: this.cdp } : {}),
      ...(viewport ? { viewport } : {}),
    })
    try {
      const recorder = await createWebRecorder(session.page, {
        caseFile: this.outFile,
        ...(this.name ? { name: this.name } : {}),
      })
      await recorder.start(this.url)
      await recorder.run(steps)
      const file = await recorder.save({ overwrite: this.force })
      const tc = recorder.testCase()
      await recorder.close()
      const warnings = tc.actions.flatMap((a, i) => (a.warning ? [{ step: i + 1, warning: a.warning }] : []))
      if (this.json) this.out(JSON.stringify({ file, name: tc.name, actions: tc.actions.length, warnings }))
      else {
        this.out(`Recorded ${tc.actions.length} steps of ${tc.startUrl} into ${file}`)
        for (const [i, a] of tc.actions.entries())
          this.out(
            `  ${String(i + 1).padStart(2)}. ${a.description}${a.warning ? `\n      warning: ${a.warning}` : ''}`,
          )
        if (warnings.length > 0)
          this.out(
            `${warnings.length} step${warnings.length === 1 ? '' : 's'} recorded with a warning (${warnings.map((w) => w.step).join(', ')}): they replay by coordinates.`,
          )
      }
      return EXIT_PASS
    } finally {
      await session.close()
    }
  }
}
