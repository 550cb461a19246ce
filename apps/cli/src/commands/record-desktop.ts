import { runDesktopRecord } from '@qa/recorder-desktop'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { loadConfig, visionConfigOf } from '../config'
import { EXIT_PASS } from '../exit-codes'
import { guardOutputs } from '../output-guard'
import { caseSecrets, replayCommand, secretsLine } from '../secret-summary'
import { parsePositiveInt, UsageError } from '../usage-error'

export class RecordDesktopCommand extends QaCommand {
  static override paths = [['record', 'desktop']]
  static override usage = Command.Usage({
    category: 'Record & replay',
    description: 'Record clicks, typing, keys and scrolls on the desktop (a game, any X11 app) into a test case.',
    details: `
      Global input hooks (uiohook) see every click; a frame ring buffer keeps the last 2 s of the screen so each
      click gets the screen from just before it, an element crop, and the screen after it settled. With --analyze
      each click is analysed by the vision provider (QA_VISION, default OCR) in the background; without it, or
      when the provider is unavailable, the case is saved with enrichment pending (\`qa enrich\` later).
      Press the stop key (F10 by default) to finish. Needs an X display: run under \`xvfb-run -a\` on a server.
    `,
    examples: [
      ['Record until F10', '$0 record desktop --out cases/menu.json'],
      [
        'Record with Claude on Bedrock analysing each click',
        'QA_VISION=bedrock $0 record desktop --out cases/menu.json --analyze',
      ],
    ],
  })

  outPath = Option.String('--out', 'desktop-case.json', {
    description: 'Case file to write (default desktop-case.json).',
  })
  name = Option.String('--name', { description: 'Case name (default from the date).' })
  analyze = Option.Boolean('--analyze', false, {
    description: 'Analyse each click with the vision provider (QA_VISION).',
  })
  // no clipanion defaults: a flag left out never overrides record.* in the config (loadConfig's defaults)
  stopKey = Option.String('--stop-key', {
    description: 'Key that stops recording (default: record.stopHotkey, else F10).',
  })
  settle = Option.String('--settle-ms', {
    description: 'Wait before the after-screenshot (default: record.settleMs, else 500).',
  })
  interval = Option.String('--frame-interval-ms', {
    description: 'Screen grab interval of the ring buffer (default: record.frameIntervalMs, else 100).',
  })
  configPath = Option.String('--config', { description: 'Config file (default ./qa.config.json when present).' })
  duration = Option.String('--duration-ms', { description: 'Stop by itself after this long.' })
  force = Option.Boolean('--force', false, { description: 'Overwrite an existing case file.' })

  async run(): Promise<number> {
    const settleMs = parsePositiveInt(this.settle, '--settle-ms')
    const frameIntervalMs = parsePositiveInt(this.interval, '--frame-interval-ms')
    const durationMs = parsePositiveInt(this.duration, '--duration-ms')
    const { config } = await loadConfig({
      configPath: this.configPath,
      flags: {
        record: {
          ...(settleMs !== undefined ? { settleMs } : {}),
          ...(frameIntervalMs !== undefined ? { frameIntervalMs } : {}),
          ...(this.stopKey !== undefined ? { stopHotkey: this.stopKey } : {}),
        },
      },
    })
    if (!/\.json$/i.test(this.outPath))
      throw new UsageError(`--out: expected a .json file to save the case to, got "${this.outPath}".`)
    await guardOutputs({
      outputs: [
        { path: this.outPath, flag: '--out' },
        { path: `${this.outPath.replace(/\.json$/i, '')}_screenshots`, flag: '--out', folder: true },
      ],
      inputs: [],
      force: this.force,
      nothing: 'nothing was recorded',
    })
    const vision = this.analyze ? visionConfigOf(config, process.env) : null
    const stopKey = config.record.stopHotkey
    const abort = new AbortController()
    const onSigint = () => abort.abort()
    process.once('SIGINT', onSigint)
    let last = ''
    try {
      const { testCase, file, stoppedBy } = await runDesktopRecord({
        out: this.outPath,
        ...(this.name ? { name: this.name } : {}),
        vision,
        stopKey,
        settleMs: config.record.settleMs,
        frameIntervalMs: config.record.frameIntervalMs,
        ...(durationMs !== undefined ? { durationMs } : {}),
        signal: abort.signal,
        overwrite: this.force,
        env: process.env,
        onReady: () =>
          this.err(`Recording on ${process.env.DISPLAY}. Press ${stopKey.toUpperCase()} (or Ctrl+C) to stop.`),
        onProgress: (p) => {
          const line = `  ${p.state}: ${p.actions} actions, ${p.capturing} saving, analysed ${p.analyzed}/${p.toAnalyze}`
          if (line !== last && process.stderr.isTTY) process.stderr.write(`\r${line}`)
          last = line
        },
      })
      if (process.stderr.isTTY) process.stderr.write('\n')
      const pending = testCase.actions.filter((a) => a.enrichmentStatus === 'pending').length
      this.out(`Recorded ${testCase.actions.length} actions (stopped by ${stoppedBy}) → ${file}`)
      const secrets = caseSecrets(testCase)
      const needs = secretsLine(secrets)
      if (needs) {
        this.out(needs)
        this.out(`Replay it with: ${replayCommand(this.outPath, secrets)}`)
      }
      if (pending > 0)
        this.out(`${pending} click(s) without semantics (enrichment pending): run \`qa enrich ${this.outPath}\` later.`)
      return EXIT_PASS
    } finally {
      process.off('SIGINT', onSigint)
    }
  }
}
