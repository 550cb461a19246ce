import { runMcpStdio } from '@qa/api'
import { Command } from 'clipanion'
import { EXIT_PASS } from '../exit-codes'
import { RunnerServicesCommand } from '../runner-services-command'

export class McpCommand extends RunnerServicesCommand {
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

  async run(): Promise<number> {
    const { options, desktop } = await this.runnerServicesOptions()
    const handle = await runMcpStdio(options)
    this.err('qa mcp: serving the runner over stdio (close stdin to stop).')
    await handle.closed
    await desktop.close()
    return EXIT_PASS
  }
}
