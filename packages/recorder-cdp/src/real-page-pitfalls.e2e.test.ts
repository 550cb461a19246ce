import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Action, TestCase } from '@qa/model'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureClicks, type Kit, serveKit, type TruthClick } from '../test/kit-server'
import { type BrowserSession, openBrowser } from './browser/browser'
import { exportDevtoolsRecording } from './devtools'
import { createWebRecorder, type WebRecorder } from './record/recorder'
import { replayWebCase, type WebReplayOptions } from './replay/replayer'

/**
 * Pitfalls of real pages, each on a page nobody here wrote — UI kits installed from
 * npm (sneat, gentelella: devDependencies of this package), served as they ship. A short viewport
 * (1280×400) makes the pages scroll. Which element received each click is read by a capture-phase listener
 * the tool cannot see (test/kit-server.ts).
 */
const VIEWPORT = { width: 1280, height: 400 }
const SNEAT: Kit = 'sneat-bootstrap-html-admin-template-free'
const GENTELELLA: Kit = 'gentelella'
const SHOELACE: Kit = '@shoelace-style/shoelace'

/**
 * Shoelace ships web components (open shadow roots, slotted labels) and no pages: this page only places its
 * components, served from the npm package's own `cdn/` bundle.
 */
const SHOELACE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Shoelace</title>
<link rel="stylesheet" href="/themes/light.css"><script type="module" src="/shoelace.js"></script></head>
<body style="font-family: sans-serif; padding: 20px">
<sl-button id="save" variant="primary">Save draft</sl-button>
<sl-icon-button name="gear" label="Settings"></sl-icon-button>
<sl-dropdown><sl-button slot="trigger" caret>Export</sl-button>
  <sl-menu><sl-menu-item value="csv">As CSV</sl-menu-item><sl-menu-item value="pdf">As PDF</sl-menu-item></sl-menu></sl-dropdown>
<sl-tab-group><sl-tab slot="nav" panel="general">General</sl-tab><sl-tab slot="nav" panel="custom">Custom</sl-tab>
  <sl-tab-panel name="general">General settings</sl-tab-panel>
  <sl-tab-panel name="custom"><sl-button id="apply">Apply</sl-button></sl-tab-panel></sl-tab-group>
