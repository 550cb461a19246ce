import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadTestCase } from '@qa/model/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servePage } from '../test/serve-page'
import { type BrowserSession, openBrowser } from './browser/browser'
import { settle } from './browser/settle'
import { createWebRecorder } from './record/recorder'
import { replayWebCase } from './replay/replayer'

/**
 * A settle waits for the page's finite CSS transitions too: a focus ring fading in changes no DOM node, and a screen
 * taken during it holds neither the look before the step nor the look after (a recorded after-frame shows
 * the ring drawn, the replay's capture half of it).
 */

const PAGE = `<!doctype html><html><body style="margin:0">
<button id="go">Go</button>
<div id="box" style="width:200px;height:100px;background:rgb(255,255,255);transition:background-color 900ms linear"></div>
<div id="spin" style="width:20px;height:20px;background:#000;animation:spin 1s linear infinite"></div>
<style>@keyframes spin { to { transform: rotate(360deg) } }</style>
<script>document.getElementById('go').onclick = () => { document.getElementById('box').style.backgroundColor = 'rgb(0, 0, 255)' }</script>
</body></html>`

let session: BrowserSession

beforeAll(async () => {
  session = await openBrowser({ viewport: { width: 400, height: 300 } })
}, 60_000)

afterAll(async () => {
  await session?.close()
})

describe('settle', () => {
  it('waits for a running transition to finish, though a spinner runs on for ever', async () => {
    const page = await session.context.newPage()
    try {
      await page.setContent(PAGE)
      await page.click('#go')
      await settle(page)
      const colour = await page.evaluate(
        () => getComputedStyle(document.getElementById('box') as Element).backgroundColor,
      )
      expect(colour).toBe('rgb(0, 0, 255)')
    } finally {
      await page.close()
    }
  }, 60_000)
})

/**
 * stisla's buttons page: a `.btn-progress` spinner turns for ever beside the buttons, and a replay's screen shows it
 * at another angle than the recording's. Its pixels are no step's evidence: the recorder lists what loops by itself
 * as the step's animated regions, which the verdict compares in neither image.
 */
const LOOPING = `<!doctype html><html><body style="margin:0;font:16px sans-serif">
<button id="go" style="position:absolute;left:20px;top:20px;width:120px;height:40px">Go</button>
<div id="box" style="position:absolute;left:20px;top:80px;width:60px;height:30px;background:#fff"></div>
<div id="spin" style="position:absolute;left:200px;top:80px;width:100px;height:100px;border:14px solid #333;border-right-color:transparent;border-bottom-color:transparent;border-radius:50%;box-sizing:border-box;animation:spin 700ms linear infinite"></div>
<style>@keyframes spin { to { transform: rotate(360deg) } }</style>
<script>document.getElementById('go').onclick = () => { document.getElementById('box').style.background = '#1565c0' }</script>
</body></html>`

describe('what loops by itself is no evidence', () => {
  it('a spinner is recorded as an animated region of the step (the finished change is not), and the unchanged page passes', async () => {
    const served = await servePage(LOOPING)
    const dir = await mkdtemp(join(tmpdir(), 'qa-looping-'))
    try {
      const p = await session.context.newPage()
      const rec = await createWebRecorder(p, { caseFile: join(dir, 'case.json') })
      await rec.start(served.base)
      await rec.click(80, 40)
      await rec.save()
      await rec.close()
      await p.close()
      const { testCase } = await loadTestCase(join(dir, 'case.json'))
      const regions = testCase.actions[0]?.animatedRegions ?? []
      // the spinner (200, 80, 100×100) inside one region; the box the click turned blue (20, 80) in none
      expect(regions.some((r) => r.x <= 200 && r.y <= 80 && r.x + r.width >= 300 && r.y + r.height >= 180)).toBe(true)
      expect(regions.some((r) => r.x <= 50 && r.x + r.width >= 50 && r.y <= 95 && r.y + r.height >= 95)).toBe(false)
      for (let k = 0; k < 3; k++) {
        const q = await session.context.newPage()
        const outcome = await replayWebCase(testCase, { page: q, caseDir: dir, verify: true, env: {} })
        await q.close()
        expect(
          outcome.report.verificationResults[0]?.finalResult,
          outcome.report.verificationResults[0]?.reason ?? '',
        ).toBe('pass')
      }
    } finally {
      await served.close()
    }
  }, 120_000)
})
