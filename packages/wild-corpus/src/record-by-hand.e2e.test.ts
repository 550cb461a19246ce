import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { decodeFrame } from '@qa/recorder-cdp'
import { type SampleApp, startSampleApp } from '@qa/sample-app'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  centre,
  coloursIn,
  dir,
  hand,
  probe,
  qa,
  readCase,
  sleep,
  startRecording,
  until,
  useHandSession,
  VIEWPORT,
} from './__tests__/by-hand-session'

useHandSession()

describe('qa record web by hand on the sample app (real X input)', () => {
  let app: SampleApp
  let caseFile: string
  let pw: { x: number; y: number; box: { x: number; y: number; width: number; height: number } }
  const item = 'list.item.3'

  beforeAll(async () => {
    app = await startSampleApp({ port: 0, version: 'v1' })
  })
  afterAll(async () => {
    await app?.close()
  })

  it('records login (Hangul id, a password, Enter) and a click on an item, until Ctrl-C', async () => {
    const page = await probe.newPage({ viewport: VIEWPORT })
    await page.goto(`${app.url}/login`)
    const user = await centre(page.getByRole('textbox', { name: '아이디' }))
    pw = await centre(page.getByRole('textbox', { name: '비밀번호' }))
    const submit = await centre(page.getByRole('button', { name: '로그인', exact: true }))
    await page.getByRole('textbox', { name: '아이디' }).fill('probe')
    await page.getByRole('textbox', { name: '비밀번호' }).fill('probe')
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/list/)
    const card = await centre(page.getByRole('button', { name: /^치유 물약/ }))
    await page.close()
    app.clearEvents()

    caseFile = join(dir, 'shop.json')
    const rec = await startRecording(`${app.url}/login`, caseFile)
    await hand.clickAt(user)
    await hand.typeText('관리자 qa')
    await hand.clickAt(pw)
    await hand.typeText('S3cret-pw!')
    await hand.pressKey('Return')
    await hand.clickAt(card)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)

    // the page saw each input where it was meant to go (the recorder cannot fake these)
    const events = app.events().filter((e) => e.trusted)
    const clicks = events.filter((e) => e.type === 'click').map((e) => e.truth)
    // Enter in the form submits it: the browser clicks the submit button itself (implicit submission)
    expect(clicks).toEqual(['login.username', 'login.password', 'login.submit', item])
    const typed = events.filter((e) => e.type === 'input' && e.truth === 'login.username').at(-1)
    expect(typed?.value).toBe('관리자 qa')

    // the live list named every step as it came, and the case has them all
    const saved = await readCase(caseFile)
    expect(saved.actions.map((a) => a.action_type)).toEqual(['click', 'type', 'click', 'type', 'key_press', 'click'])
    expect(rec.stdout()).toMatch(/ {2}1\. Click textbox "아이디"/)
    expect(rec.stdout()).toMatch(/ {2}6\. Click button .*\[role button/)
    expect(rec.stdout()).toMatch(/Stopped: recording was interrupted from the terminal/)
    expect(saved.actions[1]?.text).toBe('관리자 qa')
    expect(saved.actions[4]?.key).toBe('Enter')
    // the secret stays a secret: a variable name, never the text, and painted over in every screenshot
    expect(saved.json).not.toContain('S3cret')
    expect(saved.actions[3]).toMatchObject({ text: '********', secret_env: 'QA_SECRET_PASSWORD' })
    const shots = saved.actions
      .slice(0, 5)
      .flatMap((a) => [a.screenshot_before_path, a.screenshot_path])
      .filter((p): p is string => !!p)
    expect(shots.length).toBeGreaterThanOrEqual(4)
    // The before-screenshots are frames from before each pointer-down: the login form, its password field masked.
    // An after-screenshot is taken once the recorder gets to it; under load that can be after Enter took the
    // page to the list: then the form is gone from it. Where the form is on a screenshot, its field is masked.
    const formAt = { x: submit.box.x + 6, y: submit.box.y + 6 }
    const pixel = async (png: string, at: { x: number; y: number }) => {
      const f = await decodeFrame(png)
      const i = (Math.round(at.y) * f.width + Math.round(at.x)) * 4
      return ((f.data[i] as number) << 16) | ((f.data[i + 1] as number) << 8) | (f.data[i + 2] as number)
    }
    const befores = saved.actions
      .slice(0, 5)
      .flatMap((a) => (a.screenshot_before_path ? [a.screenshot_before_path] : []))
    expect(befores.length).toBeGreaterThanOrEqual(2)
    const loginButton = await pixel(join(dir, befores[0] as string), formAt)
    for (const shot of befores) expect(await coloursIn(join(dir, shot), pw.box), shot).toEqual([0x7f7f7f])
    for (const shot of shots) {
      if (await coloursIn(join(dir, shot), pw.box).then((c) => c.length === 1 && c[0] === 0x7f7f7f)) continue
      expect(
        await pixel(join(dir, shot), formAt),
        `${shot}: the login form is shown, its password field not masked`,
      ).not.toBe(loginButton)
    }
    // the toolbar (dark, bottom right) is in no screenshot
    const last = saved.actions.at(-1)?.screenshot_path as string
    const corner = await coloursIn(join(dir, last), { x: 1080, y: 660, width: 200, height: 60 })
    expect(corner.filter((c) => c === 0x202124)).toEqual([])
  })

  it('replays green on the unchanged app, and heals on the redesigned v2', async () => {
    for (const version of ['v1', 'v2'] as const) {
      app.setVersion(version)
      app.clearEvents()
      const r = await qa(['replay', caseFile, '--url', `${app.url}/login`, '--json', '--report-dir', 'reports'], {
        QA_SECRET_PASSWORD: 'S3cret-pw!',
      })
      expect(r.code, `${version}: ${r.stderr}`).toBe(0)
      const events = app.events().filter((e) => e.trusted)
      expect(
        events.filter((e) => e.type === 'click').map((e) => e.truth),
        version,
      ).toEqual(['login.username', 'login.password', 'login.submit', item])
      const pwInput = events.filter((e) => e.type === 'input' && e.truth === 'login.password').at(-1)
      expect(pwInput?.value, version).toBe('*'.repeat('S3cret-pw!'.length))
    }
  })
})

