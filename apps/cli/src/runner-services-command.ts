import type { RunnerServicesOptions } from '@qa/api'
import type { DesktopSuiteReplayFn } from '@qa/runner'
import { Option } from 'clipanion'
import { QaCommand } from './base-command'
import { loadConfig } from './config'
import { desktopSuitesOf } from './desktop-suites'
import { reverifierOf } from './reverifier'
import { parsePositiveInt, parseRatioFlag, parseUrlFlag, parseViewport } from './usage-error'

/**
 * The flags `qa serve` and `qa mcp` share, and the runner services options they give: one resolved config and the
 * same flags as `qa replay`, so masks, vision, the browser, timeouts, --headed and --viewport reach their suites.
 */
export abstract class RunnerServicesCommand extends QaCommand {
  dir = Option.String('--dir', { description: 'Folder of the test cases (default: the current folder).' })
  // no clipanion default: a flag left out never overrides replay.reportDir / QA_REPORT_DIR (loadConfig's default)
  reportDir = Option.String('--report-dir', {
    description: 'Reports and run history (default: replay.reportDir, QA_REPORT_DIR, else qa-reports).',
  })
  concurrency = Option.String('--concurrency', { description: 'Suites replayed at the same time (default 1).' })
  demo = Option.Boolean('--demo', false, { description: 'Serve the bundled example cases on the bundled sample app.' })
  baseUrl = Option.String('--base-url,--url', {
    description: "Move every recorded URL on a case's recorded origin onto this base URL (--url: older name).",
  })
  verify = Option.Boolean('--verify', true, {
    description: 'Compare steps with their screenshots (--no-verify to skip).',
  })
  threshold = Option.String('--threshold', { description: 'Similarity 0–1 a step needs to pass (default 0.95).' })
  headed = Option.Boolean('--headed', false, { description: 'Show the browser window of web suites.' })
  viewport = Option.String('--viewport', {
    description: 'Every web case in this viewport WIDTHxHEIGHT (default: the recorded one, else browser.viewport).',
  })
  configPath = Option.String('--config', { description: 'Config file (default ./qa.config.json when present).' })

  /**
   * Checks the flags, loads the config and gives the runner services options, with the desktop replayer in them
   * (one suite at a time on this host's display, opened on the first desktop suite): close it after the services.
   */
  protected async runnerServicesOptions(): Promise<{ options: RunnerServicesOptions; desktop: DesktopSuiteReplayFn }> {
    const concurrency = parsePositiveInt(this.concurrency, '--concurrency')
    const threshold = parseRatioFlag(this.threshold, '--threshold')
    const viewport = parseViewport(this.viewport)
    const baseUrl = parseUrlFlag(this.baseUrl, '--base-url')
    const { config } = await loadConfig({
      configPath: this.configPath,
      flags: {
        ...(threshold !== undefined ? { verify: { passSimilarity: threshold } } : {}),
        ...(this.reportDir !== undefined ? { replay: { reportDir: this.reportDir } } : {}),
      },
    })
    const desktop = desktopSuitesOf(config, { verify: this.verify })
    return {
      desktop,
      options: {
        replayers: { desktop },
        config,
        headed: this.headed,
        ...(viewport ? { viewport } : {}),
        reverifier: reverifierOf(config, this.verify),
        demo: this.demo,
        verify: this.verify,
        env: process.env,
        ...(this.dir ? { dir: this.dir } : {}),
        ...(concurrency ? { concurrency } : {}),
        ...(baseUrl ? { baseUrl } : {}),
      },
    }
  }
}
