import { describe, expect, it } from 'vitest'
import { caseFolder, tempDir } from '@qa/runner/testing'
import { assertBindAllowed, isLoopbackHost, startServer } from './start-server'

describe('bind safety', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])('%s is loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(true)
  })
  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.com', '128.0.0.1'])('%s is not loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(false)
  })
  it('refuses a non-loopback bind without a token, and a short token', () => {
    expect(() => assertBindAllowed('0.0.0.0', null)).toThrow(/refusing without a token/)
    expect(() => assertBindAllowed('0.0.0.0', 'short')).toThrow(/too short/)
    expect(() => assertBindAllowed('0.0.0.0', 'x'.repeat(16))).not.toThrow()
    expect(() => assertBindAllowed('127.0.0.1', null)).not.toThrow()
  })
  it('startServer refuses before binding anything', async () => {
    await expect(startServer({ host: '0.0.0.0', port: 0, dir: caseFolder(['a']) })).rejects.toMatchObject({
      code: 'SERVER_TOKEN_REQUIRED',
    })
  })
  it('startServer binds loopback on a free port and answers', async () => {
    const server = await startServer({ port: 0, dir: caseFolder(['a']), reportDir: tempDir(), replayers: {} })
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const res = await fetch(`${server.url}/api/suites`)
      expect(((await res.json()) as { suites: Array<{ name: string }> }).suites[0]?.name).toBe('a')
    } finally {
      await server.close()
    }
  })
  it('a loopback address other than 127.0.0.1 answers its own printed URL (no token needed on loopback)', async () => {
    const server = await startServer({
      host: '127.0.0.2',
      port: 0,
      dir: caseFolder(['a']),
      reportDir: tempDir(),
      replayers: {},
    })
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/)
      const res = await fetch(`${server.url}/api/suites`)
      expect(res.status).toBe(200)
      // A foreign Host header is still refused (DNS rebinding).
      const foreign = await server.app.inject({ url: '/api/suites', headers: { host: 'evil.example' } })
      expect(foreign.statusCode).toBe(403)
    } finally {
      await server.close()
    }
  })

  it('a missing case folder is a clear error', async () => {
    await expect(startServer({ port: 0, dir: '/nonexistent/cases' })).rejects.toMatchObject({
      code: 'SERVER_DIR_NOT_FOUND',
    })
  })
})
