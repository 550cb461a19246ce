import { createHash, timingSafeEqual } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { importOptional, isQaError } from '@qa/model'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  type ArtifactStore,
  assertArtifactKey,
  buildTestBotResults,
  type JobRunner,
  latestSuiteStates,
  type RunnerEvent,
  type RunRecord,
  safeFile,
  servedFileHeaders,
  ServerError,
  type SuiteCatalog,
  type SuiteRun,
} from '@qa/runner'
import { parseRunRequest } from './parse-run-request'

export interface HttpAppOptions {
  catalog: SuiteCatalog
  runner: JobRunner
  /** Report folder, served read-only under /files/reports/. */
  reportDir: string
  /** When set, every /api and /files request needs `Authorization: Bearer <token>` (or `?token=` for EventSource). */
  token?: string | null
  /** Extra Host header names accepted without a token (the loopback names are always accepted). */
  allowedHosts?: readonly string[]
  /** Queued runs: reports are read through this store (object storage or a shared folder). */
  artifacts?: ArtifactStore
  /** Largest accepted request body (default 64 KiB). */
  bodyLimitBytes?: number
}

const PUBLIC_DIR = new URL('../public/', import.meta.url)
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

/** The routes that need no token: the Inspector page (it asks for the token) and its static files. */
const PUBLIC_ROUTES = new Set(['/', '/inspector.js', '/favicon.ico'])
const isPublicRoute = (req: FastifyRequest): boolean =>
  (req.method === 'GET' || req.method === 'HEAD') &&
  req.routeOptions.url !== undefined &&
  PUBLIC_ROUTES.has(req.routeOptions.url) &&
  req.url.split('?')[0] === req.routeOptions.url

const digest = (s: string) => createHash('sha256').update(s).digest()
/** Constant-time token comparison. */
export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false
  return timingSafeEqual(digest(expected), digest(given))
}

/** The hostname of a Host header (`[::1]:8080` → `[::1]`, `a.b:80` → `a.b`). */
export function hostnameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return ''
  // a whole `host[:port]` or `[v6]:port`, nothing else: `127.0.0.1:7402.evil.com` names no allowed host
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/.exec(hostHeader.trim().toLowerCase())
  return m ? (m[1] as string) : ''
}

/** How many Host headers a request carried (Node keeps only the first of several). */
function hostHeaderCount(rawHeaders: readonly string[]): number {
  let n = 0
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === 'host') n++
  return n
}

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/')

/** Report links of a suite as URLs of the file route. */
export function reportUrls(run: SuiteRun | null): Partial<Record<string, string>> {
  if (!run) return {}
  return Object.fromEntries(
    Object.entries(run.reports).map(([k, p]) => [k, `/files/reports/${encodePath(p as string)}`]),
  )
}

const runSummary = (r: RunRecord) => ({
  id: r.id,
  status: r.status,
  passed: r.passed,
  createdAt: r.createdAt,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
  request: r.request,
  suites: r.suites.map((s) => ({ index: s.index, name: s.name, status: s.status, passed: s.passed })),
})

/**
 * The fastify app: REST API, server-sent events, read-only report/case files and the Runner Inspector page.
 * Not listening yet: `startServer` binds it; tests use `app.inject`.
 */