describe('what the person saw, before the page reacted (real X input)', () => {
  // a button that gives its place to another on mousedown, as swagger-ui's "Try it out" turns into "Cancel": red
  // "Delete draft" before the pointer goes down, blue "Undo" from then on
  const PAGE = `<!doctype html><html><head><title>Drafts</title><style>
    body { margin: 0; font: 20px sans-serif; background: #fff }
    button { position: absolute; left: 200px; top: 200px; width: 240px; height: 80px; border: 0; color: #fff;
      font: 24px sans-serif }
    #delete { background: #d01010 } #undo { background: #1030d0 }
  </style></head><body><h1 style="margin:20px">Drafts</h1>
  <button id="delete" type="button">Delete draft</button>
  <script>
    window.seen = []
    const del = document.getElementById('delete')
    del.addEventListener('mousedown', () => {
      window.seen.push('delete')
      const undo = document.createElement('button')
      undo.id = 'undo'
      undo.type = 'button'
      undo.textContent = 'Undo'
      undo.addEventListener('click', () => window.seen.push('undo'))
      del.replaceWith(undo)
    })
  </script></body></html>`
  let server: Server
  let url: string
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(PAGE)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })
  afterAll(async () => {
    await new Promise((r) => server?.close(r))
  })

  it('a button that hides itself on mousedown: the before-screenshot shows it, and the identity is that button', async () => {
    const file = join(dir, 'self-hiding.json')
    const rec = await startRecording(url, file)
    const button = { x: 200, y: 200, width: 240, height: 80 }
    await hand.clickAt({ x: button.x + button.width / 2, y: button.y + button.height / 2 })
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    const saved = await readCase(file)
    expect(saved.actions.map((a) => a.action_type)).toEqual(['click'])
    const click = saved.actions[0]!
    expect(click.identity).toMatchObject({ tag_name: 'button', ax_role: 'button', ax_name: 'Delete draft' })
    expect(rec.stdout()).toMatch(/ {2}1\. Click button "Delete draft"/)
    // the pixels are the red "Delete draft" (white text on it), never the blue "Undo" that replaced it
    const before = await coloursIn(join(dir, click.screenshot_before_path!), button)
    const after = await coloursIn(join(dir, click.screenshot_path!), button)
    expect(before).toContain(0xd01010)
    expect(before).not.toContain(0x1030d0)
    expect(after).toContain(0x1030d0)
    // the recorder's toolbar (bottom right, with its shadow) is no more in the frame than in a screenshot: the
    // frame shows it, so its place is painted over and listed as unknown (never pixels of another moment)
    const corner = { x: 1040, y: 640, width: 240, height: 80 }
    const cornerColours = await coloursIn(join(dir, click.screenshot_before_path!), corner)
    expect(cornerColours.filter((c) => c !== 0xffffff && c !== 0x7f7f7f)).toEqual([])
    const unknown = (JSON.parse(saved.json).actions[0] as { unknown_regions?: { before?: { x: number }[] } })
      .unknown_regions?.before
    if (cornerColours.includes(0x7f7f7f)) expect(unknown?.length).toBeGreaterThan(0)
    // the crop of the element is the red button too
    const crop = join(dir, (JSON.parse(saved.json).actions[0] as { element_crop_path: string }).element_crop_path)
    const { width, height } = await decodeFrame(crop)
    expect(await coloursIn(crop, { x: 0, y: 0, width, height })).toContain(0xd01010)
    // and the replay presses "Delete draft" again
    const r = await qa(['replay', file, '--url', url, '--json', '--report-dir', 'reports-self-hiding'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
  })
})

