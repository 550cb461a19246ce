import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One HTML page served on loopback for any path: its base URL, and how to stop serving it. */
export async function servePage(html: string): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(html)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}
