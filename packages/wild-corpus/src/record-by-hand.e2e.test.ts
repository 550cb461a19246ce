/**
 * Recording by hand: `qa record web <url>` in a visible Chromium on a virtual display of its own, driven
 * by real X input (xdotool: mouse moves, quick clicks with no hold, typing, Enter, Ctrl-C to the command's process
 * group as a terminal sends it), on the sample app and on two pages of the wild corpus. Every click is judged by
 * the page's own listeners (the sample app's truth events, the corpus truth log), never by what the recorder says;
 * the saved case must replay on the unchanged page and heal on a changed one. Then every way out (the toolbar's
 * Stop, Ctrl-C, closing the window, killing the browser) must leave a valid case with the steps so far.
 */
import { type ChildProcess, execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { decodeFrame, openBrowser } from '@qa/recorder-cdp'
import { startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { type SampleApp, startSampleApp } from '@qa/sample-app'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createHandInput,
  type HandInput,
  type HandRecording,
  probeToolbarLayout,
  startOwnChromium,
  startRecordingByHand,
} from './__tests__/hand-input'
import { askTruth, type MutationOp } from './page-script'
import { runCli } from './run-cli'
import { type CorpusServer, startCorpusServer } from './start-corpus-server'

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../../apps/cli/bin/qa.js')
const VIEWPORT = { width: 1280, height: 720 }
const CHROMIUM = process.env.QA_CHROMIUM ?? '/usr/bin/chromium'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/**
 * Waits for something the test needs to have happened (a request served, a step saved): polls, and fails naming
 * it only when it never happens. An event wait, not a time limit: a slow machine only makes it wait longer.
 */
async function until(what: string, happened: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await happened()) return
    await sleep(100)
  }
  throw new Error(`waited a minute for ${what}`)
}
const run = promisify(execFile)

let xvfb: VirtualDisplay
let dir: string
let probe: Browser
/**
 * Real X input on `xvfb` (quick clicks, a 700 ms pause after each; Hangul pasted); its origin, where the page's
 * viewport (0, 0) is on the screen, is measured once with a window the recorder's code opens.
 */
let hand: HandInput
const started: ChildProcess[] = []
const savedDisplay = process.env.DISPLAY

const centre = async (l: Locator) => {
  const b = await l.boundingBox()
  if (!b) throw new Error('a target is not visible in the probe page')
  return { x: b.x + b.width / 2, y: b.y + b.height / 2, box: b }
}

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1400, height: 1000 })
  process.env.DISPLAY = xvfb.display
  dir = await mkdtemp(join(tmpdir(), 'qa-by-hand-'))
  probe = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
  hand = createHandInput({ display: xvfb.display })
  // Calibrate: a headed window as openBrowser opens it (the command's window is the same), clicked by X.
  const w = await openBrowser({ headless: false, executablePath: CHROMIUM, handleSignals: false })
  try {
    await hand.measureOrigin(w.page)
  } finally {
    await w.close()
  }
})

afterAll(async () => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, 'SIGKILL')
  await probe?.close()
  await xvfb?.stop()
  if (savedDisplay === undefined) delete process.env.DISPLAY
  else process.env.DISPLAY = savedDisplay
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** Starts `qa record web <url> --out <file>` (no --script: by hand) and waits until the window is recording. */
async function startRecording(url: string, out: string, extra: string[] = []): Promise<HandRecording> {
  const rec = await startRecordingByHand(CLI, ['web', url, '--out', out, ...extra], {
    cwd: dir,
    display: xvfb.display,
    started,
  })
  expect(rec.stderr(), rec.stdout()).toMatch(/Recording in the browser window/)
  await sleep(500)
  return rec
}

interface SavedCase {
  json: string
  actions: {
    action_type: string
    text?: string
    key?: string
    secret_env?: string
    description: string
    screenshot_before_path?: string
    screenshot_path?: string
    identity?: { tag_name?: string; ax_role?: string; ax_name?: string }
  }[]
}
const readCase = async (file: string): Promise<SavedCase> => {
  const json = await readFile(file, 'utf8')
  return { json, actions: JSON.parse(json).actions }
}
const qa = (args: string[], env: Record<string, string> = {}) => {
  const old = { ...process.env }
  Object.assign(process.env, env)
  const p = runCli(CLI, args, dir)
  process.env = old
  return p
}

/** The distinct RGB colours inside a box of a PNG (inset by 3 px from its border). */
async function coloursIn(png: string, box: { x: number; y: number; width: number; height: number }) {
  const f = await decodeFrame(png)
  const colours = new Set<number>()
  for (let y = Math.ceil(box.y) + 3; y < Math.floor(box.y + box.height) - 3; y++)
    for (let x = Math.ceil(box.x) + 3; x < Math.floor(box.x + box.width) - 3; x++) {
      const i = (y * f.width + x) * 4
      colours.add(((f.data[i] as number) << 16) | ((f.data[i + 1] as number) << 8) | (f.data[i + 2] as number))
    }
  return [...colours]
}

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
async function restAt(p: { x: number; y: number }, restMs = 700): Promise<void> {
  await hand.moveTo(p, { steps: [0.25, 0.5, 0.75, 1], stepMs: 40 })
  await sleep(restMs)
}