describe('new tabs and JavaScript dialogs, recorded by hand and replayed (real X input)', () => {
  // one button or link per page, each at a known place; every page reports what it saw to the server
  const pos = 'position:absolute;left:200px;top:200px;width:260px;height:70px;font:22px sans-serif'
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body style="margin:0">${body}<script>
      const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
    </script></body></html>`
  const PAGES: Record<string, string> = {
    '/': page(
      'Drafts',
      `<a id="open" href="/report" target="_blank" style="${pos};display:block;background:#eee">Open report</a>
       <button id="del" style="${pos};top:320px" onclick="log(confirm('Delete all drafts?') ? 'deleted' : 'kept')">Delete all</button>`,
    ),
    '/report': page('Report', `<button style="${pos}" onclick="window.open('/details')">Open details</button>`),
    '/a': page(
      'A',
      `<a href="/b" style="${pos};display:block;background:#eee">Next</a>
       <button style="${pos};top:320px" onclick="log('check-a')">Check</button>`,
    ),
    '/b': page('B', `<button style="${pos}" onclick="log('done-b')">Done</button>`),
    '/details': page('Details', `<button style="${pos}" onclick="log('approved:' + event.isTrusted)">Approve</button>`),
    '/prompt': page(
      'Name',
      `<button style="${pos}" onclick="const n = prompt('Your name?', ''); log(n === null ? 'no-name' : 'name:' + n)">Sign</button>`,
    ),
  }
  let server: Server
  let url: string
  let seen: string[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x')
      if (u.pathname === '/log') {
        seen.push(u.searchParams.get('e') ?? '')
        res.end('ok')
        return
      }
      res.writeHead(PAGES[u.pathname] ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
      res.end(PAGES[u.pathname] ?? 'not found')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((r) => server?.close(r))
  })
  const at = (top: number) => ({ x: 330, y: top + 35 })

  it('a link with target=_blank, then window.open: the recording goes on in each new tab, and so does the replay', async () => {
    const file = join(dir, 'popups.json')
    seen = []
    const rec = await startRecording(`${url}/`, file)
    await hand.clickAt(at(200))
    await sleep(1500)
    await hand.clickAt(at(200))
    await sleep(1500)
    await hand.clickAt(at(200))
    await sleep(500)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(seen).toEqual(['approved:true'])
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: { action_type: string; opens_page?: boolean; identity?: { ax_name?: string } }[]
    }
    expect(saved.actions.map((a) => [a.action_type, a.identity?.ax_name, a.opens_page ?? false])).toEqual([
      ['click', 'Open report', true],
      ['click', 'Open details', true],
      ['click', 'Approve', false],
    ])
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/`, '--json', '--report-dir', 'reports-popups'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen).toEqual(['approved:true'])
  })

  it('back with Alt+Left: recorded as going back to the page, and replayed', async () => {
    const file = join(dir, 'back.json')
    seen = []
    const rec = await startRecording(`${url}/a`, file)
    /** Whether the browser window's title (the page's) is `name`: which page the person sees. */
    const showing = async (name: string) =>
      (await hand.xdo('search', '--onlyvisible', '--name', `^${name}( - |$)`).catch(() => '')) !== ''
    await hand.clickAt(at(200))
    // the person goes back once page B is on the screen, and clicks Check once page A is back: not after pauses
    await until('page B on the screen', () => showing('B'))
    await hand.pressKey('alt+Left')
    await until('page A on the screen again', () => showing('A'))
    await hand.clickAt(at(320))
    await until('the Check click on page A', () => seen.includes('check-a'))
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(seen).toEqual(['check-a'])
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: { action_type: string; url?: string; description: string }[]
    }
    expect(saved.actions.map((a) => [a.action_type, a.url ?? null])).toEqual([
      ['click', null],
      ['navigate', `${url}/a`],
      ['click', null],
    ])
    expect(saved.actions[1]?.description).toBe(`Go back to ${url}/a`)
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/a`, '--json', '--report-dir', 'reports-back'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await until('the replayed Check click to reach the server', () => seen.length > 0)
    expect(seen).toEqual(['check-a'])
  })

  it('a confirm answered Cancel, then OK: each answer is recorded and given again on replay', async () => {
    const file = join(dir, 'confirm.json')
    seen = []
    const rec = await startRecording(`${url}/`, file)
    await hand.clickAt(at(320))
    await hand.pressKey('Escape')
    await hand.clickAt(at(320))
    await hand.pressKey('Return')
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    // the person saw the dialog and answered it (Playwright dismisses dialogs nobody listens for: both "kept")
    expect(seen).toEqual(['kept', 'deleted'])
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: { action_type: string; dialog?: { type: string; message?: string; accept: boolean } }[]
    }
    expect(saved.actions.map((a) => [a.action_type, a.dialog])).toEqual([
      ['click', { type: 'confirm', message: 'Delete all drafts?', accept: false }],
      ['click', { type: 'confirm', message: 'Delete all drafts?', accept: true }],
    ])
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/`, '--json', '--report-dir', 'reports-confirm'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen).toEqual(['kept', 'deleted'])
  })

  it('a prompt answered with text: the text is recorded and typed into the prompt again on replay', async () => {
    const file = join(dir, 'prompt.json')
    seen = []
    const rec = await startRecording(`${url}/prompt`, file)
    await hand.clickAt(at(200))
    await sleep(500)
    await hand.typeText('Kim')
    await hand.pressKey('Return')
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(seen).toEqual(['name:Kim'])
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: { action_type: string; dialog?: { type: string; accept: boolean; prompt_text?: string } }[]
    }
    expect(saved.actions.map((a) => [a.action_type, a.dialog])).toEqual([
      ['click', { type: 'prompt', message: 'Your name?', accept: true, prompt_text: 'Kim' }],
    ])
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/prompt`, '--json', '--report-dir', 'reports-prompt'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen).toEqual(['name:Kim'])
  })
})

/** The pointer travels to a point in a few moves and rests there (no click): what a person does to open a menu. */
