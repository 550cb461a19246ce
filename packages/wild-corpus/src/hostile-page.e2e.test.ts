/**
 * A recorded page, and a cross-origin frame in it, must not be able to drive the recorder. A
 * person records by hand (`qa record web`, real X input through xdotool on a display of our own) on a hostile page
 * whose scripts, in the top page and in a frame of another site, try all the time what a page can try: call the
 * recorder's globals (`__qaRecordInput`, `__qaRecorderToolbar`, the toolbar's functions), dispatch synthetic clicks on
 * "Delete everything" and synthetic typing, click the toolbar's buttons and press Enter and Escape with synthetic
 * events, post the toolbar's messages between frames, and read the person's assertion editor (its shadow root, the
 * selection, the keys and input events they hear). They also set a trap where the identity reader used to keep
 * the last click's hit chain (`Symbol.for('qa.hitChain')`, answering a chain of "Delete everything"), type into a
 * field of their own with `document.execCommand('insertText')` (trusted input events, no key of the person's), and
 * the top page adds a frame of another site once the person saves, whose first script stops every input event from
 * reaching a listener added after it. The saved case must hold the person's steps only, with the person's assertion
 * as they typed it; what the pages report to their own servers must show nothing of the recorder.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openBrowser } from '@qa/recorder-cdp'
import { startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHandInput, type HandInput, probeToolbarLayout, startRecordingByHand } from './__tests__/hand-input'

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../../apps/cli/bin/qa.js')
const CHROMIUM = process.env.QA_CHROMIUM ?? '/usr/bin/chromium'
const VIEWPORT = { width: 1280, height: 720 }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** What a hostile page saw and got, as it reports it to its own server. */
interface Observed {
  reports: number
  /** Names of the window's own properties and symbols that mention qa. */
  globals: string[]
  symbols: string[]
  /** Recorder functions it found and called. */
  calls: string[]
  /** Whether the toolbar's shadow root was reachable. */
  shadowRoot: boolean
  /** Keys and field values its own listeners heard from the person (trusted events only). */
  keys: string[]
  inputs: string[]
  /** What it could read of the person's assertion editor: the selection, a focused field's value, a draft. */
  reads: string[]
}

/**
 * The hostile script, the same in the top page and in the frame: it tries everything every 150 ms and reports what
 * it saw to its own server (`/observed`).
 */
