import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SampleAppError } from './errors'
import {
  defaultSettings,
  type RenderContext,
  renderBadRequest,
  renderFrame,
  renderFrameInner,
  renderList,
  renderLogin,
  renderNotFound,
  renderSettings,
  renderWidgets,
  type SampleSettings,
} from './internal/pages'
import {
  type MutationName,
  normalizeMutations,
  parseVersion,
  type SampleAppVersion,
  versionOf,
  versionPresets,
} from './mutations'
import { renderContext } from './render-page'
import { resolveVariant, variantCookie } from './resolve-variant'

/** Options of {@link startSampleApp}. */
export interface SampleAppOptions {
  /** TCP port; 0 (default) picks a free one. */
  readonly port?: number
  /** Interface to bind (default `127.0.0.1`, loopback only). */
  readonly host?: string
  /** Start version (default `v1`). */
  readonly version?: SampleAppVersion
  /** Start mutations; overrides `version` when given. */
  readonly mutations?: readonly MutationName[]
  /** Pages other than /login and /frame-inner redirect to /login without a session (default true). */
  readonly requireLogin?: boolean
  /** Seed of the css-<hash> class names (default 0); `'per-request'` changes them on every page load. */
  readonly classSeed?: number | 'per-request'
  /** Oldest ground-truth events are dropped beyond this many (default 10 000). */
  readonly maxEvents?: number
}

/** Event kinds the page reports. */
export type TruthEventType = 'click' | 'input' | 'change' | 'keydown'

/** One ground-truth event: which element (by truth id) received an input, as seen by the page itself. */
export interface TruthEvent {
  /** Arrival order at the server, from 0; survives `clearEvents()` (keeps counting). */
  readonly index: number
  readonly type: TruthEventType
  /** Ground-truth id of the nearest instrumented element on the event path (see `sampleTargets`), or null. */
  readonly truth: string | null
  /** location.pathname of the document that saw the event (`/frame-inner` inside the iframe). */
  readonly page: string
  /** `v1`, `v2` or the comma-separated mutation names the page was rendered with. */
  readonly variant: string
  /** True inside the iframe. */
  readonly frame: boolean
  /** Event.isTrusted: true for real input (CDP/user), false for element.click() from script. */
  readonly trusted: boolean
  /** Per-page-load sequence number. */
  readonly seq: number
  /** clientX/clientY for clicks. */
  readonly x?: number
  readonly y?: number
  /** New value for input/change (passwords: one `*` per character; checkboxes/radios: `true`/`false`). */
  readonly value?: string
  /** Key name for non-character keydowns (`Enter`, `Escape`, `Tab`…). */
  readonly key?: string
}

/** Current variant of the server. */
export interface SampleAppVariant {
  readonly version: SampleAppVersion | undefined
  readonly mutations: readonly MutationName[]
}

