import { isIP } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { ServerError } from '@qa/runner'
import { createHttpApp } from './http-app'
import { createRunnerServices, type RunnerServices, type RunnerServicesOptions } from './services'

export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_PORT = 7357

export interface StartServerOptions extends RunnerServicesOptions {
  /** Interface to bind (default 127.0.0.1). Anything but loopback needs `token`. */
  host?: string
  /** TCP port (default 7357; 0 picks a free one). */
  port?: number
  /** Bearer token required on every /api and /files request. */
  token?: string | null
}

export interface RunningServer {
  /** Base URL of the inspector and API, e.g. http://127.0.0.1:7357 */
  url: string
  host: string
  port: number
  app: FastifyInstance
  services: RunnerServices
  close(): Promise<void>
}

/** True for names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true
  if (isIP(h) === 4) return h.startsWith('127.')
  if (h.startsWith('::ffff:')) return isLoopbackHost(h.slice(7))
  return false
}

/** Throws unless the bind is loopback, or a token protects it. */
export function assertBindAllowed(host: string, token: string | null | undefined): void {
  if (isLoopbackHost(host)) return
  if (token && token.length >= 16) return
  if (token) {
    throw new ServerError(
      'SERVER_BAD_OPTION',
      `--token is too short (${token.length} characters) to expose the runner on ${host}.`,
      {
        hint: 'Use at least 16 random characters, e.g. `openssl rand -hex 24`.',
      },
    )
  }
  throw new ServerError(
    'SERVER_TOKEN_REQUIRED',
    `Binding to ${host} would let other machines start test runs and read reports; refusing without a token.`,
    { hint: 'Pass --token <secret> (clients send "Authorization: Bearer <secret>"), or bind --host 127.0.0.1.' },
  )
}

/** Starts the HTTP server: API, events, files and the Runner Inspector page. */
export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? DEFAULT_HOST
  assertBindAllowed(host, opts.token)
  const port = opts.port ?? DEFAULT_PORT
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ServerError('SERVER_BAD_OPTION', `port: expected an integer 0–65535, got ${port}.`)
  }
  const services = await createRunnerServices(opts)
  let app: FastifyInstance
  try {
    app = await createHttpApp({
      catalog: services.catalog,
      runner: services.runner,
      reportDir: services.reportDir,
      ...(services.artifacts ? { artifacts: services.artifacts } : {}),
      token: opts.token ?? null,
      // The name it is bound to is always its own (127.0.0.2 is loopback too, and its printed URL must answer).
      allowedHosts: [host.includes(':') && !host.startsWith('[') ? `[${host}]` : host],
    })
    await app.listen({ host, port })
  } catch (error) {
    await services.close()
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') {
      throw new ServerError('SERVER_BAD_OPTION', `Port ${port} on ${host} is already in use.`, {
        hint: 'Stop the other server or pick another --port (0 picks a free one).',
        cause: error,
      })
    }
    throw error
  }
  const address = app.server.address()
  const boundPort = typeof address === 'object' && address ? address.port : port
  const urlHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${urlHost}:${boundPort}`,
    host,
    port: boundPort,
    app,
    services,
    async close() {
      await app.close()
      await services.close()
    },
  }
}