const HOSTILE = `(() => {
  const seen = { reports: 0, globals: [], symbols: [], calls: [], shadowRoot: false, keys: [], inputs: [], reads: [] }
  const add = (list, value) => { if (value && !list.includes(value)) list.push(value) }
  // where the identity reader kept the last click's hit chain: what it reads back there picks the recorded element
  const forgedChain = () => Array(16).fill(document.querySelector('.nuke'))
  Object.defineProperty(Object.prototype, Symbol.for('qa.hitChain'), {
    configurable: true,
    get() { return forgedChain() },
    set() { add(seen.symbols, 'written: Symbol(qa.hitChain)') },
  })
  addEventListener('keydown', (e) => { if (e.isTrusted) add(seen.keys, e.key) }, true)
  document.addEventListener('input', (e) => { if (e.isTrusted) add(seen.inputs, String(e.composedPath()[0].value ?? '')) }, true)
  const forged = { pointerdown: 1, input: 1 }
  const attempt = () => {
    for (const name of Object.getOwnPropertyNames(window)) if (/qa/i.test(name)) add(seen.globals, name)
    for (const symbol of Object.getOwnPropertySymbols(window)) if (/qa/i.test(String(symbol))) add(seen.symbols, String(symbol))
    for (const name of ['__qaRecordInput', '__qaRecorderToolbar']) {
      const call = window[name]
      if (typeof call !== 'function') continue
      add(seen.calls, name)
      try {
        call({ kind: 'pointerdown', x: 300, y: 200, button: 0, detail: 1, at: Date.now() })
        call({ kind: 'input', value: 'FORGED_TYPING', isPassword: false, x: 300, y: 200, at: Date.now() })
        call({ kind: 'assert', assert: 'visible', x: 300, y: 200 })
        for (let id = 0; id < 8; id++) call({ kind: 'assert-confirm', id, op: 'equals', expected: 'FORGED_EXPECTED' })
      } catch {}
    }
    for (const key of ['draft', 'edit', 'picked', 'highlight', 'frameSignal', 'frameState', 'root']) {
      const fn = window[Symbol.for('qa.recorderToolbar.' + key)]
      if (fn === undefined) continue
      add(seen.calls, key)
      try {
        if (key === 'draft') add(seen.reads, JSON.stringify(fn()))
        if (key === 'frameSignal') fn('enter')
      } catch {}
    }
    // the page's own controls, pressed and typed into by script
    const nuke = document.querySelector('.nuke')
    const box = nuke.getBoundingClientRect()
    const at = { bubbles: true, composed: true, cancelable: true, button: 0, clientX: box.left + 8, clientY: box.top + 8 }
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'])
      nuke.dispatchEvent(type.startsWith('pointer') ? new PointerEvent(type, at) : new MouseEvent(type, at))
    const decoy = document.querySelector('.decoy')
    decoy.value = 'FORGED_TYPING'
    decoy.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, data: 'G', inputType: 'insertText' }))
    decoy.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, composed: true, key: 'Enter' }))
    // the toolbar: every point of it clicked, Enter and Escape pressed, its messages posted
    const host = document.querySelector('qa-recorder-toolbar')
    if (host) {
      seen.shadowRoot = seen.shadowRoot || host.shadowRoot !== null
      const r = host.getBoundingClientRect()
      for (let x = r.left + 4; x < r.right; x += 12)
        for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
          const init = { bubbles: true, composed: true, cancelable: true, button: 0, clientX: x, clientY: r.top + r.height / 2 }
          host.dispatchEvent(type.startsWith('pointer') ? new PointerEvent(type, init) : new MouseEvent(type, init))
        }
      for (const key of ['Enter', 'Escape']) host.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, composed: true, key }))
      add(seen.reads, host.textContent)
    }
    for (const message of [{ __qaRecorderToolbar: 'enter' }, { __qaRecorderToolbar: 'escape' }, { __qaRecorderToolbar: 'state', mode: 'visible', editing: false }]) {
      try { top.postMessage(message, '*') } catch {}
      try { parent.postMessage(message, '*') } catch {}
      for (let i = 0; i < frames.length; i++) try { frames[i].postMessage(message, '*') } catch {}
    }
    add(seen.reads, String(getSelection()))
    const active = document.activeElement
    // the focused element: the toolbar's host while the person types into its editor
    if (active && active.localName === 'qa-recorder-toolbar') add(seen.reads, active.textContent + String(active.value ?? ''))
    seen.reports++
    fetch('/observed', { method: 'POST', body: JSON.stringify(seen), keepalive: true }).catch(() => {})
  }
  setInterval(attempt, 150)
})()`

const px = (b: { x: number; y: number; width: number; height: number }) =>
  `position:absolute;left:${b.x}px;top:${b.y}px;width:${b.width}px;height:${b.height}px;margin:0`
const HEADING = { x: 40, y: 30, width: 400, height: 50 }
const NAME = { x: 40, y: 120, width: 300, height: 36 }
const SAVE = { x: 40, y: 180, width: 120, height: 40 }
/** The frame the top page adds once the person saves, and its field. */
const LATE = { x: 600, y: 300, width: 320, height: 160 }
const LATE_FIELD = { x: 20, y: 20, width: 240, height: 36 }
const FRAME = { x: 40, y: 300, width: 520, height: 240 }
const NOTE = { x: 20, y: 20, width: 240, height: 36 }
const centre = (b: typeof NAME, frame: typeof FRAME | null = null) => ({
  x: (frame?.x ?? 0) + b.x + b.width / 2,
  y: (frame?.y ?? 0) + b.y + b.height / 2,
})

/**
 * Once the person saves, the top page types into its own field by script (`execCommand`: trusted input events with
 * no key of the person's behind them) and adds a frame of another site.
 */