<sl-input label="Your name" placeholder="Name"></sl-input>
</body></html>`

const servers = new Map<Kit, Awaited<ReturnType<typeof serveKit>>>()
const sessions: BrowserSession[] = []

beforeAll(async () => {
  servers.set(SNEAT, await serveKit(SNEAT))
  servers.set(GENTELELLA, await serveKit(GENTELELLA, 'dist'))
  servers.set(SHOELACE, await serveKit(SHOELACE, 'cdn', { '/components.html': SHOELACE_PAGE }))
})
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()))
  for (const s of servers.values()) await s.close()
})

const urlOf = (kit: Kit, path: string) => `${servers.get(kit)!.url}${path}`

/** A browser whose every page reports the clicks it receives; `init` runs in every page before its scripts. */
async function browser(init?: { script: string }) {
  const session = await openBrowser({ viewport: VIEWPORT })
  sessions.push(session)
  const truth = await captureClicks(session.context)
  if (init) await session.context.addInitScript({ content: init.script })
  return { session, truth }
}

/** A point inside the first element matching `selector` that lies fully in the viewport (below y = 60). */
async function inView(page: Page, selector: string, dx = 0.5): Promise<[number, number]> {
  const boxes = await page
    .locator(selector)
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))
  const box = boxes.find((b) => b.width > 0 && b.y >= 60 && b.y + b.height <= VIEWPORT.height)
  if (!box) throw new Error(`No ${selector} in view: ${JSON.stringify(boxes.slice(0, 3))}`)
  return [box.x + box.width * dx, box.y + box.height / 2]
}

type Step = (rec: WebRecorder) => Promise<unknown>

/** Longer than the test may take: a step that waits for a busy page to go quiet fails the test by its timeout. */
const WAIT_OUT_MS = 600_000

async function record(kit: Kit, path: string, steps: Step[], init?: { script: string }, settleTimeoutMs?: number) {
  const dir = await mkdtemp(join(tmpdir(), 'qa-pitfall-'))
  const { session, truth } = await browser(init)
  const rec = await createWebRecorder(session.page, {
    caseFile: join(dir, 'case.json'),
    ...(settleTimeoutMs ? { settleTimeoutMs } : {}),
  })
  await rec.start(urlOf(kit, path))
  for (const step of steps) await step(rec)
  await rec.save()
  const testCase = rec.testCase()
  return { dir, testCase, truth, rec }
}

async function replay(
  testCase: TestCase,
  dir: string,
  init?: { script: string },
  extra: Partial<WebReplayOptions> = {},
) {
  const { session, truth } = await browser(init)
  const outcome = await replayWebCase(testCase, { page: session.page, caseDir: dir, verify: false, ...extra })
  return { outcome, truth, session }
}

/** The recorded element is the one that received the click, or an ancestor of it (an icon's button). */
function expectRecordedTheClickedElement(action: Action, click: TruthClick | undefined) {
  expect(click, `no click reached the page for "${action.description}"`).toBeDefined()
  const id = action.identity
  expect(id, `no identity recorded for "${action.description}"`).toBeTruthy()
  const near = (a: number, b: number) => Math.abs(a - b) <= 1.5
  const same = click!.chain.find(
    (n) =>
      n.tag === id!.tagName &&
      near(n.box.x, id!.boundingBox.x) &&
      near(n.box.y, id!.boundingBox.y) &&
      near(n.box.width, id!.boundingBox.width) &&
      near(n.box.height, id!.boundingBox.height),
  )
  expect(
    same,
    `recorded ${id!.tagName} at ${JSON.stringify(id!.boundingBox)} for a click that reached ${click!.key} at ${JSON.stringify(click!.chain[0]?.box)}`,
  ).toBeDefined()
}

const clicksOf = (tc: TestCase) => tc.actions.filter((a) => a.actionType === 'click')
const keys = (truth: TruthClick[]) => truth.map((c) => `${c.path} ${c.key}`)

describe('real-page pitfalls', () => {
  it('1+5. after the page scrolled, a click records the element that received it, the DevTools export targets it, and the dropdown item opened by the previous click is found on replay (sneat ui-dropdowns)', async () => {
    const { testCase, truth, rec, dir } = await record(SNEAT, '/html/ui-dropdowns.html', [
      (r) => r.scroll(400, { x: 700, y: 300 }),
      async (r) => r.click(...(await inView(r.page, 'button.dropdown-toggle:not(.dropdown-toggle-split)', 0.3))),
      async (r) => r.click(...(await inView(r.page, '.dropdown-menu.show .dropdown-item'))),
    ])
    expect(await rec.page.evaluate(() => window.scrollY)).toBeGreaterThan(300)
    const [toggle, item] = clicksOf(testCase) as [Action, Action]
    expect(truth.map((t) => t.key)).toEqual([expect.stringMatching(/^button "/), 'a "Action"'])
    expectRecordedTheClickedElement(toggle, truth[0])
    expectRecordedTheClickedElement(item, truth[1])
    expect(toggle.identity).toMatchObject({ axRole: 'button', axName: truth[0]!.key.slice(8, -1) })
    expect(item.identity).toMatchObject({ axRole: 'link', axName: 'Action' })

    // the DevTools export of the toggle step: its CSS selectors name the element that was clicked
    const exported = exportDevtoolsRecording(testCase).recording.steps.filter((s) => s.type === 'click')
    const cssPaths = (exported[0]!.selectors as string[][]).filter(
      (p) => p.length === 1 && !/^(aria|xpath|text|pierce)\//.test(p[0]!),
    )
    expect(cssPaths.length).toBeGreaterThan(0)
    for (const [css] of cssPaths) {
      const box = (await rec.page.locator(css!).first().boundingBox())!
      expect(Math.abs(box.x - toggle.identity!.boundingBox.x), css).toBeLessThan(1)
      expect(Math.abs(box.y - toggle.identity!.boundingBox.y), css).toBeLessThan(1)
    }
    await rec.close()

    // replay from the top of a fresh page: the recorded scroll, the toggle, then the item it reveals
    const replayed = await replay(testCase, dir)
    expect(replayed.outcome.replayResults.map((r) => r.success)).toEqual([true, true, true])
    expect(keys(replayed.truth)).toEqual(keys(truth))
  })

  it('3+5+6+4. a scrolled sidebar (with a pointer-events:none scroll shadow over it), a submenu it reveals, a link that opens a new tab, and a button below the fold there (sneat)', async () => {
    const { testCase, truth, rec, dir } = await record(SNEAT, '/html/index.html', [
      // the wheel over the menu scrolls the menu, not the page
      (r) => r.scroll(200, { x: 120, y: 300 }),
      async (r) => r.click(...(await inView(r.page, '.menu-toggle:has-text("Authentications")', 0.4))),
      async (r) => r.click(...(await inView(r.page, 'a[href="auth-login-basic.html"]', 0.3))),
      async (r) => r.click(...(await inView(r.page, '#email', 0.3))),
      (r) => r.type('someone'),
      (r) => r.scroll(200),
      async (r) => r.click(...(await inView(r.page, 'button:has-text("Sign in")'))),
    ])
    expect(truth.map((t) => `${t.path} ${t.key}`)).toEqual([
      '/html/index.html a "Authentications"',
      '/html/index.html a "Login"',
      '/html/auth-login-basic.html input ""',
      '/html/auth-login-basic.html button "Sign in"',
    ])
    const clicks = clicksOf(testCase)
    for (const [i, a] of clicks.entries()) expectRecordedTheClickedElement(a, truth[i])
    // not the scroll shadow (pointer-events: none) lying over the menu's top once it scrolled
    expect(clicks[0]!.identity).toMatchObject({ tagName: 'a', axName: expect.stringMatching(/Authentications$/) })
    // the link opened a tab: the step says so, and the steps after it were recorded there
    expect(clicks[1]!.opensPage).toBe(true)
    expect(testCase.actions.filter((a) => a.opensPage)).toHaveLength(1)
    expect(clicks[2]!.identity).toMatchObject({ axRole: 'textbox', id: 'email' })
    expect(clicks[3]!.identity).toMatchObject({ axRole: 'button', axName: 'Sign in' })
    await rec.close()

    const replayed = await replay(testCase, dir)
    expect(replayed.outcome.replayResults.map((r) => r.success)).toEqual(testCase.actions.map(() => true))
    expect(keys(replayed.truth)).toEqual(keys(truth))
    expect(replayed.session.context.pages()).toHaveLength(2)

    // the link no longer opens a tab: the step fails loudly instead of the flow going on in the wrong page
    const sameTab = await replay(testCase, dir, {
      script: `addEventListener('DOMContentLoaded', () => document.querySelectorAll('a[target="_blank"]').forEach((a) => a.removeAttribute('target')))`,
    })
    const opener = testCase.actions.indexOf(clicks[1]!)
    expect(sameTab.outcome.replayResults[opener]).toMatchObject({ success: false })
    expect(sameTab.outcome.replayResults[opener]!.errorMessage).toMatch(/new page.*none opened/)
  })

  it('6. interactive recording: the click that opened a tab is marked, and what the person does next is recorded in that tab (sneat)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-pitfall-'))
    const { session, truth } = await browser()
    const rec = await createWebRecorder(session.page, { caseFile: join(dir, 'case.json'), screenshots: false })
    await rec.start(urlOf(SNEAT, '/html/index.html'))
    const listening = await rec.listen()
    const human = async (selector: string, dx = 0.5) => {
      const page = rec.page
      const [x, y] = await inView(page, selector, dx)
      await page.mouse.move(x, y)
      await page.mouse.down()
      await page.waitForTimeout(100)
      await page.mouse.up()
      await page.waitForTimeout(400)
    }
    await session.page.mouse.move(120, 300)
    await session.page.mouse.wheel(0, 200)
    await session.page.waitForTimeout(300)
    await human('.menu-toggle:has-text("Authentications")', 0.4)
    // the submenu slides open (a CSS transition, slower under load): aim once it has come to rest and the link
    // is what a click at its point reaches (its first item keeps its place while the list grows below it, clipped)
    const reachable = (at: [number, number]) =>
      rec.page.evaluate(
        ([x, y]) => document.elementFromPoint(x, y)?.closest('a')?.getAttribute('href') === 'auth-login-basic.html',
        at,
      )
    await expect
      .poll(
        async () => {
          const first = await inView(rec.page, 'a[href="auth-login-basic.html"]', 0.3).catch(() => null)
          await rec.page.waitForTimeout(150)
          const again = await inView(rec.page, 'a[href="auth-login-basic.html"]', 0.3).catch(() => null)
          return first !== null && JSON.stringify(first) === JSON.stringify(again) && (await reachable(again!))
        },
        { timeout: 15_000 },
      )
      .toBe(true)
    await human('a[href="auth-login-basic.html"]', 0.3)
    await expect.poll(() => rec.page.url(), { timeout: 15_000 }).toMatch(/auth-login-basic\.html$/)
    await rec.page.waitForLoadState('load')
    await rec.page.waitForTimeout(500)
    await human('#email', 0.3)
    await rec.page.keyboard.type('someone', { delay: 20 })
    await rec.page.waitForTimeout(300)
    await listening.stop()
    const actions = rec.testCase().actions.filter((a) => a.actionType !== 'scroll')
    expect(actions.map((a) => [a.actionType, a.opensPage ?? false])).toEqual([
      ['click', false],
      ['click', true],
      ['click', false],
      ['type', false],
    ])
    expect(truth.map((t) => t.path)).toEqual(['/html/index.html', '/html/index.html', '/html/auth-login-basic.html'])
    expect(actions[2]!.identity).toMatchObject({ axRole: 'textbox', id: 'email' })
    expect(actions[3]).toMatchObject({ text: 'someone' })
    await rec.close()
  })

  it('2. a target that ends up under the fixed top bar after the recorded scroll is clicked, not the bar (gentelella)', async () => {
    const { testCase, truth, dir } = await record(GENTELELLA, '/production/index.html', [
      (r) => r.scroll(300, { x: 700, y: 300 }),
      async (r) => r.click(...(await inView(r.page, 'button.chart-tab:has-text("30 days")'))),
    ])
    expect(truth.map((t) => t.key)).toEqual(['button "30 days"'])
    expectRecordedTheClickedElement(clicksOf(testCase)[0]!, truth[0])
    // the content above moved up by 80 px: after the same scroll the tab sits under the 56 px fixed top bar
    const { outcome, truth: replayed } = await replay(testCase, dir, {
      script: `addEventListener('DOMContentLoaded', () => { const s = document.createElement('style'); s.textContent = 'main > :first-child { margin-top: -80px !important }'; document.head.append(s) })`,
    })
    expect(outcome.replayResults.map((r) => r.success)).toEqual([true, true])
    expect(replayed.map((t) => t.key)).toEqual(['button "30 days"'])
  })

  it('4. a target below the fold is scrolled to on replay; a scripted click outside the viewport is refused (sneat login)', async () => {
    const { testCase, truth, rec, dir } = await record(SNEAT, '/html/auth-login-basic.html', [
      (r) => r.scroll(200),
      async (r) => r.click(...(await inView(r.page, 'button:has-text("Sign in")'))),
    ])
    expect(truth.map((t) => t.key)).toEqual(['button "Sign in"'])
    // coordinates are viewport pixels: a point measured on the document (below the fold) is an error, not a
    // step that silently clicks nothing
    await expect(rec.click(640, 900)).rejects.toMatchObject({ code: 'WEB_POINT_OFF_SCREEN' })
    await rec.close()
    // a 500 px banner on top: after the recorded scroll the button is still below the fold
    const { outcome, truth: replayed } = await replay(testCase, dir, {
      script: `addEventListener('DOMContentLoaded', () => { const d = document.createElement('div'); d.style.height = '500px'; d.textContent = 'Maintenance tonight'; document.body.prepend(d) })`,
    })
    expect(outcome.replayResults.map((r) => r.success)).toEqual([true, true])
    expect(replayed.map((t) => t.key)).toEqual(['button "Sign in"'])
    // verified on the unchanged page without the recorded scroll (a case edited by hand, or imported): the replay
    // scrolls to the button itself, and that scroll is not read as the click's change
    const clickOnly = { ...testCase, actions: testCase.actions.filter((a) => a.actionType !== 'scroll') }
    const verified = await replay(clickOnly, dir, undefined, { verify: true })
    expect(verified.truth.map((t) => t.key)).toEqual(['button "Sign in"'])
    const [verdict] = verified.outcome.report.verificationResults
    expect(verdict?.finalResult, verdict?.reason ?? '').toBe('pass')
  })

  it('8. a page that keeps the network busy and the DOM changing (analytics-style polling, a live counter) does not make every step wait out the timeout (sneat ui-dropdowns wrapped with a polling script)', async () => {
    // the wrapper: a beacon every 250 ms that the server holds for 3 s, and a counter the page updates every 100 ms
    const busy = {
      script: `setInterval(() => fetch('/__poll?hold=3000').catch(() => {}), 250);
