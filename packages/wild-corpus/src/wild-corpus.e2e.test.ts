import { CHROMIUM_ARGS } from '@qa/recorder-cdp'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { askTruth } from './page-script'
import { type CorpusServer, startCorpusServer } from './start-corpus-server'

let corpus: CorpusServer
let browser: Browser

beforeAll(async () => {
  corpus = await startCorpusServer()
  browser = await chromium.launch({
    executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS],
  })
})
afterAll(async () => {
  await browser?.close()
  await corpus?.close()
})

/** Opens a page and lists every request that left loopback or failed. */
async function open(url: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
  const problems: string[] = []
  page.on('request', (r) => {
    if (!r.url().startsWith(corpus.url) && !/^(data|blob):/.test(r.url())) problems.push(`external ${r.url()}`)
  })
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`)
  })
  await page.goto(url, { waitUntil: 'load' })
  return { page, problems }
}

describe('wild corpus', () => {
  it('serves an admin page offline and reports the element a trusted click reached', async () => {
    const { page, problems } = await open(corpus.pageUrl('sneat/html/auth-login-basic.html'))
    const button = page.getByRole('button', { name: 'Sign in' })
    const truth = await button.evaluate(askTruth)
    expect(truth).toMatch(/^html\/body\[0\]\//)
    await button.evaluate((el) => el.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))) // untrusted: never reported
    const box = await button.boundingBox()
    if (!box) throw new Error('no box')
    corpus.truth.clear()
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
    const click = await corpus.truth.waitFor((e) => e.kind === 'click', 5000)
    expect(click?.chain).toContain(truth)
    expect(corpus.truth.events().filter((e) => e.kind === 'click')).toHaveLength(1)
    expect(corpus.truth.events().filter((e) => e.kind === 'pointerdown')).toHaveLength(1)
    expect(problems).toEqual([])
    await page.close()
  })

  it('renders a React SPA offline (swagger-ui on the local OpenAPI document)', async () => {
    const { page, problems } = await open(corpus.pageUrl('swagger-ui/index.html'))
    await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 5000 })
    expect(await page.locator('.opblock').count()).toBe(7) // the 7 operations of corpusOpenApi
    expect(problems).toEqual([])
    await page.close()
  })

  it('keeps truth ids through mutations, and removal leaves a look-alike', async () => {
    const { page } = await open(corpus.pageUrl('stisla/bootstrap-buttons.html'))
    const target = page.locator('a.btn, button.btn').filter({ visible: true }).nth(3)
    const truth = await target.evaluate(askTruth)
    const label = ((await target.textContent()) ?? '').trim()
    await page.close()

    const mutated = await corpus.variant({
      ops: ['renamed-ids', 'renamed-classes', 'tag-changes', 'extra-wrappers', 'layout-shift'],
    })
    const m = await open(mutated.pageUrl('stisla/bootstrap-buttons.html'))
    const again = m.page.getByText(label, { exact: true }).filter({ visible: true })
    const truths = await Promise.all((await again.all()).map((l) => l.evaluate(askTruth)))
    expect(truths).toContain(truth)
    const hit = (await again.all())[truths.indexOf(truth)]
    await hit?.click()
    const click = await mutated.truth.waitFor((e) => e.kind === 'click', 5000)
    expect(click?.chain).toContain(truth)
    expect(click?.run).toBe(mutated.name)
    await m.page.close()
    await mutated.close()

    const removal = await corpus.variant({ ops: ['removal'], remove: [truth] })
    const r = await open(removal.pageUrl('stisla/bootstrap-buttons.html'))
    const all = await r.page.locator('a, button').evaluateAll((els) =>
      els.map((el) => {
        const detail: { truth?: string } = {}
        el.dispatchEvent(new CustomEvent('qa-corpus-truth', { detail, bubbles: true }))
        return detail.truth ?? ''
      }),
    )
    expect(all).not.toContain(truth)
    expect(all).toContain(`decoy:${truth}`)
    await r.page.close()
    await removal.close()
  })

  it('the look-alike of an icon-only button shows another glyph and a word (sb-admin ☰)', async () => {
    const { page } = await open(corpus.pageUrl('sb-admin/dist/index.html'))
    const toggle = page.locator('#sidebarToggle')
    const truth = await toggle.evaluate(askTruth)
    const glyph = await toggle.locator('svg').getAttribute('data-icon')
    await page.close()
    const removal = await corpus.variant({ ops: ['removal'], remove: [truth] })
    const r = await open(removal.pageUrl('sb-admin/dist/index.html'))
    const lookAlike = r.page.locator('nav > button').first()
    expect(await lookAlike.evaluate(askTruth)).toBe(`decoy:${truth}`)
    expect(await lookAlike.getAttribute('title')).toMatch(/^[A-Z][a-z]+$/)
    expect(await lookAlike.locator('svg').getAttribute('data-icon')).not.toBe(glyph)
    await r.page.close()
    await removal.close()
  })

  it('applies operators chosen by the /m/<run>/<ops>/ path prefix', async () => {
    const { page } = await open(`${corpus.url}/m/r7/layout-shift/sb-admin/dist/login.html`)
    const button = page.getByRole('link', { name: 'Login' })
    const plain = await open(corpus.pageUrl('sb-admin/dist/login.html'))
    const y0 = (await plain.page.getByRole('link', { name: 'Login' }).boundingBox())?.y ?? 0
    const y1 = (await button.boundingBox())?.y ?? 0
    expect(y1 - y0).toBeGreaterThan(40)
    await button.click({ noWaitAfter: true })
    const click = await corpus.truth.waitFor((e) => e.kind === 'click' && e.run === 'r7', 5000)
    expect(click?.chain).toContain(await plain.page.getByRole('link', { name: 'Login' }).evaluate(askTruth))
    await page.close()
    await plain.page.close()
  })

  it('restyled: another typeface and colours, the controls and their words stay, blocks move', async () => {
    const page = 'sb-admin/dist/login.html'
    const plain = await open(corpus.pageUrl(page))
    const restyled = await corpus.variant({ ops: ['restyled'] })
    const r = await open(restyled.pageUrl(page))
    const look = (p: Page) =>
      p.getByRole('link', { name: 'Login' }).evaluate((el) => {
        const s = getComputedStyle(el)
        const box = el.getBoundingClientRect()
        return { font: s.fontFamily, radius: s.borderTopLeftRadius, background: s.backgroundColor, x: box.x, y: box.y }
      })
    const before = await look(plain.page)
    const after = await look(r.page)
    expect(after.font).toMatch(/Georgia/)
    expect(after.radius).toBe('0px')
    expect(after.background).not.toBe(before.background)
    expect([after.x, after.y]).not.toEqual([before.x, before.y])
    // every control of the page is still there, with its words and its truth id
    const controls = (p: Page) =>
      p.locator('a, button, input, label').evaluateAll((els) =>
        els.map((el) => {
          const detail: { truth?: string } = {}
          el.dispatchEvent(new CustomEvent('qa-corpus-truth', { detail, bubbles: true }))
          return `${detail.truth} ${(el.textContent ?? '').trim()}`
        }),
      )
    expect(await controls(r.page)).toEqual(await controls(plain.page))
    await plain.page.close()
    await r.page.close()
    await restyled.close()
  })

  it("a <select> changed by a script (Playwright's selectOption) is reported apart, as untrusted-change", async () => {
    const { page } = await open(corpus.pageUrl('gentelella/dist/production/form.html'))
    const select = page.locator('#client')
    const truth = await select.evaluate(askTruth)
    corpus.truth.clear()
    await select.selectOption({ index: 2 })
    const changed = await corpus.truth.waitFor((e) => e.kind === 'untrusted-change', 5000)
    expect(changed).toMatchObject({ truth, value: await select.inputValue() })
    // never as a trusted change, and nothing else untrusted is reported
    expect(corpus.truth.events().map((e) => e.kind)).toEqual(['untrusted-change'])
    await page.close()
  })
})