describe('hover menus, double and right clicks, drag and drop: recorded by hand and replayed (real X input)', () => {
  const PAGES: Record<string, string> = {
    // a CSS :hover dropdown and a menu a mouseenter listener opens; the items are hidden until the pointer rests
    // on their menu
    '/menu': `<!doctype html><html><head><title>Shop</title><style>
      body { margin: 0; font: 20px sans-serif }
      nav { display: flex; gap: 40px; padding: 0 40px; background: #eee; height: 60px }
      .menu { position: relative; width: 200px; height: 60px; line-height: 60px }
      .menu ul { position: absolute; top: 60px; left: 0; margin: 0; padding: 0; list-style: none; width: 200px;
        background: #fff; border: 1px solid #999 }
      .menu li a, .menu li button { display: block; width: 100%; height: 50px; line-height: 50px; font: inherit;
        border: 0; background: none; text-align: left; padding: 0 10px; box-sizing: border-box }
      #products ul { display: none }
      #products:hover ul { display: block }
      #buy { position: absolute; left: 40px; top: 220px; width: 200px; height: 60px; font: inherit }
    </style></head><body>
      <nav>
        <div class="menu" id="products"><a href="#" onclick="return false">Products</a>
          <ul><li><a href="#" onclick="log('laptops:' + event.isTrusted); return false">Laptops</a></li>
              <li><a href="#" onclick="log('phones:' + event.isTrusted); return false">Phones</a></li></ul></div>
        <div class="menu" id="account"><span>Account</span>
          <ul hidden><li><button type="button" onclick="log('profile:' + event.isTrusted)">Profile</button></li>
              <li><button type="button" onclick="log('signout:' + event.isTrusted)">Sign out</button></li></ul></div>
      </nav>
      <button id="buy" type="button" onclick="log('buy:' + event.isTrusted)">Buy now</button>
      <script>
        const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
        const account = document.getElementById('account')
        account.addEventListener('mouseenter', () => { account.querySelector('ul').hidden = false })
        account.addEventListener('mouseleave', () => { account.querySelector('ul').hidden = true })
      </script></body></html>`,
    // what a cart shows (its count from the URL, so that a variant can make an assertion false)
    '/cart': `<!doctype html><html><head><title>Cart</title><style>
      body { margin: 0; font: 20px sans-serif }
      #count { position: absolute; left: 100px; top: 100px; width: 300px; height: 60px; margin: 0; font-size: 32px }
      #coupon { position: absolute; left: 100px; top: 220px; width: 300px; height: 50px; font: inherit }
      #checkout { position: absolute; left: 100px; top: 320px; width: 300px; height: 60px; font: inherit }
    </style></head><body>
      <h2 id="count" onclick="log('count-clicked')">3 items in your cart</h2>
      <input id="coupon" aria-label="Coupon" value="SPRING-25" onpointerdown="log('coupon-pressed')">
      <button id="checkout" type="button" onclick="log('checkout:' + event.isTrusted)">Checkout</button>
      <script>
        const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
        const n = new URLSearchParams(location.search).get('n')
        if (n) document.getElementById('count').textContent = n + ' items in your cart'
        // every key the page hears (typing into the recorder's toolbar must never reach it)
        addEventListener('keydown', (e) => log('key:' + e.key))
      </script></body></html>`,
    // a box that answers double clicks, one with its own context menu, and a card dragged into a column
    '/gestures': `<!doctype html><html><head><title>Board</title><style>
      body { margin: 0; font: 20px sans-serif }
      .box { position: absolute; width: 220px; height: 80px; line-height: 80px; text-align: center;
        background: #dde; user-select: none }
      .column { position: absolute; top: 300px; width: 260px; height: 300px; border: 2px dashed #999 }
      #card { position: absolute; left: 60px; top: 360px; width: 180px; height: 60px; line-height: 60px;
        background: #fc6; text-align: center; user-select: none; touch-action: none; z-index: 2 }
    </style></head><body>
      <div class="box" id="rename" role="button" aria-label="Rename" style="left:60px;top:60px">Rename</div>
      <div class="box" id="options" role="button" aria-label="Options" style="left:360px;top:60px">Options</div>
      <div class="column" id="todo" role="region" aria-label="To do" style="left:40px"></div>
      <div class="column" id="done" role="region" aria-label="Done" style="left:500px"></div>
      <div id="card" role="listitem" aria-label="Write report">Write report</div>
      <script>
        const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
        document.getElementById('rename').addEventListener('dblclick', (e) => log('dblclick:' + e.isTrusted))
        document.getElementById('rename').addEventListener('click', () => log('click'))
        document.getElementById('options').addEventListener('contextmenu', (e) => {
          e.preventDefault()
          log('contextmenu:' + e.isTrusted)
        })
        // a variant with the two columns swapped: a drop by coordinates would land in "To do"
        if (location.search.includes('swap')) {
          document.getElementById('todo').style.left = '500px'
          document.getElementById('done').style.left = '40px'
          document.getElementById('card').style.left = '520px'
        }
        // a drag made of pointer events, as sortable lists and boards do it
        const card = document.getElementById('card')
        let grab = null
        card.addEventListener('pointerdown', (e) => {
          grab = { dx: e.clientX - card.offsetLeft, dy: e.clientY - card.offsetTop }
          card.setPointerCapture(e.pointerId)
        })
        card.addEventListener('pointermove', (e) => {
          if (!grab) return
          card.style.left = e.clientX - grab.dx + 'px'
          card.style.top = e.clientY - grab.dy + 'px'
        })
        card.addEventListener('pointerup', (e) => {
          if (!grab) return
          grab = null
          card.style.visibility = 'hidden'
          const under = document.elementFromPoint(e.clientX, e.clientY)
          card.style.visibility = ''
          const column = under && under.closest('.column')
          log('dropped:' + (column ? column.id : 'nowhere') + ':' + e.isTrusted)
        })
      </script></body></html>`,
    // HTML5 drag and drop (draggable=true: dragstart, dragover, drop, dragend) and a paragraph to select text in
    '/dnd': `<!doctype html><html><head><title>Fruit</title><style>
      body { margin: 0; font: 20px sans-serif }
      .fruit { position: absolute; left: 60px; width: 160px; height: 50px; line-height: 50px; text-align: center;
        background: #cfc; cursor: grab }
      .zone { position: absolute; top: 60px; width: 240px; height: 200px; border: 2px dashed #999 }
      #story { position: absolute; left: 60px; top: 400px; width: 700px; margin: 0; line-height: 30px }
    </style></head><body>
      <div class="fruit" id="apple" draggable="true" style="top:60px">Apple</div>
      <div class="fruit" id="pear" draggable="true" style="top:140px">Pear</div>
      <div class="zone" id="basket" role="region" aria-label="Basket" style="left:320px"></div>
      <div class="zone" id="bin" role="region" aria-label="Bin" style="left:620px"></div>
      <p id="story">The quick brown fox jumps over the lazy dog while the recorder watches every move it makes.</p>
      <script>
        const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
        // a variant with the two zones swapped: a drop by coordinates would land in the bin
        if (location.search.includes('swap')) {
          document.getElementById('basket').style.left = '620px'
          document.getElementById('bin').style.left = '320px'
        }
        for (const fruit of document.querySelectorAll('.fruit'))
          fruit.addEventListener('dragstart', (e) => {
            e.dataTransfer.setData('text/plain', fruit.id)
            e.dataTransfer.effectAllowed = 'move'
            log('dragstart:' + fruit.id + ':' + e.isTrusted)
          })
        for (const zone of document.querySelectorAll('.zone')) {
          zone.addEventListener('dragover', (e) => e.preventDefault())
          zone.addEventListener('drop', (e) => {
            e.preventDefault()
            log('drop:' + e.dataTransfer.getData('text/plain') + ':' + zone.id + ':' + e.isTrusted)
          })
        }
        document.getElementById('story').addEventListener('click', () =>
          log('story-click:' + getSelection().toString().trim()),
        )
      </script></body></html>`,
    // the hover menus inside an iframe of the same origin; `other` (set per request) puts them in a frame of
    // another site too (localhost against 127.0.0.1: an out-of-process frame)
    '/framed': `<!doctype html><html><head><title>Framed shop</title><style>
      body { margin: 0 } iframe { position: absolute; top: 100px; width: 600px; height: 400px; border: 0 }
    </style></head><body><iframe id="same" src="/menu" style="left:0"></iframe><script>
      if (location.search.includes('other')) {
        const other = document.createElement('iframe')
        other.id = 'other'
        other.src = 'http://localhost:' + location.port + '/menu'
        other.style.left = '640px'
        document.body.append(other)
      }
    </script></body></html>`,
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

  interface GestureCase {
    actions: {
      action_type: string
      description: string
      identity?: { ax_name?: string; text_content?: string; id?: string }
      drop_identity?: { ax_name?: string }
      end_x?: number
      end_y?: number
    }[]
  }

  it('a CSS :hover dropdown and a mouseenter menu: the hover that showed each item is a step, and replays before its click', async () => {
    const file = join(dir, 'hover-menus.json')
    seen = []
    const rec = await startRecording(`${url}/menu`, file)
    // a click on a button that was visible all along: no hover step
    await hand.clickAt({ x: 140, y: 250 })
    // Products (40..240 × 0..60) → its dropdown opens below it → Phones (second item, 60+50..60+100)
    await restAt({ x: 120, y: 30 })
    await restAt({ x: 120, y: 135 }, 300)
    await hand.clickAt({ x: 120, y: 135 })
    await restAt({ x: 400, y: 300 }, 300)
    // Account (280..480) → its listener shows the list → Sign out
    await restAt({ x: 360, y: 30 })
    await restAt({ x: 360, y: 135 }, 300)
    await hand.clickAt({ x: 360, y: 135 })
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(seen).toEqual(['buy:true', 'phones:true', 'signout:true'])
    const saved = JSON.parse(await readFile(file, 'utf8')) as GestureCase
    // the hover is on the menu the pointer entered first on its way: its label, or its box (the way the pointer
    // came decides which, and hovering either opens the menu)
    const menu = (a: GestureCase['actions'][number]) =>
      a.action_type === 'hover' && a.identity?.id
        ? `#${a.identity.id}`
        : (a.identity?.ax_name ?? a.identity?.text_content)
    expect(saved.actions.map((a) => [a.action_type, menu(a)])).toEqual([
      ['click', 'Buy now'],
      ['hover', expect.stringMatching(/^(Products|#products)$/)],
      ['click', 'Phones'],
      ['hover', expect.stringMatching(/^(Account|#account)$/)],
      ['click', 'Sign out'],
    ])
    expect(rec.stdout()).toMatch(/ {2}2\. Hover over /)
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/menu`, '--json', '--report-dir', 'reports-hover'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen).toEqual(['buy:true', 'phones:true', 'signout:true'])
    // without its hover step the item cannot be clicked: the replay says so instead of clicking something else
    const noHover = { ...JSON.parse(await readFile(file, 'utf8')) }
    noHover.actions = noHover.actions.filter((a: { action_type: string }) => a.action_type !== 'hover')
    const bare = join(dir, 'hover-menus-no-hover.json')
    await writeFile(bare, JSON.stringify(noHover))
    seen = []
    const failed = await qa(['replay', bare, '--url', `${url}/menu`, '--json', '--report-dir', 'reports-no-hover'])
    expect(failed.code, failed.stdout + failed.stderr).toBe(1)
    await sleep(300)
    expect(seen).toEqual(['buy:true'])
  })

  /**
   * A hover menu in an iframe recorded by hand (Products → an item, then Account → an item; `origin`: where the
   * frame's (0, 0) is in the page, `itemY`: how far down in the frame the item is), replayed: each hover is a step
   * in that frame (`framePath`) before its click.
   */
  const hoverMenuInFrame = async (opts: {
    name: string
    path: string
    origin: { x: number; y: number }
    itemY: number
    items: [string, string]
    /** What the page logs for the two clicks. */
    logged: [string, string]
    framePath: string[]
  }) => {
    const file = join(dir, `${opts.name}.json`)
    seen = []
    const rec = await startRecording(`${url}${opts.path}`, file)
    const { x, y } = opts.origin
    await restAt({ x: x + 120, y: y + 30 })
    await restAt({ x: x + 120, y: y + opts.itemY }, 300)
    await hand.clickAt({ x: x + 120, y: y + opts.itemY })
    await restAt({ x: x + 360, y: y + 400 }, 300)
    await restAt({ x: x + 360, y: y + 30 })
    await restAt({ x: x + 360, y: y + opts.itemY }, 300)
    await hand.clickAt({ x: x + 360, y: y + opts.itemY })
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(seen).toEqual(opts.logged)
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: (GestureCase['actions'][number] & { identity?: { frame_path?: string[] } })[]
    }
    const menu = (a: GestureCase['actions'][number]) =>
      a.action_type === 'hover' && a.identity?.id
        ? `#${a.identity.id}`
        : (a.identity?.ax_name ?? a.identity?.text_content)
    expect(saved.actions.map((a) => [a.action_type, menu(a), a.identity?.frame_path])).toEqual([
      ['hover', expect.stringMatching(/^(Products|#products)$/), opts.framePath],
      ['click', opts.items[0], opts.framePath],
      ['hover', expect.stringMatching(/^(Account|#account)$/), opts.framePath],
      ['click', opts.items[1], opts.framePath],
    ])
    seen = []
    const r = await qa([
      'replay',
      file,
      '--url',
      `${url}${opts.path}`,
      '--json',
      '--report-dir',
      `reports-${opts.name}`,
    ])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen).toEqual(opts.logged)
  }

  it('a hover menu inside a same-origin iframe: the hover is a step in that frame, and replays before its click', async () => {
    // the frame's (0, 0) is the page's (0, 100): Products → Phones, then Account → Sign out
    await hoverMenuInFrame({
      name: 'framed-menu',
      path: '/framed',
      origin: { x: 0, y: 100 },
      itemY: 135,
      items: ['Phones', 'Sign out'],
      logged: ['phones:true', 'signout:true'],
      framePath: ['#same'],
    })
  })

  it('a hover menu inside a cross-origin (out-of-process) iframe: the hover is a step in that frame, and replays', async () => {
    // the other site's frame: its (0, 0) is the page's (640, 100); Products → Laptops, then Account → Profile
    await hoverMenuInFrame({
      name: 'framed-other-menu',
      path: '/framed?other',
      origin: { x: 640, y: 100 },
      itemY: 85,
      items: ['Laptops', 'Profile'],
      logged: ['laptops:true', 'profile:true'],
      framePath: ['#other'],
    })
  })

  it('assertions picked with the toolbar: text and value edited in its field (typed), Escape cancels, visible; replayed', async () => {
    // where the toolbar's buttons are: the same toolbar, in a probe page of the same size (its shadow root opened),
    // first as it starts, then with its editor open (a text pick: Assert text, a click on the page, the editor)
    const probePage = await probe.newPage({ viewport: VIEWPORT })
    const { buttons, editor } = await probeToolbarLayout(probePage, '3 items in your cart')
    expect(Object.keys(buttons)).toEqual(['Assert visible', 'Assert text', 'Assert value', 'Stop'])
    await probePage.close()
    expect(Object.keys(editor)).toEqual(['equals', 'contains', 'Add', 'Cancel', 'Stop'])

    const file = join(dir, 'cart-asserts.json')
    seen = []
    const rec = await startRecording(`${url}/cart`, file)
    // assert text: the field shows "3 items in your cart", selected; the person types over it, picks "contains"
    // and adds it with Enter
    await hand.clickAt(buttons['Assert text']!)
    await hand.clickAt({ x: 250, y: 130 })
    await sleep(1000)
    await hand.typeText('3 items')
    await hand.clickAt(editor.contains!)
    await hand.pressKey('Return')
    // assert value: the coupon's value as it is, added with the Add button
    await hand.clickAt(buttons['Assert value']!)
    await hand.clickAt({ x: 250, y: 245 })
    await sleep(1000)
    await hand.clickAt(editor.Add!)
    // a text pick cancelled with Escape in its editor, then an assert mode cancelled with Escape: nothing recorded
    await hand.clickAt(buttons['Assert text']!)
    await hand.clickAt({ x: 250, y: 350 })
    await sleep(1000)
    await hand.typeText('never')
    await hand.pressKey('Escape')
    await hand.clickAt(buttons['Assert value']!)
    await hand.pressKey('Escape')
    await hand.clickAt(buttons['Assert visible']!)
    await hand.clickAt({ x: 250, y: 350 })
    // and a real click on the button, which the page sees
    await hand.clickAt({ x: 250, y: 350 })
    await hand.clickAt(buttons.Stop!)
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(rec.stdout()).toMatch(/Stopped: the Stop button of the recorder toolbar was clicked/)
    // the page saw only the last click: the picks, the typing into the toolbar and both Escapes never reached it
    expect(seen).toEqual(['checkout:true'])
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: {
        action_type: string
        assertion?: { kind: string; op?: string; expected?: string }
        identity?: { ax_name?: string }
        screenshot_path?: string
      }[]
    }
    expect(saved.actions.map((a) => [a.action_type, a.assertion ?? null, a.identity?.ax_name])).toEqual([
      ['assert', { kind: 'text', op: 'contains', expected: '3 items' }, '3 items in your cart'],
      ['assert', { kind: 'value', expected: 'SPRING-25' }, 'Coupon'],
      ['assert', { kind: 'visible' }, 'Checkout'],
      ['click', null, 'Checkout'],
    ])
    expect(rec.stdout()).toMatch(/ {2}1\. Assert .*contains "3 items"/)
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/cart`, '--json', '--report-dir', 'reports-cart'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen).toEqual(['checkout:true'])
    // on a cart that shows 4 items the text assertion fails, with what was expected and what was there
    const changed = await qa(['replay', file, '--url', `${url}/cart?n=4`, '--json', '--report-dir', 'reports-cart-4'])
    expect(changed.code, changed.stdout + changed.stderr).toBe(1)
    const report = JSON.parse(changed.stdout) as {
      verification_results: { final_result: string; reason: string }[]
    }
    expect(report.verification_results[0]?.final_result).toBe('fail')
    expect(report.verification_results[0]?.reason).toMatch(/expected .*3 items.*actual .*4 items/)
  })

  it('a double click, a right click and a drag of a card into another column: one step each, replayed', async () => {
    const file = join(dir, 'gestures.json')
    seen = []
    const rec = await startRecording(`${url}/gestures`, file)
    await restAt({ x: 170, y: 100 }, 200)
    await hand.xdo('click', '--repeat', '2', '--delay', '90', '1')
    await sleep(800)
    await restAt({ x: 470, y: 100 }, 200)
    await hand.xdo('click', '3')
    await sleep(800)
    // the card's centre (150, 390) into the "Done" column (500..760 × 300..600)
    await restAt({ x: 150, y: 390 }, 200)
    await hand.xdo('mousedown', '1')
    await sleep(150)
    for (const f of [0.1, 0.3, 0.5, 0.7, 0.9, 1]) {
      await hand.xdo(
        'mousemove',
        '--sync',
        String(Math.round(hand.origin.x + 150 + 480 * f)),
        String(Math.round(hand.origin.y + 390 + 60 * f)),
      )
      await sleep(60)
    }
    await hand.xdo('mouseup', '1')
    await sleep(1000)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    // (sorted: the page's reports are requests, which may arrive out of order)
    expect([...seen].sort()).toEqual(['click', 'click', 'contextmenu:true', 'dblclick:true', 'dropped:done:true'])
    const saved = JSON.parse(await readFile(file, 'utf8')) as GestureCase
    expect(saved.actions.map((a) => [a.action_type, a.identity?.ax_name])).toEqual([
      ['double_click', 'Rename'],
      ['right_click', 'Options'],
      ['drag', 'Write report'],
    ])
    const drag = saved.actions[2]!
    expect(drag.drop_identity?.ax_name).toBe('Done')
    expect(drag.description).toMatch(/^Drag .*"Write report" to region "Done"$/)
    expect(Math.abs((drag.end_x ?? 0) - 630)).toBeLessThan(4)
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/gestures`, '--json', '--report-dir', 'reports-gestures'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    // (sorted: the page's reports are requests, which may arrive out of order)
    expect([...seen].sort()).toEqual(['click', 'click', 'contextmenu:true', 'dblclick:true', 'dropped:done:true'])
    // the columns swapped places (and the card moved with its column): the card still goes to "Done"
    seen = []
    const swapped = await qa([
      'replay',
      file,
      '--url',
      `${url}/gestures?swap`,
      '--json',
      '--report-dir',
      'reports-swap',
    ])
    expect(swapped.code, swapped.stdout + swapped.stderr).toBe(0)
    await sleep(300)
    expect(seen.filter((e) => e.startsWith('dropped'))).toEqual(['dropped:done:true'])
  })

  it('an HTML5 drag and drop (draggable, drop listeners) is a drag step; a text selection by mouse is not', async () => {
    const file = join(dir, 'dnd.json')
    seen = []
    const rec = await startRecording(`${url}/dnd`, file)
    // select "quick brown fox" with the mouse: press on the text, move across it, release on the text
    await restAt({ x: 110, y: 415 }, 200)
    await hand.xdo('mousedown', '1')
    await sleep(150)
    for (const f of [0.25, 0.5, 0.75, 1])
      await hand.xdo(
        'mousemove',
        '--sync',
        String(Math.round(hand.origin.x + 110 + 150 * f)),
        String(Math.round(hand.origin.y + 415)),
      )
    await sleep(100)
    await hand.xdo('mouseup', '1')
    await sleep(1000)
    // drag the pear (60..220 × 140..190) into the basket (320..560 × 60..260) with the browser's own drag and drop
    await restAt({ x: 140, y: 165 }, 200)
    await hand.xdo('mousedown', '1')
    await sleep(150)
    for (const f of [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 0.95, 1]) {
      await hand.xdo(
        'mousemove',
        '--sync',
        String(Math.round(hand.origin.x + 140 + 300 * f)),
        String(Math.round(hand.origin.y + 165 - 5 * f)),
      )
      await sleep(80)
    }
    await sleep(200)
    await hand.xdo('mouseup', '1')
    await sleep(1200)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    // the page's own listeners: text was selected (the click after it saw the selection), the pear was dropped in
    // the basket by a real drag
    // (the selection's ends depend on the font: some letters of "quick brown fox")
    expect([...seen].sort()).toEqual([
      'dragstart:pear:true',
      'drop:pear:basket:true',
      expect.stringMatching(/^story-click:\S* brown \S+$/),
    ])
    const saved = JSON.parse(await readFile(file, 'utf8')) as GestureCase
    expect(saved.actions.map((a) => a.action_type)).toEqual(['click', 'drag'])
    const drag = saved.actions[1]!
    expect(drag.identity?.id).toBe('pear')
    expect(drag.drop_identity?.ax_name).toBe('Basket')
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/dnd`, '--json', '--report-dir', 'reports-dnd'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen.filter((e) => !e.startsWith('story-click'))).toEqual(['dragstart:pear:true', 'drop:pear:basket:true'])
    // the zones swapped places: the pear still goes into the basket
    seen = []
    const swapped = await qa(['replay', file, '--url', `${url}/dnd?swap`, '--json', '--report-dir', 'reports-dnd-swap'])
    expect(swapped.code, swapped.stdout + swapped.stderr).toBe(0)
    await sleep(300)
    expect(seen.filter((e) => e.startsWith('drop'))).toEqual(['drop:pear:basket:true'])
  })
})

/**
 * Where the recorder toolbar's buttons are in a viewport of `VIEWPORT`'s size: the same toolbar in a probe page (its
 * shadow root opened), as it starts and with its editor open (Assert text, a click on the page, the editor).
 */
async function toolbarLayout(): Promise<{
  buttons: Record<string, { x: number; y: number }>
  editor: Record<string, { x: number; y: number }>
}> {
  const probePage = await probe.newPage({ viewport: VIEWPORT })
  try {
    const { buttons, editor } = await probeToolbarLayout(probePage, '3 items')
    expect(Object.keys(buttons)).toEqual(['Assert visible', 'Assert text', 'Assert value', 'Stop'])
    expect(Object.keys(editor)).toEqual(['equals', 'contains', 'Add', 'Cancel', 'Stop'])
    return { buttons, editor }
  } finally {
    await probePage.close()
  }
}

describe('nested cross-origin frames, recorded by hand (real X input) and replayed', () => {
  // The top page on one site (127.0.0.1), a frame from another (localhost) inside it, and inside that a frame from
  // a third (127.0.0.2): each site in its own renderer process. The innermost frame's page logs what it hears to
  // its own server; that log, not the recorder, says what happened.
  const OUTER = { x: 40, y: 60 }
  const INNER = { x: 60, y: 80 }
  /** A point of the innermost frame in the top page's viewport. */
  const inner = (x: number, y: number) => ({ x: OUTER.x + INNER.x + x, y: OUTER.y + INNER.y + y })
  const TOTAL = inner(150, 40)
  const NOTE = inner(140, 108)
  const SEND = inner(80, 170)
  let sites: Server[] = []
  let topUrl: string
  let seen: string[] = []
  beforeAll(async () => {
    const ports: number[] = []
    const page = (path: string, query: URLSearchParams) => {
      const n = encodeURIComponent(query.get('n') ?? '')
      if (path === '/top')
        return `<!doctype html><html><head><meta charset="utf-8"><title>Top</title></head><body style="margin:0">
          <iframe id="outer" src="http://localhost:${ports[0]}/outer?n=${n}" style="position:absolute;left:${OUTER.x}px;top:${OUTER.y}px;width:700px;height:500px;border:0"></iframe></body></html>`
      if (path === '/outer')
        return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#eef;font:16px sans-serif">
          <p style="margin:8px">Shop frame</p>
          <iframe id="inner" src="http://127.0.0.2:${ports[1]}/inner?n=${n}" style="position:absolute;left:${INNER.x}px;top:${INNER.y}px;width:560px;height:360px;border:0"></iframe></body></html>`
      if (path === '/inner')
        return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#efe;font:20px sans-serif">
          <h2 id="total" style="position:absolute;left:20px;top:20px;width:260px;height:40px;margin:0">3 items</h2>
          <input id="note" aria-label="Note" style="position:absolute;left:20px;top:90px;width:240px;height:36px;font:inherit">
          <button id="send" type="button" style="position:absolute;left:20px;top:150px;width:120px;height:40px;font:inherit">Send</button>
          <script>
            const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
            const n = new URLSearchParams(location.search).get('n')
            if (n) document.getElementById('total').textContent = n + ' items'
            const note = document.getElementById('note')
            addEventListener('pointerdown', (e) => log('down:' + (e.target.id || e.target.localName)))
            document.getElementById('send').addEventListener('click', (e) => log('send:' + note.value + ':' + e.isTrusted))
          </script></body></html>`
      return null
    }
    for (const host of ['127.0.0.1', '127.0.0.2']) {
      const server = createServer((req, res) => {
        const u = new URL(req.url ?? '/', 'http://x')
        if (u.pathname === '/log') {
          seen.push(u.searchParams.get('e') ?? '')
          res.end('ok')
          return
        }
        const html = page(u.pathname, u.searchParams)
        res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found')
      })
      await new Promise<void>((r) => server.listen(0, host, r))
      sites.push(server)
      ports.push((server.address() as AddressInfo).port)
    }
    // localhost is served by the 127.0.0.1 server: another site to the browser, on the same port
    topUrl = `http://127.0.0.1:${ports[0]}/top`
  })
  afterAll(async () => {
    await Promise.all(sites.map((server) => new Promise((r) => server.close(r))))
    sites = []
  })

  it('clicks, typing (Hangul) and assertions in the innermost frame; Ctrl-C with the editor open keeps that assertion as edited; replayed', async () => {
    const { buttons, editor } = await toolbarLayout()
    // each frame is out of process (its own CDP target): the top page's scripts reach neither
    const look = await probe.newPage({ viewport: VIEWPORT })
    await look.goto(topUrl)
    await expect.poll(() => look.frames().length).toBe(3)
    const browserSession = await probe.newBrowserCDPSession()
    const { targetInfos } = await browserSession.send('Target.getTargets')
    await browserSession.detach()
    await look.close()
    expect(
      targetInfos
        .filter((t) => t.type === 'iframe')
        .map((t) => new URL(t.url).host.replace(/:\d+$/, ''))
        .sort(),
    ).toEqual(['127.0.0.2', 'localhost'])
    const file = join(dir, 'nested-frames.json')
    seen = []
    const rec = await startRecording(topUrl, file)
    await sleep(1000)
    await hand.clickAt(NOTE)
    await hand.typeText('주문 42')
    await hand.clickAt(SEND)
    // assert text of the heading in the innermost frame: the editor opens with "3 items", added with Enter
    await hand.clickAt(buttons['Assert text']!)
    await hand.clickAt(TOTAL)
    await sleep(1000)
    await hand.pressKey('Return')
    // assert value of the field: the editor opens with "주문 42"; the person types "42" over it and picks
    // "contains", and presses Ctrl-C in the terminal before adding it
    await hand.clickAt(buttons['Assert value']!)
    await hand.clickAt(NOTE)
    await sleep(1000)
    await hand.typeText('42')
    await hand.clickAt(editor.contains!)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    // the innermost page heard the two clicks on it, and nothing of the two picks
    expect(seen, rec.stdout() + rec.stderr()).toEqual(['down:note', 'down:send', 'send:주문 42:true'])
    const out = rec.stdout()
    expect(out).toMatch(/Stopped: recording was interrupted from the terminal/)
    // the open edit is not lost silently: the live list shows it with its warning, and the summary says it again
    expect(out).toMatch(
      / {2}5\. Assert value of [^\n]*contains "42"[^\n]*\n\s+warning: not confirmed: recording stopped while its editor was open/,
    )
    expect(out).toMatch(/Step 5 was recorded with a warning: not confirmed/)
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: {
        action_type: string
        text?: string
        warning?: string
        assertion?: { kind: string; op?: string; expected?: string }
        identity?: { tag_name?: string; frame_path?: string[] }
      }[]
    }
    const path = ['#outer', '#inner']
    expect(
      saved.actions.map((a) => [
        a.action_type,
        a.text ?? a.assertion ?? null,
        a.identity?.tag_name ?? null,
        a.identity?.frame_path ?? null,
      ]),
    ).toEqual([
      ['click', null, 'input', path],
      ['type', '주문 42', 'input', path],
      ['click', null, 'button', path],
      ['assert', { kind: 'text', expected: '3 items' }, 'h2', path],
      ['assert', { kind: 'value', op: 'contains', expected: '42' }, 'input', path],
    ])
    expect(saved.actions[4]?.warning).toMatch(/not confirmed/)
    expect(saved.actions.slice(0, 4).map((a) => a.warning ?? null)).toEqual([null, null, null, null])
    // replayed into the innermost frame: the same two clicks and the typing reach it, both assertions hold
    seen = []
    const r = await qa(['replay', file, '--url', topUrl, '--json', '--report-dir', 'reports-nested'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen.filter((e) => e.startsWith('send:'))).toEqual(['send:주문 42:true'])
    // where the innermost frame shows 4 items, the text assertion fails there with expected and actual
    // (in --json, in the JUnit file and in the HTML report)
    const junit = join(dir, 'nested-4.xml')
    const changed = await qa([
      'replay',
      file,
      '--url',
      `${topUrl}?n=4`,
      '--json',
      '--report-dir',
      'reports-nested-4',
      '--junit',
      junit,
    ])
    expect(changed.code, changed.stdout + changed.stderr).toBe(1)
    const report = JSON.parse(changed.stdout) as { verification_results: { final_result: string; reason: string }[] }
    expect(report.verification_results.map((v) => v.final_result)).toEqual(['pass', 'pass', 'pass', 'fail', 'pass'])
    expect(report.verification_results[3]?.reason).toMatch(/expected .*3 items.*actual .*4 items/)
    expect(await readFile(junit, 'utf8')).toMatch(
      /<failure [^>]*expected text equals &quot;3 items&quot;[\s\S]*actual: &quot;4 items&quot;/,
    )
    const htmlFile = (await readdir(join(dir, 'reports-nested-4'))).find((f) => f.endsWith('.html'))
    const html = await readFile(join(dir, 'reports-nested-4', htmlFile ?? 'missing.html'), 'utf8')
    expect(html).toContain('<dd class="assertion-expected">text equals &quot;3 items&quot;</dd>')
    expect(html).toContain('<dd class="assertion-actual">&quot;4 items&quot;</dd>')
  })
})

describe('every way out of a recording by hand saves the steps so far (sample app)', () => {
  let app: SampleApp
  beforeAll(async () => {
    app = await startSampleApp({ port: 0, version: 'v1' })
  })
  afterAll(async () => {
    await app?.close()
  })

  /** The browser Playwright launched for the command: its child process named chromium. */
  const browserPidOf = async (cli: ChildProcess) => {
    const { stdout } = await run('ps', ['-o', 'pid=,comm=', '--ppid', String(cli.pid)])
    const line = stdout.split('\n').find((l) => /chrom/.test(l))
    return line ? Number(line.trim().split(/\s+/)[0]) : undefined
  }

  const ways: [string, RegExp, (rec: HandRecording) => Promise<void>][] = [
    [
      'the Stop button of the recorder toolbar',
      /Stopped: the Stop button of the recorder toolbar was clicked/,
      // bottom right of the viewport (right: 8px, bottom: 8px); the button is the toolbar's right end
      () => hand.clickAt({ x: VIEWPORT.width - 8 - 6 - 22, y: VIEWPORT.height - 8 - 4 - 10 }),
    ],
    ['Ctrl-C in the terminal', /Stopped: recording was interrupted from the terminal/, async (rec) => rec.interrupt()],
    [
      'closing the window',
      /Stopped: the browser window was closed/,
      () => hand.xdo('key', 'ctrl+w').then(() => undefined),
    ],
    [
      'killing the browser',
      /Stopped: the browser closed or crashed/,
      async (rec) => {
        const pid = await browserPidOf(rec.child)
        expect(pid).toBeGreaterThan(0)
        process.kill(pid as number, 'SIGKILL')
      },
    ],
  ]

  it.each(ways)('%s: exit 0, a valid case with the click and the typing', async (name, said, stop) => {
    const page = await probe.newPage({ viewport: VIEWPORT })
    await page.goto(`${app.url}/login`)
    const user = await centre(page.getByRole('textbox', { name: '아이디' }))
    await page.close()
    app.clearEvents()
    const file = join(dir, `stop-${name.replace(/\W+/g, '-')}.json`)
    const rec = await startRecording(`${app.url}/login`, file)
    await hand.clickAt(user)
    await hand.typeText('kim')
    await stop(rec)
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(rec.stdout()).toMatch(said)
    const validate = await qa(['validate', file])
    expect(validate.code, validate.stdout + validate.stderr).toBe(0)
    const saved = await readCase(file)
    expect(saved.actions.map((a) => [a.action_type, a.text ?? null])).toEqual([
      ['click', null],
      ['type', 'kim'],
    ])
    // the page saw one click (the toolbar's own click never reached it, nor the case)
    expect(
      app
        .events()
        .filter((e) => e.type === 'click' && e.trusted)
        .map((e) => e.truth),
    ).toEqual(['login.username'])
    // no screenshot file is half-written or left as a temporary file
    const assets = await readdir(file.replace(/\.json$/, ''))
    expect(assets.filter((f) => !/^step-\d{3}-(before|after|element)\.png$/.test(f))).toEqual([])
  })
})

describe('qa record web by hand on wild corpus pages (real X input)', () => {
  let corpus: CorpusServer
  beforeAll(async () => {
    corpus = await startCorpusServer()
  })
  afterAll(async () => {
    await corpus?.close()
  })

  /** `atOnce`: the typing follows the click with no pause (a person who does not wait for the page). */
  type Target = { find: (page: Page) => Locator; type?: string; atOnce?: boolean }
  interface Recorded {
    caseFile: string
    truths: string[]
  }

  /**
   * Finds each target in a probe copy of the page and acts on it there (later targets may appear only after a
   * click), then does the same by hand, with X input, in the window of `qa record web`.
   */
  async function recordByHand(pageId: string, name: string, targets: Target[]): Promise<Recorded> {
    const page = await probe.newPage({ viewport: VIEWPORT })
    await page.goto(corpus.pageUrl(pageId), { waitUntil: 'load' })
    const plan: { at: { x: number; y: number }; type?: string; atOnce?: boolean }[] = []
    const truths: string[] = []
    for (const t of targets) {
      const el = t.find(page)
      const at = await centre(el)
      truths.push(await el.evaluate(askTruth))
      plan.push({ at, ...(t.type ? { type: t.type } : {}), ...(t.atOnce ? { atOnce: true } : {}) })
      await page.mouse.click(at.x, at.y)
      if (t.type) await page.keyboard.type(t.type)
      await page.waitForTimeout(300)
    }
    await page.close()
    const rec = await corpus.variant({ ops: [], name: `hand-${name}` })
    const caseFile = join(dir, `${name}.json`)
    const recording = await startRecording(rec.pageUrl(pageId), caseFile)
    for (const step of plan) {
      await hand.clickAt(step.at, step.atOnce ? 0 : 700)
      if (step.type) await hand.typeText(step.type)
    }
    recording.interrupt()
    expect(await recording.exited, recording.stderr()).toBe(0)
    // the person's clicks reached the intended elements (the corpus page's own listeners say so)
    const downs = rec.truth.events().filter((e) => e.kind === 'pointerdown')
    expect(downs.length).toBe(truths.length)
    truths.forEach((t, k) => {
      expect(downs[k]?.chain).toContain(t)
    })
    await rec.close()
    return { caseFile, truths }
  }

  async function replay(rec: Recorded, pageId: string, ops: MutationOp[]) {
    const v = await corpus.variant({ ops })
    const res = await qa(['replay', rec.caseFile, '--url', v.pageUrl(pageId), '--json', '--report-dir', 'reports'])
    await sleep(300)
    const events = v.truth.events()
    await v.close()
    // what failed, for the assertion message: each step's outcome as the report says it
    const steps = (() => {
      try {
        const report = JSON.parse(res.stdout) as {
          replay_results: { success: boolean; method: string; error_message?: string }[]
        }
        return report.replay_results
          .map((x, k) => `${k + 1}: ${x.success ? 'ok' : 'FAIL'} ${x.method} ${x.error_message ?? ''}`)
          .join('\n')
      } catch {
        return res.stdout.slice(0, 2000)
      }
    })()
    return {
      code: res.code,
      why: `${steps}\n${res.stderr}`,
      events,
      downs: events.filter((e) => e.kind === 'pointerdown'),
    }
  }

  it('sb-admin login: type an email, tick "Remember Password"; replays unchanged and with renamed ids and classes', async () => {
    const page = 'sb-admin/dist/login.html'
    const rec = await recordByHand(page, 'admin', [
      { find: (p) => p.getByLabel('Email address'), type: 'qa@example.com' },
      { find: (p) => p.getByRole('checkbox', { name: 'Remember Password' }) },
    ])
    const saved = await readCase(rec.caseFile)
    expect(saved.actions.map((a) => a.action_type)).toEqual(['click', 'type', 'click'])
    for (const ops of [[], ['renamed-ids', 'renamed-classes', 'layout-shift']] as MutationOp[][]) {
      const r = await replay(rec, page, ops)
      expect(r.code, `${ops.join('+')}: ${r.why}`).toBe(0)
      expect(r.downs).toHaveLength(2)
      r.downs.forEach((d, k) => {
        expect(d.chain, `ops ${ops.join('+')} click ${k}`).toContain(rec.truths[k])
      })
      expect(
        r.events.some((e) => e.kind === 'input' && e.truth === rec.truths[0] && e.value === 'qa@example.com'),
      ).toBe(true)
    }
  })

  // the click's after-screenshot was taken while the person already typed, so the unchanged
  // page failed the click; typing steps had no screenshots and were never verified
  it('sneat login: clicks into fields, each followed at once by typing; replay --verify on the unchanged page passes every step', async () => {
    const page = 'sneat/html/auth-login-basic.html'
    const rec = await recordByHand(page, 'at-once', [
      { find: (p) => p.getByLabel('Email or Username'), type: 'qa@example.com', atOnce: true },
      { find: (p) => p.locator('#password'), type: 'Pw-4-qa', atOnce: true },
      { find: (p) => p.getByRole('checkbox', { name: 'Remember Me' }) },
    ])
    const saved = await readCase(rec.caseFile)
    expect(saved.actions.map((a) => a.action_type)).toEqual(['click', 'type', 'click', 'type', 'click'])
    const secret = saved.actions[3]?.secret_env as string
    expect(secret).toMatch(/^QA_SECRET_/)
    const v = await corpus.variant({ ops: [] })
    const res = await qa(
      ['replay', rec.caseFile, '--url', v.pageUrl(page), '--verify', '--json', '--report-dir', 'reports-at-once'],
      { [secret]: 'Pw-4-qa' },
    )
    await v.close()
    const report = JSON.parse(res.stdout) as { verification_results: { final_result: string; reason: string }[] }
    const verdicts = report.verification_results.map((r) => `${r.final_result}: ${r.reason}`)
    expect(verdicts, res.stderr).toEqual(report.verification_results.map((r) => `pass: ${r.reason}`))
    expect(verdicts).toHaveLength(5)
    expect(res.code, res.stderr).toBe(0)
    // typing carries its evidence like a click
    for (const a of saved.actions) expect([a.screenshot_before_path, a.screenshot_path]).not.toContain(undefined)
  })

  // "Try it out" becomes "Cancel" on the click: the element pressed is the one the page described at pointer-down
  // (the reporter's pointerdown reaches Node only after the page reacted)
  it('swagger-ui (a React SPA): expand an operation, "Try it out", type a parameter; replays unchanged and reworded', async () => {
    const page = 'swagger-ui/index.html'
    const rec = await recordByHand(page, 'spa', [
      { find: (p) => p.locator('.opblock-summary-control').first() },
      { find: (p) => p.getByRole('button', { name: 'Try it out' }) },
      { find: (p) => p.getByPlaceholder('q', { exact: true }), type: 'sword' },
    ])
    const saved = await readCase(rec.caseFile)
    expect(saved.actions.map((a) => a.action_type)).toEqual(['click', 'click', 'click', 'type'])
    for (const ops of [[], ['extra-wrappers', 'reworded-labels']] as MutationOp[][]) {
      const r = await replay(rec, page, ops)
      expect(r.code, `${ops.join('+')}: ${r.why}`).toBe(0)
      expect(r.downs).toHaveLength(3)
      r.downs.forEach((d, k) => {
        expect(d.chain, `ops ${ops.join('+')} click ${k}`).toContain(rec.truths[k])
      })
      expect(r.events.some((e) => e.kind === 'input' && e.truth === rec.truths[2] && e.value === 'sword')).toBe(true)
    }
  })
})

describe('qa record web --cdp: in the tab the person is on, in their own running browser', () => {
  let app: SampleApp
  let own: ChildProcess
  let profile: string
  let port: number
  beforeAll(async () => {
    app = await startSampleApp({ port: 0, version: 'v1' })
    profile = await mkdtemp(join(tmpdir(), 'qa-own-chrome-'))
    port = 9300 + Math.floor(Math.random() * 500)
    // the person's browser: their own window and profile, two tabs, the second one in front
    own = (
      await startOwnChromium({
        executablePath: CHROMIUM,
        display: xvfb.display,
        profile,
        port,
        urls: ['about:blank', `${app.url}/login`],
        started,
      })
    ).child
  })
  afterAll(async () => {
    if (own?.exitCode === null) {
      own.kill('SIGTERM')
      await new Promise((r) => own.once('exit', r))
    }
    await app?.close()
    if (profile) await rm(profile, { recursive: true, force: true })
  })

  it('records the front tab without opening a page, and leaves the browser and its tabs as they were', async () => {
    const cdpUrl = `http://127.0.0.1:${port}`
    // the person's front tab, as the test drives it (real input events over CDP, no hold)
    const person = await chromium.connectOverCDP(cdpUrl)
    const tab = person
      .contexts()
      .flatMap((c) => c.pages())
      .find((p) => p.url().endsWith('/login'))
    expect(tab).toBeDefined()
    await tab?.waitForLoadState('load')
    // the person switches to the login tab (the other one stays open behind it)
    await tab?.bringToFront()
    const user = await centre(tab!.getByRole('textbox', { name: '아이디' }))
    app.clearEvents()
    const file = join(dir, 'own.json')
    const rec = await startRecordingByHand(CLI, ['web', '--cdp', cdpUrl, '--out', file], { cwd: dir, started })
    expect(rec.stderr()).toMatch(/Recording in the browser window: http:\/\/127\.0\.0\.1:\d+\/login/)
    await sleep(500)
    await tab!.mouse.click(user.x, user.y)
    await sleep(500)
    await tab!.keyboard.type('own-tab', { delay: 40 })
    await sleep(800)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(rec.stdout()).toMatch(/ {2}1\. Click textbox "아이디"/)
    const saved = await readCase(file)
    expect(saved.actions.map((a) => [a.action_type, a.text ?? null])).toEqual([
      ['click', null],
      ['type', 'own-tab'],
    ])
    expect(JSON.parse(saved.json).start_url).toBe(`${app.url}/login`)
    expect(
      app
        .events()
        .filter((e) => e.type === 'click' && e.trusted)
        .map((e) => e.truth),
    ).toEqual(['login.username'])
    // the person's browser runs on with both tabs; the toolbar is gone from theirs and no page was added
    expect(own.exitCode).toBeNull()
    const pages = person.contexts().flatMap((c) => c.pages())
    expect(pages.map((p) => p.url()).sort()).toEqual(['about:blank', `${app.url}/login`].sort())
    expect(await tab!.evaluate((tag) => document.getElementsByTagName(tag).length, 'qa-recorder-toolbar')).toBe(0)
    await person.close()
  })

  // A file input opens the browser's native file dialog, which cannot be driven reliably by X input: the person's
  // pick is made over the test's own CDP connection to their browser (the chooser intercepted there), the click
  // that opens it is real X input, and the recorder learns the names from the page as it would from a real pick.
  it('a file upload: the chosen names are recorded, and a replay gives the files of those names from --files-dir', async () => {
    const UPLOAD = `<!doctype html><html><head><title>Upload</title></head><body style="margin:0">
      <input id="attach" type="file" multiple aria-label="Attachments"
        style="position:absolute;left:200px;top:200px;width:300px;height:80px;font:20px sans-serif">
      <script>
        document.getElementById('attach').addEventListener('change', async (e) => {
          for (const f of e.target.files) await fetch('/log?e=' + encodeURIComponent(f.name + ':' + f.size))
        })
      </script></body></html>`
    const seen: string[] = []
    const server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x')
      if (u.pathname === '/log') {
        seen.push(u.searchParams.get('e') ?? '')
        res.end('ok')
        return
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(UPLOAD)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const uploadUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`
    const picked = join(dir, 'picked')
    const replayFiles = join(dir, 'replay-files')
    const empty = join(dir, 'no-files')
    await mkdir(picked, { recursive: true })
    await mkdir(replayFiles, { recursive: true })
    await mkdir(empty, { recursive: true })
    await writeFile(join(picked, 'report.txt'), 'hello world')
    await writeFile(join(picked, '보고서.txt'), '한글')
    await writeFile(join(replayFiles, 'report.txt'), 'replayed!')
    await writeFile(join(replayFiles, '보고서.txt'), '다시 재생')
    const cdpUrl = `http://127.0.0.1:${port}`
    const person = await chromium.connectOverCDP(cdpUrl)
    try {
      const tab = person
        .contexts()
        .flatMap((c) => c.pages())
        .find((p) => p.url().endsWith('/login'))!
      await tab.goto(uploadUrl)
      await tab.bringToFront()
      // where this window's viewport is on the screen: one calibration click, before recording
      await tab.evaluate(() => {
        addEventListener('pointerdown', (e) => {
          ;(window as unknown as { hit: number[] }).hit = [e.screenX - e.clientX, e.screenY - e.clientY]
        })
      })
      const guess = await tab.evaluate(() => ({
        x: screenX + (outerWidth - innerWidth) / 2 + 40,
        y: screenY + outerHeight - innerHeight + 40,
      }))
      await hand.xdo('mousemove', '--sync', String(Math.round(guess.x)), String(Math.round(guess.y)))
      await hand.xdo('click', '1')
      await sleep(300)
      const hit = await tab.evaluate(() => (window as unknown as { hit?: number[] }).hit)
      expect(hit).toBeDefined()
      const saved = hand.origin
      const file = join(dir, 'upload.json')
      const rec = await startRecordingByHand(CLI, ['web', '--cdp', cdpUrl, '--out', file], {
        cwd: dir,
        display: xvfb.display,
        started,
      })
      expect(rec.stderr()).toMatch(/Recording in the browser window/)
      await sleep(500)
      const chooser = tab.waitForEvent('filechooser', { timeout: 10_000 })
      try {
        hand.origin = { x: hit![0] as number, y: hit![1] as number }
        await hand.clickAt({ x: 350, y: 240 })
      } finally {
        hand.origin = saved
      }
      await (await chooser).setFiles([join(picked, 'report.txt'), join(picked, '보고서.txt')])
      await sleep(1000)
      rec.interrupt()
      expect(await rec.exited, rec.stderr()).toBe(0)
      const out = rec.stdout()
      expect([...seen].sort()).toEqual(['report.txt:11', '보고서.txt:6'].sort())
      const recorded = JSON.parse(await readFile(file, 'utf8')) as {
        actions: { action_type: string; files?: string[]; description: string }[]
      }
      expect(recorded.actions.map((a) => [a.action_type, a.files])).toEqual([['click', ['report.txt', '보고서.txt']]])
      expect(out).toMatch(/ {2}1\. Click /)
      expect(recorded.actions[0]?.description).toMatch(/ and choose "report\.txt", "보고서\.txt"$/)

      // the replay gives the files of the folder it is told (their own contents: another size than recorded)
      seen.length = 0
      const r = await qa([
        'replay',
        file,
        '--url',
        uploadUrl,
        '--files-dir',
        replayFiles,
        '--json',
        '--report-dir',
        'reports-upload',
      ])
      expect(r.code, r.stdout + r.stderr).toBe(0)
      await sleep(300)
      expect([...seen].sort()).toEqual(['report.txt:9', '보고서.txt:13'].sort())
      // a folder without them: the step fails naming the file, and nothing is clicked
      seen.length = 0
      const missing = await qa([
        'replay',
        file,
        '--url',
        uploadUrl,
        '--files-dir',
        empty,
        '--json',
        '--report-dir',
        'reports-upload-missing',
      ])
      expect(missing.code, missing.stdout + missing.stderr).toBe(1)
      const report = JSON.parse(missing.stdout) as { replay_results: { success: boolean; error_message?: string }[] }
      expect(report.replay_results[0]?.success).toBe(false)
      expect(report.replay_results[0]?.error_message).toMatch(
        /The file "report\.txt" the step chooses is not in .*no-files/,
      )
      expect(seen).toEqual([])
      // a folder that does not exist is bad input, refused before the browser starts
      const nowhere = await qa(['replay', file, '--url', uploadUrl, '--files-dir', join(dir, 'nowhere'), '--json'])
      expect(nowhere.code).toBe(2)
      expect(nowhere.stderr).toMatch(/--files-dir .*nowhere is not a folder/)
    } finally {
      await person.close()
      await new Promise((r) => server.close(r))
    }
  })
})