addEventListener('DOMContentLoaded', () => { const s = document.createElement('span'); s.id = 'live-visitors'; document.body.append(s); let n = 0; setInterval(() => { s.textContent = String(n++) }, 100) })`,
    }
    const { testCase, truth, dir } = await record(
      SNEAT,
      '/html/ui-dropdowns.html',
      [
        async (r) => r.click(...(await inView(r.page, 'button.dropdown-toggle:not(.dropdown-toggle-split)', 0.3))),
        async (r) => r.click(...(await inView(r.page, '.dropdown-menu.show .dropdown-item'))),
        async (r) => r.click(...(await inView(r.page, 'button.dropdown-toggle:not(.dropdown-toggle-split)', 0.3))),
      ],
      busy,
      WAIT_OUT_MS,
    )
    expect(truth.map((t) => t.key)).toEqual([
      expect.stringMatching(/^button "/),
      'a "Action"',
      expect.stringMatching(/^button "/),
    ])
    // recorded with a settle timeout of 10 minutes: a step waiting for the page to go quiet would still be waiting
    // when the test times out; no step's duration is judged (a loaded machine is slow, not wrong)
    for (const verify of [false, true]) {
      // replay waits for the click's requests up to actionTimeoutMs (10 minutes here: a wait on the polling would
      // outlast the test) and for a quiet DOM with the settle the recording just went through
      const { outcome, truth: replayed } = await replay(testCase, dir, busy, { verify, actionTimeoutMs: WAIT_OUT_MS })
      expect(outcome.replayResults.map((r) => r.success)).toEqual([true, true, true])
      expect(keys(replayed)).toEqual(keys(truth))
    }
  }, 300_000)

  it('7. web components: a click on a slotted label records the control inside the shadow root (role and name), and the replay clicks it (Shoelace from npm)', async () => {
    const at = (selector: string) => async (r: WebRecorder) => {
      await r.page.waitForFunction(() => customElements.get('sl-tab-group') !== undefined)
      const box = (await r.page.locator(selector).first().boundingBox())!
      return r.click(box.x + box.width * 0.4, box.y + box.height / 2)
    }
    const { testCase, truth, dir } = await record(SHOELACE, '/components.html', [
      at('#save'),
      at('sl-icon-button'),
      at('sl-dropdown > sl-button'),
      at('sl-menu-item[value="pdf"]'),
      at('sl-tab[panel="custom"]'),
      at('#apply'),
      at('sl-input'),
      (r) => r.type('Kim'),
    ])
    const clicks = clicksOf(testCase)
    for (const [i, a] of clicks.entries()) expectRecordedTheClickedElement(a, truth[i])
    // the slotted text "Save draft" is inside <button part="base"> for the browser: not the bare <sl-button>
    expect(clicks.map((a) => [a.identity?.axRole, a.identity?.axName])).toEqual([
      ['button', 'Save draft'],
      ['button', 'Settings'],
      ['button', 'Export'],
      ['menuitem', 'As PDF'],
      ['tab', 'Custom'],
      ['button', 'Apply'],
      ['textbox', 'Your name'],
    ])
    expect(clicks[0]!.identity?.shadowPath).toEqual(['#save'])

    const replayed = await replay(testCase, dir)
    expect(replayed.outcome.replayResults.map((r) => [r.success, r.method])).toEqual(
      testCase.actions.map(() => [true, 'role']),
    )
    expect(keys(replayed.truth)).toEqual(keys(truth))
    expect(await replayed.session.page.locator('sl-input').evaluate((el) => (el as HTMLInputElement).value)).toBe('Kim')
  })
})
