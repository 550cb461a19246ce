import { lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { type AddressInfo, connect } from 'node:net'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { caseFolder, fakeReplayer, fakeWriter, tempDir } from '@qa/runner/testing'
import { createHttpApp } from './http-app'
import { createRunner, createSuiteCatalog, type JobRunner, memoryRunStore, type RunRecord } from '@qa/runner'

const apps: FastifyInstance[] = []
afterEach(async () => {
  while (apps.length) await apps.pop()?.close()
})

async function setup(opts: { token?: string; stepDelayMs?: number; failing?: string[] } = {}) {
  const dir = caseFolder(['로그인', '검색', '설정: 저장'])
  writeFileSync(join(dir, 'notes.json'), JSON.stringify({ not: 'a case' }))
  writeFileSync(join(dir, 'broken.json'), JSON.stringify({ name: 'broken', actions: [{ x: 'twelve' }] }))
  const reportDir = tempDir()
  mkdirSync(join(reportDir, 'runs'), { recursive: true })
  writeFileSync(join(reportDir, 'runs', 'keep.txt'), 'inside')
  const runner = createRunner({
    replayers: {
      web: fakeReplayer({
        ...(opts.stepDelayMs ? { stepDelayMs: opts.stepDelayMs } : {}),
        ...(opts.failing ? { failing: opts.failing } : {}),
      }),
    },
    reportDir,
    store: memoryRunStore(),
    writeReports: fakeWriter,
  })
  const app = await createHttpApp({
    catalog: createSuiteCatalog(dir, { excludeDirs: [reportDir] }),
    runner,
    reportDir,
    ...(opts.token ? { token: opts.token } : {}),
  })
  apps.push(app)
  return { app, runner, dir, reportDir }
}

const post = (app: FastifyInstance, payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/runs', payload: payload as object })

describe('REST API', () => {
  it('lists suites in path order and reports unreadable cases', async () => {
    const { app } = await setup()
    const res = await app.inject('/api/suites')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.suites.map((s: { index: number; name: string }) => [s.index, s.name])).toEqual([
      [0, '로그인'],
      [1, '검색'],
      [2, '설정: 저장'],
    ])
    expect(body.suites[0].steps).toEqual([
      { action: 'click', detail: 'Click step 0' },
      { action: 'click', detail: 'Click step 1' },
    ])
    expect(body.suites[0].path).toBeUndefined()
    expect(body.invalid).toHaveLength(1)
    expect(body.invalid[0].file).toBe('broken.json')
    expect(body.invalid[0].message).toMatch(/actions\[0\]/)
  })

  it('runs by name, index and all; results have the TestBotResults shape', async () => {
    const { app, runner } = await setup({ failing: ['검색'] })
    const byName = await post(app, { name: '설정: 저장' })
    expect(byName.statusCode).toBe(202)
    const run: RunRecord = byName.json().run
    expect(run.suites.map((s) => s.name)).toEqual(['설정: 저장'])
    await runner.waitFor(run.id)
    const byIndex = await post(app, { index: 1 })
    await runner.waitFor(byIndex.json().run.id)

    const results = (await app.inject('/api/results')).json()
    expect(Object.keys(results).sort()).toEqual(['isRunning', 'suites', 'summary'])
    expect(results.isRunning).toBe(false)
    expect(results.summary).toEqual({ total: 3, pass: 1, fail: 1 })
    expect(results.suites[0]).toEqual({ name: '로그인', status: 'planned', passed: false, steps: [] })
    expect(results.suites[1].steps[1]).toEqual({
      action: 'click',
      detail: 'Click step 1',
      passed: false,
      error: 'Element not found: button "저장"',
    })
    for (const s of results.suites) {
      expect(Object.keys(s).sort()).toEqual(['name', 'passed', 'status', 'steps'])
      for (const st of s.steps) expect(Object.keys(st).sort()).toEqual(['action', 'detail', 'error', 'passed'])
    }

    const all = await post(app, { all: true })
    const done = await runner.waitFor(all.json().run.id)
    const fetched = (await app.inject(`/api/runs/${done.id}`)).json().run
    expect(fetched.status).toBe('done')
    expect(fetched.suites).toHaveLength(3)
    expect(fetched.suites[0].reportUrls.html).toMatch(/^\/files\/reports\/runs\//)
    const html = await app.inject(fetched.suites[0].reportUrls.html)
    expect(html.statusCode).toBe(200)
    expect(html.headers['content-type']).toMatch(/text\/html/)
    const list = (await app.inject('/api/runs')).json().runs
    expect(list[0].id).toBe(done.id)
  })

  it.each([
    [{}, 400, /names nothing/],
    [{ all: false }, 400, /all: expected true/],
    [{ index: -1 }, 400, /index: expected an integer/],
    [{ index: '1' }, 400, /index: expected an integer/],
    [{ name: '' }, 400, /name: expected a non-empty string/],
    [{ name: 'x', index: 0 }, 400, /give exactly one/],
    [{ all: true, extra: 1 }, 400, /Unknown field/],
    [[1, 2], 400, /JSON object/],
    [{ index: 7 }, 404, /No suite has index 7/],
  ])('rejects %j with %i and a JSON error', async (body, status, message) => {
    const { app } = await setup()
    const res = await post(app, body)
    expect(res.statusCode).toBe(status)
    const json = res.json()
    expect(json.code).toMatch(/^SERVER_/)
    expect(json.message).toMatch(message)
  })

  it('answers an unknown name with 404 and the list of names (exact match only)', async () => {
    const { app } = await setup()
    const res = await post(app, { name: '로그' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'SERVER_SUITE_NOT_FOUND', names: ['로그인', '검색', '설정: 저장'] })
  })

  it('answers malformed JSON, wrong content types and unknown routes with JSON errors', async () => {
    const { app } = await setup()
    const bad = await app.inject({
      method: 'POST',
      url: '/api/runs',
      headers: { 'content-type': 'application/json' },
      payload: '{"all":',
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('SERVER_BAD_REQUEST')
    const text = await app.inject({
      method: 'POST',
      url: '/api/runs',
      headers: { 'content-type': 'text/plain' },
      payload: 'all',
    })
    expect(text.statusCode).toBe(400)
    const missing = await app.inject('/api/nope')
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ code: 'SERVER_NOT_FOUND' })
    const run = await app.inject('/api/runs/does-not-exist')
    expect(run.json()).toMatchObject({ code: 'SERVER_RUN_NOT_FOUND' })
  })

  it('serves the inspector page with the agent hooks', async () => {
    const { app } = await setup()
    const page = await app.inject('/')
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('data-testbot-run-all')
    const js = await app.inject('/inspector.js')
    expect(js.body).toContain('window.__TESTBOT__')
    expect(js.body).toContain('testbot-results-json')
    expect(page.headers['access-control-allow-origin']).toBeUndefined()
    // the suite list is in the page (window.__TESTBOT__ at load), as JSON a suite name cannot break out of
    const state = page.body.match(/<script id="qa-initial-state" type="application\/json">(.*?)<\/script>/s)?.[1]
    expect(JSON.parse(state ?? 'null').suites.map((s: { name: string }) => s.name)).toEqual([
      '로그인',
      '검색',
      '설정: 저장',
    ])
    // the Inspector is never framed by another site (clickjacking "Run all")
    expect(page.headers['content-security-policy']).toBe("frame-ancestors 'none'")
    expect(page.headers['x-frame-options']).toBe('DENY')
  })
})

describe('file routes', () => {
  it('serve reports and screenshots only, each sandboxed and nosniff; XML as text; other types never', async () => {
    const { app, dir, reportDir } = await setup()
    const script = '<a:script xmlns:a="http://www.w3.org/1999/xhtml">fetch("/api/suites")</a:script>'
    writeFileSync(join(dir, 'evil.xml'), `<?xml version="1.0"?><x>${script}</x>`)
    writeFileSync(join(dir, 'evil.svg'), `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
    writeFileSync(
      join(dir, 'evil.xhtml'),
      `<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>`,
    )
    writeFileSync(join(dir, 'evil.js'), 'alert(1)')
    writeFileSync(join(reportDir, 'report.html'), '<h1>report</h1><script>alert(1)</script>')
    writeFileSync(join(reportDir, 'junit.xml'), `<testsuites>${script}</testsuites>`)
    for (const url of ['/files/cases/evil.svg', '/files/cases/evil.xhtml', '/files/cases/evil.js']) {
      const res = await app.inject(url)
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 })
      expect(res.body).not.toContain('alert')
    }
    for (const url of ['/files/cases/evil.xml', '/files/reports/junit.xml']) {
      const res = await app.inject(url)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/)
    }
    const html = await app.inject('/files/reports/report.html')
    expect(html.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'; img-src data: 'self'/)
    expect(html.headers['content-security-policy']).not.toMatch(/script-src/)
    const json = await app.inject('/files/cases/case-00.json')
    expect(json.headers['content-security-policy']).toMatch(/^sandbox;/)
  })

  it('serve files under the case and report folders', async () => {
    const { app } = await setup()
    expect((await app.inject('/files/cases/case-00.json')).statusCode).toBe(200)
    expect((await app.inject('/files/reports/runs/keep.txt')).body).toBe('inside')
  })

  it('never serves dotfiles of the case folder (qa serve --dir . would expose .env, .git, .aws)', async () => {
    const { app, dir } = await setup()
    mkdirSync(join(dir, '.git'))
    mkdirSync(join(dir, '.aws'))
    writeFileSync(join(dir, '.env'), 'AWS_SECRET_ACCESS_KEY=leak')
    writeFileSync(join(dir, '.git', 'config'), '[remote] url=leak')
    writeFileSync(join(dir, '.aws', 'credentials'), 'leak')
    for (const url of [
      '/files/cases/.env',
      '/files/cases/.git/config',
      '/files/cases/.aws/credentials',
      '/files/cases/%2eenv',
    ]) {
      const res = await app.inject(url)
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 })
      expect(res.body).not.toContain('leak')
    }
  })

  it.each([
    '/files/reports/../../../../etc/passwd',
    '/files/reports/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/files/reports/..%2f..%2f..%2fetc%2fpasswd',
    '/files/reports/%2fetc%2fpasswd',
    '/files/reports/runs/..%5c..%5cetc%5cpasswd',
    '/files/reports/runs/keep.txt%00.png',
    '/files/cases/../notes.json',
    '/files/cases/',
    '/files/reports/runs',
    '/files/reports/link-out/passwd',
    '/files/other/etc/passwd',
  ])('traversal attempt %s → 404', async (url) => {
    const { app, reportDir } = await setup()
    symlinkSync('/etc', join(reportDir, 'link-out'))
    // The refusal below means something only if the link really points out of the report folder.
    expect(lstatSync(join(reportDir, 'link-out')).isSymbolicLink()).toBe(true)
    const res = await app.inject(url)
    expect(res.statusCode).toBe(404)
    expect(res.body).not.toContain('root:')
  })
})

describe('security', () => {
  it('requires the bearer token on /api and /files when one is set', async () => {
    const { app } = await setup({ token: 'a-very-long-secret-token' })
    const none = await app.inject('/api/suites')
    expect(none.statusCode).toBe(401)
    expect(none.json().code).toBe('SERVER_UNAUTHORIZED')
    const wrong = await app.inject({ url: '/api/suites', headers: { authorization: 'Bearer nope' } })
    expect(wrong.statusCode).toBe(401)
    const ok = await app.inject({ url: '/api/suites', headers: { authorization: 'Bearer a-very-long-secret-token' } })
    expect(ok.statusCode).toBe(200)
    expect((await app.inject('/api/results?token=a-very-long-secret-token')).statusCode).toBe(200)
    expect((await app.inject('/files/cases/case-00.json')).statusCode).toBe(401)
    expect((await app.inject('/')).statusCode).toBe(200)
  })

  it('refuses foreign Host headers without a token (DNS rebinding)', async () => {
    const { app } = await setup()
    const res = await app.inject({ url: '/api/suites', headers: { host: 'evil.example:7357' } })
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('SERVER_FORBIDDEN_HOST')
    expect((await app.inject({ url: '/api/suites', headers: { host: '127.0.0.1:7357' } })).statusCode).toBe(200)
  })

  it('parses the Host header strictly: a loopback name followed by more is foreign', async () => {
    const { app } = await setup()
    for (const host of [
      '127.0.0.1:7402.evil.com',
      '127.0.0.1:7402@evil.com',
      'localhost:80:81',
      '127.0.0.1 evil.com',
      '[::1]x',
    ])
      expect({ host, status: (await app.inject({ url: '/api/suites', headers: { host } })).statusCode }).toEqual({
        host,
        status: 403,
      })
    for (const host of ['127.0.0.1', 'localhost:7402', '[::1]:7402'])
      expect({ host, status: (await app.inject({ url: '/api/suites', headers: { host } })).statusCode }).toEqual({
        host,
        status: 200,
      })
  })

  it('refuses a request with two Host headers', async () => {
    const { app } = await setup()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    const ask = (headers: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`GET /api/suites HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`),
        )
        let data = ''
        socket.on('data', (d) => {
          data += d.toString()
        })
        socket.on('end', () => resolve(data.split('\r\n')[0] ?? ''))
        socket.on('error', reject)
      })
    expect(await ask(`Host: 127.0.0.1:${port}\r\n`)).toBe('HTTP/1.1 200 OK')
    expect(await ask(`Host: 127.0.0.1:${port}\r\nHost: evil.example\r\n`)).toMatch(/^HTTP\/1\.1 (400|403)/)
  })
})

describe('load', () => {
  it('answers 50 concurrent API requests while runs execute', async () => {
    const { app, runner } = await setup({ stepDelayMs: 30 })
    const run = (await post(app, { all: true })).json().run as RunRecord
    const urls = ['/api/suites', '/api/results', '/api/state', `/api/runs/${run.id}`, '/api/runs']
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 10 === 9 ? post(app, { index: i % 3 }) : app.inject(urls[i % urls.length] as string),
      ),
    )
    expect(responses.map((r) => r.statusCode).filter((c) => c !== 200 && c !== 202)).toEqual([])
    expect(runner.isRunning()).toBe(true)
    await waitIdle(runner)
  })
})

async function waitIdle(runner: JobRunner) {
  await Promise.all(runner.listRuns().map((r) => runner.waitFor(r.id)))
}
