import { realpathSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext } from 'playwright-core'

/**
 * Real pages nobody here wrote: UI kits installed from npm (devDependencies of this package), served offline
 * as they ship. `/__poll?hold=ms` answers after `hold` ms (the busy-network test's analytics endpoint).
 */
export type Kit = 'sneat-bootstrap-html-admin-template-free' | 'gentelella' | '@shoelace-style/shoelace'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
}

/** Where npm installed a kit: this package's own node_modules (a kit's `exports` may hide its files). */
export function kitRoot(kit: Kit): string {
  return realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', kit))
}

/**
 * Serves a kit's folder (`dir`: the folder its pages expect as the site root, e.g. gentelella's `dist`), and
 * `pages` (path → HTML) for a kit that ships components but no pages.
 */
export async function serveKit(
  kit: Kit,
  dir = '',
  pages: Record<string, string> = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const root = join(kitRoot(kit), dir)
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname === '/__poll') {
      setTimeout(() => res.end('ok'), Number(url.searchParams.get('hold') ?? 0))
      return
    }
    const page = pages[url.pathname]
    if (page !== undefined) {
      res.writeHead(200, { 'content-type': TYPES['.html']! }).end(page)
      return
    }
    let file = join(root, normalize(decodeURIComponent(url.pathname)))
    if (!file.startsWith(root)) {
      res.writeHead(403).end()
      return
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html')
      const body = await readFile(file)
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** One element of the path a click took, innermost first. */
export interface TruthNode {
  tag: string
  text: string
  box: { x: number; y: number; width: number; height: number }
}

/** A click as the page received it: which page, and the elements from the innermost target up to body. */
export interface TruthClick {
  path: string
  chain: TruthNode[]
  /** The innermost interactive element: tag and text, e.g. `a "Login"`. */
  key: string
}

/**
 * Ground truth the tool cannot see: a capture-phase click listener in every page and tab of the context,
 * reporting to Node through a binding (so clicks survive navigations and new tabs).
 */
export async function captureClicks(context: BrowserContext): Promise<TruthClick[]> {
  const clicks: TruthClick[] = []
  await context.exposeBinding('__qaTruthClick', (_source, click: TruthClick) => {
    clicks.push(click)
  })
  await context.addInitScript(() => {
    const report = (window as unknown as { __qaTruthClick: (c: unknown) => void }).__qaTruthClick
    const INTERACTIVE = 'a[href],button,input,select,textarea,summary,label,[role],[tabindex]'
    window.addEventListener(
      'click',
      (e) => {
        const chain = e
          .composedPath()
          .filter((n): n is Element => n instanceof Element && n !== document.documentElement)
        const nodes = chain.map((el) => {
          const r = el.getBoundingClientRect()
          return {
            tag: el.tagName.toLowerCase(),
            text: (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60),
            box: { x: r.x, y: r.y, width: r.width, height: r.height },
          }
        })
        const hit = chain.find((el) => el.matches(INTERACTIVE))
        const key = hit
          ? `${hit.tagName.toLowerCase()} "${(hit.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`
          : '(none)'
        report({ path: location.pathname, chain: nodes, key })
      },
      true,
    )
  })
  return clicks
}
