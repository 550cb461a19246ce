import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { pressWaitingForDocument } from './browser/document-arrival'
import { clickAsAPerson } from './browser/styled-control'
import { playwrightCandidateSource } from './replay/candidate-source'
import { guardPressesFromTheStart } from './replay/playwright-replay-page'

/**
 * A located element of the top document is clicked straight at its centre (`direct-click.ts`): the page judges the
 * centre again, a guard on the window stops a press that would reach anything else, and the person's mouse events
 * are sent there. What must hold, judged by the page's own listeners: the press reaches the element the lookup found
 * and nothing else; an element that never stands still (a pulsing call to action, which Playwright's click waits
 * for in vain) is clicked; one out of view is scrolled to first; a disabled one is waited for, as before.
 */
let session: BrowserSession
beforeAll(async () => {
  session = await openBrowser({ viewport: { width: 800, height: 400 } })
})
afterAll(async () => {
  await session.close()
})

const PAGE = `<!doctype html><html><head><style>
  @keyframes pulse { from { transform: scale(1) } to { transform: scale(1.15) } }
  .pulse { animation: pulse 0.4s ease-in-out infinite alternate }
  #cover { position: absolute; left: 0; top: 0; width: 400px; height: 200px; background: #fee; display: none }
</style></head><body>
  <button class="pulse" onclick="events.push('Buy now')">Buy now</button>
  <button id="covered" onclick="events.push('Covered')" onmousemove="document.getElementById('cover').style.display = 'block'">Covered</button>
  <div id="cover" onclick="events.push('the cover')" onmousedown="events.push('cover pressed')"></div>
  <button id="plain" onclick="events.push('Plain')">Plain</button>
  <button id="tracked" onclick="events.push('Tracked')"
    onmouseenter="document.getElementById('tracker').dispatchEvent(new MouseEvent('mousedown', { bubbles: true }))">Tracked</button>
  <span id="tracker" onmousedown="events.push('the tracker saw its mousedown')"></span>
  <button id="later" disabled onclick="events.push('Later')">Later</button>
  <div style="height: 1200px"></div>
  <button id="below" onclick="events.push('Below at ' + Math.round(scrollY > 0 ? 1 : 0))">Below</button>
  <script>window.events = []</script>
</body></html>`

/** The page anew, the pointer resting in its empty right-hand corner (no element under it). */
const fresh = async () => {
  await session.page.mouse.move(799, 399)
  await session.page.setContent(PAGE)
}
const eventsNow = () => session.page.evaluate(() => (window as unknown as { events: string[] }).events)
const byRole = async (name: string) => {
  const [found, ...more] = await playwrightCandidateSource(session.page).byRole('button', name)
  expect(more).toEqual([])
  return found!.handle!
}

