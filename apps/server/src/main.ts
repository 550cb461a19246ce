import { parseArgs } from 'node:util'
import { DEFAULT_HOST, DEFAULT_PORT, type RunningServer, startServer } from '@qa/api'
import { isQaError } from '@qa/model'

const USAGE = `Usage: qa-server [--dir cases] [--report-dir qa-reports] [--host 127.0.0.1] [--port ${DEFAULT_PORT}] [--token <secret>] [--demo]
Starts the HTTP API and the Runner Inspector over the cases of --dir (the same server as \`qa serve\`).`

export interface ServerMainOptions {
  out?: (line: string) => void
  err?: (line: string) => void
  /** Stops the server (default: SIGINT or SIGTERM). */
  until?: (server: RunningServer) => Promise<unknown>
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
  let server: RunningServer
  try {
    server = await startServer({
      host: values.host ?? DEFAULT_HOST,
      port,
      token: values.token ?? null,
      demo: values.demo ?? false,
      env: process.env,
      ...(values.dir ? { dir: values.dir } : {}),
      ...(values['report-dir'] ? { reportDir: values['report-dir'] } : {}),
      ...(process.env.QA_CHROMIUM ? { executablePath: process.env.QA_CHROMIUM } : {}),
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
      host: { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string' },
      demo: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
