// The click point of a located element must land on that element, never on another control nested in it
// (bench/upgrades, redoc 2.0.0 → 2.5.4: the side menu group "items" became an `li[role=menuitem]` that holds its
// open sub-list; a click at its centre was a click on the sub-item "Create an item", and the verdict passed it).
// On the npm-installed redoc 2.5.4, served offline, judged by the page's own listeners (truth ids in a closure).
import { clickAsAPerson, openBrowser } from '@qa/recorder-cdp'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { releaseCdn, releasePairs } from './releases'
import { type CorpusServer, startCorpusServer } from './start-corpus-server'

const truthOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const detail: { truth?: string } = {}
    el.dispatchEvent(new CustomEvent('qa-corpus-truth', { detail, bubbles: true, composed: true }))
    return detail.truth ?? ''
  })

describe('the click point of a found element lands on the element itself', () => {
  let server: CorpusServer
  let session: Awaited<ReturnType<typeof openBrowser>>
  beforeAll(async () => {
    const pair = releasePairs.find((p) => p.id === 'redoc-200-254')
    if (!pair) throw new Error('no redoc release pair')
    server = await startCorpusServer({ kits: [pair.to], cdn: releaseCdn })
    session = await openBrowser({ viewport: { width: 1280, height: 720 } })
  }, 60_000)
  afterAll(async () => {
    await session?.close()
    await server?.close()
  })

  it("redoc 2.5.4: an open menu group is clicked on its own label, not at its centre (a sub-item's)", async () => {
    const { page } = session
    await page.goto(server.pageUrl('redoc/index.html'))
    await page.locator('.menu-content li').first().waitFor({ timeout: 30_000 })
    const label = 'label.-depth1:has-text("items")'
    const group = page.locator(`li[role="menuitem"]:has(> ${label})`)
    // open the group (its sub-list appears inside the same li)
    if ((await page.locator(`li:has(> ${label}) ul li`).first().isVisible()) === false)
      await page.locator(label).click()
    await page.locator(`li:has(> ${label}) ul li`).first().waitFor()
    // the precondition that made the wrong click: the group's centre is a sub-item, a control of its own
    const atCentre = await group.evaluate((li) => {
      const r = li.getBoundingClientRect()
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
      return hit?.closest('li[role="menuitem"]') !== li ? (hit?.closest('li')?.textContent ?? '') : ''
    })
    expect(atCentre, 'the open group centre should be one of its sub-items').not.toBe('')

    const labelTruth = await truthOf(page, label)
    const before = server.truth.events().length
    await clickAsAPerson(group, { timeout: 5_000 })
    const down = await server.truth.waitFor(
      (e) => e.kind === 'pointerdown' && server.truth.events().indexOf(e) >= before,
      5_000,
    )
    expect(down, 'the click reached the page').toBeDefined()
    // the group's own label got the click (not "Create an item" or another sub-item inside the group)
    expect(down?.chain, `${down?.tag} "${down?.label}"`).toContain(labelTruth)
  }, 90_000)

  it('a container every point of which is another control is not clicked at all', async () => {
    const { page } = session
    await page.setContent(`
      <div id="menu" role="menuitem" style="width:300px;padding:0">
        <button style="display:block;width:300px;height:40px;margin:0;border:0">Inner</button>
      </div>
      <script>
        window.clicks = []
        addEventListener('pointerdown', (e) => clicks.push(e.target.textContent), true)
      </script>`)
    await expect(clickAsAPerson(page.locator('#menu'), { timeout: 2_000 })).rejects.toThrow(/another control inside it/)
    expect(await page.evaluate(() => (window as unknown as { clicks: string[] }).clicks)).toEqual([])
  }, 60_000)
})
