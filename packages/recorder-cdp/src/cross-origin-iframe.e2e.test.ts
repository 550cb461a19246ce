import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestCase } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { evaluateInRecorderTop } from './browser/cdp-recorder-world'
import { createWebRecorder } from './record/recorder'
import { replayWebCase } from './replay/replayer'

/**
 * A click inside a cross-origin iframe (another site, so Chromium renders it in another process) is
 * recorded as the element inside the frame, with the frame chain in `framePath`, not as the `<iframe>`; replay
 * goes into that frame. The top page is served on 127.0.0.1, the framed form on localhost (another port, another
 * site). The framed page's own listeners say what happened, in its own `#log`.
 */

type Variant = 'v1' | 'v2'
const FRAME_V1 = { x: 40, y: 80, width: 460, height: 220 }
const FRAME_V2 = { x: 260, y: 160, width: 460, height: 220 }
const NOTE = { x: 20, y: 20, width: 240, height: 36 }
const SEND_V1 = { x: 20, y: 80, width: 120, height: 40 }
const CLEAR_V1 = { x: 160, y: 80, width: 120, height: 40 }
const px = (b: { x: number; y: number; width: number; height: number }) =>
  `position:absolute;left:${b.x}px;top:${b.y}px;width:${b.width}px;height:${b.height}px`
const centre = (b: { x: number; y: number; width: number; height: number }, frame = FRAME_V1): [number, number] => [
  frame.x + b.x + b.width / 2,
  frame.y + b.y + b.height / 2,
]

const topPage = (variant: Variant, frameUrl: string) => `<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0; font: 16px sans-serif">
${variant === 'v2' ? '<h1 style="margin:0">A new heading</h1><button style="position:absolute;left:60px;top:170px">Send feedback</button>' : ''}
<iframe ${variant === 'v2' ? 'id="shop-2" title="Shop"' : 'id="shop"'} src="${frameUrl}?v=${variant}"
  style="${px(variant === 'v2' ? FRAME_V2 : FRAME_V1)}; border: 0"></iframe>
</body></html>`

/** The framed form: a note field and "Send"; v2 swaps the buttons and renames the ids. */
const framedPage = (variant: Variant) => `<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0; font: 16px sans-serif; background: #eef">
<input name="note" aria-label="Note" ${variant === 'v2' ? 'class="n2"' : 'id="note"'} style="${px(NOTE)}">
<button ${variant === 'v2' ? 'id="go-2"' : 'id="send"'} style="${px(variant === 'v2' ? CLEAR_V1 : SEND_V1)}">Send</button>
<button id="clear" style="${px(variant === 'v2' ? SEND_V1 : CLEAR_V1)}">Clear</button>
<p id="log" style="position:absolute;left:20px;top:140px"></p>
<script>
  const log = (what) => { document.getElementById('log').textContent += what + ';' }
  const note = document.querySelector('input')
  for (const b of document.querySelectorAll('button')) b.addEventListener('click', () => log(b.textContent + ' ' + note.value))
</script>
</body></html>`

let top: { server: Server; url: string }
let framed: { server: Server; url: string }
const sessions: BrowserSession[] = []

async function serve(host: string, page: (variant: Variant) => string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const variant = (new URL(req.url ?? '/', 'http://x').searchParams.get('v') ?? 'v1') as Variant
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(variant))
  })
  await new Promise<void>((done) => server.listen(0, host, done))
  const { port } = server.address() as AddressInfo
  return { server, url: `http://${host}:${port}/` }
}

beforeAll(async () => {
  framed = await serve('localhost', framedPage)
  top = await serve('127.0.0.1', (variant) => topPage(variant, `${framed.url}form`))
})
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()))
  await new Promise((done) => top.server.close(done))
  await new Promise((done) => framed.server.close(done))
})

async function freshPage(): Promise<Page> {
  const s = await openBrowser({ viewport: { width: 800, height: 420 } })
  sessions.push(s)
  return s.page
}

/** The framed form's frame (another site: its own process), once loaded. */
async function formFrame(page: Page): Promise<Frame> {
  for (let i = 0; i < 50; i++) {
    const frame = page.frames().find((f) => f.url().startsWith(framed.url))
    if (frame) {
      await frame.waitForLoadState('load')
      return frame
    }
    await page.waitForTimeout(100)
  }
  throw new Error('the framed form never loaded')
}

