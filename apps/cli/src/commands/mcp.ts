import { runMcpStdio } from '@qa/api'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { loadConfig } from '../config'
import { desktopSuitesOf } from '../desktop-suites'
import { EXIT_PASS } from '../exit-codes'
import { reverifierOf } from '../reverifier'
import { parsePositiveInt, parseRatioFlag, parseUrlFlag, parseViewport } from '../usage-error'

export class McpCommand extends QaCommand {
  static override paths = [['mcp']]
  static override usage = Command.Usage({
    category: 'Agents & servers',
    description:
      'Serve the runner to LLM agents over MCP (stdio): list_suites, run_suite, run_all, get_results, get_report.',
    details: `
      Speaks the Model Context Protocol on stdin/stdout (nothing else is printed there; logs go to stderr). Every
      *.json test case under --dir is a suite; run_suite takes an exact name or an index and waits for the result.
      Results are kept under --report-dir/runs, shared with qa serve.
    `,
    examples: [
      ['Claude Desktop / any MCP client: command "qa", args', '$0 mcp --dir cases'],
      ['Try it on the bundled examples', '$0 mcp --demo'],
    ],
  })

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

  async run(): Promise<number> {
    const concurrency = parsePositiveInt(this.concurrency, '--concurrency')
    const threshold = parseRatioFlag(this.threshold, '--threshold')
    const viewport = parseViewport(this.viewport)
    const { config } = await loadConfig({
      configPath: this.configPath,
      flags: {
        ...(threshold !== undefined ? { verify: { passSimilarity: threshold } } : {}),
        ...(this.reportDir !== undefined ? { replay: { reportDir: this.reportDir } } : {}),
      },
    })
    // desktop suites: one at a time on this host's display, opened on the first desktop suite
    const desktop = desktopSuitesOf(config, { verify: this.verify })
    const handle = await runMcpStdio({
      replayers: { desktop },
      // the same options as `qa replay`: one resolved config (browser, masks, timeouts, report folder), the same flags
      config,
      headed: this.headed,
      ...(viewport ? { viewport } : {}),
      reverifier: reverifierOf(config, this.verify),
      demo: this.demo,
      verify: this.verify,
      env: process.env,
      ...(this.dir ? { dir: this.dir } : {}),
      ...(concurrency ? { concurrency } : {}),
      ...(this.baseUrl ? { baseUrl: parseUrlFlag(this.baseUrl, '--base-url') } : {}),
    })
    this.err('qa mcp: serving the runner over stdio (close stdin to stop).')
    await handle.closed
    await desktop.close()
    return EXIT_PASS
  }
}
