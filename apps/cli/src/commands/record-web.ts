import { join, resolve } from 'node:path'
import { isQaError, ModelError, QaError } from '@qa/model'
import { readTextFile, screenshotFolderOf } from '@qa/model/node'
import {
  attachToCurrentTab,
  type BrowserSession,
  createWebRecorder,
  openBrowser,
  parseScript,
  recordByHand,
  type ScriptStep,
  type WebRecorder,
} from '@qa/recorder-cdp'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { loadConfig } from '../config'
import { EXIT_INTERRUPTED, EXIT_PASS } from '../exit-codes'
import { guardOutputs, stageReplacement } from '../output-guard'
import { stepLine } from '../step-line'
import { caseSecrets, replayCommand, secretsLine } from '../secret-summary'
import { parseViewport, UsageError } from '../usage-error'

export class RecordWebCommand extends QaCommand {
  static override paths = [['record', 'web']]
  static override usage = Command.Usage({
    category: 'Record & replay',
    description: 'Record a web flow in Chromium: what was clicked (role, name, attributes) plus screenshots.',
    details: `
      By hand (the default): a Chromium window opens on <url> and what you do there is recorded (clicks, typing,
      keys such as Enter, select boxes, scrolling, pages a click opens, double and right clicks, drags, the hover
      that opened a hover-only menu, dialogs and their answers, the names of files picked in a file chooser, back
      and forward) and listed in the terminal as it happens. The toolbar's "Assert visible", "Assert text" and
      "Assert value" buttons record an assertion about the element you click next (that click never reaches the
      page), with its text or value as it is now. Replay picked files from a folder with qa replay --files-dir.
      Stop with the "Stop" button of the recorder toolbar at the bottom right of the page, with Ctrl-C in the
      terminal, or by closing the window; every way out, a crashed or killed browser too, saves the steps recorded
      so far. The toolbar is never recorded and never in a screenshot. The --headed flag is accepted and means the
      same. The window needs a display: without one (DISPLAY unset) the command exits 2; run it under xvfb-run -a,
      or use --cdp.

      With --cdp http://127.0.0.1:9222 the recording happens in a browser you already run (started with
      the flag --remote-debugging-port=9222), in the tab you are on, at its own size. The URL is opened in that
      tab; without one, the recording starts where the tab is. Disconnecting leaves your browser and its tabs as
      they were.

      With --script (for tests and benchmarks), the steps of a JSON file are dispatched as real input events in a
      headless browser (in a window with --headed) and recorded through the same path as a person's input.
      Script steps: {"type":"click","x":..,"y":..}, {"type":"type","text":".."}, {"type":"press","key":"Enter"},
      {"type":"scroll","dy":..}, {"type":"wait","ms":..}, {"type":"navigate","url":".."}, {"type":"select","x":..,"y":..,"value":".."},
      and assertions (recorded without clicking): {"type":"assert","kind":"text","x":..,"y":..,"op":"contains","expected":".."}.
      Assertion kinds: visible, hidden, text, value, checked, url, count, expression; the target is the element
      at x,y or a "selector" (#id, .class, aria/Name, text/Text, xpath/…); without "expected", the text, value,
      checked state, URL or count is read from the page. On replay the condition is polled until the step timeout.
      The case is saved after every step (atomically, screenshots too), so Ctrl-C, a kill or a full disk keeps the
      steps so far; Ctrl-C stops after the current step and exits 130.

      Password fields are masked: the case stores an environment variable name (QA_SECRET_…) instead of the
      value, and their boxes are painted over in every screenshot. The summary at the end names the variables the
      case needs (names only) and the replay command with them (QA_SECRET_PASSWORD=… qa replay cases/flow.json);
      --json gives them as "secrets" ([{name, steps, fields}], steps from 1) and "replay".
      The --out file must be a .json file; its screenshots go to the folder of the same name beside it. An
      existing case, or a screenshot folder that is not empty, is replaced only with --force, and this is checked
      before the browser starts, so a refused recording changes nothing.
      Chromium: /usr/bin/chromium, or set QA_CHROMIUM. Exit code 0 when the case was saved, 2 on bad input.
    `,
    examples: [
      ['Record by hand in a window', '$0 record web http://127.0.0.1:3000/ --out cases/flow.json'],
      ['Record by hand on a machine without a display', 'xvfb-run -a $0 record web http://127.0.0.1:3000/'],
      [
        'Record by hand in the tab you are on, in your own Chrome (started with --remote-debugging-port=9222)',
        '$0 record web --cdp http://127.0.0.1:9222 --out cases/flow.json',
      ],
      [
        'Record a scripted flow (tests, benchmarks)',
        '$0 record web http://127.0.0.1:3000/login --script steps.json --out cases/login.json',
      ],
    ],
  })

