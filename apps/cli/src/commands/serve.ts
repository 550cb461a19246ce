import { DEFAULT_HOST, DEFAULT_PORT, startServer } from '@qa/api'
import { Command, Option } from 'clipanion'
import { EXIT_PASS } from '../exit-codes'
import { RunnerServicesCommand } from '../runner-services-command'
import { UsageError } from '../usage-error'

/** `--port`: 0–65535 (0 picks a free port). */
export function parsePortFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65_535) {
    throw new UsageError(`--port: expected an integer from 0 to 65535, got "${value}".`, 'For example --port 7357.')
  }
  return n
}

/** Resolves when the process is asked to stop (Ctrl-C, SIGTERM). */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals) => {
      process.off('SIGINT', on)
      process.off('SIGTERM', on)
      resolve(sig)
    }
    process.on('SIGINT', on)
    process.on('SIGTERM', on)
  })
}

export class ServeCommand extends RunnerServicesCommand {
  static override paths = [['serve']]
  static override usage = Command.Usage({
    category: 'Agents & servers',
    description: 'Serve the Runner Inspector page and the HTTP API for running recorded cases.',
    details: `
      Every *.json test case under --dir is a suite. The page (http://127.0.0.1:7357/) lists the suites with Run
      and Run All buttons, live step results, errors and links to the HTML reports; agents drive it through the
      data-testbot-* attributes, the hidden #testbot-results-json and window.__TESTBOT__. The API: GET /api/suites,
      POST /api/runs {"all":true}|{"index":n}|{"name":"…"}, GET /api/results, GET /api/runs/:id, GET /api/events
      (server-sent events). Runs are queued and replayed --concurrency at a time; results are kept under
      --report-dir/runs so a restart shows past runs.
      Binds 127.0.0.1 by default; any other --host needs --token (clients send "Authorization: Bearer <token>").
      --demo serves bundled example cases against the bundled sample app, so the page works with one command.
    `,
    examples: [
      ['See it work', '$0 serve --demo'],
      ['Serve your cases', '$0 serve --dir cases --port 8080'],
      ['Run suites on qa worker processes (BullMQ)', '$0 serve --dir cases --queue redis://127.0.0.1:6379'],
      ['On the network, with a token', '$0 serve --dir cases --host 0.0.0.0 --token "$(openssl rand -hex 24)"'],
    ],
  })

  port = Option.String('--port', { description: `TCP port (default ${DEFAULT_PORT}; 0 picks a free one).` })
  host = Option.String('--host', DEFAULT_HOST, { description: 'Interface to bind (default 127.0.0.1).' })
  token = Option.String('--token', { description: 'Bearer token required on every API call (needed off loopback).' })
  queue = Option.String('--queue', {
    description: 'redis://host:port: queue suites for `qa worker` processes (BullMQ) instead of running them here.',
  })
  artifacts = Option.String('--artifacts', {
    description:
      'With --queue: folder or s3://bucket/prefix?endpoint=… where workers write reports (default --report-dir).',
  })

  async run(): Promise<number> {
    const port = parsePortFlag(this.port)
    const { options, desktop } = await this.runnerServicesOptions()
    const server = await startServer({
      ...options,
      host: this.host,
      port: port ?? DEFAULT_PORT,
      token: this.token ?? null,
      ...(this.queue ? { queue: this.queue } : {}),
      ...(this.artifacts ? { artifacts: this.artifacts } : {}),
    })
    const snap = server.services.catalog.cached()
    this.out(`Runner Inspector: ${server.url}/${this.token ? '?token=<token>' : ''}`)
    this.out(
      `Suites: ${snap.suites.length} in ${snap.dir}${snap.invalid.length ? ` (${snap.invalid.length} unreadable)` : ''}`,
    )
    if (server.services.demoAppUrl) this.out(`Sample app: ${server.services.demoAppUrl}`)
    this.out(`Reports: ${server.services.reportDir}`)
    if (this.queue) this.out(`Queue: ${this.queue} (start workers: qa worker --queue ${this.queue})`)
    this.out('Press Ctrl-C to stop.')
    await untilSignal()
    await server.close()
    await desktop.close()
    return EXIT_PASS
  }
}
