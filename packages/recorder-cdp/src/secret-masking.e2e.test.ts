import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BoundingBox, TestCase } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { createWebRecorder, type WebRecorder } from './record/recorder'
import { replayWebCase } from './replay/replayer'

/**
 * Secrets never reach the case file or a screenshot in clear, wherever the password field
 * is: a cross-origin iframe (another site: its own renderer process), a closed shadow root, keys pressed one
 * by one, and a "show password" toggle after typing. The top page is served on 127.0.0.1, the framed login on
 * localhost (another site, so Chromium renders it out of process).
 */

/** Where the fields are, in viewport CSS pixels (absolute positions: the tests click there). */
const TOP_PW = { x: 40, y: 40, width: 360, height: 48 }
const SHADOW_PW = { x: 40, y: 120, width: 360, height: 48 }
const FRAME = { x: 40, y: 260, width: 420, height: 120 }
const FRAMED_PW = { x: 10, y: 10, width: 360, height: 48 }
const MASK = 0x7f7f7f
const FIELD_STYLE = 'font: 28px monospace; box-sizing: border-box; border: 2px solid #000; padding: 4px'
const at = (b: BoundingBox) => `position:absolute;left:${b.x}px;top:${b.y}px;width:${b.width}px;height:${b.height}px`

/** A line the replayed page shows and the recorded one did not: every replayed screen differs a little. */
let banner = ''
const topPage = (frameOrigin: string) => `<!doctype html><html><head><meta charset="utf-8"><title>login</title></head>
<body style="margin:0; background:#fff">
<div style="position:absolute;left:520px;top:140px;font:20px sans-serif">${banner}</div>
<input id="pw" name="pw" type="password" aria-label="Password" style="${at(TOP_PW)}; ${FIELD_STYLE}">
<button id="show" style="position:absolute;left:420px;top:40px;height:48px"
  onclick="const f = document.getElementById('pw'); f.type = f.type === 'password' ? 'text' : 'password'">Show password</button>
<secret-box id="host" style="${at(SHADOW_PW)}"></secret-box>
<button id="other" style="position:absolute;left:420px;top:200px;height:40px">Other</button>
<iframe id="xo" src="${frameOrigin}/login" style="${at(FRAME)}; border: 0"></iframe>
<div id="ticker" style="position:absolute;left:520px;top:100px;font:14px sans-serif"></div>
<script>
  // ?busy: the page never falls quiet, so the recorder's settle after each step runs to its time limit
  if (location.search.includes('busy')) setInterval(() => { document.getElementById('ticker').textContent = String(Date.now()) }, 40)
  // ?swap: Enter in the password field replaces it with another field at the same place (the page moved on)
  if (location.search.includes('swap')) document.getElementById('pw').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return
    const next = document.createElement('input')
    next.name = 'item_11'
    next.setAttribute('aria-label', 'Item 11')
    next.style.cssText = e.target.style.cssText
    e.target.replaceWith(next)
  })
  const root = document.getElementById('host').attachShadow({ mode: 'closed' })
  root.innerHTML = '<input name="vault" type="password" aria-label="Vault key" value="preset-Vault-99" style="position:absolute;left:0;top:0;width:${SHADOW_PW.width}px;height:${SHADOW_PW.height}px; ${FIELD_STYLE}">'
</script>
</body></html>`

const framedPage = `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0; background:#fff">
<input id="ipw" name="framed_pw" type="password" aria-label="Framed password" style="${at(FRAMED_PW)}; ${FIELD_STYLE}">
</body></html>`

async function serve(host: string, pages: Record<string, () => string>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://x').pathname]
    if (!page) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page())
  })
  await new Promise<void>((done) => server.listen(0, host, done))
  const { port } = server.address() as AddressInfo
  return { server, url: `http://${host === '127.0.0.1' ? '127.0.0.1' : 'localhost'}:${port}` }
}

let top: Awaited<ReturnType<typeof serve>>
let framed: Awaited<ReturnType<typeof serve>>
const sessions: BrowserSession[] = []

