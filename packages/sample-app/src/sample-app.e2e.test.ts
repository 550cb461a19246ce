import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type SampleApp, startSampleApp } from './start-sample-app'

let app: SampleApp
let browser: Browser
const contexts: BrowserContext[] = []
const pageErrors: string[] = []

beforeAll(async () => {
  app = await startSampleApp()
  browser = await chromium.launch({
    executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
})
afterAll(async () => {
  await browser?.close()
  await app?.close()
})
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()))
  expect(pageErrors.splice(0)).toEqual([])
  app.setVersion('v1')
  app.clearEvents()
})

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 })
  contexts.push(context)
  const page = await context.newPage()
  page.on('pageerror', (error) => pageErrors.push(error.message))
  return page
}

async function loginAs(page: Page, query = ''): Promise<void> {
  await page.goto(`${app.url}/login${query}`)
  await page.getByRole('textbox', { name: /아이디/ }).fill('관리자')
  await page.getByRole('textbox', { name: '비밀번호' }).fill('secret')
  await page.getByRole('button', { name: /^로그인/ }).click()
  await page.waitForURL('**/list')
}

/**
 * A screenshot of a page that has stopped painting: two consecutive captures agree. A loaded CI
 * machine can otherwise catch a page mid-paint; a page that never settles fails here.
 */
async function settledScreenshot(page: Page): Promise<Buffer> {
  let previous = await page.screenshot()
  for (let attempt = 0; attempt < 20; attempt++) {
    await page.waitForTimeout(50)
    const current = await page.screenshot()
    if (current.equals(previous)) return current
    previous = current
  }
  throw new Error(`${page.url()} kept repainting: 20 consecutive screenshots differed`)
}

/**
 * Chromium's rasterizer may round an anti-aliased rounded corner one level differently between two
 * pages (seen on CI: 18 corner pixels of the detail card, off by 1 in one channel). Anything the
 * verifier would call a change (text, colour, position) moves a channel by far more than this.
 */
const RASTER_ROUNDING = 2

/** Fails with both PNGs written to a temporary folder, so a CI failure can be looked at. */
async function expectSamePixels(page: Page, expected: Buffer, actual: Buffer, label: string): Promise<void> {
  if (expected.equals(actual)) return
  const differing = await page.evaluate(
    async ([a, b, tolerance]) => {
      const pixels = async (b64: string) => {
        const img = new Image()
        img.src = `data:image/png;base64,${b64}`
        await img.decode()
        const c = document.createElement('canvas')
        c.width = img.width
        c.height = img.height
        const g = c.getContext('2d')!
        g.drawImage(img, 0, 0)
        return g.getImageData(0, 0, c.width, c.height)
      }
      const [x, y] = [await pixels(a), await pixels(b)]
      if (x.width !== y.width || x.height !== y.height) return -1
      let n = 0
      for (let i = 0; i < x.data.length; i += 4) {
        for (let c = 0; c < 4; c++) {
          if (Math.abs(x.data[i + c]! - y.data[i + c]!) > tolerance) {
            n++
            break
          }
        }
      }
      return n
    },
    [expected.toString('base64'), actual.toString('base64'), RASTER_ROUNDING] as const,
  )
  if (differing === 0) return
  const dir = mkdtempSync(join(tmpdir(), 'qa-sample-app-pixels-'))
  writeFileSync(join(dir, 'expected.png'), expected)
  writeFileSync(join(dir, 'actual.png'), actual)
  expect.fail(`${label}: screenshots of the same state differ in ${differing} pixels; see ${dir}`)
}

const clicked = (truth: string) => app.waitForEvent((e) => e.type === 'click' && e.truth === truth)

/** Decodes a PNG in the page and counts pixels that differ from the top-left pixel. */
async function nonBackgroundPixels(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const img = new Image()
    img.src = `data:image/png;base64,${b64}`
    await img.decode()
    const c = document.createElement('canvas')
    c.width = img.width
    c.height = img.height
    const g = c.getContext('2d')!
    g.drawImage(img, 0, 0)
    const d = g.getImageData(0, 0, c.width, c.height).data
    let n = 0
    for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n++
    return n
  }, png.toString('base64'))
}