const ON_SAVE = (lateUrl: string) => `(() => {
  document.querySelector('#save').addEventListener('click', (e) => {
    if (!e.isTrusted || document.querySelector('#late')) return
    setTimeout(() => {
      const decoy = document.querySelector('.decoy')
      decoy.focus()
      document.execCommand('insertText', false, 'FORGED_EXEC')
      decoy.blur()
      const late = document.createElement('iframe')
      late.id = 'late'
      late.src = ${JSON.stringify(lateUrl)}
      late.style.cssText = ${JSON.stringify(`${px(LATE)};border:0`)}
      document.body.append(late)
    }, 50)
  })
})()`

const topPage = (
  frameUrl: string,
  lateUrl: string,
) => `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head>
<body style="margin:0;font:16px sans-serif">
<h1 id="title" style="${px(HEADING)}">Quartz jewels</h1>
<input id="name" aria-label="Name" style="${px(NAME)}">
<button id="save" style="${px(SAVE)}"><span>Save</span></button>
<button class="nuke" style="${px({ x: 200, y: 180, width: 200, height: 40 })}">Delete everything</button>
<input class="decoy" aria-label="Decoy" style="${px({ x: 440, y: 180, width: 200, height: 36 })}">
<iframe id="shop" src="${frameUrl}" style="${px(FRAME)};border:0"></iframe>
<script>${HOSTILE}</script>
<script>${ON_SAVE(lateUrl)}</script>
</body></html>`

const framePage = `<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0;font:16px sans-serif;background:#eef">
<input id="note" aria-label="Note" style="${px(NOTE)}">
<button class="nuke" style="${px({ x: 20, y: 80, width: 200, height: 40 })}">Delete everything</button>
<input class="decoy" aria-label="Decoy" style="${px({ x: 240, y: 80, width: 200, height: 36 })}">
<script>${HOSTILE}</script>
</body></html>`

/**
 * The frame the top page adds once the person saves: its first script, before the recorder's world can be there
 * unless the frame waits for it, stops every input event from reaching any later listener of the frame's window.
 */
const latePage = `<!doctype html><html><head><meta charset="utf-8">
<script>for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'keydown', 'keyup', 'beforeinput', 'input', 'change'])
  addEventListener(type, (e) => e.stopImmediatePropagation(), true)</script></head>
<body style="margin:0;font:16px sans-serif;background:#efe">
<input id="late-field" aria-label="Late" style="${px(LATE_FIELD)}">
</body></html>`

/** A site of the test: its page (by the request's path), and the last report its hostile script posted. */
async function serveSite(
  host: string,
  page: (path: string) => string,
): Promise<{ server: Server; url: string; observed: () => Observed | null }> {
  let observed: Observed | null = null
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/observed') {
      let body = ''
      req.on('data', (d) => {
        body += d
      })
      req.on('end', () => {
        observed = JSON.parse(body) as Observed
        res.writeHead(204).end()
      })
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(req.url ?? '/'))
  })
  await new Promise<void>((done) => server.listen(0, host, done))
  return { server, url: `http://${host}:${(server.address() as AddressInfo).port}/`, observed: () => observed }
}

let xvfb: VirtualDisplay
let dir: string
let hand: HandInput
let probe: Browser
const started: ChildProcess[] = []
const savedDisplay = process.env.DISPLAY

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1400, height: 1000 })
  process.env.DISPLAY = xvfb.display
  dir = await mkdtemp(join(tmpdir(), 'qa-hostile-'))
  probe = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
  hand = createHandInput({ display: xvfb.display })
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