beforeAll(async () => {
  framed = await serve('localhost', { '/login': () => framedPage })
  top = await serve('127.0.0.1', { '/': () => topPage(framed.url) })
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

const centre = (b: BoundingBox, offset = { x: 0, y: 0 }): [number, number] => [
  offset.x + b.x + b.width / 2,
  offset.y + b.y + b.height / 2,
]

async function record(steps: (rec: WebRecorder, page: Page) => Promise<void>) {
  banner = ''
  const dir = await mkdtemp(join(tmpdir(), 'qa-secret-'))
  const page = await freshPage()
  const rec = await createWebRecorder(page, { caseFile: join(dir, 'case.json') })
  await rec.start(`${top.url}/`)
  await steps(rec, page)
  await rec.save()
  await rec.close()
  const json = await readFile(join(dir, 'case.json'), 'utf8')
  return { dir, json, testCase: (await loadTestCase(join(dir, 'case.json'))).testCase }
}

/** The distinct RGB colours inside a box of a PNG (CSS px = image px here), 3 px in from its edges. */
async function coloursIn(png: string, box: BoundingBox): Promise<number[]> {
  const { data, info } = await sharp(png)
    .extract({
      left: Math.ceil(box.x) + 3,
      top: Math.ceil(box.y) + 3,
      width: Math.floor(box.width) - 6,
      height: Math.floor(box.height) - 6,
    })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const distinct = new Set<number>()
  for (let i = 0; i < data.length; i += info.channels)
    distinct.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!)
  return [...distinct]
}

/** Every PNG the recording wrote. */
async function pngsOf(dir: string): Promise<string[]> {
  const assets = join(dir, 'case')
  return (await readdir(assets)).filter((f) => f.endsWith('.png')).map((f) => join(assets, f))
}

const FRAMED_ABS = { ...FRAMED_PW, x: FRAME.x + FRAMED_PW.x, y: FRAME.y + FRAMED_PW.y }

describe('secrets in password fields the page hides from scripts', () => {
  it('a password typed into a cross-origin (out-of-process) iframe is stored masked, with its variable', async () => {
    const { json, testCase, dir } = await record(async (rec) => {
      await rec.click(...centre(FRAMED_PW, FRAME))
      await rec.type('xo-S3cret-41')
    })
    expect(json).not.toContain('xo-S3cret-41')
    const typed = testCase.actions.find((a) => a.actionType === 'type')!
    expect(typed).toMatchObject({ text: '********', secretEnv: 'QA_SECRET_FRAMED_PW' })
    // the identity is the framed field, placed in the top-level viewport, inside its frame
    expect(typed.identity).toMatchObject({ tagName: 'input', name: 'framed_pw', framePath: ['#xo'] })
    expect(typed.identity!.boundingBox.x).toBeCloseTo(FRAMED_ABS.x, 0)
    expect(typed.identity!.boundingBox.y).toBeCloseTo(FRAMED_ABS.y, 0)
    for (const png of await pngsOf(dir)) {
      if (png.endsWith('-element.png')) continue
      expect(await coloursIn(png, FRAMED_ABS), png).toEqual([MASK])
    }
  })

  it('a password typed into a closed shadow root is stored masked and painted over in every screenshot', async () => {
    const { json, testCase, dir } = await record(async (rec) => {
      await rec.click(...centre(SHADOW_PW))
      await rec.type('shadow-S3cret-42')
    })
    expect(json).not.toContain('shadow-S3cret-42')
    const typed = testCase.actions.find((a) => a.actionType === 'type')!
    expect(typed).toMatchObject({ text: '********', secretEnv: 'QA_SECRET_VAULT' })
    const shots = (await pngsOf(dir)).filter((f) => !f.endsWith('-element.png'))
    expect(shots.length).toBeGreaterThanOrEqual(4)
    for (const png of shots) expect(await coloursIn(png, SHADOW_PW), png).toEqual([MASK])
  })

  it('keys pressed into a password field become one masked typing step, not keys in clear', async () => {
    const { json, testCase } = await record(async (rec) => {
      await rec.click(...centre(TOP_PW))
      await rec.run([
        { type: 'press', key: 'Q' },
        { type: 'press', key: 'x' },
        { type: 'press', key: '7' },
        { type: 'type', text: 'tail' },
        { type: 'press', key: 'Backspace' },
        { type: 'press', key: 'Enter' },
      ])
    })
    expect(testCase.actions.map((a) => [a.actionType, a.key ?? a.text ?? null])).toEqual([
      ['click', null],
      ['type', '********'],
      ['key_press', 'Enter'],
    ])
    expect(testCase.actions[1]!.secretEnv).toBe('QA_SECRET_PW')
    expect(json).not.toMatch(/"key": "(Q|x|7|Backspace)"/)
    expect(json).not.toContain('tail')
  })

  it('a "show password" toggle after typing leaves the field masked in every later screenshot', async () => {
    const { json, testCase, dir } = await record(async (rec, page) => {
      await rec.click(...centre(TOP_PW))
      await rec.type('toggle-S3cret')
      await rec.click(440, 64) // Show password: the field becomes type=text
      expect(await page.locator('#pw').getAttribute('type')).toBe('text')
      await rec.click(...centre(TOP_PW))
      await rec.type('-more') // typing on in the shown field is still the secret
      await rec.click(440, 220)
    })
    expect(json).not.toContain('toggle-S3cret')
    expect(json).not.toContain('-more')
    expect(testCase.actions.filter((a) => a.actionType === 'type').map((a) => a.text)).toEqual(['********', '********'])
    const shots = (await pngsOf(dir)).filter((f) => !f.endsWith('-element.png'))
    for (const png of shots) expect(await coloursIn(png, TOP_PW), png).toEqual([MASK])
  })

  it('interactive recording: a secret typed on after the toggle is not stored from the shown field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-secret-'))
    const page = await freshPage()
    const rec = await createWebRecorder(page, { caseFile: join(dir, 'case.json') })
    await rec.start(`${top.url}/`)
    const listening = await rec.listen()
    const human = async ([x, y]: [number, number]) => {
      await page.mouse.move(x, y)
      await page.mouse.down()
      await page.waitForTimeout(100)
      await page.mouse.up()
      await page.waitForTimeout(300)
    }
    await human(centre(TOP_PW))
    await page.keyboard.type('live-S3cret', { delay: 20 })
    await human([440, 64])
    await human(centre(TOP_PW))
    await page.keyboard.press('End')
    await page.keyboard.type('-on', { delay: 20 })
    await human(centre(FRAMED_PW, FRAME))
    await page.keyboard.type('framed-live-S3cret', { delay: 20 })
    await page.waitForTimeout(300)
    await listening.stop()
    await rec.save()
    const json = await readFile(join(dir, 'case.json'), 'utf8')
    expect(json).not.toContain('live-S3cret')
    expect(json).not.toContain('S3cret-on')
    const typed = rec.testCase().actions.filter((a) => a.actionType === 'type')
    expect(typed.length).toBeGreaterThanOrEqual(2)
    for (const a of typed) expect(a.text).toBe('********')
    for (const png of (await pngsOf(dir)).filter((f) => !f.endsWith('-element.png')))
      expect(await coloursIn(png, TOP_PW), png).toEqual([MASK])
  })
})

