import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { createWebRecorder } from './record/recorder'
import { replayWebCase } from './replay/replayer'

/**
 * A disabled control carrying the recorded label is never what replay clicks. Which
 * element received a click is logged by a capture listener the tool does not read.
 */
let variant: 'recorded' | 'disabled-twin' | 'only-disabled' = 'recorded'
const LOG = `<script>window.__clicks = []; addEventListener('click', (e) => { const t = e.target.closest('[data-k]'); window.__clicks.push(t ? t.dataset.k : null) }, true)</script>`
const page = () => {
  const body =
    variant === 'recorded'
      ? '<button id="save" data-k="save" style="position:absolute;left:40px;top:40px">Save</button>'
      : variant === 'disabled-twin'
        ? // the disabled twin sits where the recorded button was, with its id; the live one moved
          '<button id="save" data-k="disabled" disabled style="position:absolute;left:40px;top:40px">Save</button>' +
          '<button id="save-live" data-k="save" style="position:absolute;left:300px;top:200px">Save</button>'
        : '<div role="button" id="save" data-k="aria-disabled" aria-disabled="true" tabindex="0" style="position:absolute;left:40px;top:40px;padding:2px 6px;border:1px solid">Save</div>'
  return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">${LOG}${body}</body></html>`
}

let server: Server
let url: string
const sessions: BrowserSession[] = []
beforeAll(async () => {
  server = createServer((_q, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page()))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()))
  await new Promise((done) => server.close(done))
})

async function recordSave() {
  variant = 'recorded'
  const dir = await mkdtemp(join(tmpdir(), 'qa-disabled-'))
  const s = await openBrowser({ viewport: { width: 640, height: 360 } })
  sessions.push(s)
  const rec = await createWebRecorder(s.page, { caseFile: join(dir, 'case.json'), screenshots: false })
  await rec.start(url)
  const box = (await s.page.locator('#save').boundingBox())!
  await rec.click(box.x + box.width / 2, box.y + box.height / 2)
  return { dir, testCase: rec.testCase() }
}

async function replayOn(v: typeof variant) {
  const { dir, testCase } = await recordSave()
  variant = v
  const s = await openBrowser({ viewport: { width: 640, height: 360 } })
  sessions.push(s)
  const outcome = await replayWebCase(testCase, { page: s.page, caseDir: dir, actionTimeoutMs: 1_500 })
  const clicks = await s.page.evaluate(() => (window as unknown as { __clicks: (string | null)[] }).__clicks)
  return { result: outcome.replayResults[0]!, clicks }
}

describe('disabled candidates on replay', () => {
  it('a disabled twin with the recorded label and id is passed over for the enabled control', async () => {
    const { result, clicks } = await replayOn('disabled-twin')
    expect(clicks).toEqual(['save'])
    expect(result.success).toBe(true)
  })

  it('a control that is only there disabled (aria-disabled) is not clicked: the step fails', async () => {
    const { result, clicks } = await replayOn('only-disabled')
    expect(clicks).toEqual([])
    expect(result.success).toBe(false)
  })
})
