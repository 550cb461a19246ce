import { parseArgs } from 'node:util'
import { DEFAULT_HOST, DEFAULT_PORT, type RunningServer, startServer } from '@qa/api'
import { isQaError } from '@qa/model'
import { loadConfig } from '@qa/runner'

const USAGE = `Usage: qa-server [--dir cases] [--report-dir qa-reports] [--config qa.config.json] [--threshold 0.95] [--host 127.0.0.1] [--port ${DEFAULT_PORT}] [--token <secret>] [--demo]
Starts the HTTP API and the Runner Inspector over the cases of --dir (the same server as \`qa serve\`): the config is
./qa.config.json (or --config), the QA_* environment and the flags, flags first, as \`qa serve\` reads it.`

export interface ServerMainOptions {
  out?: (line: string) => void
  err?: (line: string) => void
  /** Stops the server (default: SIGINT or SIGTERM). */
  until?: (server: RunningServer) => Promise<unknown>
  /** Where ./qa.config.json and a relative --config are found (default: the process's folder). */
  cwd?: string
  /** The QA_* variables of the config and the secrets of password steps (default: the process's). */
  env?: Readonly<Record<string, string | undefined>>
}

const untilSignal = () =>
  new Promise<void>((resolve) => {
    const on = () => {
      process.off('SIGINT', on)
      process.off('SIGTERM', on)
      resolve()
    }
    process.on('SIGINT', on)
    process.on('SIGTERM', on)
  })

/** `qa-server`: exit 0 after a clean stop, 2 for bad flags or a server that cannot start. */
export async function main(argv: readonly string[], opts: ServerMainOptions = {}): Promise<number> {
  const out = opts.out ?? ((line: string) => process.stdout.write(`${line}\n`))
  const err = opts.err ?? ((line: string) => process.stderr.write(`${line}\n`))
  let values: ReturnType<typeof parse>['values']
  try {
    values = parse(argv).values
  } catch (error) {
    err(`qa-server: ${(error as Error).message}`)
    err(USAGE)
    return 2
  }
  if (values.help) {
    out(USAGE)
    return 0
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    err(`qa-server: --port: expected an integer from 0 to 65535, got "${values.port}".`)
    return 2
  }
  const threshold = values.threshold === undefined ? undefined : Number(values.threshold)
  if (threshold !== undefined && (values.threshold?.trim() === '' || !(threshold >= 0 && threshold <= 1))) {
    err(`qa-server: --threshold: expected a number from 0 to 1, got "${values.threshold}".`)
    return 2
  }
  const env = opts.env ?? process.env
  let server: RunningServer
  try {
    // the config as `qa serve` loads it: flags > QA_* environment > qa.config.json (or --config) > defaults
    const { config } = await loadConfig({
      cwd: opts.cwd ?? process.cwd(),
      configPath: values.config,
      env,
      flags: {
        ...(threshold !== undefined ? { verify: { passSimilarity: threshold } } : {}),
        ...(values['report-dir'] !== undefined ? { replay: { reportDir: values['report-dir'] } } : {}),
      },
    })
    server = await startServer({
      config,
      host: values.host ?? DEFAULT_HOST,
      port,
      token: values.token ?? null,
      demo: values.demo ?? false,
      env,
      ...(values.dir ? { dir: values.dir } : {}),
    })
  } catch (error) {
    if (!isQaError(error)) throw error
    err(`qa-server: ${error.message}${error.hint ? `\n${error.hint}` : ''}`)
    return 2
  }
  out(`Runner Inspector: ${server.url}/`)
  try {
    await (opts.until ?? untilSignal)(server)
  } finally {
    await server.close()
  }
  return 0
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      dir: { type: 'string' },
      'report-dir': { type: 'string' },
      config: { type: 'string' },
      threshold: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string' },
      demo: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