describe('secret masking while the recorder lags behind the person (flaky under load before)', () => {
  it('a screenshot of an earlier step, taken after a later typing and toggle, paints over the shown secret', async () => {
    // The recorder handles a person's input in order, but late: here the page never falls quiet, so the click into
    // the field waits 2.5 s for its after-screenshot while the person types the secret and presses "Show password".
    // The typing is queued behind that screenshot: only what the page itself saw (typing into a password field) can
    // tell that the field, now type=text, holds a secret. Under load the same happened by chance (step-000-after).
    const dir = await mkdtemp(join(tmpdir(), 'qa-secret-'))
    const page = await freshPage()
    const rec = await createWebRecorder(page, { caseFile: join(dir, 'case.json'), settleTimeoutMs: 2_500 })
    await rec.start(`${top.url}/?busy`)
    const listening = await rec.listen()
    const human = async ([x, y]: [number, number]) => {
      await page.mouse.move(x, y)
      await page.mouse.down()
      await page.waitForTimeout(60)
      await page.mouse.up()
    }
    await human(centre(TOP_PW))
    await page.keyboard.type('lagged-S3cret', { delay: 10 })
    await human([440, 64]) // Show password: the field becomes type=text at once
    expect(await page.locator('#pw').getAttribute('type')).toBe('text')
    await human([440, 220])
    await listening.stop()
    await rec.save()
    const json = await readFile(join(dir, 'case.json'), 'utf8')
    expect(json).not.toContain('lagged-S3cret')
    const shots = (await pngsOf(dir)).filter((f) => !f.endsWith('-element.png'))
    expect(shots.map((f) => f.split('/').at(-1))).toContain('step-000-after.png')
    for (const png of shots) expect(await coloursIn(png, TOP_PW), png).toEqual([MASK])
  })
})

describe('typing read after the page moved on', () => {
  it('the secret typed is named after the field typed into, not the field that took its place', async () => {
    // The click into the field waits for a page that never falls quiet; by the time its typing is handled, Enter
    // has replaced the field with another one at the same place ("QA_SECRET_ITEM_11" under load before)
    const dir = await mkdtemp(join(tmpdir(), 'qa-secret-'))
    const page = await freshPage()
    const rec = await createWebRecorder(page, { caseFile: join(dir, 'case.json'), settleTimeoutMs: 2_500 })
    await rec.start(`${top.url}/?busy&swap`)
    const listening = await rec.listen()
    await page.mouse.click(...centre(TOP_PW))
    await page.keyboard.type('swap-S3cret', { delay: 10 })
    await page.keyboard.press('Enter')
    expect(await page.locator('input[name="item_11"]').count()).toBe(1)
    await listening.stop()
    await rec.save()
    const json = await readFile(join(dir, 'case.json'), 'utf8')
    expect(json).not.toContain('swap-S3cret')
    const typed = rec.testCase().actions.filter((a) => a.actionType === 'type')
    expect(typed.map((a) => [a.text, a.secretEnv, a.identity?.name])).toEqual([['********', 'QA_SECRET_PW', 'pw']])
  })
})

