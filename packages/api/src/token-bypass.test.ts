import { connect } from 'node:net'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caseFolder, fakeReplayer, fakeWriter, tempDir } from '@qa/runner/testing'
import { createHttpApp } from './http-app'
import { createRunner, createSuiteCatalog, memoryRunStore } from '@qa/runner'

const TOKEN = 'a-very-long-secret-token-0123456789'
let app: FastifyInstance
let port = 0

beforeAll(async () => {
  const dir = caseFolder(['로그인', '검색'])
  const reportDir = tempDir()
  const runner = createRunner({
    replayers: { web: fakeReplayer({}) },
    reportDir,
    store: memoryRunStore(),
    writeReports: fakeWriter,
  })
  app = await createHttpApp({
    catalog: createSuiteCatalog(dir, { excludeDirs: [reportDir] }),
    runner,
    reportDir,
    token: TOKEN,
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  port = typeof address === 'object' && address ? address.port : 0
})
afterAll(async () => {
  await app.close()
})

/** One HTTP/1.1 request over a raw socket, request target byte for byte as given (as `curl --path-as-is`). */
function rawRequest(method: string, target: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let data = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => {
      data += chunk
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data)
      if (m) {
        socket.destroy()
        resolve(Number(m[1]))
      }
    })
    socket.on('error', reject)
    const body = method === 'POST' ? '{}' : ''
    const lines = [
      `${method} ${target} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: close',
      ...(body ? ['Content-Type: application/json', `Content-Length: ${body.length}`] : []),
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      '',
      body,
    ]
    socket.write(lines.join('\r\n'))
  })
}

const PROTECTED = [
  ['GET', '/api/suites'],
  ['GET', '/api/state'],
  ['GET', '/api/results'],
  ['GET', '/api/runs'],
  ['POST', '/api/runs'],
  ['DELETE', '/api/runs/some-run'],
  ['GET', '/api/events'],
  ['GET', '/files/cases/case-00.json'],
  ['GET', '/files/reports/x.html'],
] as const

describe('the token cannot be walked around (real socket, request targets as sent)', () => {
  it('refuses the encoded and absolute-form targets of the security review', async () => {
    for (const [method, target] of [
      ['GET', '/%61pi/suites'],
      ['POST', '/%61pi/runs'],
      ['DELETE', '/%61pi/runs/x'],
      ['GET', '/%61pi/events'],
      ['GET', '/%66iles/cases/case-00.json'],
      ['GET', 'http://x/api/state'],
      ['GET', 'http://127.0.0.1/api/suites'],
      ['GET', '/%2e/api/suites'],
      ['GET', '/./api/suites'],
      ['GET', '//api/suites'],
      ['GET', '/api/../api/suites'],
      ['GET', '/%2fapi/suites'],
      ['GET', '/api%2fsuites'],
      ['GET', '/;/api/suites'],
    ] as const) {
      const status = await rawRequest(method, target)
      expect({ method, target, status }).toEqual({ method, target, status: expect.toSatisfy((s) => s >= 400) })
    }
    // Before the fix these answered 200/202: the check looked at the raw target, the router at the decoded one.
    expect(await rawRequest('GET', '/%61pi/suites')).toBe(401)
    expect(await rawRequest('GET', 'http://x/api/state')).toBe(401)
  })

  it('still serves the public Inspector page and answers a valid token', async () => {
    expect(await rawRequest('GET', '/')).toBe(200)
    expect(await rawRequest('GET', '/inspector.js')).toBe(200)
    expect(await rawRequest('GET', '/api/suites', { Authorization: `Bearer ${TOKEN}` })).toBe(200)
    expect(await rawRequest('GET', '/%61pi/suites', { Authorization: `Bearer ${TOKEN}` })).toBe(200)
  })

  it('Property: no percent-encoding or absolute form of a protected route answers without the token', async () => {
    const encodeSome = (path: string, mask: boolean[], upper: boolean) =>
      [...path]
        .map((ch, i) => {
          if (ch === '/' || !mask[i % mask.length]) return ch
          const hex = ch.charCodeAt(0).toString(16).padStart(2, '0')
          return `%${upper ? hex.toUpperCase() : hex}`
        })
        .join('')
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PROTECTED),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.constantFrom('', 'http://x', 'http://127.0.0.1', 'HTTP://evil.example:80'),
        async ([method, path], mask, upper, absolutePrefix) => {
          const status = await rawRequest(method, `${absolutePrefix}${encodeSome(path, mask, upper)}`)
          expect(status).toBeGreaterThanOrEqual(400)
        },
      ),
      { numRuns: 150 },
    )
  })
})