export async function createHttpApp(opts: HttpAppOptions): Promise<FastifyInstance> {
  const { default: Fastify } = await importOptional('server', 'fastify', () => import('fastify'))
  const app = Fastify({
    logger: false,
    bodyLimit: opts.bodyLimitBytes ?? 64 * 1024,
    return503OnClosing: true,
    forceCloseConnections: true,
  })
  const token = opts.token || null
  const allowedHosts = new Set([...LOOPBACK_HOSTS, ...(opts.allowedHosts ?? []).map((h) => h.toLowerCase())])
  const [pageHtml, pageJs] = await Promise.all([
    readFile(new URL('inspector.html', PUBLIC_DIR), 'utf8'),
    readFile(new URL('inspector.js', PUBLIC_DIR), 'utf8'),
  ])

  app.setErrorHandler((error: unknown, _req, reply) => {
    if (error instanceof ServerError) {
      return reply.status(error.statusCode).send({ ...error.toJSON(), ...(error.details ?? {}) })
    }
    const status = (error as { statusCode?: number }).statusCode
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.status(status).send({
        code: 'SERVER_BAD_REQUEST',
        message: `${(error as Error).message}.`.replace(/\.\.$/, '.'),
        hint: 'Send a JSON body with Content-Type: application/json.',
      })
    }
    const message = isQaError(error) ? error.message : 'The server failed to answer this request.'
    return reply.status(500).send({ code: 'SERVER_INTERNAL', message, hint: 'See the server log; retry the request.' })
  })
  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ code: 'SERVER_NOT_FOUND', message: `Nothing at ${req.method} ${req.url.split('?')[0]}.` })
  })

  app.addHook('onRequest', async (req, reply) => {
    if (!token) {
      // Loopback without a token: refuse foreign Host headers (DNS rebinding from a web page).
      if (hostHeaderCount(req.raw.rawHeaders) > 1 || !allowedHosts.has(hostnameOf(req.headers.host))) {
        throw new ServerError('SERVER_FORBIDDEN_HOST', `Requests for host "${req.headers.host ?? ''}" are refused.`, {
          hint: 'Open the inspector through http://127.0.0.1:<port>/, or start the server with --token.',
        })
      }
      return
    }
    // Deny by default, judged on the route the router matched (it percent-decodes and accepts absolute-form
    // targets, so the raw `req.url` says nothing reliable): only the Inspector page and its script are public.
    if (isPublicRoute(req)) return
    const header = req.headers.authorization
    const bearer = typeof header === 'string' && /^bearer /i.test(header) ? header.slice(7).trim() : null
    const query = (req.query as Record<string, unknown> | undefined)?.token
    const given = bearer ?? (typeof query === 'string' ? query : null)
    if (!tokenMatches(token, given)) {
      reply.header('www-authenticate', 'Bearer')
      throw new ServerError('SERVER_UNAUTHORIZED', 'This server needs a token and the request had no valid one.', {
        hint: 'Send "Authorization: Bearer <token>" (the token given to qa serve --token).',
      })
    }
  })

  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store')

  app.get('/', async (_req, reply) => {
    noStore(reply)
      .type('text/html; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      // never inside another site's frame: "Run all" cannot be clicked through a decoy (clickjacking)
      .header('content-security-policy', "frame-ancestors 'none'")
      .header('x-frame-options', 'DENY')
    // the suite list is in the page itself, so window.__TESTBOT__ exists by the page's load event (an
    // agent navigates, then calls runAll()); JSON in a data block, every `<` escaped so it cannot end the script
    const state = JSON.stringify(await inspectorState())
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029')
    return pageHtml.replace(
      '<script src="/inspector.js" defer></script>',
      `<script id="qa-initial-state" type="application/json">${state}</script>\n<script src="/inspector.js" defer></script>`,
    )
  })
  app.get('/inspector.js', async (_req, reply) => {
    noStore(reply).type('text/javascript; charset=utf-8')
    return pageJs
  })
  app.get('/favicon.ico', async (_req, reply) => reply.status(204).send())

  app.get('/api/health', async () => ({ ok: true, running: opts.runner.isRunning() }))

  app.get('/api/suites', async (_req, reply) => {
    const snap = await opts.catalog.list()
    noStore(reply)
    return {
      dir: snap.dir,
      suites: snap.suites.map(({ path: _path, ...s }) => s),
      invalid: snap.invalid,
    }
  })

  app.get('/api/results', async (_req, reply) => {
    const snap = await opts.catalog.list({ maxAgeMs: 5000 })
    noStore(reply)
    return buildTestBotResults(latestSuiteStates(snap.suites, opts.runner.listRuns()), opts.runner.isRunning())
  })

  /** The page's richer view: the seed shape plus errors, report links and the planned steps. */
  const inspectorState = async () => {
    const snap = await opts.catalog.list({ maxAgeMs: 5000 })
    const states = latestSuiteStates(snap.suites, opts.runner.listRuns())
    return {
      isRunning: opts.runner.isRunning(),
      suites: snap.suites.map((s, i) => {
        const st = states[i]
        return {
          index: s.index,
          name: s.name,
          file: s.file,
          platform: s.platform,
          plannedSteps: s.steps,
          status: st?.status ?? 'planned',
          passed: st?.passed ?? false,
          steps: st?.steps ?? [],
          error: st?.run?.error ?? null,
          runId: st?.runId ?? null,
          reports: reportUrls(st?.run ?? null),
        }
      }),
      invalid: snap.invalid,
    }
  }
  app.get('/api/state', async (_req, reply) => {
    noStore(reply)
    return inspectorState()
  })

  app.post('/api/runs', async (req, reply) => {
    const snap = await opts.catalog.list()
    const { request, suites } = parseRunRequest(req.body, snap.suites)
    const run = opts.runner.enqueue(suites, request)
    return reply.status(202).send({ run })
  })

  app.get('/api/runs', async (req) => {
    const limitRaw = Number((req.query as Record<string, unknown>).limit ?? 50)
    const limit = Number.isInteger(limitRaw) && limitRaw > 0 ? Math.min(limitRaw, 1000) : 50
    return { runs: opts.runner.listRuns().reverse().slice(0, limit).map(runSummary) }
  })

  const runOr404 = (id: string) => {
    const run = opts.runner.getRun(id)
    if (!run) {
      throw new ServerError('SERVER_RUN_NOT_FOUND', `No run has id "${id.slice(0, 80)}".`, {
        hint: 'GET /api/runs lists the runs.',
      })
    }
    return run
  }
  app.get<{ Params: { id: string } }>('/api/runs/:id', async (req) => {
    const run = runOr404(req.params.id)
    return {
      run: { ...run, suites: run.suites.map((s) => ({ ...s, reportUrls: reportUrls(s) })) },
    }
  })
  app.delete<{ Params: { id: string } }>('/api/runs/:id', async (req) => {
    runOr404(req.params.id)
    return { canceled: opts.runner.cancel(req.params.id) }
  })

  app.get('/api/events', (req: FastifyRequest, reply: FastifyReply) => {
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    const send = (event: string, data: unknown) => {
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    }
    res.write('retry: 2000\n\n')
    send('hello', { isRunning: opts.runner.isRunning() })
    const off = opts.runner.onEvent((e: RunnerEvent) => send(e.type, e))
    const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000)
    beat.unref?.()
    const stop = () => {
      clearInterval(beat)
      off()
    }
    req.raw.on('close', stop)
    res.on('error', stop)
  })

  const fileRoute =
    (root: () => string) => async (req: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
      const file = await safeFile(root(), req.params['*'] ?? '')
      const headers = file ? servedFileHeaders(file) : null
      if (!file || !headers) throw new ServerError('SERVER_NOT_FOUND', 'No such file.', {})
      return reply.headers(headers).send(createReadStream(file))
    }
  app.get(
    '/files/cases/*',
    fileRoute(() => opts.catalog.dir),
  )
  const artifacts = opts.artifacts
  if (artifacts && !artifacts.localRoot) {
    // Object storage: workers on other hosts wrote the reports there.
    app.get<{ Params: { '*': string } }>('/files/reports/*', async (req, reply) => {
      let key: string
      try {
        key = assertArtifactKey(req.params['*'] ?? '')
      } catch {
        throw new ServerError('SERVER_NOT_FOUND', 'No such file.', {})
      }
      const headers = servedFileHeaders(key)
      const body = headers ? await artifacts.get(key) : null
      if (!body || !headers) throw new ServerError('SERVER_NOT_FOUND', 'No such file.', {})
      return reply.headers(headers).send(Buffer.from(body))
    })
  } else {
    app.get(
      '/files/reports/*',
      fileRoute(() => artifacts?.localRoot ?? opts.reportDir),
    )
  }

  return app
}
