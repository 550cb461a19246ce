import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A free loopback TCP port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = createConnection({ host: '127.0.0.1', port })
    c.once('connect', () => {
      c.destroy()
      resolve(true)
    })
    c.once('error', () => resolve(false))
  })

export interface TestRedis {
  port: number
  url: string
  /** Stops the server (SIGTERM, waits for the exit). */
  stop(): Promise<void>
  /** Starts it again on the same port (after stop): an empty Redis, as after a crash without persistence. */
  start(): Promise<void>
}

/** Debian's redis-server on a free loopback port with a temp dir and no persistence; stop() after the tests. */
export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'qa-redis-'))
  let child: ChildProcess | null = null
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    )
    const deadline = Date.now() + 10_000
    while (!(await canConnect(port))) {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  const stop = async () => {
    const c = child
    child = null
    if (!c || c.exitCode !== null) return
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve())
      c.kill('SIGTERM')
    })
  }
  await start()
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      await stop()
    },
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
