import { relative, resolve } from 'node:path'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { loadConfig } from '../config'
import { padEndToColumns } from '../display-width'
import type { DesktopDemoResult } from '../demo/desktop-demo'
import { runWebDemo, type WebDemoResult } from '../demo/web-demo'
import { createProgress } from '../progress'
import { EXIT_PASS, EXIT_TEST_FAILED } from '../exit-codes'
import { checkDemoFolder } from '../demo/demo-folder'
import { assertWritable } from '../output-guard'

const pct = (x: number) => `${Math.round(x * 100)}%`

type DemoResult = WebDemoResult | DesktopDemoResult
interface StepEvent {
  index: number
  total: number
  result: { success: boolean; method: string }
  verification?: { finalResult: string }
}

export class DemoCommand extends QaCommand {
  static override paths = [['demo']]
  static override usage = Command.Usage({
    description: 'See it work in under a minute: record a flow on a sample app, change the app, replay with healing.',
    details: `
      Starts the bundled sample web app (Korean labels) on a free loopback port, records a scripted flow on its
      v1 (login, search, item detail, settings), switches the app to v2 — renamed ids and classes, reworded and
      moved buttons, new decoy buttons, extra wrappers, a layout shift — then replays the recording with
      self-healing and screenshot verification, and writes JSON, TXT, HTML and JUnit reports.
      Needs only Chromium (/usr/bin/chromium or QA_CHROMIUM); no accounts, no network.
      Exit code: 0 when every step passed or warned, 1 when a step failed, 2 when the setup is broken.
    `,
    examples: [
      ['Run the demo', '$0 demo'],
      ['Keep its files elsewhere; machine-readable summary', '$0 demo --out-dir /tmp/qa-demo --json'],
      ['The canvas game demo (DISPLAY, else a private Xvfb)', '$0 demo --desktop'],
    ],
  })

  outDir = Option.String('--out-dir', 'qa-demo', {
    description:
      'Folder for the case and reports (default ./qa-demo), replaced by every run: a new, empty or earlier demo folder.',
  })
  force = Option.Boolean('--force', false, {
    description: 'Replace a non-empty --out-dir the demo did not make (never the home, current or root folder).',
  })
  desktop = Option.Boolean('--desktop', false, { description: 'Run the desktop/game demo under Xvfb instead.' })
  json = Option.Boolean('--json', false, { description: 'Print one JSON summary, nothing else.' })

  async run(): Promise<number> {
    const progress = createProgress(this.context.stderr as NodeJS.WriteStream, { silent: this.json })
    const log = (line: string) => progress.line(line)
    const onStep = ({ index, total, result: r, verification }: StepEvent) =>
      log(
        `  [${index + 1}/${total}] ${(verification?.finalResult ?? '').toUpperCase().padEnd(7)} ${r.success ? r.method : 'failed'}`,
      )
    // the demo replaces its folder: refuse one it did not make before any work (and before a private Xvfb rerun)
    await assertWritable(this.outDir, '--out-dir', 'nothing was run')
    await checkDemoFolder(this.outDir, this.force)
    // the demo keeps its own thresholds; of the configuration it takes the browser (browser.chromiumPath, QA_CHROMIUM)
    const { config } = await loadConfig({})
    const executablePath = config.browser.chromiumPath
    if (this.desktop) {
      const { desktopDemoDisplay, rerunUnderPrivateXvfb, runDesktopDemo } = await import('../demo/desktop-demo')
      const display = await desktopDemoDisplay(process.env, log)
      if (display === null)
        return rerunUnderPrivateXvfb({
          args: [
            'demo',
            '--desktop',
            '--out-dir',
            resolve(this.outDir),
            ...(this.force ? ['--force'] : []),
            ...(this.json ? ['--json'] : []),
          ],
          log,
        })
      const result = await runDesktopDemo({
        display,
        outDir: this.outDir,
        executablePath,
        onProgress: log,
        onStep,
      })
      return this.printSummary(result, {
        title: `qa demo --desktop: recorded ${result.steps.length} steps on the game's v1, replayed them on v2`,
        footer: `Display: ${result.display}${result.privateDisplay ? ' (a private Xvfb, stopped after the demo)' : ''}`,
        inputSteps: 'no element to find (keyboard)',
      })
    }
    const result = await runWebDemo({
      outDir: this.outDir,
      executablePath,
      onProgress: log,
      onStep,
    })
    return this.printSummary(result, {
      title: `qa demo: recorded ${result.steps.length} steps on v1, replayed them on v2`,
    })
  }

  /** The demo's summary, shared by the web and desktop demos: one JSON object with --json, else a short table. */
  private printSummary(result: DemoResult, opts: { title: string; footer?: string; inputSteps?: string }): number {
    if (this.json) {
      this.out(
        JSON.stringify({
          passed: result.passed,
          caseFile: result.caseFile,
          reports: result.reportFiles,
          recordMs: Math.round(result.recordMs),
          replayMs: Math.round(result.replayMs),
          counts: {
            total: result.report.totalActions,
            passed: result.report.passedCount,
            warning: result.report.warningCount,
            failed: result.report.failedCount,
          },
          steps: result.steps,
        }),
      )
      return result.passed ? EXIT_PASS : EXIT_TEST_FAILED
    }
    const healed = result.steps.filter((s) => s.healed)
    this.out('')
    this.out(opts.title)
    this.out('')
    for (const s of result.steps) {
      const how = s.error
        ? `NOT FOUND — ${s.error}`
        : s.healed
          ? `healed by ${s.method} (${s.failedFirst.join(', ')})`
          : s.method === 'none' && opts.inputSteps
            ? opts.inputSteps
            : `found by ${s.method}`
      this.out(
        `  ${String(s.index + 1).padStart(2)}. ${s.verdict.toUpperCase().padEnd(7)} ${padEndToColumns(s.description, 38)} ${how}${s.confidence ? `, ${pct(s.confidence)}` : ''}`,
      )
    }
    this.out('')
    this.out(result.report.summary)
    this.out(
      `${healed.length} step(s) healed after the redesign; recorded in ${(result.recordMs / 1000).toFixed(1)} s, replayed in ${(result.replayMs / 1000).toFixed(1)} s.`,
    )
    if (opts.footer) this.out(opts.footer)
    this.out(`Case:   ${relative(process.cwd(), result.caseFile)}`)
    this.out(`Report: ${relative(process.cwd(), result.reportFiles.html ?? '')}  (open it in a browser)`)
    return result.passed ? EXIT_PASS : EXIT_TEST_FAILED
  }
}
