/**
 * The verification behind `toMatchRecordedStep`, in real Chromium on the sample app: pixels first, then
 * the vision second opinion when one is configured (here the verifier's fake port, answering as told).
 */
import { createWebRecorder, replayWebCase } from '@qa/recorder-cdp'
import { startSampleApp } from '@qa/sample-app'
import { fakeReverifier } from '@qa/verifier'
import { chromium } from 'playwright-core'
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { heal } from './heal'
import { configureRecordedSteps, verifyRecordedStep } from './match-recorded-step'
import { loadRecordedCase } from './recorded-case'

const recorded = fileURLToPath(new URL('../../../examples/playwright-test/cases/login.json', import.meta.url))
const strict = { passSimilarity: 0.99, fallbackSimilarity: 0.95 }

let app: Awaited<ReturnType<typeof startSampleApp>>
let browser: Awaited<ReturnType<typeof chromium.launch>>
beforeAll(async () => {
  app = await startSampleApp({ version: 'v1' })
  browser = await chromium.launch({
    executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  })
})
afterAll(async () => {
  await browser?.close()
  await app?.close()
})

async function loginPage(query: string) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
  await page.goto(`${app.url}/login${query}`)
  return page
}

describe('verifyRecordedStep (toMatchRecordedStep)', () => {
  it('passes on the unchanged page by pixels alone, without asking vision', async () => {
    const vision = fakeReverifier({ match: false })
    const page = await loginPage('?v=1')
    await heal(page).fromCase(recorded, 0).click() // the step itself: the field takes the focus
    const result = await verifyRecordedStep(page, recorded, 0, { reverifier: vision })
    expect(result.finalResult).toBe('pass')
    expect(result.screenshotSimilarity).toBeGreaterThanOrEqual(0.99)
    expect(vision.calls).toHaveLength(0)
    await page.close()
  })

  it('asks vision when the pixels differ: its agreement makes a warning, its disagreement a failure', async () => {
    const page = await loginPage('?v=2')
    await heal(page).fromCase(recorded, 0).click()
    const agrees = fakeReverifier({ match: true })
    const warned = await verifyRecordedStep(page, recorded, 0, { reverifier: agrees, policy: strict })
    expect(warned.finalResult).toBe('warning')
    expect(warned.visionVerified && warned.visionMatch).toBe(true)
    expect(agrees.calls).toHaveLength(1)
    expect(agrees.calls[0]?.intent).toContain('아이디')
    configureRecordedSteps({ reverifier: fakeReverifier({ match: false }), policy: strict })
    const failed = await verifyRecordedStep(page, recorded, 0)
    configureRecordedSteps({})
    expect(failed.finalResult).toBe('fail')
    expect(failed.screenshotSimilarity).toBeLessThan(0.95)
    await page.close()
  })

  it('names the case file and the step when the index is outside the case', async () => {
    const page = await loginPage('')
    await expect(verifyRecordedStep(page, recorded, 42)).rejects.toMatchObject({ code: 'PW_NO_SUCH_STEP' })
    await page.close()
  })
})

/**
 * A step whose effect is small on the screen (a status badge) passed toMatchRecordedStep on
 * a changed build (whole screen 99 %) while `qa replay --verify` failed it on its expected region. One step, one
 * verdict: the matcher decides on the same region as the replay, whether the test acted through heal() or not.
 */
describe('toMatchRecordedStep and the replay give one verdict for one step', () => {
  const badge = (build: string) => (build === '2' ? ['#c62828', 'Failed to save'] : ['#2e7d32', 'Saved'])
  const html = (build: string) => `<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0;background:#fff;font:16px sans-serif">
<button id="save" style="position:absolute;left:20px;top:20px;width:140px;height:40px"
  onclick="document.getElementById('badge').style.display='block'">Save</button>
<div id="badge" style="display:none;position:absolute;left:200px;top:20px;width:160px;height:40px;color:#fff;background:${badge(build)[0]}">${badge(build)[1]}</div>
</body></html>`
  let server: Server
  let url = ''
  let caseFile = ''
  beforeAll(async () => {
    server = createServer((req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(html(new URL(req.url ?? '/', 'http://x').searchParams.get('b') ?? '1')),
    )
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    caseFile = join(mkdtempSync(join(tmpdir(), 'qa-pw-one-verdict-')), 'badge.json')
    const recPage = await browser.newPage({ viewport: { width: 1280, height: 720 } })
    const rec = await createWebRecorder(recPage, { caseFile })
    await rec.start(`${url}?b=1`)
    await rec.click(90, 40)
    await rec.save()
    await rec.close()
    await recPage.close()
  })
  afterAll(async () => {
    await new Promise((done) => server?.close(done))
  })

  async function replayed(build: string) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
    const recorded = await loadRecordedCase(caseFile)
    const outcome = await replayWebCase(recorded.testCase, {
      page,
      caseDir: recorded.dir,
      url: `${url}?b=${build}`,
      verify: true,
    })
    await page.close()
    return outcome.report.verificationResults[0]
  }

  async function matched(build: string, via: 'heal' | 'playwright') {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
    await page.goto(`${url}?b=${build}`)
    if (via === 'heal') await heal(page).fromCase(caseFile, 0).click()
    else await page.getByRole('button', { name: 'Save' }).click()
    const result = await verifyRecordedStep(page, caseFile, 0)
    await page.close()
    return result
  }

  it('fails the step on the changed build, as the replay does, although the whole screen is 99 % alike', async () => {
    const replay = await replayed('2')
    expect(replay?.finalResult).toBe('fail')
    for (const via of ['heal', 'playwright'] as const) {
      const result = await matched('2', via)
      expect({ via, verdict: result.finalResult }).toEqual({ via, verdict: 'fail' })
      expect(result.screenshotSimilarity).toBeGreaterThan(0.95)
      expect(result.regionSimilarity).toBeCloseTo(replay?.regionSimilarity ?? -1, 2)
    }
  })

  it('passes the step on the unchanged build, as the replay does', async () => {
    const replay = await replayed('1')
    expect(replay?.finalResult).toBe('pass')
    for (const via of ['heal', 'playwright'] as const) {
      const result = await matched('1', via)
      expect({ via, verdict: result.finalResult }).toEqual({ via, verdict: 'pass' })
    }
  })
})
