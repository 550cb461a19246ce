import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { clickAsAPerson } from './browser/styled-control'
import { playwrightCandidateSource } from './replay/candidate-source'

/**
 * A role lookup that finds one element hands the step a locator narrowed to that element's parent (its path of tags
 * and places), so the click does not run the role query over the whole page again. What must hold: the narrowed
 * locator reaches that very element and never another one, a class change on the way (a hover, `active`) does not
 * lose it, and where no such path exists (a shadow root, several matches) the page-wide locator is kept.
 */
let session: BrowserSession
beforeAll(async () => {
  session = await openBrowser({ viewport: { width: 800, height: 400 } })
})
afterAll(async () => {
  await session.close()
})

const PAGE = `<!doctype html><html><body>
  <main id="app">
    <section class="card"><div class="card-body"><button onclick="clicked.push('first Save')">Save</button></div></section>
    <section class="card"><div class="card-body">
      <button onclick="clicked.push('Print')">Print</button><button onclick="clicked.push('Export')">Export</button>
    </div></section>
  </main>
  <div id="host"></div>
  <script>
    window.clicked = []
    ;(() => {
      const root = document.getElementById('host').attachShadow({ mode: 'open' })
      root.innerHTML = '<span><button>Shadowed</button></span>'
      root.querySelector('button').onclick = () => clicked.push('Shadowed')
    })()
  </script>
</body></html>`

const clickedNow = () => session.page.evaluate(() => (window as unknown as { clicked: string[] }).clicked)

describe('a role lookup with one match narrows the click to the element parent', () => {
  it('clicks the found element through its parent path, also after the ancestors classes changed', async () => {
    await session.page.setContent(PAGE)
    const [found, ...more] = await playwrightCandidateSource(session.page).byRole('button', 'Export')
    expect(more).toEqual([])
    expect(String(found?.handle)).toContain(':light(#app > section:nth-of-type(2) > div)')
    // a hover or a state change rewrites the classes along the way: the path names none of them
    await session.page.evaluate(() => {
      for (const el of document.querySelectorAll('section, .card-body')) el.className = 'card active show'
    })
    await clickAsAPerson(found!.handle!, { timeout: 2_000 })
    expect(await clickedNow()).toEqual(['Export'])
  })

  it('reaches nothing rather than another control when the parent now holds other buttons, and the click looks again', async () => {
    await session.page.setContent(PAGE)
    const [found] = await playwrightCandidateSource(session.page).byRole('button', 'Print')
    // the two cards swap places: the recorded path now leads to the card with "Save"
    await session.page.evaluate(() => {
      const app = document.getElementById('app')!
      app.prepend(app.children[1]!)
    })
    expect(await found!.handle!.count()).toBe(0)
    expect(await clickedNow()).toEqual([])
    // the click then finds it by role and name wherever it is now (after the narrowed lookup's timeout)
    await clickAsAPerson(found!.handle!, { timeout: 1_000 })
    expect(await clickedNow()).toEqual(['Print'])
  })

  it('keeps the page-wide lookup in a shadow root and for several matches', async () => {
    await session.page.setContent(PAGE)
    const [shadowed] = await playwrightCandidateSource(session.page).byRole('button', 'Shadowed')
    expect(String(shadowed?.handle)).not.toContain(':light(')
    await clickAsAPerson(shadowed!.handle!, { timeout: 2_000 })
    expect(await clickedNow()).toEqual(['Shadowed'])

    await session.page.evaluate(() => {
      document.querySelector('.card-body')!.insertAdjacentHTML('beforeend', '<button>Print</button>')
    })
    const both = await playwrightCandidateSource(session.page).byRole('button', 'Print')
    expect(both).toHaveLength(2)
    for (const c of both) expect(String(c.handle)).not.toContain(':light(')
  })
})
