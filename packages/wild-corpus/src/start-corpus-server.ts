import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, extname, join, normalize, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type CorpusKit, type CorpusPage, corpusKits, corpusPages, pagesOf } from './kits'
import { corpusOpenApi, redocPage, swaggerInitializer } from './openapi'
import { isMutationOp, type MutationOp, pageScriptTag } from './page-script'
import { createTruthLog, type TruthEvent, type TruthLog } from './truth-log'

export interface CorpusServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string
  /** Default 0 (a free port). */
  readonly port?: number
  /**
   * The kits to serve (default `corpusKits`). A kit's `pkg` is resolved from this package, so another set of
   * releases (npm aliases among this package's dependencies, e.g. `bench/upgrades`) can be served under the
   * same kit ids and paths as the corpus serves its own.
   */
  readonly kits?: readonly CorpusKit[]
  /**
   * CDN URLs answered from packages of this one, tried before the built-in ones (an older release loads
   * Bootstrap 4 or Font Awesome 5 from a CDN): a pattern and its `/__npm/<package>/…` replacement.
   */
  readonly cdn?: readonly (readonly [RegExp, string])[]
}

export interface CorpusVariantOptions {
  readonly ops: readonly MutationOp[]
  /** Truth ids that `removal` replaces by a look-alike. */
  readonly remove?: readonly string[]
  /** Seed of the operators' choices (suffixes, decoy words). Default 1. */
  readonly seed?: number
  /** Name carried by the variant's truth events. Default: the ops joined by `+`, or `none`. */
  readonly name?: string
}

/**
 * A listener of its own (own port, own truth log) serving every page with fixed mutations. The page paths
 * are the same on every variant, so a case recorded on one replays on another whatever `--url` keeps of
 * the recorded path.
 */
export interface CorpusVariant {
  readonly name: string
  readonly url: string
  readonly ops: readonly MutationOp[]
  readonly truth: TruthLog
  pageUrl(page: CorpusPage | string): string
  close(): Promise<void>
}

export interface CorpusServer {
  /** Unmutated pages at `${url}/<page id>`; `${url}/m/<run>/<op+op…>/<page id>` applies operators by path. */
  readonly url: string
  readonly pages: readonly CorpusPage[]
  readonly kits: readonly CorpusKit[]
  /** Every truth event of the main listener (the run is in each event). */
  readonly truth: TruthLog
  pageUrl(page: CorpusPage | string): string
  /** Opens one more listener with fixed mutations. */
  variant(opts: CorpusVariantOptions): Promise<CorpusVariant>
  close(): Promise<void>
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.otf': 'font/otf',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
}
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

/** CDN files some pages load, answered from packages of this one (pinned in the lockfile). */
const CDN: readonly [RegExp, string][] = [
  [/^https:\/\/cdn\.jsdelivr\.net\/npm\/((?:@[^/@]+\/)?[^/@]+)@[^/]+\/(.*)$/, '/__npm/$1/$2'],
  [/^https:\/\/use\.fontawesome\.com\/releases\/v6[^/]*\/(.*)$/, '/__npm/@fortawesome/fontawesome-free/$1'],
  [/^https:\/\/cdnjs\.cloudflare\.com\/ajax\/libs\/Chart\.js\/2[^/]*\/(.*)$/, '/__npm/chart.js/dist/$1'],
]

const here = dirname(fileURLToPath(import.meta.url))

/** The folder of `name` as Node would resolve it from `fromDir` (walking up through node_modules). */
function findPackageDir(fromDir: string, name: string): string | undefined {
  let dir = fromDir
  for (;;) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate)
    const up = dirname(dir)
    if (up === dir) return undefined
    dir = up
  }
}

function kitDir(kit: CorpusKit): string {
  const dir = findPackageDir(here, kit.pkg)
  if (!dir) throw new Error(`The corpus kit ${kit.pkg} is not installed. Run \`pnpm install\` in the repository.`)
  return dir
}

const blocked = (abs: string) => `/__blocked?u=${encodeURIComponent(abs)}`