describe('sample app in real Chromium', () => {
  it('logs in (click on the icon nested in the button), searches, opens a detail and creates an item on v1', async () => {
    const page = await newPage()
    await page.goto(`${app.url}/login`)
    await page.getByLabel('아이디').fill('관리자')
    await page.getByLabel('비밀번호').fill('secret')
    await page.locator('#login-btn svg').click()
    await page.waitForURL('**/list')
    expect((await clicked('login.submit')).trusted).toBe(true)
    expect(app.events().find((e) => e.type === 'input' && e.truth === 'login.password')?.value).toMatch(/^\*+$/)

    await page.getByRole('searchbox', { name: '검색' }).pressSequentially('물약')
    await expect.poll(() => page.getByText('1개 항목').count()).toBe(1)
    expect(await page.getByRole('button', { name: /치유 물약/ }).isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: /Mana Potion/ }).isVisible()).toBe(false)
    await app.waitForEvent((e) => e.type === 'input' && e.truth === 'list.search' && e.value === '물약')

    await page.getByRole('searchbox').fill('')
    await page.getByRole('button', { name: /Dragon Shield/ }).click()
    await clicked('list.item.2')
    expect(await page.getByRole('complementary', { name: '상세 정보' }).textContent()).toContain(
      'Forged from dragon scales.',
    )

    await page.getByRole('button', { name: '새로 만들기' }).click()
    await clicked('list.create')
    const dialog = page.getByRole('dialog', { name: '새 아이템' })
    await dialog.getByLabel('이름').fill('용의 비늘')
    await dialog.getByLabel('가격').fill('4500')
    await dialog.getByRole('button', { name: '저장' }).click()
    await clicked('modal.save')
    await expect.poll(() => page.getByRole('status').textContent()).toBe('저장되었습니다')
    expect(await dialog.isHidden()).toBe(true)
    expect(await page.getByRole('button', { name: /용의 비늘/ }).textContent()).toContain('4,500원')
  })

  it('saves settings on v1 and v2, and the ground truth tells the real Save from the decoy', async () => {
    for (const version of ['v1', 'v2'] as const) {
      app.setVersion(version)
      app.clearEvents()
      const page = await newPage()
      await loginAs(page)
      await page.getByRole('link', { name: '설정' }).click()
      await page.waitForURL('**/settings')
      await page.getByLabel('언어').selectOption('en')
      await page.getByRole('radio', { name: '다크' }).check()
      await page.getByRole('button', { name: version === 'v1' ? '저장' : '저장하기', exact: true }).click()
      const save = await clicked('settings.save')
      expect(save.variant).toBe(version)
      await expect.poll(() => page.getByRole('status').textContent()).toBe('저장되었습니다')
      expect(await page.evaluate(() => document.body.className)).toBe('theme-dark')
      expect(app.events().some((e) => e.truth === 'settings.draft')).toBe(false)
      if (version === 'v2') {
        // A class-only locator lands on the decoy; the ground truth sees it.
        await page.locator('.button--primary').first().click()
        await clicked('settings.draft')
        await expect.poll(() => page.getByRole('status').textContent()).toBe('임시 저장되었습니다')
      }
      await page.reload()
      expect(await page.getByLabel('언어').inputValue()).toBe('en')
    }
  })

  it('keeps the ground-truth marker out of the DOM, shadow roots, iframes and accessible names', async () => {
    const page = await newPage()
    await loginAs(page, '?v=2')
    for (const path of ['/list', '/settings', '/widgets', '/frame']) {
      await page.goto(app.url + path)
      const leaks = await page.evaluate(() => {
        const count = (root: Document | ShadowRoot): number =>
          root.querySelectorAll('[data-t]').length +
          Array.from(root.querySelectorAll('*')).reduce((n, el) => n + (el.shadowRoot ? count(el.shadowRoot) : 0), 0)
        const frames = Array.from(document.querySelectorAll('iframe')).map((f) =>
          f.contentDocument ? count(f.contentDocument) : 0,
        )
        return count(document) + frames.reduce((a, b) => a + b, 0)
      })
      expect(leaks, path).toBe(0)
      const aria = await page.locator('body').ariaSnapshot()
      expect(aria, path).not.toMatch(/login\.|list\.|settings\.|widget\.|frame\.|nav\./)
    }
  })

  it('reports clicks inside an open shadow root and a same-origin iframe', async () => {
    const page = await newPage()
    await loginAs(page)
    await page.goto(`${app.url}/widgets`)
    await page.getByRole('button', { name: '더하기' }).click()
    await clicked('widget.add')
    expect(await page.locator('qa-stepper output').textContent()).toBe('1')

    await page.goto(`${app.url}/frame`)
    const frame = page.frameLocator('iframe[title="메모 프레임"]')
    await frame.getByLabel('메모').fill('안녕하세요')
    await frame.getByRole('button', { name: '전송' }).click()
    const send = await clicked('frame.send')
    expect(send).toMatchObject({ frame: true, page: '/frame-inner', trusted: true })
    expect(await frame.locator('output').textContent()).toBe('전송됨: 안녕하세요')
  })

  it('shifts the layout by 80 px with layout-shift and changes dynamic classes with the seed', async () => {
    const page = await newPage()
    await loginAs(page)
    const top = async (query: string) => {
      await page.goto(`${app.url}/list${query}`)
      return (await page.getByRole('button', { name: /전설의 검/ }).boundingBox())!.y
    }
    expect((await top('?m=layout-shift')) - (await top('?m=none'))).toBe(80)
    await page.goto(`${app.url}/widgets?m=none&seed=1`)
    const a = await page.getByRole('button', { name: '구매하기' }).getAttribute('class')
    await page.goto(`${app.url}/widgets?seed=2`)
    const b = await page.getByRole('button', { name: '구매하기' }).getAttribute('class')
    expect(a).toMatch(/^css-[0-9a-z]{6}$/)
    expect(b).toMatch(/^css-[0-9a-z]{6}$/)
    expect(a).not.toBe(b)
    await page.getByRole('button', { name: '구매하기' }).click()
    await clicked('widget.buy')
  })

  it('renders the same v1 screenshots of one state across two loads (up to rasterizer rounding)', async () => {
    const page = await newPage()
    await loginAs(page)
    for (const path of ['/list', '/settings', '/widgets']) {
      await page.goto(app.url + path)
      const first = await settledScreenshot(page)
      await page.goto(app.url + path)
      await expectSamePixels(page, first, await settledScreenshot(page), path)
    }
    const fresh = await newPage()
    await loginAs(fresh)
    await page.goto(`${app.url}/list`)
    for (const p of [page, fresh]) {
      await p.getByRole('button', { name: /Silver Ring/ }).click()
      await expect.poll(() => p.locator('[data-role=detail-name]').textContent()).toBe('Silver Ring')
    }
    await expectSamePixels(page, await settledScreenshot(page), await settledScreenshot(fresh), 'list detail')
  })

  it('renders Korean glyphs (not tofu) and non-blank pages', async () => {
    const page = await newPage()
    await page.goto(`${app.url}/login`)
    const width = await page
      .locator('#login-btn span', { hasText: '로그인' })
      .evaluate((el) => el.getBoundingClientRect().width)
    expect(width).toBeGreaterThan(20)
    // Tofu boxes look alike; real Hangul glyphs of different syllables do not.
    const distinct = await page.evaluate(() => {
      const draw = (ch: string) => {
        const c = document.createElement('canvas')
        c.width = 40
        c.height = 40
        const g = c.getContext('2d')!
        g.font = '32px "Noto Sans CJK KR"'
        g.fillText(ch, 2, 32)
        return Array.from(g.getImageData(0, 0, 40, 40).data).join(',')
      }
      return new Set(['로', '그', '인', '저', '장']).size === new Set(['로', '그', '인', '저', '장'].map(draw)).size
    })
    expect(distinct).toBe(true)
    expect(await page.evaluate(() => document.fonts.check('16px "Noto Sans CJK KR"', '로그인'))).toBe(true)
    const shot = await page.locator('#login-btn').screenshot()
    expect(await nonBackgroundPixels(page, shot)).toBeGreaterThan(100)
    expect(await nonBackgroundPixels(page, await page.screenshot())).toBeGreaterThan(5000)
  })
})
