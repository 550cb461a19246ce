import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestCase } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { createWebRecorder } from './record/recorder'
import { replayWebCase } from './replay/replayer'

/**
 * Elements inside a closed shadow root (a web component that hides its inside from every script) are
 * recorded over CDP, and replay finds and clicks them through the healing cascade. The component's own listener
 * says what was clicked: it counts presses of its buttons in light DOM (`#log`).
 */

type Variant = 'v1' | 'v2' | 'removed' | 'covered'

/** Where things are on v1 (viewport CSS px): the component's host, and inside it the field and the buttons. */
const HOST_V1 = { x: 40, y: 60 }
const USER_FIELD = { x: 0, y: 0, width: 220, height: 32 }
const FIRST_BUTTON = { x: 0, y: 50, width: 120, height: 40 }
const SECOND_BUTTON = { x: 140, y: 50, width: 120, height: 40 }
const px = (b: { x: number; y: number; width: number; height: number }) =>
  `position:absolute;left:${b.x}px;top:${b.y}px;width:${b.width}px;height:${b.height}px`
const centre = (b: { x: number; y: number; width: number; height: number }, host = HOST_V1): [number, number] => [
  host.x + b.x + b.width / 2,
  host.y + b.y + b.height / 2,
]

/**
 * The component: a user field and a "Sign in" button in a closed root. v2 moves it, renames its ids and classes,
 * and swaps the buttons (Cancel first); "removed" has no "Sign in" at all. Its listeners log what was pressed.
 */
const page = (variant: Variant) => {
  const host = variant === 'v2' ? { x: 300, y: 220 } : HOST_V1
  const signIn = `<button ${variant === 'v2' ? 'id="submit-xy" class="primary-2"' : 'id="signin"'} style="${px(variant === 'v2' ? SECOND_BUTTON : FIRST_BUTTON)}">Sign in</button>`
  const cancel = `<button id="cancel" style="${px(variant === 'v2' ? FIRST_BUTTON : SECOND_BUTTON)}">Cancel</button>`
  const inside = [
    `<input name="user" aria-label="User" ${variant === 'v2' ? 'class="u2"' : 'id="user"'} style="${px(USER_FIELD)}">`,
    variant === 'removed' ? '' : signIn,
    cancel,
  ].join('')
  return `<!doctype html><html><head><meta charset="utf-8"><title>closed shadow</title></head>
<body style="margin:0; font: 16px sans-serif">
<p id="log" style="position:absolute;left:420px;top:0"></p>
${variant === 'v2' ? '<button id="outside" style="position:absolute;left:40px;top:60px">Help</button>' : ''}
${variant === 'covered' ? `<div id="cover" onclick="log('clicked the cover')" style="${px({ ...FIRST_BUTTON, x: HOST_V1.x, y: HOST_V1.y + FIRST_BUTTON.y })};z-index:2;background:#fff8"></div>` : ''}
<sign-in-box id="box" style="position:absolute;left:${host.x}px;top:${host.y}px;width:300px;height:100px"></sign-in-box>
<script>
  const log = (what) => { document.getElementById('log').textContent += what + ';' }
  customElements.define('sign-in-box', class extends HTMLElement {
    constructor() {
      super()
      const root = this.attachShadow({ mode: 'closed' })
      root.innerHTML = ${JSON.stringify(inside)}
      const user = root.querySelector('input')
      for (const b of root.querySelectorAll('button'))
        b.addEventListener('click', () => log('clicked ' + b.textContent + ' as ' + user.value))
    }
  })
</script>
</body></html>`
}

let server: Server
let base = ''
const sessions: BrowserSession[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const variant = (new URL(req.url ?? '/', 'http://x').searchParams.get('v') ?? 'v1') as Variant
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(variant))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()))
  await new Promise((done) => server.close(done))
})

async function freshPage(): Promise<Page> {
  const s = await openBrowser({ viewport: { width: 800, height: 500 } })
  sessions.push(s)
  return s.page
}

