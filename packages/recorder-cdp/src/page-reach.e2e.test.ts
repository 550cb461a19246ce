import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { createWebRecorder } from './record/recorder'

/**
 * What the recorder reads of a page is out of the page's reach, and a page's own typing is not
 * the person's. A page sets a trap where the identity reader used to keep the last click's hit chain between its
 * calls (`Symbol.for('qa.hitChain')` on the page's window: the trap answers a chain of "Delete everything" and notes
 * every write), and types into a field of its own with `document.execCommand('insertText')`, whose input events are
 * trusted though no key of the person's is behind them.
 */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>reach</title>
<script>
  window.written = []
  Object.defineProperty(Object.prototype, Symbol.for('qa.hitChain'), {
    configurable: true,
    get() { return Array(16).fill(document.querySelector('.nuke')) },
    set() { window.written.push('qa.hitChain') },
  })
</script></head>
<body style="margin:0;font:16px sans-serif">
<input id="name" aria-label="Name" style="position:absolute;left:40px;top:40px;width:300px;height:36px">
<button id="save" style="position:absolute;left:40px;top:100px;width:160px;height:40px"><span>Save</span></button>
<button class="nuke" style="position:absolute;left:240px;top:100px;width:200px;height:40px">Delete everything</button>
<input class="decoy" aria-label="Decoy" style="position:absolute;left:40px;top:180px;width:300px;height:36px">
<script>
  document.querySelector('#save').addEventListener('click', () => {
    const decoy = document.querySelector('.decoy')
    decoy.focus()
    document.execCommand('insertText', false, 'FORGED_EXEC')
    decoy.blur()
    document.body.dataset.forged = decoy.value
  })
</script>
</body></html>`

let server: Server
let url = ''
const sessions: BrowserSession[] = []

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()))
  await new Promise((done) => server.close(done))
})

async function freshPage(): Promise<Page> {
  const s = await openBrowser({ viewport: { width: 800, height: 400 } })
  sessions.push(s)
  return s.page
}

/** Symbols of the recorder on the page's window, and what was written through the page's trap. */
const pageSees = (p: Page) =>
  p.evaluate(() => ({
    symbols: Object.getOwnPropertySymbols(window)
      .map(String)
      .filter((s) => /qa/i.test(s)),
    written: (window as unknown as { written: string[] }).written,
  }))

describe('a page cannot reach what the recorder reads, nor type as the person', () => {
  it('a click is resolved from the hit chain the recorder holds, not from what the page keeps under its symbol', async () => {
    const p = await freshPage()
    const dir = await mkdtemp(join(tmpdir(), 'qa-reach-'))
    const rec = await createWebRecorder(p, { caseFile: join(dir, 'case.json'), screenshots: false })
    await rec.start(url)
    // the span's text inside Save is hit: the button is the chain's second element
    const click = await rec.click(120, 120)
    expect([click.identity?.id, click.description]).toEqual(['save', 'Click button "Save"'])
    expect(await pageSees(p)).toEqual({ symbols: [], written: [] })
    await rec.close()
  })

  it('typing a page makes with execCommand is not recorded; the person’s keys and IME text are', async () => {
    const p = await freshPage()
    const dir = await mkdtemp(join(tmpdir(), 'qa-reach-'))
    const rec = await createWebRecorder(p, { caseFile: join(dir, 'case.json'), screenshots: false })
    await rec.start(url)
    const listening = await rec.listen({ onStopRequest: () => undefined })
    await p.mouse.click(190, 58)
    // (keys, and text committed as an IME does: Playwright inserts the Hangul with `Input.insertText`)
    await p.keyboard.type('alice 사람', { delay: 20 })
    await p.mouse.click(120, 120)
    await p.waitForFunction(() => document.body.dataset.forged === 'FORGED_EXEC')
    await p.mouse.click(190, 58)
    for (let i = 0; i < 600 && rec.testCase().actions.length < 4; i++) await new Promise((r) => setTimeout(r, 100))
    await listening.stop()
    const steps = rec.testCase().actions.map((a) => [a.actionType, a.identity?.id ?? null, a.text ?? null])
    expect(steps).toEqual([
      ['click', 'name', null],
      ['type', 'name', 'alice 사람'],
      ['click', 'save', null],
      ['click', 'name', null],
    ])
    expect(await pageSees(p)).toEqual({ symbols: [], written: [] })
    await rec.close()
  })
})