describe('the click straight at the located element', () => {
  it('clicks a button that never stands still, which the usual click waits for until its timeout', async () => {
    await fresh()
    const pulsing = await byRole('Buy now')
    // Playwright's own click: "element is not stable", again and again
    await expect(pulsing.click({ timeout: 1_500 })).rejects.toThrow(/Timeout/)
    expect(await eventsNow()).toEqual([])
    await clickAsAPerson(await byRole('Buy now'), { timeout: 1_500 })
    expect(await eventsNow()).toEqual(['Buy now'])
  })

  it('stops a press that something covering the element would get, and then waits as the usual click does', async () => {
    await fresh()
    const covered = await byRole('Covered')
    // the pointer arriving over the button shows a panel over it: the press would land on the panel
    await expect(clickAsAPerson(covered, { timeout: 1_000 })).rejects.toThrow(/intercepts pointer events|Timeout/)
    expect(await eventsNow()).toEqual([])
    // the panel goes: the element is clicked
    await session.page.evaluate(() => {
      document.getElementById('cover')!.remove()
    })
    await clickAsAPerson(await byRole('Covered'), { timeout: 1_000 })
    expect(await eventsNow()).toEqual(['Covered'])
  })

  it("lets the page's own synthetic events through while it guards the press", async () => {
    await fresh()
    // the pointer entering the button makes the page send a mousedown of its own to another element
    await clickAsAPerson(await byRole('Tracked'), { timeout: 2_000 })
    expect(await eventsNow()).toEqual(['the tracker saw its mousedown', 'Tracked'])
  })

  it('scrolls an element below the fold into view first, as a click does', async () => {
    await fresh()
    await clickAsAPerson(await byRole('Below'), { timeout: 2_000 })
    expect(await eventsNow()).toEqual(['Below at 1'])
  })

  it('waits for a disabled element to be enabled, as before', async () => {
    await fresh()
    const later = await byRole('Later')
    await session.page.evaluate(() => {
      setTimeout(() => {
        ;(document.getElementById('later') as HTMLButtonElement).disabled = false
      }, 300)
    })
    await clickAsAPerson(later, { timeout: 3_000 })
    expect(await eventsNow()).toEqual(['Later'])
  })

  it('clicks the element of an earlier lookup of the step, and another element of the same name after a redraw', async () => {
    await fresh()
    const first = await byRole('Buy now')
    for (const name of ['Covered', 'Later', 'Below']) await byRole(name)
    await clickAsAPerson(first, { timeout: 2_000 })
    // the page draws the button again: the kept element is gone, the locator finds the new one
    const again = await byRole('Plain')
    await session.page.evaluate(() => {
      const old = document.getElementById('plain')!
      const fresh = old.cloneNode(true) as HTMLButtonElement
      fresh.onclick = () => (window as unknown as { events: string[] }).events.push('Plain, drawn again')
      old.replaceWith(fresh)
    })
    await clickAsAPerson(again, { timeout: 2_000 })
    expect(await eventsNow()).toEqual(['Buy now', 'Plain, drawn again'])
  })

  it("stops the press before the page's own window listeners see it, when the replay listened from the document's start", async () => {
    // a page that watches every press on its window (analytics, a truth log): with the listeners installed late, a
    // stopped press reaches it first; installed at the document's start, it reaches nothing of the page
    const WATCHED = `${PAGE}<script>addEventListener('pointerdown', (e) => events.push('window saw ' + e.target.id), true)</script>`
    const seen: string[][] = []
    for (const fromTheStart of [false, true]) {
      const context = await session.browser.newContext({ viewport: { width: 800, height: 400 } })
      try {
        const page = await context.newPage()
        await page.route('http://qa.test/**', (route) => route.fulfill({ contentType: 'text/html', body: WATCHED }))
        if (fromTheStart) await guardPressesFromTheStart(page)
        await page.goto('http://qa.test/page')
        const [covered] = await playwrightCandidateSource(page).byRole('button', 'Covered')
        await expect(clickAsAPerson(covered!.handle!, { timeout: 500 })).rejects.toThrow(/Timeout/)
        seen.push(await page.evaluate(() => (window as unknown as { events: string[] }).events))
      } finally {
        await context.close()
      }
    }
    expect(seen).toEqual([['window saw cover'], []])
  })

  it('waits for the document a clicked link or a key asks for, as the usual click does: the next step acts on that page', async () => {
    const context = await session.browser.newContext({ viewport: { width: 800, height: 400 } })
    try {
      const page = await context.newPage()
      await guardPressesFromTheStart(page)
      // page B is slow to answer: a click that returned before its document came would leave the next step on A
      await page.route('http://qa.test/**', async (route) => {
        const slow = new URL(route.request().url()).pathname === '/b'
        if (slow) await new Promise((resolve) => setTimeout(resolve, 800))
        await route.fulfill({
          contentType: 'text/html',
          body: slow
            ? '<title>B</title><p>Page B</p>'
            : '<title>A</title><a href="/b">Next</a> <a href="#more">More</a><form action="/b"><input name="q"><button>Send</button></form>',
        })
      })
      await page.goto('http://qa.test/a')
      const [next] = await playwrightCandidateSource(page).byRole('link', 'Next')
      await clickAsAPerson(next!.handle!, { timeout: 5_000 })
      expect(page.url()).toBe('http://qa.test/b')
      // a link within the page changes nothing to wait for
      await page.goto('http://qa.test/a')
      const [more] = await playwrightCandidateSource(page).byRole('link', 'More')
      await clickAsAPerson(more!.handle!, { timeout: 5_000 })
      expect(page.url()).toBe('http://qa.test/a#more')
      // a form sent is another document asked for
      const [send] = await playwrightCandidateSource(page).byRole('button', 'Send')
      await clickAsAPerson(send!.handle!, { timeout: 5_000 })
      expect(page.url()).toBe('http://qa.test/b?q=')
      // so is a form a key sends (Enter in its field), replayed as a key step
      await page.goto('http://qa.test/a')
      await page.locator('input[name=q]').fill('kim')
      await pressWaitingForDocument(page, 'Enter', 5_000)
      expect(page.url()).toBe('http://qa.test/b?q=kim')
    } finally {
      await context.close()
    }
  })
})
