import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { SampleAppError } from './errors'
import { type SampleApp, startSampleApp } from './start-sample-app'

const apps: SampleApp[] = []
async function start(opts: Parameters<typeof startSampleApp>[0] = {}): Promise<SampleApp> {
  const app = await startSampleApp(opts)
  apps.push(app)
  return app
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()))
})

function get(app: SampleApp, path: string, cookie?: string): Promise<Response> {
  return fetch(app.url + path, { redirect: 'manual', ...(cookie ? { headers: { cookie } } : {}) })
}
async function login(app: SampleApp, fields: Record<string, string> = { username: '관리자', password: 'pw' }) {
  const res = await fetch(`${app.url}/login`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })
  const cookie = (res.headers.getSetCookie().find((c) => c.startsWith('qa_session=')) ?? '').split(';')[0]!
  return { res, cookie }
}
const event = (truth: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'click',
    truth,
    page: '/login',
    variant: 'v1',
    frame: false,
    trusted: true,
    seq: 1,
    x: 5,
    y: 6,
    ...extra,
  })
const postEvent = (app: SampleApp, body: string) =>
  fetch(`${app.url}/__events`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })

describe('startSampleApp', () => {
  it('listens on a free loopback port by default', async () => {
    const a = await start()
    const b = await start()
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(a.port).toBeGreaterThan(0)
    expect(a.port).not.toBe(b.port)
    expect(await (await get(a, '/__health')).text()).toBe('ok')
  })

  it('reports a taken port and a bad port option with codes', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
    const port = (blocker.address() as { port: number }).port
    try {
      await expect(startSampleApp({ port })).rejects.toMatchObject({ code: 'SAMPLE_APP_LISTEN_FAILED' })
    } finally {
      blocker.close()
    }
    await expect(startSampleApp({ port: 70000 })).rejects.toMatchObject({ code: 'SAMPLE_APP_BAD_OPTION' })
    await expect(startSampleApp({ version: 'v3' as 'v1' })).rejects.toMatchObject({
      code: 'SAMPLE_APP_UNKNOWN_VERSION',
    })
  })

  it('serves the login page as UTF-8 HTML and 404s unknown paths in Korean', async () => {
    const app = await start()
    const res = await get(app, '/login')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await res.text()).toContain('<label for="username">아이디</label>')
    const missing = await get(app, '/does-not-exist')
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('페이지를 찾을 수 없습니다')
    expect((await fetch(`${app.url}/login`, { method: 'PUT' })).status).toBe(405)
  })

  it('redirects to /login without a session, logs in with any non-empty id/password, logs out', async () => {
    const app = await start()
    const anon = await get(app, '/settings')
    expect(anon.status).toBe(303)
    expect(anon.headers.get('location')).toBe('/login?next=%2Fsettings')
    expect((await get(app, '/')).headers.get('location')).toBe('/login')

    const empty = await login(app, { username: ' ', password: 'x' })
    expect(empty.res.status).toBe(200)
    expect(await empty.res.text()).toContain('아이디와 비밀번호를 입력하세요')
    expect(empty.cookie).toBe('')

    const { res, cookie } = await login(app, { username: '관리자', password: 'pw', next: '/settings' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/settings')
    const list = await get(app, '/list', cookie)
    expect(list.status).toBe(200)
    const html = await list.text()
    expect(html).toContain('관리자 님')
    expect(html).toContain('전설의 검')
    expect(html).toContain('Phoenix Feather')

    const out = await get(app, '/logout', cookie)
    expect(out.headers.get('location')).toBe('/login')
    expect((await get(app, '/list', cookie)).status).toBe(303)
  })

  it('never redirects off-site after login', async () => {
    const app = await start()
    const { res } = await login(app, { username: 'a', password: 'b', next: '//evil.example/x' })
    expect(res.headers.get('location')).toBe('/list')
  })

  it('serves pages without login when requireLogin is false', async () => {
    const app = await start({ requireLogin: false })
    for (const path of ['/list', '/settings', '/widgets', '/frame', '/frame-inner']) {
      expect((await get(app, path)).status, path).toBe(200)
    }
    expect((await get(app, '/')).headers.get('location')).toBe('/list')
  })

  it('switches versions and mutations at run time', async () => {
    const app = await start()
    expect(await (await get(app, '/login')).text()).toContain('id="login-btn"')
    app.setVersion('v2')
    expect(app.variant().version).toBe('v2')
    const v2 = await (await get(app, '/login')).text()
    expect(v2).toContain('id="signin-button"')
    expect(v2).toContain('로그인하기')
    app.setMutations(['removal'])
    expect(app.variant()).toEqual({ version: undefined, mutations: ['removal'] })
    const removed = await (await get(app, '/login')).text()
    expect(removed).not.toContain('data-t="login.submit"')
    expect(removed).toContain('간편 로그인')
    app.setVersion('v1')
    expect(await (await get(app, '/login')).text()).toContain('id="login-btn"')
    expect(() => app.setMutations(['nope' as 'removal'])).toThrowError(SampleAppError)
  })

  it('selects a variant per request with ?v= / ?m= and pins it in a cookie', async () => {
    const app = await start()
    const res = await get(app, '/login?v=2')
    expect(await res.text()).toContain('id="signin-button"')
    const pin = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('qa_variant='))!
      .split(';')[0]!
    expect(await (await get(app, '/login', pin)).text()).toContain('id="signin-button"')
    const cleared = await get(app, '/login?v=default', pin)
    expect(await cleared.text()).toContain('id="login-btn"')
    expect(cleared.headers.getSetCookie().some((c) => c.startsWith('qa_variant=;'))).toBe(true)

    const combo = await (await get(app, '/login?m=renamed-ids,decoy-siblings')).text()
    expect(combo).toContain('id="signin-button" class="btn btn-primary"')
    expect(combo).toContain('간편 로그인')
    expect(combo).toContain('var VARIANT = "renamed-ids,decoy-siblings"')

    const bad = await get(app, '/login?m=renamed-ids,bogus')
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('Unknown mutation &quot;bogus&quot;')
  })

  it('passes the variant query on to the iframe', async () => {
    const app = await start({ requireLogin: false })
    expect(await (await get(app, '/frame?m=renamed-ids&seed=3')).text()).toContain(
      'src="/frame-inner?m=renamed-ids&amp;seed=3"',
    )
    expect(await (await get(app, '/frame')).text()).toContain('src="/frame-inner"')
  })

  it('keeps css-<hash> classes stable by default and changes them per request when asked', async () => {
    const hashes = async (app: SampleApp) => (await (await get(app, '/widgets')).text()).match(/css-[0-9a-z]{6}/g)
    const stable = await start({ requireLogin: false })
    const seed0 = await hashes(stable)
    expect(seed0?.length).toBeGreaterThan(0)
    expect(await hashes(stable)).toEqual(seed0)
    const moving = await start({ requireLogin: false, classSeed: 'per-request' })
    expect(await hashes(moving)).not.toEqual(await hashes(moving))
    stable.setClassSeed(5)
    const seed5 = await hashes(stable)
    expect(seed5).not.toEqual(seed0)
    expect(await hashes(stable)).toEqual(seed5)
    expect(() => stable.setClassSeed(1.5)).toThrowError(/classSeed/)
  })

  it('saves settings per session and renders them', async () => {
    const app = await start()
    const save = (cookie: string | undefined, body: unknown) =>
      fetch(`${app.url}/settings`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      })
    expect((await save(undefined, { language: 'en', notifications: false, theme: 'dark' })).status).toBe(401)
    const { cookie } = await login(app)
    expect((await save(cookie, { language: 'fr', notifications: false, theme: 'dark' })).status).toBe(400)
    expect((await save(cookie, { language: 'en', notifications: false, theme: 'dark' })).status).toBe(200)
    const html = await (await get(app, '/settings', cookie)).text()
    expect(html).toContain('<body class="theme-dark">')
    expect(html).toContain('<option value="en" selected>English</option>')
    expect(html).toMatch(/id="theme-dark" name="theme" value="dark" checked/)
    expect(html).not.toMatch(/id="notifications" name="notifications" checked/)
  })

  it('records ground-truth events over HTTP and exposes them', async () => {
    const app = await start()
    expect((await postEvent(app, event('login.submit'))).status).toBe(204)
    expect((await postEvent(app, 'not json')).status).toBe(400)
    expect((await postEvent(app, JSON.stringify({ type: 'hover' }))).status).toBe(400)
    expect(app.events()).toEqual([
      {
        index: 0,
        type: 'click',
        truth: 'login.submit',
        page: '/login',
        variant: 'v1',
        frame: false,
        trusted: true,
        seq: 1,
        x: 5,
        y: 6,
      },
    ])
    const listed = (await (await get(app, '/__events')).json()) as unknown[]
    expect(listed).toHaveLength(1)
    expect((await fetch(`${app.url}/__events`, { method: 'DELETE' })).status).toBe(204)
    expect(app.events()).toEqual([])
    await postEvent(app, event('list.create'))
    expect(app.events()[0]).toMatchObject({ index: 1, truth: 'list.create' })
    app.clearEvents()
    expect(app.events()).toEqual([])
  })

  it('waits for a future event and times out with a code naming what arrived', async () => {
    const app = await start()
    const waiting = app.waitForEvent((e) => e.truth === 'settings.save', { timeoutMs: 2000 })
    await postEvent(app, event('settings.draft'))
    await postEvent(app, event('settings.save'))
    expect(await waiting).toMatchObject({ truth: 'settings.save', index: 1 })
    await expect(app.waitForEvent((e) => e.truth === 'never', { timeoutMs: 50 })).rejects.toMatchObject({
      code: 'SAMPLE_APP_EVENT_TIMEOUT',
      hint: expect.stringContaining('click:settings.draft'),
    })
  })

  it('drops the oldest events beyond maxEvents', async () => {
    const app = await start({ maxEvents: 2 })
    for (const t of ['a', 'b', 'c']) await postEvent(app, event(t))
    expect(app.events().map((e) => e.truth)).toEqual(['b', 'c'])
  })
})