/** A running sample app. */
export interface SampleApp {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:43123`. */
  readonly url: string
  readonly port: number
  /** Switch every later request (without ?v= / ?m= / cookie) to a version preset. */
  setVersion(version: SampleAppVersion): void
  /** Switch every later request to exactly these mutations. */
  setMutations(mutations: readonly MutationName[]): void
  variant(): SampleAppVariant
  setClassSeed(seed: number | 'per-request'): void
  /** Ground-truth events received so far (copy, arrival order). */
  events(): TruthEvent[]
  clearEvents(): void
  /** Resolves with the first event (already received or future) matching `predicate`. */
  waitForEvent(predicate: (event: TruthEvent) => boolean, opts?: { timeoutMs?: number }): Promise<TruthEvent>
  close(): Promise<void>
}

interface Session {
  readonly user: string
  settings: SampleSettings
}

const eventTypes: readonly string[] = ['click', 'input', 'change', 'keydown']
const bodyLimitBytes = 64 * 1024

/** Starts the sample app on loopback. Resolves once it listens. */
export async function startSampleApp(options: SampleAppOptions = {}): Promise<SampleApp> {
  const port = options.port ?? 0
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SampleAppError(
      'SAMPLE_APP_BAD_OPTION',
      `Option "port" must be an integer 0-65535, got ${String(port)}.`,
      {
        hint: 'Pass port: 0 to pick a free port.',
      },
    )
  }
  const host = options.host ?? '127.0.0.1'
  const requireLogin = options.requireLogin ?? true
  const maxEvents = options.maxEvents ?? 10_000
  let mutations: readonly MutationName[] =
    options.mutations !== undefined
      ? normalizeMutations(options.mutations)
      : versionPresets[parseVersion(options.version ?? 'v1')]
  let classSeed = checkSeed(options.classSeed ?? 0)
  let perRequestCounter = 0
  let eventIndex = 0
  let events: TruthEvent[] = []
  let waiters: { predicate: (e: TruthEvent) => boolean; resolve: (e: TruthEvent) => void }[] = []
  const sessions = new Map<string, Session>()

  function pushEvent(event: TruthEvent): void {
    events.push(event)
    if (events.length > maxEvents) events = events.slice(events.length - maxEvents)
    const ready = waiters.filter((w) => w.predicate(event))
    waiters = waiters.filter((w) => !ready.includes(w))
    for (const w of ready) w.resolve(event)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const path = url.pathname
    const method = req.method ?? 'GET'
    const cookies = parseCookies(req.headers.cookie)
    const session = cookies.qa_session === undefined ? undefined : sessions.get(cookies.qa_session)
    const headers: Record<string, string | string[]> = { 'cache-control': 'no-store' }
    const setCookies: string[] = []

    // ---- instrumentation and health (no variant involved) ----
    if (path === '/__events') {
      if (method === 'GET') return sendJson(res, 200, events, headers)
      if (method === 'DELETE') {
        events = []
        return send(res, 204, '', headers)
      }
      if (method === 'POST') {
        const event = parseEvent(await readBody(req), eventIndex)
        if (event === undefined) return sendJson(res, 400, { error: 'bad event' }, headers)
        eventIndex += 1
        pushEvent(event)
        return send(res, 204, '', headers)
      }
      return methodNotAllowed(res, 'GET, POST, DELETE')
    }
    if (path === '/__health') return send(res, 200, 'ok', { ...headers, 'content-type': 'text/plain; charset=utf-8' })
    if (path === '/favicon.ico') return send(res, 204, '', headers)

    // ---- variant of this request ----
    const seed =
      url.searchParams.get('seed') ?? (classSeed === 'per-request' ? String(perRequestCounter++) : String(classSeed))
    let ctxBase: RenderContext
    try {
      const resolved = resolveVariant(url.searchParams, cookies[variantCookie], mutations)
      if (resolved.cookie === null) setCookies.push(`${variantCookie}=; Path=/; Max-Age=0; SameSite=Lax`)
      else if (resolved.cookie !== undefined)
        setCookies.push(`${variantCookie}=${encodeURIComponent(resolved.cookie)}; Path=/; SameSite=Lax`)
      const q = new URLSearchParams()
      for (const key of ['v', 'm', 'seed']) {
        const value = url.searchParams.get(key)
        if (value !== null) q.set(key, value)
      }
      ctxBase = {
        ...renderContext({
          mutations: resolved.mutations,
          classSeed: seed,
          variantQuery: q.toString(),
          loggedIn: session !== undefined,
          settings: session?.settings ?? defaultSettings,
          ...(session ? { user: session.user } : {}),
        }),
      }
    } catch (error) {
      if (error instanceof SampleAppError) {
        const ctx = renderContext({ loggedIn: false })
        return sendHtml(res, 400, renderBadRequest(ctx, error.message, error.hint), headers)
      }
      throw error
    }
    if (setCookies.length > 0) headers['set-cookie'] = setCookies
    const ctx = ctxBase

    const redirect = (location: string) => send(res, 303, '', { ...headers, location })
    const needsLogin = () => {
      if (!requireLogin || session !== undefined) return false
      redirect(`/login?next=${encodeURIComponent(path + url.search)}`)
      return true
    }

    switch (path) {
      case '/':
        if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(res, 'GET')
        return redirect(session || !requireLogin ? '/list' : '/login')
      case '/login': {
        if (method === 'GET')
          return sendHtml(res, 200, renderLogin({ ...ctx, next: safeNext(url.searchParams.get('next')) }), headers)
        if (method !== 'POST') return methodNotAllowed(res, 'GET, POST')
        const form = new URLSearchParams(await readBody(req))
        const user = (form.get('username') ?? '').trim()
        const password = form.get('password') ?? ''
        const next = safeNext(form.get('next'))
        if (user === '' || password === '') {
          return sendHtml(res, 200, renderLogin({ ...ctx, next, error: '아이디와 비밀번호를 입력하세요' }), headers)
        }
        const id = randomUUID()
        sessions.set(id, { user, settings: defaultSettings })
        const maxAge = form.get('remember') ? '; Max-Age=2592000' : ''
        headers['set-cookie'] = [...setCookies, `qa_session=${id}; Path=/; HttpOnly; SameSite=Lax${maxAge}`]
        return redirect(next)
      }
      case '/logout':
        if (method !== 'GET' && method !== 'POST') return methodNotAllowed(res, 'GET, POST')
        if (cookies.qa_session !== undefined) sessions.delete(cookies.qa_session)
        headers['set-cookie'] = [...setCookies, 'qa_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0']
        return redirect('/login')
      case '/list':
      case '/settings':
      case '/widgets':
      case '/frame': {
        if (path === '/settings' && method === 'POST') return saveSettings(req, res, session, headers)
        if (method !== 'GET') return methodNotAllowed(res, path === '/settings' ? 'GET, POST' : 'GET')
        if (needsLogin()) return
        const render = {
          '/list': renderList,
          '/settings': renderSettings,
          '/widgets': renderWidgets,
          '/frame': renderFrame,
        }[path]
        return sendHtml(res, 200, render(ctx), headers)
      }
      case '/frame-inner':
        if (method !== 'GET') return methodNotAllowed(res, 'GET')
        return sendHtml(res, 200, renderFrameInner(ctx), headers)
      default:
        return sendHtml(res, 404, renderNotFound(ctx, path), headers)
    }
  }

  async function saveSettings(
    req: IncomingMessage,
    res: ServerResponse,
    session: Session | undefined,
    headers: Record<string, string | string[]>,
  ): Promise<void> {
    if (session === undefined) return sendJson(res, 401, { error: 'not logged in' }, headers)
    const parsed = parseSettings(await readBody(req))
    if (typeof parsed === 'string') return sendJson(res, 400, { error: parsed }, headers)
    session.settings = parsed
    return sendJson(res, 200, { ok: true, settings: parsed }, headers)
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, 500, `sample app error: ${String(error)}`, { 'content-type': 'text/plain; charset=utf-8' })
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) =>
      reject(
        new SampleAppError(
          'SAMPLE_APP_LISTEN_FAILED',
          `Could not listen on ${host}:${port} (${error.code ?? error.message}).`,
          {
            hint:
              error.code === 'EADDRINUSE'
                ? 'The port is taken: pass port 0 for a free one, or another port.'
                : 'Check the host and port options.',
            cause: error,
          },
        ),
      )
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const urlHost = address.family === 'IPv6' || host.includes(':') ? `[${address.address}]` : host
  const baseUrl = `http://${urlHost}:${address.port}`
  let closed = false

