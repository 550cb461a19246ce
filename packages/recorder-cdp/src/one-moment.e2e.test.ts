import { mkdtemp, readdir } from 'node:fs/promises'
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
import { createWebRecorder } from './record/recorder'
import { replayWebCase } from './replay/replayer'

/**
 * Every recorded screenshot shows the page at one moment, taken before the next input
 * reached it; typing steps carry that evidence and are verified. Recorded by hand (the page's own input events,
 * the recorder's toolbar shown) while a person types right after clicking.
 */

/** Background colours, one per animation frame in turn: two moments of the page never share one. */
const PALETTE: [number, number, number][] = [
  [230, 25, 75],
  [60, 180, 75],
  [255, 225, 25],
  [67, 99, 216],
  [245, 130, 49],
  [145, 30, 180],
]
const EMAIL = { x: 40, y: 40, width: 420, height: 56 }
const NAME = { x: 40, y: 140, width: 420, height: 56 }
const FIELD_STYLE =
  'font: 28px monospace; box-sizing: border-box; border: 2px solid #000; padding: 4px; background: #fff'
const at = (b: BoundingBox) => `position:absolute;left:${b.x}px;top:${b.y}px;width:${b.width}px;height:${b.height}px`

/**
 * A page that never stands still: its whole background (under the toolbar's corner too) takes the next colour
 * every animation frame, and a counter ticks. `animate: false`: a still page. `?wrong`: a bug sends what is typed
 * into Email to Name.
 */
const page = (animate: boolean) => `<!doctype html><html><head><meta charset="utf-8"><title>clock</title></head>
<body style="margin:0; background:#fff; overflow:hidden">
<canvas id="bg" width="800" height="420" style="position:fixed;left:0;top:0"></canvas>
<input id="email" name="email" aria-label="Email" style="${at(EMAIL)}; ${FIELD_STYLE}">
<input id="name" name="name" aria-label="Name" style="${at(NAME)}; ${FIELD_STYLE}">
<button id="go" style="position:absolute;left:40px;top:240px;height:48px;font:20px sans-serif">Show</button>
<div id="panel" style="position:absolute;left:200px;top:240px;font:20px sans-serif;background:#fff"></div>
<div id="clock" style="position:absolute;left:520px;top:40px;font:20px sans-serif;background:#fff"></div>
<script>
  const palette = ${JSON.stringify(PALETTE)}
  const ctx = document.getElementById('bg').getContext('2d')
  let n = 0
  const paint = () => {
    const [r, g, b] = palette[n++ % palette.length]
    ctx.fillStyle = 'rgb(' + r + ',' + g + ',' + b + ')'
    ctx.fillRect(0, 0, 800, 420)
    if (${animate}) requestAnimationFrame(paint)
  }
  paint()
  if (${animate}) setInterval(() => { document.getElementById('clock').textContent = 'tick ' + n }, 300)
  document.getElementById('go').addEventListener('click', () => { document.getElementById('panel').textContent = 'Shown' })
  if (location.search.includes('wrong')) {
    const email = document.getElementById('email')
    email.addEventListener('input', () => {
      document.getElementById('name').value += email.value
      email.value = ''
    })
  }
</script>
</body></html>`

let server: Server
let base = ''
const sessions: BrowserSession[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path !== '/clock' && path !== '/still') return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(path === '/clock'))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()))
  await new Promise((done) => server.close(done))
})

async function freshPage(): Promise<Page> {
  const s = await openBrowser({ viewport: { width: 800, height: 420 } })
  sessions.push(s)
  return s.page
}

const centre = (b: BoundingBox): [number, number] => [b.x + b.width / 2, b.y + b.height / 2]

/**
 * Records by hand with the toolbar shown: a click into Email and typing at once, a click into Name and typing,
 * a click on Show. The person does not wait for the recorder.
 */
async function recordByHand(path: string): Promise<{ dir: string; testCase: TestCase }> {
  const dir = await mkdtemp(join(tmpdir(), 'qa-one-moment-'))
  const p = await freshPage()
  const rec = await createWebRecorder(p, { caseFile: join(dir, 'case.json') })
  await rec.start(`${base}${path}`)
  const listening = await rec.listen({ onStopRequest: () => undefined })
  // a person types as soon as the screen shows the click, and clicks once it shows the typing (the next frame),
  // never within the same frame
  const painted = () => p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  await p.mouse.click(...centre(EMAIL))
  await painted()
  await p.keyboard.type('alice@example.com')
  await painted()
  await p.mouse.click(...centre(NAME))
  await painted()
  await p.keyboard.type('Bob')
  await painted()
  await p.mouse.click(60, 264)
  // stop once the last click is a step (the page reports it a moment later), as a person stops after seeing it listed
  for (let i = 0; i < 600 && rec.testCase().actions.length < 5; i++) await new Promise((r) => setTimeout(r, 100))
  await listening.stop()
  await rec.save()
  await rec.close()
  return { dir, testCase: (await loadTestCase(join(dir, 'case.json'))).testCase }
}

/** How many pixels of a PNG have each palette colour (within a small tolerance), and the image's size. */
async function paletteCounts(png: string): Promise<{ counts: number[]; width: number; height: number }> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
  const counts = PALETTE.map(() => 0)
  for (let i = 0; i < data.length; i += info.channels) {
    const k = PALETTE.findIndex(
      ([r, g, b]) => Math.abs(data[i]! - r) <= 6 && Math.abs(data[i + 1]! - g) <= 6 && Math.abs(data[i + 2]! - b) <= 6,
    )
    if (k >= 0) counts[k]! += 1
  }
  return { counts, width: info.width, height: info.height }
}

