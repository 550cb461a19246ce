import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DesktopError } from '../errors'
import type { GameScene, GameVersion } from './layout'
import { gamePageHtml } from './page'

export interface SampleGameServer {
  readonly url: string
  /** The scene the page last drew (reported by the page). */
  readonly scene: GameScene | null
  readonly version: GameVersion
  /** Shows another build; the page resets to the menu within ~100 ms. Resolves when the page drew it. */
  setVersion(version: GameVersion, timeoutMs?: number): Promise<void>
  /** Resolves when the page has drawn `scene` of the current build. */
  waitForScene(scene: GameScene, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/** Serves the canvas sample game on loopback (free port). */
export async function startSampleGame(opts: { version?: GameVersion; port?: number } = {}): Promise<SampleGameServer> {
  let version: GameVersion = opts.version ?? 1
  let epoch = 0
  let drawn: { scene: GameScene; version: number; epoch: number } | null = null
  const html = gamePageHtml()
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname === '/state') {
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ version, epoch }))
      return
    }
    if (url.pathname === '/event') {
      drawn = {
        scene: (url.searchParams.get('scene') ?? 'menu') as GameScene,
        version: Number(url.searchParams.get('version')),
        epoch: Number(url.searchParams.get('epoch')),
      }
      res.writeHead(204).end()
      return
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html)
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const waitFor = async (test: () => boolean, what: string, timeoutMs: number) => {
    const end = Date.now() + timeoutMs
    while (!test()) {
      if (Date.now() > end)
        throw new DesktopError('DESKTOP_GAME_FAILED', `The sample game did not show ${what} within ${timeoutMs} ms.`, {
          hint: 'Check that Chromium started on the display (QA_CHROMIUM, /usr/bin/chromium).',
        })
      await new Promise((r) => setTimeout(r, 30))
    }
    // the page reported the draw; give the compositor a frame or two to put it on screen
    await new Promise((r) => setTimeout(r, 150))
  }
  return {
    url: `http://127.0.0.1:${port}/`,
    get scene() {
      return drawn?.scene ?? null
    },
    get version() {
      return version
    },
    async setVersion(v, timeoutMs = 10_000) {
      version = v
      epoch++
      const e = epoch
      await waitFor(() => drawn?.epoch === e && drawn.scene === 'menu', `build v${v}`, timeoutMs)
    },
    waitForScene(scene, timeoutMs = 10_000) {
      return waitFor(() => drawn?.epoch === epoch && drawn.scene === scene, `the ${scene} screen`, timeoutMs)
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}