  return {
    url: baseUrl,
    port: address.port,
    setVersion(version) {
      mutations = versionPresets[parseVersion(version)]
    },
    setMutations(list) {
      mutations = normalizeMutations(list)
    },
    variant: () => ({ version: versionOf(mutations), mutations: [...mutations] }),
    setClassSeed(seed) {
      classSeed = checkSeed(seed)
    },
    events: () => events.map((e) => ({ ...e })),
    clearEvents() {
      events = []
    },
    waitForEvent(predicate, opts = {}) {
      const found = events.find(predicate)
      if (found) return Promise.resolve({ ...found })
      const timeoutMs = opts.timeoutMs ?? 5_000
      return new Promise<TruthEvent>((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (e: TruthEvent) => {
            clearTimeout(timer)
            resolve({ ...e })
          },
        }
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter)
          reject(
            new SampleAppError('SAMPLE_APP_EVENT_TIMEOUT', `No matching ground-truth event within ${timeoutMs} ms.`, {
              hint: `Received so far: ${events.map((e) => `${e.type}:${e.truth ?? '-'}`).join(', ') || 'nothing'}.`,
            }),
          )
        }, timeoutMs)
        waiters.push(waiter)
      })
    },
    async close() {
      if (closed) return
      closed = true
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}

function checkSeed(seed: number | 'per-request'): number | 'per-request' {
  if (seed === 'per-request' || (typeof seed === 'number' && Number.isInteger(seed))) return seed
  throw new SampleAppError(
    'SAMPLE_APP_BAD_OPTION',
    `Option "classSeed" must be an integer or "per-request", got ${String(seed)}.`,
    {
      hint: 'Use 0 (default) for stable class names.',
    },
  )
}