describe('a missing secret variable on replay', () => {
  it('fails the typing step naming the variable, types nothing, and replays the steps after it', async () => {
    const { testCase, dir } = await record(async (rec) => {
      await rec.click(...centre(TOP_PW))
      await rec.type('never-S3cret')
      await rec.click(440, 220)
    })
    const page = await freshPage()
    const outcome = await replayWebCase(testCase as TestCase, { page, caseDir: dir, verify: false, env: {} })
    expect(testCase.actions.map((a) => a.actionType)).toEqual(['click', 'type', 'click'])
    expect(outcome.replayResults.map((r) => r.success)).toEqual([true, false, true])
    expect(outcome.replayResults[1]!.errorMessage).toMatch(/needs the environment variable QA_SECRET_PW/)
    expect(await page.locator('#pw').inputValue()).toBe('')
  })
})

describe('password masking in replay screenshots', () => {
  it('actual and diff images of a replay paint over password fields, closed shadow and toggled ones too', async () => {
    // the closed shadow root's field holds a value the page put there (no step types into it)
    const { dir, testCase } = await record(async (rec) => {
      await rec.click(...centre(TOP_PW))
      await rec.type('rec-S3cret')
      await rec.click(440, 64) // show password
      await rec.click(440, 220)
    })
    const artifactDir = join(dir, 'report')
    banner = 'Replayed page'
    const page = await freshPage()
    const outcome = await replayWebCase(testCase as TestCase, {
      page,
      caseDir: dir,
      verify: true,
      artifactDir,
      keepActual: 'always',
      // the banner makes every screen differ a little: a verdict by similarity, with a diff image per step
      policy: { passSimilarity: 0.9999, fallbackSimilarity: 0.5 },
      // different secrets than recorded: every typed step's screen differs unless the fields are masked
      env: { QA_SECRET_PW: 'WWWWWWWWWWWWWW' },
    })
    expect(outcome.replayResults.map((r) => [r.success, r.errorMessage])).toEqual(
      testCase.actions.map(() => [true, '']),
    )
    expect(await page.locator('#pw').getAttribute('type')).toBe('text')
    const written = (await readdir(artifactDir)).filter((f) => f.endsWith('.png'))
    const actuals = written.filter((f) => f.endsWith('-actual.png'))
    expect(actuals.length).toBe(testCase.actions.length)
    // the click into the password field is judged by the typing right after it: it has no comparison of its own
    const judgedByNext = (v: { details?: Record<string, unknown> | null }) =>
      typeof v.details?.judged_by_action_index === 'number'
    const compared = outcome.report.verificationResults.filter((v) => !judgedByNext(v))
    expect(outcome.report.verificationResults.filter(judgedByNext).map((v) => v.actionIndex)).toEqual([0])
    expect(written.filter((f) => f.endsWith('-diff.png')).length).toBe(compared.length)
    // every whole screen the replay kept (the actual, the diff, the screen before the step for `qa accept`); the
    // element crops (`-found.png`) are cut from those same masked screens
    const screens = written.filter((f) => /-(actual|diff|before)\.png$/.test(f))
    expect(screens.length).toBeGreaterThanOrEqual(2 * testCase.actions.length)
    for (const f of screens) {
      expect(await coloursIn(join(artifactDir, f), TOP_PW), f).toHaveLength(1)
      expect(await coloursIn(join(artifactDir, f), SHADOW_PW), f).toHaveLength(1)
    }
    for (const f of actuals) {
      expect(await coloursIn(join(artifactDir, f), TOP_PW), f).toEqual([MASK])
      expect(await coloursIn(join(artifactDir, f), SHADOW_PW), f).toEqual([MASK])
    }
    // masked the same way on both sides, the different secrets are no difference: only the banner differs, and it
    // lies outside every step's expected region, so each step passes on its region while the
    // whole-screen figure still shows the banner
    expect(outcome.report.verificationResults.map((v) => v.finalResult)).toEqual(testCase.actions.map(() => 'pass'))
    for (const v of compared) {
      expect(v.finalResult).toBe('pass')
      expect(v.regionSimilarity).toBeGreaterThanOrEqual(0.95)
      expect(v.screenshotSimilarity).toBeLessThan(0.9999)
    }
  })
})
