import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin } from '../__tests__/run-cli'

/**
 * Against the built CLI: `qa serve` bound to a non-loopback address with a token. Every
 * way around the token (percent-encoded paths, absolute-form request targets, dot segments, the files route) is
 * refused, and with the token no dotfile of the served folder is given out. Requests are written to the socket as
 * they are, so no client normalises the path first.
 */

const TOKEN = 'serve-token-e2e-0123456789abcdefghij'
let child: ChildProcess
let port = 0

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-serve-token-'))
  const actions = [{ timestamp: 1, action_type: 'click', x: 1, y: 2, description: 'Click' }]
  writeFileSync(join(dir, 'a.json'), JSON.stringify({ name: '로그인', version: '3.0', platform: 'web', actions }))
  writeFileSync(join(dir, '.env'), 'API_KEY=do-not-serve\n')
  mkdirSync(join(dir, '.git'))
  writeFileSync(join(dir, '.git', 'config'), '[remote "origin"]\n')
  child = spawn(
    process.execPath,
    [bin, 'serve', '--host', '0.0.0.0', '--port', '0', '--token', TOKEN, '--dir', dir, '--report-dir', join(dir, 'r')],
    { env: { ...process.env, NO_COLOR: '1' } },
  )
  let stdout = ''
  port = await new Promise<number>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no URL printed: ${stdout}`)), 30_000)
    child.stdout?.on('data', (d) => {
      stdout += d
      const m = /Runner Inspector: http:\/\/0\.0\.0\.0:(\d+)\//.exec(stdout)
      if (m) {
        clearTimeout(t)
        resolve(Number(m[1]))
      }
    })
  })
}, 60_000)

afterAll(async () => {
  if (child.exitCode !== null) return
  await new Promise((done) => {
    child.on('close', done)
    child.kill('SIGINT')
  })
})

/** The status of a request sent byte for byte: `target` is the request line's target, unnormalised. */
function statusOf(method: string, target: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('latin1')
    socket.on('data', (d) => {
      answer += d
      const m = /^HTTP\/1\.1 (\d{3})/.exec(answer)
      if (m) {
        socket.destroy()
        resolve(Number(m[1]))
      }
    })
    socket.on('error', reject)
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`)
    const body = method === 'POST' ? '{}' : ''
    socket.write(
      `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra.join('')}` +
        `${body ? `content-type: application/json\r\ncontent-length: ${body.length}\r\n` : ''}Connection: close\r\n\r\n${body}`,
    )
  })
}

const auth = { authorization: `Bearer ${TOKEN}` }

describe('qa serve --host 0.0.0.0 --token: no way in without the token', () => {
  it('answers with the token, so the refusals below are the token check', async () => {
    expect(await statusOf('GET', '/api/suites', auth)).toBe(200)
  })

  it.each([
    ['GET', '/api/suites'],
    ['GET', '/%61pi/suites'],
    ['GET', '/%2561pi/suites'],
    ['POST', '/%61pi/runs'],
    ['DELETE', '/%61pi/runs/1'],
    ['GET', '/%61pi/events'],
    ['GET', '/api/state'],
    ['GET', 'http://x/api/state'],
    ['GET', 'http://127.0.0.1/api/suites'],
    ['GET', '/./api/suites'],
    ['GET', '/static/../api/suites'],
    ['GET', '//api/suites'],
    ['GET', '/API/suites'],
    ['GET', '/%66iles/cases/a.json'],
    ['GET', '/files/cases/a.json'],
    ['GET', '/files/cases/.env'],
  ])('%s %s without the token is refused', async (method, target) => {
    const status = await statusOf(method, target)
    expect(status, `${method} ${target}`).toBeGreaterThanOrEqual(400)
  })

  it('with the token, no dotfile of the served folder is given out', async () => {
    for (const target of [
      '/files/cases/.env',
      '/files/cases/.git/config',
      '/files/cases/%2eenv',
      '/files/cases/x/../.env',
    ])
      expect(await statusOf('GET', target, auth), target).toBeGreaterThanOrEqual(400)
  })

  it('property: encoded, dot-segment and absolute-form paths to every API route never get a 2xx without the token', async () => {
    const routes = ['/api/suites', '/api/state', '/api/runs', '/api/events', '/files/cases/a.json']
    const encode = (s: string, which: boolean[]) =>
      [...s]
        .map((c, i) => (which[i % which.length] && c !== '/' ? `%${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c))
        .join('')
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        fc.constantFrom('', 'http://x', 'http://127.0.0.1', 'HTTP://evil.example:80'),
        fc.constantFrom('', '/.', '/static/..', '/x/%2e%2e', '/'),
        async (route, which, origin, dots) => {
          const status = await statusOf('GET', `${origin}${dots}${encode(route, which)}`)
          expect(status < 200 || status >= 300).toBe(true)
        },
      ),
      { numRuns: 60 },
    )
  }, 120_000)
})