/** Dark pixels (text) inside a box of a PNG, 6 px in from its edges (a caret is at most a thin line). */
async function darkPixelsIn(png: string, box: BoundingBox): Promise<number> {
  const { data, info } = await sharp(png)
    .extract({ left: box.x + 6, top: box.y + 6, width: box.width - 12, height: box.height - 12 })
    .raw()
    .toBuffer({ resolveWithObject: true })
  let dark = 0
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! + data[i + 1]! + data[i + 2]! < 300) dark++
  return dark
}

describe('recorded evidence shows one moment', () => {
  it('on a page that repaints every frame, no recorded image holds two moments, and typing is not in the click before it', async () => {
    const { dir, testCase } = await recordByHand('/clock')
    expect(testCase.actions.map((a) => a.actionType)).toEqual(['click', 'type', 'click', 'type', 'click'])
    const pngs = (await readdir(join(dir, 'case'))).filter((f) => f.endsWith('.png'))
    for (const file of pngs) {
      const { counts, width, height } = await paletteCounts(join(dir, 'case', file))
      const shown = counts.filter((c) => c > 0)
      // a screenshot shows the background everywhere around the fields: exactly one of its colours
      if (/-(before|after)\.png$/.test(file)) {
        expect(shown, `${file}: background colours ${JSON.stringify(counts)}`).toHaveLength(1)
        expect(Math.max(...counts)).toBeGreaterThan(width * height * 0.3)
      } else expect(shown.length, `${file}: background colours ${JSON.stringify(counts)}`).toBeLessThanOrEqual(1)
    }
    // every step has its before and after screenshots (typing too)
    for (const [i, a] of testCase.actions.entries()) {
      expect(a.screenshotBeforePath, `step ${i} before`).toBeTruthy()
      expect(a.screenshotPath, `step ${i} after`).toBeTruthy()
    }
    // the toolbar's place in a screencast frame is no view of the page: it is listed, and painted over
    const unknown = testCase.actions.flatMap((a) => [
      ...(a.unknownRegions?.before ?? []),
      ...(a.unknownRegions?.after ?? []),
    ])
    // (the thin ones are the text caret's places, in the fields)
    const toolbar = unknown.filter((b) => b.width > 12)
    expect(toolbar.length).toBeGreaterThan(0)
    for (const b of toolbar) expect(b.x + b.width).toBeGreaterThan(400)
    // the click into Email: its after-screenshot is from before the typing reached the page
    const click = testCase.actions[0]!
    const typed = testCase.actions[1]!
    expect(typed.text).toBe('alice@example.com')
    expect(await darkPixelsIn(join(dir, click.screenshotPath!), EMAIL)).toBeLessThan(60)
    expect(await darkPixelsIn(join(dir, typed.screenshotPath!), EMAIL)).toBeGreaterThan(300)
    // the typing's before-screenshot is from before its first character
    expect(await darkPixelsIn(join(dir, typed.screenshotBeforePath!), EMAIL)).toBeLessThan(60)
  })
})

describe('typing steps are verified', () => {
  it('a recorded typing step replayed where the text goes into another field fails; into its own field it passes', async () => {
    const { dir, testCase } = await recordByHand('/still')
    expect(testCase.actions.map((a) => a.actionType)).toEqual(['click', 'type', 'click', 'type', 'click'])
    const replay = async (url: string) => {
      const p = await freshPage()
      return replayWebCase(testCase, { page: p, caseDir: dir, verify: true, url })
    }
    // a screencast frame shows the caret in whatever phase of its blink, a replay's screenshot never: its place at
    // the frame's moment (in Name, after "Bob") is unknown in the typing's after-screenshot, compared in neither
    const caret = (testCase.actions[3]!.unknownRegions?.after ?? []).filter(
      (b) => b.y >= NAME.y && b.y + b.height <= NAME.y + NAME.height && b.width < 12,
    )
    expect(caret.filter((b) => b.x > NAME.x + 40 && b.x < NAME.x + 100).length, JSON.stringify(caret)).toBe(1)
    // the click on Show comes right after the typing: its hover look (the pointer came onto it before pressing) is
    // not in the typing's after-screenshot, which a replay of the typing never shows
    const show = { x: 40, y: 240, width: 70, height: 48 }
    const typed = testCase.actions[3]!
    expect(await differingPixels(join(dir, typed.screenshotBeforePath!), join(dir, typed.screenshotPath!), show)).toBe(
      0,
    )
    const right = await replay(`${base}/still`)
    expect(
      right.report.verificationResults.map((r) => `${r.finalResult}: ${r.reason}`),
      'the unchanged page',
    ).toEqual(right.report.verificationResults.map((r) => `pass: ${r.reason}`))
    const wrong = await replay(`${base}/still?wrong`)
    const typing = wrong.report.verificationResults[1]!
    expect(typing.finalResult, typing.reason ?? undefined).toBe('fail')
    expect(typing.reason).toMatch(/expected change did not happen|outside its expected region/i)
  })
})

/** Pixels of a box that differ (by more than a little) between two PNGs of the same size. */
async function differingPixels(a: string, b: string, box: BoundingBox): Promise<number> {
  const read = (png: string) =>
    sharp(png).extract({ left: box.x, top: box.y, width: box.width, height: box.height }).ensureAlpha().raw().toBuffer()
  const [pa, pb] = await Promise.all([read(a), read(b)])
  let n = 0
  for (let i = 0; i < pa.length; i += 4)
    if (Math.abs(pa[i]! - pb[i]!) + Math.abs(pa[i + 1]! - pb[i + 1]!) + Math.abs(pa[i + 2]! - pb[i + 2]!) > 30) n++
  return n
}