async function replayOn(variant: Variant, recorded: { dir: string; testCase: TestCase }) {
  const page = await freshPage()
  const outcome = await replayWebCase(
    { ...recorded.testCase, startUrl: `${top.url}?v=${variant}` },
    { page, caseDir: recorded.dir, verify: false },
  )
  return { outcome, log: await (await formFrame(page)).locator('#log').textContent() }
}

describe('clicks in a cross-origin iframe', () => {
  let recorded: { dir: string; testCase: TestCase }
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-xo-'))
    const page = await freshPage()
    const rec = await createWebRecorder(page, { caseFile: join(dir, 'case.json') })
    await rec.start(`${top.url}?v=v1`)
    const frame = await formFrame(page)
    // out of process: the top page's scripts cannot reach into it
    expect(await page.evaluate(() => document.querySelector('iframe')?.contentDocument ?? null)).toBeNull()
    await rec.click(...centre(NOTE))
    await rec.type('주문 42')
    await rec.click(...centre(SEND_V1))
    expect(await frame.locator('#log').textContent()).toBe('Send 주문 42;')
    await rec.save()
    await rec.close()
    recorded = { dir, testCase: (await loadTestCase(join(dir, 'case.json'))).testCase }
  })

  it('records the elements inside the frame, with the frame chain, not the <iframe>', () => {
    const [click, type, send] = recorded.testCase.actions
    expect(click?.identity).toMatchObject({ tagName: 'input', name: 'note', framePath: ['#shop'] })
    expect(click?.selectors?.css).toBe('#note')
    expect(type).toMatchObject({ actionType: 'type', text: '주문 42' })
    expect(send?.identity).toMatchObject({ tagName: 'button', axRole: 'button', axName: 'Send', framePath: ['#shop'] })
    // placed in the top-level viewport
    const [x, y] = centre(SEND_V1)
    const box = send!.identity!.boundingBox
    expect(box.x + box.width / 2).toBeCloseTo(x, 0)
    expect(box.y + box.height / 2).toBeCloseTo(y, 0)
  })

  it('replays into the frame on the unchanged page', async () => {
    const { outcome, log } = await replayOn('v1', recorded)
    expect(outcome.replayResults.map((r) => [r.success, r.errorMessage])).toEqual([
      [true, ''],
      [true, ''],
      [true, ''],
    ])
    expect(outcome.replayResults.map((r) => r.method)).not.toContain('coordinate')
    expect(log).toBe('Send 주문 42;')
  })

  it('heals on a changed page: the frame moved and renamed, the buttons swapped, a top-page button at the old place', async () => {
    const { outcome, log } = await replayOn('v2', recorded)
    expect(outcome.replayResults.map((r) => [r.success, r.errorMessage])).toEqual([
      [true, ''],
      [true, ''],
      [true, ''],
    ])
    expect(outcome.replayResults.map((r) => r.method)).not.toContain('coordinate')
    const [x, y] = centre(CLEAR_V1, FRAME_V2)
    expect(outcome.replayResults[2]!.actualCoords).toEqual({ x, y })
    expect(log).toBe('Send 주문 42;')
  })

  it("interactive recording: real mouse clicks and typing in the frame are recorded at the frame's elements", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-xo-'))
    const page = await freshPage()
    const rec = await createWebRecorder(page, { caseFile: join(dir, 'case.json') })
    await rec.start(`${top.url}?v=v1`)
    const frame = await formFrame(page)
    const listening = await rec.listen()
    const human = async ([x, y]: [number, number]) => {
      await page.mouse.move(x, y)
      await page.mouse.down()
      await page.waitForTimeout(80)
      await page.mouse.up()
      await page.waitForTimeout(300)
    }
    await human(centre(NOTE))
    await page.keyboard.type('by hand 손으로', { delay: 20 })
    await page.waitForTimeout(300)
    await human(centre(SEND_V1))
    await page.waitForTimeout(300)
    await listening.stop()
    await rec.save()
    expect(await frame.locator('#log').textContent()).toBe('Send by hand 손으로;')
    const actions = rec.testCase().actions
    expect(actions.map((a) => [a.actionType, a.identity?.tagName, a.identity?.framePath])).toEqual([
      ['click', 'input', ['#shop']],
      ['type', 'input', ['#shop']],
      ['click', 'button', ['#shop']],
    ])
    expect(actions[2]).toMatchObject({ x: centre(SEND_V1)[0], y: centre(SEND_V1)[1] })
    expect(actions[1]?.text).toBe('by hand 손으로')
    const { outcome, log } = await replayOn('v2', { dir, testCase: rec.testCase() })
    expect(outcome.replayResults.map((r) => r.success)).toEqual([true, true, true])
    expect(log).toBe('Send by hand 손으로;')
  })
})

