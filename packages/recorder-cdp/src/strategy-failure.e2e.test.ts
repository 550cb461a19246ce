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
 * A strategy's error is that strategy's failure, not the step's. Here the action
 * on the element a strategy matched throws: on the new build the e-mail field's old name "Email" belongs to a
 * read-only display (`role="textbox"`, not fillable), so role+name and aria-label find that display and `fill`
 * throws; the form `name` strategy finds the real field. What the field holds is read from the page.
 */
const build = (changed: boolean) => `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">
  ${changed ? '<div role="textbox" aria-label="Email" id="shown" style="position:absolute;left:20px;top:20px;width:200px;height:24px;border:1px solid #999">me@old.example</div>' : ''}
  <input id="${changed ? 'mail2' : 'mail'}" name="email" aria-label="${changed ? 'E-mail address' : 'Email'}"
    style="position:absolute;left:20px;top:${changed ? 80 : 20}px;width:200px">
</body></html>`

let server: Server
let url: string
let session: BrowserSession
let changed = false
beforeAll(async () => {
  server = createServer((_q, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(build(changed)),
  )
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  session = await openBrowser({ headless: true })
})
afterAll(async () => {
  await session?.close()
  await new Promise((done) => server.close(done))
})

describe('the action on a strategy’s element throws', () => {
  it('is that strategy’s failure: the cascade goes on, and the next strategy’s element takes the input', async () => {
    changed = false
    const dir = await mkdtemp(join(tmpdir(), 'qa-strategy-failure-'))
    const recPage = await session.context.newPage()
    const rec = await createWebRecorder(recPage, { caseFile: join(dir, 'case.json'), screenshots: false })
    await rec.start(url)
    await rec.click(60, 30)
    await rec.type('new@example.com')
    const testCase = rec.testCase()
    await rec.close()
    await recPage.close()
    const typed = testCase.actions.findIndex((a) => a.actionType === 'type')
    expect(testCase.actions[typed]?.identity?.axName).toBe('Email')

    changed = true
    const page = await session.context.newPage()
    const outcome = await replayWebCase(testCase, { page, caseDir: dir, url, actionTimeoutMs: 2_000 })
    const step = outcome.replayResults[typed]
    expect(step?.errorMessage).toBe('')
    expect(step?.success).toBe(true)
    expect(step?.method).toBe('name')
    // role+name found the display and could not fill it: recorded as that strategy's error
    const role = step?.strategiesTried?.find((a) => a.strategy === 'role')
    expect(role?.outcome).toBe('error')
    expect(role?.detail).toMatch(/could not be acted on/)
    expect(await page.locator('input[name=email]').inputValue()).toBe('new@example.com')
    expect(await page.locator('#shown').textContent()).toBe('me@old.example')
    await page.close()
  })
})
