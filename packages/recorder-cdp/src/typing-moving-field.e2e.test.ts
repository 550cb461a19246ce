import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { createWebRecorder } from './record/recorder'

/**
 * Typing by hand is one step per field however the field moves meanwhile: a dialog still sliding in when the person
 * starts typing (Bootstrap's modal), a hint above the field growing with each character. The recorder once told
 * fields apart by their centres, and such typing became several steps, the later ones starting from text already
 * typed (a replay verified on the unchanged page then failed them: the region "still looks as before the step").
 */
let session: BrowserSession
beforeAll(async () => {
  session = await openBrowser({ viewport: { width: 800, height: 500 } })
})
afterAll(async () => {
  await session.close()
})

const PAGE = `<!doctype html><html><body style="font: 16px sans-serif">
  <div id="hint"></div>
  <label>Name <input id="name"></label>
  <label>City <input id="city"></label>
  <script>
    // each character typed makes the hint above the fields a line taller: both fields move down as the person types
    document.getElementById('name').addEventListener('input', (e) => {
      document.getElementById('hint').innerHTML = '<br>'.repeat(e.target.value.length)
    })
  </script>
</body></html>`

describe('typing by hand into a field that moves as it is typed into', () => {
  it('is one typing step with the whole text; the next field typed into is a step of its own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-moving-field-'))
    const page = session.page
    await page.route('http://qa.test/**', (route) => route.fulfill({ contentType: 'text/html', body: PAGE }))
    const rec = await createWebRecorder(page, { caseFile: join(dir, 'case.json') })
    await rec.start('http://qa.test/form')
    const listening = await rec.listen()
    await page.locator('#name').focus()
    await page.keyboard.type('김민지 QA', { delay: 40 })
    await page.locator('#city').focus()
    await page.keyboard.type('Seoul', { delay: 40 })
    await page.waitForTimeout(300)
    await listening.stop()
    const typed = rec
      .testCase()
      .actions.filter((a) => a.actionType === 'type')
      .map((a) => a.text)
    await rec.close()
    expect(typed).toEqual(['김민지 QA', 'Seoul'])
  })
})
