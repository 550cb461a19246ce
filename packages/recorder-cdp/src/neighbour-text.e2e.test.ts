import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { describeElementsInPage, type PageElementDescription } from './injected/page-scripts'

/**
 * The texts around an element (`neighborText`) are compared word by word at replay. What a real page draws must
 * come out as words a person reads: sneat's navbar has a search field beside a list whose items sit side by side
 * ("Export" put there by a redesign, then the GitHub "Star" button), and innerText reads that list "ExportStar".
 */
let session: BrowserSession
beforeAll(async () => {
  session = await openBrowser({ viewport: { width: 800, height: 300 } })
})
afterAll(async () => {
  await session.close()
})

const neighboursOf = async (html: string, selector: string): Promise<string[]> => {
  await session.page.setContent(`<!doctype html><html><body>${html}</body></html>`)
  const [d] = (await session.page.locator(selector).evaluateAll(describeElementsInPage, {})) as PageElementDescription[]
  return d?.neighborText ?? []
}

describe('neighbour texts are words a person reads', () => {
  it('keeps side-by-side inline elements apart (sneat navbar: "Export" "Star", not "ExportStar")', async () => {
    const html = `<nav><div class="search"><input placeholder="Search..."></div>
      <ul style="display:flex;list-style:none"><li><a href="#">Export</a><a href="#">Star</a></li><li><span>John</span><b>Doe</b></li></ul></nav>`
    const texts = await neighboursOf(html, 'input')
    expect(texts[0]).toBe('Export Star John Doe')
  })

  it('leaves out what is not drawn (a hidden span, a script) and keeps a plain text as it is', async () => {
    const html = `<div><button>Save</button><p>Invoice <span style="display:none">secret</span><b>#42</b></p>
      <script>window.x = 1</script></div>`
    const texts = await neighboursOf(html, 'button')
    expect(texts).toEqual(['Invoice #42'])
  })
})
