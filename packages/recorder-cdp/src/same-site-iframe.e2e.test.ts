import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { createWebRecorder } from './record/recorder'
import { replayWebCase } from './replay/replayer'

const FRAME = { x: 40, y: 80, width: 460, height: 220 }
const NOTE = { x: 20, y: 20, width: 240, height: 36 }
const SEND = { x: 20, y: 80, width: 120, height: 40 }
const px = (b: typeof FRAME) => `position:absolute;left:${b.x}px;top:${b.y}px;width:${b.width}px;height:${b.height}px`
const centre = (b: typeof FRAME): [number, number] => [FRAME.x + b.x + b.width / 2, FRAME.y + b.y + b.height / 2]

const framedPage = `<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0; font: 16px sans-serif; background: #eef">
<input id="note" aria-label="Note" style="${px(NOTE)}">
<button id="send" style="${px(SEND)}">Send</button>
<p id="log" style="position:absolute;left:20px;top:140px"></p>
<script>
  const note = document.querySelector('input')
  document.querySelector('button').addEventListener('click', () => { document.getElementById('log').textContent += 'Send ' + note.value + ';' })
</script></body></html>`

let top: { server: Server; url: string }
let framed: { server: Server; url: string }
const sessions: BrowserSession[] = []
async function serve(body: () => string) {
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body()),
  )
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }
}
beforeAll(async () => {
  framed = await serve(() => framedPage)
  top = await serve(
    () =>
      `<!doctype html><body style="margin:0"><iframe id="shop" src="${framed.url}form" style="${px(FRAME)}; border: 0"></iframe></body>`,
  )
})
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()))
  await new Promise((done) => top.server.close(done))
  await new Promise((done) => framed.server.close(done))
})
async function freshPage(): Promise<Page> {
  const s = await openBrowser({ viewport: { width: 800, height: 420 } })
  sessions.push(s)
  return s.page
}
async function formFrame(page: Page): Promise<Frame> {
  for (let i = 0; i < 50; i++) {
    const frame = page.frames().find((f) => f.url().startsWith(framed.url))
    if (frame) {
      await frame.waitForLoadState('load')
      return frame
    }
    await page.waitForTimeout(100)
  }
  throw new Error('no frame')
}

/**
 * An iframe served from another port of the same host is cross-origin but same-site, so
 * Chromium renders it in its parent's process, and its script cannot walk up to the parent. Typing into it was
 * recorded without its frame (the field's box in the frame's own viewport), so replay failed with "Element not
 * found" and the step's crop was cut from the wrong place.
 */
describe('an iframe on another port of the same host', () => {
  it('records every step in the frame with its frame path and top-level boxes, and replays them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-ss-'))
    const page = await freshPage()
    const rec = await createWebRecorder(page, { caseFile: join(dir, 'case.json') })
    await rec.start(top.url)
    const frame = await formFrame(page)
    const listening = await rec.listen()
    const human = async ([x, y]: [number, number]) => {
      await page.mouse.move(x, y)
      await page.mouse.down()
      await page.waitForTimeout(80)
      await page.mouse.up()
      await page.waitForTimeout(300)
    }
    await human(centre(NOTE))
    await page.keyboard.type('hello', { delay: 20 })
    await page.waitForTimeout(300)
    await human(centre(SEND))
    await page.waitForTimeout(300)
    await listening.stop()
    await rec.save()
    expect(await frame.locator('#log').textContent()).toBe('Send hello;')
    const actions = rec.testCase().actions
    const placed = (b: typeof NOTE) => ({ x: FRAME.x + b.x, y: FRAME.y + b.y, width: b.width, height: b.height })
    expect(actions.map((a) => [a.actionType, a.identity?.id, a.identity?.framePath])).toEqual([
      ['click', 'note', ['#shop']],
      ['type', 'note', ['#shop']],
      ['click', 'send', ['#shop']],
    ])
    expect(actions[1]?.text).toBe('hello')
    for (const [i, box] of [NOTE, NOTE, SEND].entries()) {
      const recorded = actions[i]!.identity!.boundingBox
      const expected = placed(box)
      // the field's box includes its border (2 px each side): its place, not its size, is what was wrong
      expect([recorded.x, recorded.y]).toEqual([expected.x, expected.y])
    }
    const replayPage = await freshPage()
    const outcome = await replayWebCase(rec.testCase(), { page: replayPage, caseDir: dir, verify: false })
    expect(outcome.replayResults.map((r) => [r.success, r.errorMessage])).toEqual([
      [true, ''],
      [true, ''],
      [true, ''],
    ])
    expect(await (await formFrame(replayPage)).locator('#log').textContent()).toBe('Send hello;')
  })
})