export function rewriteExternal(html: string, cdn: readonly (readonly [RegExp, string])[] = CDN): string {
  return html
    .replace(/url\((["']?)(https?:\/\/[^)"']*)\1\)/gi, (_m, q: string, abs: string) => `url(${q}${blocked(abs)}${q})`)
    .replace(/<(script|link|img|iframe|source)\b[^>]*>/gi, (tag) =>
      tag.replace(
        /\b(src|href)=(["'])(https?:)?\/\/([^"']*)\2/gi,
        (_m, attr: string, q: string, scheme: string, rest: string) => {
          const abs = `${scheme ?? 'https:'}//${rest}`
          for (const [re, to] of cdn) if (re.test(abs)) return `${attr}=${q}${abs.replace(re, to)}${q}`
          return `${attr}=${q}${blocked(abs)}${q}`
        },
      ),
    )
}

interface ListenerConfig {
  readonly name: string
  readonly ops: readonly MutationOp[]
  readonly remove: readonly string[]
  readonly seed: number
}

export async function startCorpusServer(opts: CorpusServerOptions = {}): Promise<CorpusServer> {
  const host = opts.host ?? '127.0.0.1'
  const kits = opts.kits ?? corpusKits
  const pages: readonly CorpusPage[] = opts.kits ? pagesOf(kits) : corpusPages
  const cdn = [...(opts.cdn ?? []), ...CDN]
  const dirs = new Map(kits.map((k) => [k.id, kitDir(k)]))
  const holds = new Map<string, () => void>()
  const listeners: Server[] = []

  const sendFile = async (res: ServerResponse, file: string) => {
    const body = await readFile(file)
    res.writeHead(200, {
      'content-type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    })
    res.end(body)
  }
  const safeJoin = (root: string, rel: string): string | undefined => {
    const p = normalize(join(root, rel))
    if (p !== root && !p.startsWith(root + sep)) return undefined
    return existsSync(p) && statSync(p).isFile() ? p : undefined
  }
  /** A file of a kit: its own files, then `node_modules/<dep>/…` resolved from the kit's package. */
  const kitFile = (kit: CorpusKit, rel: string): string | undefined => {
    const root = dirs.get(kit.id) as string
    const own = safeJoin(root, rel)
    if (own) return own
    const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(rel)
    if (m?.[1] && m[2] !== undefined) {
      const dep = findPackageDir(root, m[1])
      if (dep) return safeJoin(dep, m[2])
    }
    return undefined
  }

  const handler = (cfg: ListenerConfig, truth: TruthLog) => async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://corpus')
    let path = decodeURIComponent(url.pathname)
    try {
      if (path === '/__truth' && req.method === 'POST') {
        const chunks: Buffer[] = []
        for await (const c of req) chunks.push(c as Buffer)
        try {
          truth.push({ ...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as TruthEvent), receivedAt: Date.now() })
        } catch {
          // a malformed beacon is dropped
        }
        res.writeHead(204).end()
        return
      }
      if (path.startsWith('/__hold/')) {
        const id = path.slice('/__hold/'.length)
        const done = () => {
          holds.delete(id)
          clearTimeout(timer)
          if (!res.writableEnded)
            res.writeHead(200, { 'content-type': 'image/gif', 'cache-control': 'no-store' }).end(GIF)
        }
        const timer = setTimeout(done, 12_000)
        holds.set(id, done)
        req.on('close', () => holds.delete(id))
        return
      }
      if (path.startsWith('/__release/')) {
        holds.get(path.slice('/__release/'.length))?.()
        res.writeHead(204).end()
        return
      }
      if (path === '/__blocked') {
        const u = url.searchParams.get('u') ?? ''
        const type = /\.css(\?|$)|fonts\.googleapis/.test(u)
          ? 'text/css'
          : /\.(png|jpe?g|gif|svg|ico)(\?|$)/.test(u)
            ? 'image/gif'
            : 'text/javascript'
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(type === 'image/gif' ? GIF : '')
        return
      }
      if (path === '/__corpus/openapi.json') {
        res.writeHead(200, { 'content-type': MIME['.json'] as string }).end(JSON.stringify(corpusOpenApi))
        return
      }
      if (path === '/__npm/simple-datatables/dist/umd/simple-datatables.min.js') {
        // The CDN's UMD build is not in the npm package: wrap its CommonJS build into the same global.
        const dir = findPackageDir(here, 'simple-datatables') as string
        const cjs = await readFile(join(dir, 'dist/index.js'), 'utf8')
        const js = `(function(){var exports={};var module={exports:exports};\n${cjs}\n;window.simpleDatatables=module.exports})();`
        res.writeHead(200, { 'content-type': MIME['.js'] as string }).end(js)
        return
      }
      if (path === '/__npm/simple-datatables/dist/style.min.css') path = '/__npm/simple-datatables/dist/css/style.css'
      if (path.startsWith('/__npm/')) {
        const m = /^\/__npm\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path)
        const dir = m?.[1] ? findPackageDir(here, m[1]) : undefined
        const file = dir && m?.[2] !== undefined ? safeJoin(dir, m[2]) : undefined
        if (file) return await sendFile(res, file)
        res.writeHead(404).end()
        return
      }
      // `/m/<run>/<op+op…>/<kit>/…`: operators chosen by the path (relative links and assets keep the prefix).
      let page = cfg
      const m = /^\/m\/([^/]+)\/([^/]+)(\/.*)$/.exec(path)
      if (m?.[1] && m[2] && m[3]) {
        const ops = m[2] === 'none' ? [] : m[2].split('+')
        if (ops.every(isMutationOp)) {
          page = { ...cfg, name: m[1], ops }
          path = m[3]
        }
      }
      if (path === '/' || path === '/index.html') {
        const links = pages.map((p) => `<li><a href="/${p.id}">${p.id}</a></li>`).join('\n')
        res
          .writeHead(200, { 'content-type': MIME['.html'] as string })
          .end(`<!doctype html><title>Wild corpus</title><ul>${links}</ul>`)
        return
      }
      const [, kitId = '', ...restParts] = path.split('/')
      const rest = restParts.join('/')
      const kit = kits.find((k) => k.id === kitId)
      let html: string | undefined
      let file: string | undefined
      if (kit?.id === 'redoc' && rest === 'index.html') html = redocPage
      else if (kit?.id === 'swagger-ui' && rest === 'swagger-initializer.js') {
        res.writeHead(200, { 'content-type': MIME['.js'] as string }).end(swaggerInitializer)
        return
      } else if (kit) file = kitFile(kit, rest)
      if (!file && !html) {
        // Pages built with absolute asset paths (`/assets/…`).
        for (const k of kits) {
          if (!k.absoluteRoot) continue
          file = safeJoin(join(dirs.get(k.id) as string, k.absoluteRoot), path.slice(1))
          if (file) break
        }
      }
      if (!file && !html) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`not in the corpus: ${path}`)
        return
      }
      if (html === undefined && file && extname(file) === '.html') html = readFileSync(file, 'utf8')
      if (html !== undefined) {
        const tag = pageScriptTag({
          ops: page.ops,
          remove: page.remove,
          seed: page.seed,
          run: page.name,
          readySelector: kit?.readySelector,
          api: '',
        })
        const body = rewriteExternal(html, cdn).replace(/<head[^>]*>/i, (h) => `${h}\n${tag}`)
        res.writeHead(200, { 'content-type': MIME['.html'] as string, 'cache-control': 'no-store' }).end(body)
        return
      }
      if (kit?.id === 'redoc' && extname(file as string) === '.js') {
        // The bundle links its logo on a CDN; offline it is answered locally.
        const js = (await readFile(file as string, 'utf8')).replaceAll(
          'https://cdn.redoc.ly/redoc/logo-mini.svg',
          blocked('logo.svg'),
        )
        res.writeHead(200, { 'content-type': MIME['.js'] as string }).end(js)
        return
      }
      await sendFile(res, file as string)
    } catch (cause) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(cause))
    }
  }

  const listen = async (cfg: ListenerConfig, truth: TruthLog, port: number) => {
    const server = createServer((req, res) => void handler(cfg, truth)(req, res))
    server.keepAliveTimeout = 1000
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => resolve())
    })
    listeners.push(server)
    const { port: actual } = server.address() as AddressInfo
    return { server, url: `http://${host}:${actual}` }
  }
  const closeServer = (server: Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  const pageUrlOn = (base: string) => (page: CorpusPage | string) =>
    `${base}/${typeof page === 'string' ? page.replace(/^\//, '') : page.id}`

  const mainTruth = createTruthLog()
  const main = await listen({ name: 'none', ops: [], remove: [], seed: 1 }, mainTruth, opts.port ?? 0)
  return {
    url: main.url,
    pages,
    kits,
    truth: mainTruth,
    pageUrl: pageUrlOn(main.url),
    async variant(v) {
      const name = v.name ?? (v.ops.length > 0 ? v.ops.join('+') : 'none')
      const truth = createTruthLog()
      const l = await listen({ name, ops: v.ops, remove: v.remove ?? [], seed: v.seed ?? 1 }, truth, 0)
      return {
        name,
        url: l.url,
        ops: v.ops,
        truth,
        pageUrl: pageUrlOn(l.url),
        close: () => closeServer(l.server),
      }
    },
    async close() {
      for (const done of holds.values()) done()
      await Promise.all(listeners.map(closeServer))
    },
  }
}
