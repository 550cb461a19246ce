import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { settle } from './browser/settle'

/**
 * A settle waits for the page's finite CSS transitions too: a focus ring fading in changes no DOM node, and a screen
 * taken during it holds neither the look before the step nor the look after (a recorded after-frame shows
 * the ring drawn, the replay's capture half of it).
 */

const PAGE = `<!doctype html><html><body style="margin:0">
<button id="go">Go</button>
<div id="box" style="width:200px;height:100px;background:rgb(255,255,255);transition:background-color 900ms linear"></div>
<div id="spin" style="width:20px;height:20px;background:#000;animation:spin 1s linear infinite"></div>
<style>@keyframes spin { to { transform: rotate(360deg) } }</style>
<script>document.getElementById('go').onclick = () => { document.getElementById('box').style.backgroundColor = 'rgb(0, 0, 255)' }</script>
</body></html>`

let session: BrowserSession

beforeAll(async () => {
  session = await openBrowser({ viewport: { width: 400, height: 300 } })
}, 60_000)

afterAll(async () => {
  await session?.close()
})

describe('settle', () => {
  it('waits for a running transition to finish, though a spinner runs on for ever', async () => {
    const page = await session.context.newPage()
    try {
      await page.setContent(PAGE)
      await page.click('#go')
      await settle(page)
      const colour = await page.evaluate(
        () => getComputedStyle(document.getElementById('box') as Element).backgroundColor,
      )
      expect(colour).toBe('rgb(0, 0, 255)')
    } finally {
      await page.close()
    }
  }, 60_000)
})