/** Records on v1: type a user name into the closed root's field, click its "Sign in". */
async function recordOnV1(): Promise<{ dir: string; testCase: TestCase }> {
  const dir = await mkdtemp(join(tmpdir(), 'qa-closed-'))
  const p = await freshPage()
  const rec = await createWebRecorder(p, { caseFile: join(dir, 'case.json') })
  await rec.start(`${base}?v=v1`)
  await rec.click(...centre(USER_FIELD))
  await rec.type('민수')
  await rec.click(...centre(FIRST_BUTTON))
  // the component itself saw it
  expect(await p.locator('#log').textContent()).toBe('clicked Sign in as 민수;')
  await rec.save()
  await rec.close()
  return { dir, testCase: (await loadTestCase(join(dir, 'case.json'))).testCase }
}

async function replayOn(variant: Variant, recorded: { dir: string; testCase: TestCase }) {
  const p = await freshPage()
  const outcome = await replayWebCase(
    { ...recorded.testCase, startUrl: `${base}?v=${variant}` },
    { page: p, caseDir: recorded.dir, verify: false },
  )
  return { outcome, log: await p.locator('#log').textContent() }
}

describe('closed shadow roots on replay', () => {
  let recorded: { dir: string; testCase: TestCase }
  beforeAll(async () => {
    recorded = await recordOnV1()
  })

  it('records the elements inside the closed root, with the host as their shadow path', () => {
    const [click, type, signIn] = recorded.testCase.actions
    expect(click?.identity).toMatchObject({ tagName: 'input', name: 'user', shadowPath: ['#box'] })
    expect(type).toMatchObject({ actionType: 'type', text: '민수' })
    expect(signIn?.identity).toMatchObject({ axRole: 'button', axName: 'Sign in', shadowPath: ['#box'] })
  })

  it('replays on the unchanged page: the field gets the text and "Sign in" is clicked', async () => {
    const { outcome, log } = await replayOn('v1', recorded)
    expect(outcome.replayResults.map((r) => [r.success, r.errorMessage])).toEqual([
      [true, ''],
      [true, ''],
      [true, ''],
    ])
    expect(outcome.replayResults.map((r) => r.method)).not.toContain('coordinate')
    expect(log).toBe('clicked Sign in as 민수;')
  })

  it('heals on a changed page: moved, ids renamed, buttons swapped, a light-DOM button where it was', async () => {
    const { outcome, log } = await replayOn('v2', recorded)
    expect(outcome.replayResults.map((r) => [r.success, r.errorMessage])).toEqual([
      [true, ''],
      [true, ''],
      [true, ''],
    ])
    // found by what it is (role and name, aria-label, name), never at the recorded point (the "Help" button is there)
    expect(outcome.replayResults.map((r) => r.method)).toEqual(['role', 'role', 'role'])
    const [x, y] = centre(SECOND_BUTTON, { x: 300, y: 220 })
    expect(outcome.replayResults[2]!.actualCoords).toEqual({ x, y })
    expect(log).toBe('clicked Sign in as 민수;')
  })

  it('fails the step and clicks nothing when something covers "Sign in"', async () => {
    const { outcome, log } = await replayOn('covered', recorded)
    expect(outcome.replayResults.map((r) => r.success)).toEqual([true, true, false])
    expect(outcome.replayResults[2]!.errorMessage).toMatch(
      /closed shadow root, but a click at its centre would reach div#cover/,
    )
    expect(log).toBe('')
  })

  it('fails the step and clicks nothing when "Sign in" is gone from the closed root', async () => {
    const { outcome, log } = await replayOn('removed', recorded)
    expect(outcome.replayResults.map((r) => r.success)).toEqual([true, true, false])
    expect(outcome.replayResults[2]!.errorMessage).toMatch(/not found/i)
    expect(log).toBe('')
  })
})
