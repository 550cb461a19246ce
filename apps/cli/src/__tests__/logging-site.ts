import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A test site on loopback whose pages post what they saw to `POST /log`: the lines, in order, since the last reset. */
export interface LoggingSite {
  origin: string
  /** The bodies posted to `/log` (assign `[]` to start again). */
  seen: string[]
  server: Server
}

/**
 * Serves `pageAt(path, port)` (404 when undefined) and collects every `POST /log` body in `seen`: truth the pages
 * report from their own listeners, out of reach of the tool under test.
 */
export async function serveLoggingSite(
  pageAt: (path: string, port: number) => string | undefined,
): Promise<LoggingSite> {
  const site = { origin: '', seen: [] as string[] } as LoggingSite
  site.server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/log') {
      let body = ''
      req.on('data', (d) => {
        body += d
      })
      req.on('end', () => {
        site.seen.push(body)
        res.end('ok')
      })
      return
    }
    const page = pageAt((req.url ?? '/').split('?')[0] as string, (site.server.address() as AddressInfo).port)
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
    res.end(page ?? 'not found')
  })
  await new Promise<void>((r) => site.server.listen(0, '127.0.0.1', r))
  site.origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`
  return site
}