/**
 * The recorder toolbar's assert modes pick elements inside frames, same-origin and cross-origin (another
 * process) alike: the frame's page never sees the pick, its text or value pre-fills the editor, and the assertion is
 * recorded with the frame chain and replayed there. Real input through the browser (`page.mouse`, `page.keyboard`);
 * the frames' own listeners say what they saw, in their own `#log`.
 */
describe('toolbar assertions picked inside iframes', () => {
  const FRAME_SAME = { x: 20, y: 60, width: 340, height: 260 }
  const FRAME_OTHER = { x: 400, y: 60, width: 340, height: 260 }
  const TOTAL = { x: 20, y: 10, width: 260, height: 40 }
  const COUPON = { x: 20, y: 70, width: 200, height: 36 }
  const PAY = { x: 20, y: 130, width: 120, height: 40 }
  /** The framed cart: its count from `n` (a variant makes the text assertion false), every input logged. */
  const cart = `<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0; font: 16px sans-serif; background: #efe">
<h2 id="total" style="${px(TOTAL)}; margin:0">3 items</h2>
<input id="coupon" aria-label="Coupon" value="봄-25" style="${px(COUPON)}">
<button id="pay" type="button" style="${px(PAY)}">Pay</button>
<p id="log" style="position:absolute;left:20px;top:190px;margin:0"></p>
<script>
  const n = new URLSearchParams(location.search).get('n')
  if (n) document.getElementById('total').textContent = n + ' items'
  const log = (what) => { document.getElementById('log').textContent += what + ';' }
  for (const type of ['pointerdown', 'click', 'keydown'])
    addEventListener(type, (e) => log(type + ':' + (e.target.id || e.target.localName) + (e.key ? ':' + e.key : '')))
</script>
</body></html>`
  let pages: { server: Server; url: string }
  let otherSite: { server: Server; url: string }
  beforeAll(async () => {
    const route = (path: string, query: URLSearchParams) =>
      path === '/cart'
        ? cart
        : `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="same" src="/cart?n=${query.get('n') ?? ''}" style="${px(FRAME_SAME)}; border: 0"></iframe>
<iframe id="other" src="${otherSite.url}cart?n=${query.get('n') ?? ''}" style="${px(FRAME_OTHER)}; border: 0"></iframe>
</body></html>`
    const serveRoutes = async (host: string) => {
      const server = createServer((req, res) => {
        const u = new URL(req.url ?? '/', 'http://x')
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route(u.pathname, u.searchParams))
      })
      await new Promise<void>((done) => server.listen(0, host, done))
      return { server, url: `http://${host}:${(server.address() as AddressInfo).port}/` }
    }
    otherSite = await serveRoutes('localhost')
    pages = await serveRoutes('127.0.0.1')
  })
  afterAll(async () => {
    await new Promise((done) => pages.server.close(done))
    await new Promise((done) => otherSite.server.close(done))
  })

  const frameOf = async (page: Page, prefix: string): Promise<Frame> => {
    for (let i = 0; i < 50; i++) {
      const frame = page.frames().find((f) => f.url().startsWith(prefix))
      if (frame) {
        await frame.waitForLoadState('load')
        return frame
      }
      await page.waitForTimeout(100)
    }
    throw new Error(`no frame from ${prefix}`)
  }
  const logs = async (page: Page) => ({
    same: await (await frameOf(page, `${pages.url}cart`)).locator('#log').textContent(),
    other: await (await frameOf(page, `${otherSite.url}cart`)).locator('#log').textContent(),
  })

  /**
   * A recording of the two-frame page with the toolbar; where its buttons are and what it shows is read in the
   * recorder's own world (the page's scripts cannot reach its closed shadow root).
   */
  const recordWithToolbar = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-xo-assert-'))
    const page = await freshPage()
    const rec = await createWebRecorder(page, { caseFile: join(dir, 'case.json') })
    const stop = { requested: false }
    const listening = await rec.listen({
      onStopRequest: () => {
        stop.requested = true
      },
    })
    await rec.start(pages.url)
    await frameOf(page, `${otherSite.url}cart`)
    const toolbar = async () =>
      evaluateInRecorderTop(
        page,
        () => {
          const root = (window as unknown as Record<symbol, ShadowRoot | undefined>)[
            Symbol.for('qa.recorderToolbar.root')
          ]
          return Object.fromEntries(
            Array.from(root?.querySelectorAll('button') ?? [])
              .filter((b) => b.getClientRects().length > 0)
              .map((b) => {
                const r = b.getBoundingClientRect()
                return [b.textContent?.trim() ?? '', [r.left + r.width / 2, r.top + r.height / 2] as [number, number]]
              }),
          )
        },
        undefined,
      )
    const human = async ([x, y]: [number, number]) => {
      await page.mouse.move(x, y, { steps: 3 })
      await page.mouse.down()
      await page.waitForTimeout(60)
      await page.mouse.up()
      await page.waitForTimeout(400)
    }
    const label = () =>
      evaluateInRecorderTop(
        page,
        () =>
          (window as unknown as Record<symbol, ShadowRoot | undefined>)[
            Symbol.for('qa.recorderToolbar.root')
          ]?.querySelector('.label')?.textContent,
        undefined,
      )
    const fieldValue = () =>
      evaluateInRecorderTop(
        page,
        () =>
          (
            (window as unknown as Record<symbol, ShadowRoot | undefined>)[
              Symbol.for('qa.recorderToolbar.root')
            ]?.querySelector('input') as HTMLInputElement | null
          )?.value,
        undefined,
      )
    return { dir, page, rec, stop, listening, toolbar, human, label, fieldValue }
  }

  it('picks the element inside a same-origin and a cross-origin frame without clicking it, and replays the assertions there', async () => {
    const { dir, page, rec, stop, listening, toolbar, human, label, fieldValue } = await recordWithToolbar()
    const buttons = await toolbar()
    // assert text in the same-origin frame: the editor opens with the heading's text; "3 items" kept, Enter adds it
    await human(buttons['Assert text']!)
    await human(centre(TOTAL, FRAME_SAME))
    await expect.poll(label, { timeout: 10_000 }).toBe('Assert text')
    expect(await fieldValue()).toBe('3 items')
    // while the editor is open, a click in a frame waits too (the page never sees it), and typing goes on in the
    // editor's field
    await human(centre(PAY, FRAME_OTHER))
    await page.keyboard.press('End')
    await page.keyboard.press('Enter')
    await expect.poll(label, { timeout: 10_000 }).toBe('Recording')
    // assert value in the cross-origin frame (its own process): the coupon's Hangul value, added with Add
    await human(buttons['Assert value']!)
    await human(centre(COUPON, FRAME_OTHER))
    await expect.poll(label, { timeout: 10_000 }).toBe('Assert value')
    expect(await fieldValue()).toBe('봄-25')
    await human((await toolbar()).Add!)
    // assert visible in the cross-origin frame, at once; an assert mode ended with Escape in that frame records nothing
    await human(buttons['Assert visible']!)
    await human(centre(PAY, FRAME_OTHER))
    await human(buttons['Assert text']!)
    await page.keyboard.press('Escape')
    await expect.poll(label, { timeout: 10_000 }).toBe('Recording')
    // then a real click on Pay, which the frame's page sees
    await human(centre(PAY, FRAME_OTHER))
    await human(buttons.Stop!)
    await expect.poll(() => stop.requested).toBe(true)
    await listening.stop()
    await rec.save()
    await rec.close()
    // neither frame's page saw a pick, the click while the editor was open, or the keys: only the last click
    expect(await logs(page)).toEqual({ same: '', other: 'pointerdown:pay;click:pay;' })
    const actions = rec.testCase().actions
    expect(
      actions.map((a) => [a.actionType, a.assertion ?? null, a.identity?.tagName, a.identity?.framePath ?? null]),
    ).toEqual([
      ['assert', { kind: 'text', expected: '3 items' }, 'h2', ['#same']],
      ['assert', { kind: 'value', expected: '봄-25' }, 'input', ['#other']],
      ['assert', { kind: 'visible' }, 'button', ['#other']],
      ['click', null, 'button', ['#other']],
    ])
    const recorded = { dir, testCase: rec.testCase() }
    const replay = async (n: string) => {
      const replayPage = await freshPage()
      const outcome = await replayWebCase(
        { ...recorded.testCase, startUrl: `${pages.url}?n=${n}` },
        { page: replayPage, caseDir: dir, verify: false },
      )
      await replayPage.waitForTimeout(300)
      return { outcome, log: await logs(replayPage) }
    }
    const same = await replay('')
    expect(same.outcome.replayResults.map((r) => [r.success, r.errorMessage])).toEqual([
      [true, ''],
      [true, ''],
      [true, ''],
      [true, ''],
    ])
    expect(same.outcome.passed).toBe(true)
    expect(same.log).toEqual({ same: '', other: 'pointerdown:pay;click:pay;' })
    // a cart that shows 4 items: the text assertion in the same-origin frame fails, with expected and actual
    const changed = await replay('4')
    expect(changed.outcome.passed).toBe(false)
    const [text, ...rest] = changed.outcome.report.verificationResults
    expect(rest.map((r) => r.finalResult)).toEqual(['pass', 'pass', 'pass'])
    expect(text?.finalResult).toBe('fail')
    expect(text?.reason).toMatch(/expected .*3 items.*actual .*4 items/)
  })

  it('an assert mode highlights the element under the pointer inside a same-origin and a cross-origin frame, with the name the pick will use', async () => {
    const { page, rec, stop, listening, toolbar, human } = await recordWithToolbar()
    const buttons = await toolbar()
    const highlight = () =>
      evaluateInRecorderTop(
        page,
        () => {
          const root = (window as unknown as Record<symbol, ShadowRoot | undefined>)[
            Symbol.for('qa.recorderToolbar.root')
          ]
          const outline = root?.querySelector('p.hl') as HTMLElement | null
          const label = root?.querySelector('p.hl-label') as HTMLElement | null
          if (!outline || !label || outline.hidden || label.hidden) return null
          const r = outline.getBoundingClientRect()
          return { label: label.textContent, box: [r.left, r.top, r.width, r.height].map(Math.round) }
        },
        undefined,
      )
    const boxIn = (b: typeof TOTAL, frame: typeof FRAME_SAME) => [b.x + frame.x, b.y + frame.y, b.width, b.height]
    expect(await highlight()).toBeNull()
    await human(buttons['Assert visible']!)
    const [tx, ty] = centre(TOTAL, FRAME_SAME)
    await page.mouse.move(tx, ty, { steps: 3 })
    await expect
      .poll(highlight, { timeout: 10_000 })
      .toEqual({ label: 'heading "3 items"', box: boxIn(TOTAL, FRAME_SAME) })
    const [px_, py_] = centre(PAY, FRAME_OTHER)
    await page.mouse.move(px_, py_, { steps: 3 })
    await expect.poll(highlight, { timeout: 10_000 }).toEqual({ label: 'button "Pay"', box: boxIn(PAY, FRAME_OTHER) })
    // Escape ends the mode in that frame: the highlight goes with it, nothing is recorded
    await page.keyboard.press('Escape')
    await expect.poll(highlight, { timeout: 10_000 }).toBeNull()
    await human(buttons.Stop!)
    await expect.poll(() => stop.requested).toBe(true)
    await listening.stop()
    await rec.close()
    expect(rec.testCase().actions).toEqual([])
  })

  it('Stop while the editor of a pick in a cross-origin frame is open: the assertion is kept as edited, marked not confirmed', async () => {
    const { page, rec, stop, listening, toolbar, human, label, fieldValue } = await recordWithToolbar()
    const buttons = await toolbar()
    await human(buttons['Assert text']!)
    await human(centre(TOTAL, FRAME_OTHER))
    await expect.poll(label, { timeout: 10_000 }).toBe('Assert text')
    expect(await fieldValue()).toBe('3 items')
    // the person types over the selected text, then clicks Stop without adding it
    await page.keyboard.type('3 it', { delay: 30 })
    await human(buttons.Stop!)
    await expect.poll(() => stop.requested).toBe(true)
    await listening.stop()
    await rec.close()
    expect(await logs(page)).toEqual({ same: '', other: '' })
    const actions = rec.testCase().actions
    expect(actions.map((a) => [a.actionType, a.assertion ?? null, a.identity?.framePath ?? null])).toEqual([
      ['assert', { kind: 'text', expected: '3 it' }, ['#other']],
    ])
    expect(actions[0]?.warning).toMatch(/^not confirmed: recording stopped while its editor was open/)
  })
})