describe('a hostile page and a hostile cross-origin frame while a person records by hand', () => {
  it('records only the person’s steps and assertion, and the pages see nothing of the recorder', async () => {
    const frameSite = await serveSite('localhost', (path) => (path === '/late' ? latePage : framePage))
    const topSite = await serveSite('127.0.0.1', () => topPage(`${frameSite.url}frame`, `${frameSite.url}late`))
    try {
      const probePage = await probe.newPage({ viewport: VIEWPORT })
      const { buttons } = await probeToolbarLayout(probePage, 'Quartz jewels')
      await probePage.close()
      const file = join(dir, 'hostile.json')
      const rec = await startRecordingByHand(CLI, ['web', topSite.url, '--out', file], {
        cwd: dir,
        display: xvfb.display,
        started,
      })
      expect(rec.stderr(), rec.stdout()).toMatch(/Recording in the browser window/)
      // both hostile scripts are at work before the person starts
      for (const site of [topSite, frameSite])
        for (let i = 0; i < 600 && (site.observed()?.reports ?? 0) < 3; i++) await sleep(100)
      expect([topSite.observed()?.reports, frameSite.observed()?.reports].map((n) => (n ?? 0) >= 3)).toEqual([
        true,
        true,
      ])
      // the person: types a name, saves, asserts the heading's text as they edit it, types a note in the frame and one
      // in the frame that came once they saved, stops
      await hand.clickAt(centre(NAME))
      await hand.typeText('alice')
      await hand.clickAt(centre(SAVE))
      await hand.clickAt(buttons['Assert text']!)
      await hand.clickAt(centre(HEADING))
      // (a person's pause while the editor opens with the heading's text, selected)
      await sleep(1500)
      await hand.typeText('Quartz gems')
      await hand.pressKey('Return')
      await hand.clickAt(centre(NOTE, FRAME))
      await hand.typeText('bob')
      await hand.clickAt(centre(LATE_FIELD, LATE))
      await hand.typeText('carol')
      const reportsBeforeStop = topSite.observed()?.reports ?? 0
      await hand.clickAt(buttons.Stop!)
      expect(await rec.exited, rec.stderr()).toBe(0)
      // the pages kept trying while the person worked (their reports went on)
      expect(reportsBeforeStop).toBeGreaterThan(10)

      const saved = JSON.parse(await readFile(file, 'utf8')) as {
        actions: {
          action_type: string
          description: string
          text?: string
          assertion?: { kind: string; expected?: string; op?: string }
          identity?: { id?: string; frame_path?: string[] }
        }[]
      }
      const steps = saved.actions.map((a) => [a.action_type, a.identity?.id ?? null, a.text ?? a.assertion ?? null])
      // (soft: each way in is told apart in one run by hand)
      expect.soft(steps).toEqual([
        ['click', 'name', null],
        ['type', 'name', 'alice'],
        // the span in Save is hit: the button is picked from the chain the reader holds, never from the page's trap
        ['click', 'save', null],
        ['assert', 'title', { kind: 'text', expected: 'Quartz gems' }],
        ['click', 'note', null],
        ['type', 'note', 'bob'],
        // the frame that came later: the recorder's listeners were there before the frame's first script
        ['click', 'late-field', null],
        ['type', 'late-field', 'carol'],
      ])
      // (the page's own text may be in an identity's neighbour text; no step is the page's doing)
      const said = saved.actions.map((a) => [a.description, a.text ?? '', a.assertion?.expected ?? ''].join(' '))
      expect.soft(said.filter((line) => /FORGED|Delete everything|Decoy/.test(line))).toEqual([])

      for (const observed of [topSite.observed(), frameSite.observed()]) {
        expect(observed).not.toBeNull()
        const { globals, symbols, calls, shadowRoot, keys, inputs, reads } = observed!
        // nothing of the recorder on the page's window, nor written through its trap: not the identity reader's hit
        // chain (`qa.hitChain`), not the DOM-quiet wait's live nodes (`qa.liveNodes`)
        expect.soft({ globals, symbols, calls, shadowRoot }).toEqual({
          globals: [],
          symbols: [],
          calls: [],
          shadowRoot: false,
        })
        // what the person typed into the assertion editor never reached the page
        expect(keys.filter((k) => /^[QurtzgmsG]$/.test(k))).toEqual([])
        expect(inputs.filter((v) => /gems|Quartz/.test(v))).toEqual([])
        expect(reads.filter((v) => /gems|FORGED|Recording|Assert/.test(v))).toEqual([])
      }
    } finally {
      await new Promise((done) => topSite.server.close(done))
      await new Promise((done) => frameSite.server.close(done))
    }
  })
})