  url = Option.String({ name: 'url', required: false })
  script = Option.String('--script', { description: 'JSON file of input steps to dispatch and record.' })
  outFile = Option.String('--out', 'case.json', {
    description: 'Where to save the case (screenshots go to a folder beside it).',
  })
  viewport = Option.String('--viewport', { description: 'Viewport WIDTHxHEIGHT (default 1280x720).' })
  headed = Option.Boolean('--headed', false, {
    description: 'Show the browser window (recording by hand always does; kept for older command lines).',
  })
  cdp = Option.String('--cdp', {
    description: 'Record in a browser you already run (http://127.0.0.1:9222 or ws://…), in the tab you are on.',
  })
  name = Option.String('--name', { description: 'Name of the case (default: the file name).' })
  force = Option.Boolean('--force', false, {
    description: 'Replace --out and its screenshot folder when they exist.',
  })
  json = Option.Boolean('--json', false, { description: 'Print one JSON object, nothing else.' })
  configPath = Option.String('--config', { description: 'Config file (default ./qa.config.json when present).' })

  async run(): Promise<number> {
    const viewport = parseViewport(this.viewport)
    const { config } = await loadConfig({ configPath: this.configPath })
    const byHand = !this.script
    if (this.url !== undefined) {
      // what a browser opens: http(s), and file:/data:/about: pages for tests
      const protocol = URL.canParse(this.url) ? new URL(this.url).protocol : ''
      if (!/^(https?|file|data|about):$/.test(protocol))
        throw new UsageError(
          `<url>: expected a URL like http://127.0.0.1:3000/, got "${this.url}".`,
          'Give the full address, with http:// or https://.',
        )
    } else if (!(byHand && this.cdp))
      throw new UsageError(
        'Nothing to record: give the URL to start at, e.g. `qa record web http://127.0.0.1:3000/`.',
        'Only --cdp (recording in the tab you are on) can do without one. See `qa record web --help`.',
      )
    if (byHand && this.cdp && viewport)
      throw new UsageError(
        '--viewport cannot be used with --cdp when recording by hand: the case takes the size of your tab.',
        'Resize the browser window instead, or drop --viewport.',
      )
    if (!/\.json$/i.test(this.outFile) || /[/\\]$/.test(this.outFile)) {
      throw new UsageError(
        `--out: expected a .json file to save the case to, got "${this.outFile}".`,
        `For example --out ${/[/\\]$/.test(this.outFile) ? join(this.outFile, 'flow.json') : `${this.outFile}.json`} (its screenshots go to a folder of the same name beside it).`,
      )
    }
    const caseFile = resolve(this.outFile)
    let steps: ScriptStep[] = []
    const scriptFile = this.script ? resolve(this.script) : undefined
    if (this.script) {
      let text: string
      try {
        text = await readTextFile(scriptFile as string, 'script')
      } catch (cause) {
        if (isQaError(cause) && cause.code === 'MODEL_INVALID_ENCODING') throw cause
        throw new ModelError('MODEL_FILE_NOT_FOUND', `${this.script}: cannot read the script file.`, {
          cause,
          file: this.script,
        })
      }
      steps = parseScript(text, this.script)
    }
    const windowed = byHand ? !this.cdp : this.headed && !this.cdp
    if (windowed && process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
      throw new UsageError(
        `Recording ${byHand ? 'by hand' : 'with --headed'} opens a browser window, but there is no display (DISPLAY is not set); nothing was recorded.`,
        `Run it under a virtual display: \`xvfb-run -a qa record web ${this.url ?? '<url>'} …\`; or record in a browser you already run: start it with --remote-debugging-port=9222 and add \`--cdp http://127.0.0.1:9222\`${byHand ? '; or record a script with --script steps.json' : ''}.`,
      )
    await guardOutputs({
      outputs: [
        { path: caseFile, flag: '--out' },
        { path: screenshotFolderOf(caseFile), flag: '--out', folder: true },
      ],
      inputs: scriptFile ? [{ path: scriptFile, what: 'the script' }] : [],
      force: this.force,
      nothing: 'nothing was recorded',
    })
    // Replacing an existing case (--force): record beside it and swap at the end, so a recording that fails
    // midway leaves the old case and its screenshots as they were.
    const staging = await stageReplacement(caseFile)
    try {
      const code = await this.recordInto(staging?.caseFile ?? caseFile, {
        byHand,
        windowed,
        viewport,
        steps,
        chromiumPath: config.browser.chromiumPath,
      })
      if (staging) await staging.commit()
      return code
    } finally {
      await staging?.discard()
    }
  }

  private async recordInto(
    caseFile: string,
    opts: {
      byHand: boolean
      windowed: boolean
      viewport: ReturnType<typeof parseViewport>
      steps: ScriptStep[]
      chromiumPath: string
    },
  ): Promise<number> {
    const { byHand, windowed, viewport, steps } = opts
    const chromium = { executablePath: opts.chromiumPath }
    const session: BrowserSession =
      byHand && this.cdp
        ? await attachToCurrentTab(this.cdp)
        : await openBrowser({
            headless: !windowed,
            ...chromium,
            ...(this.cdp ? { cdpUrl: this.cdp } : {}),
            ...(viewport ? { viewport } : {}),
            // the recording stops on Ctrl-C itself and still needs the browser to finish the last step
            handleSignals: false,
          })
    try {
      const recorder = await createWebRecorder(session.page, {
        caseFile,
        ...(this.name ? { name: this.name } : {}),
      })
      let why: string | null = null
      if (byHand) why = await this.recordByHand(recorder, this.url)
      else {
        await recorder.start(this.url)
        why = await this.recordScript(recorder, steps)
      }
      // the case was saved after every step already (guardOutputs checked --out before any of them)
      await recorder.save({ overwrite: true })
      const file = resolve(this.outFile)
      const tc = recorder.testCase()
      await recorder.close().catch(() => undefined)
      const warnings = tc.actions.flatMap((a, i) => (a.warning ? [{ step: i + 1, warning: a.warning }] : []))
      // the secret variables replay will type from (names only: the values were never stored)
      const secrets = caseSecrets(tc)
      if (this.json)
        this.out(
          JSON.stringify({
            file,
            name: tc.name,
            actions: tc.actions.length,
            warnings,
            secrets,
            replay: replayCommand(this.outFile, secrets),
            ...(why ? { stopped: why } : {}),
          }),
        )
      else {
        if (why) this.out(`Stopped: ${why}.`)
        this.out(`Recorded ${tc.actions.length} steps of ${tc.startUrl} into ${file}`)
        if (!byHand) for (const [i, a] of tc.actions.entries()) this.out(stepLine(i, a))
        // steps recorded without an element replay by coordinates; others (an assertion saved unconfirmed, one that
        // did not hold when recorded) say their own warning
        const byCoordinates = warnings.filter((w) => !tc.actions[w.step - 1]?.identity)
        if (byCoordinates.length > 0)
          this.out(
            `${byCoordinates.length} step${byCoordinates.length === 1 ? '' : 's'} recorded with a warning (${byCoordinates.map((w) => w.step).join(', ')}): they replay by coordinates.`,
          )
        for (const w of warnings)
          if (tc.actions[w.step - 1]?.identity) this.out(`Step ${w.step} was recorded with a warning: ${w.warning}.`)
        const needs = secretsLine(secrets)
        if (needs) this.out(needs)
        if ((byHand && tc.actions.length > 0) || secrets.length > 0)
          this.out(`Replay it with: ${replayCommand(this.outFile, secrets)}`)
      }
      return why && !byHand ? EXIT_INTERRUPTED : EXIT_PASS
    } finally {
      await session.close()
    }
  }

  /**
   * Runs the script's steps, saving the case after each one (atomic), so that Ctrl-C, a kill or a full disk keeps
   * the steps so far, as recording by hand does. Ctrl-C (SIGINT, SIGTERM, SIGHUP) stops after the current step;
   * returns why it stopped early, or null when every step ran.
   */
  private async recordScript(recorder: WebRecorder, steps: ScriptStep[]): Promise<string | null> {
    const interrupt = new AbortController()
    let signal: string | null = null
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
    const onSignal = (name: NodeJS.Signals) => {
      if (interrupt.signal.aborted) process.exit(EXIT_INTERRUPTED)
      signal = name
      interrupt.abort()
    }
    for (const s of signals) process.on(s, onSignal)
    let done = 0
    try {
      await recorder.run(steps, {
        signal: interrupt.signal,
        afterStep: async (n) => {
          await recorder.save({ overwrite: true })
          done = n
        },
      })
    } catch (cause) {
      if (!isQaError(cause) || done === 0) throw cause
      throw new QaError(cause.code, cause.message, {
        hint: `The ${done} step${done === 1 ? '' : 's'} recorded before it ${done === 1 ? 'is' : 'are'} saved in ${this.outFile} (each step is saved as it is recorded).${cause.hint ? ` ${cause.hint}` : ''}`,
        cause,
      })
    } finally {
      for (const s of signals) process.off(s, onSignal)
    }
    return signal ? `interrupted (${signal}) after ${done} of ${steps.length} steps` : null
  }

  /**
   * Records by hand until the person stops (toolbar, Ctrl-C, closing the window, the browser going away), listing
   * steps as they come and saving the case after each one (atomic), so that even a lost terminal keeps them.
   * Returns why it stopped.
   */
  private async recordByHand(recorder: WebRecorder, url: string | undefined): Promise<string> {
    const interrupt = new AbortController()
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
    // a second Ctrl-C while the last steps are finished quits at once (the steps so far are saved already)
    const onSignal = () => (interrupt.signal.aborted ? process.exit(EXIT_INTERRUPTED) : interrupt.abort())
    for (const s of signals) process.on(s, onSignal)
    let saving: Promise<unknown> = Promise.resolve()
    const saveSoFar = () => {
      saving = saving.then(() => recorder.save({ overwrite: true })).catch(() => undefined)
    }
    try {
      const { why } = await recordByHand(recorder, {
        ...(url !== undefined ? { startUrl: url } : {}),
        signal: interrupt.signal,
        onStarted: () => {
          if (!this.json)
            this.err(
              `Recording in the browser window: ${recorder.page.url()}\nStop with the "Stop" button at the bottom right of the page, Ctrl-C here, or by closing the window.`,
            )
        },
        onStep: ({ index, action, replaced }) => {
          if (!this.json) this.out(stepLine(index, action, replaced))
          saveSoFar()
        },
      })
      await saving
      return why
    } finally {
      for (const s of signals) process.off(s, onSignal)
    }
  }
}