/** Only same-site absolute paths; anything else goes to /list. */
function safeNext(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/list'
  return next
}

function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!header) return out
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq <= 0) continue
    const key = part.slice(0, eq).trim()
    try {
      out[key] = decodeURIComponent(part.slice(eq + 1).trim())
    } catch {
      out[key] = part.slice(eq + 1).trim()
    }
  }
  return out
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > bodyLimitBytes) {
        reject(new Error('request body too large'))
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function parseEvent(body: string, index: number): TruthEvent | undefined {
  let raw: unknown
  try {
    raw = JSON.parse(body)
  } catch {
    return undefined
  }
  if (typeof raw !== 'object' || raw === null) return undefined
  const r = raw as Record<string, unknown>
  if (typeof r.type !== 'string' || !eventTypes.includes(r.type)) return undefined
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined)
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
  const event: TruthEvent = {
    index,
    type: r.type as TruthEventType,
    truth: str(r.truth) ?? null,
    page: str(r.page) ?? '',
    variant: str(r.variant) ?? '',
    frame: r.frame === true,
    trusted: r.trusted === true,
    seq: num(r.seq) ?? 0,
    ...(num(r.x) === undefined ? {} : { x: num(r.x) }),
    ...(num(r.y) === undefined ? {} : { y: num(r.y) }),
    ...(str(r.value) === undefined ? {} : { value: str(r.value) }),
    ...(str(r.key) === undefined ? {} : { key: str(r.key) }),
  }
  return event
}

function parseSettings(body: string): SampleSettings | string {
  let raw: unknown
  try {
    raw = JSON.parse(body)
  } catch {
    return 'body must be JSON'
  }
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
  if (r.language !== 'ko' && r.language !== 'en') return 'language must be "ko" or "en"'
  if (typeof r.notifications !== 'boolean') return 'notifications must be a boolean'
  if (r.theme !== 'light' && r.theme !== 'dark') return 'theme must be "light" or "dark"'
  return { language: r.language, notifications: r.notifications, theme: r.theme }
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string | string[]>): void {
  res.writeHead(status, headers)
  res.end(body)
}

function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string | string[]>): void {
  send(res, status, html, { ...headers, 'content-type': 'text/html; charset=utf-8' })
}

function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string | string[]>,
): void {
  send(res, status, JSON.stringify(value), { ...headers, 'content-type': 'application/json; charset=utf-8' })
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  send(res, 405, `method not allowed; use ${allow}`, { allow, 'content-type': 'text/plain; charset=utf-8' })
}
