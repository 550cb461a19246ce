/**
 * The seed 000 verification behind `toMatchRecordedStep`, in real Chromium on the sample app: pixels first, then
 * the vision second opinion when one is configured (here the verifier's fake port, answering as told).
 */
import { startSampleApp } from '@qa/sample-app'
import { fakeReverifier } from '@qa/verifier'
import { chromium } from 'playwright-core'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureRecordedSteps, verifyRecordedStep } from './match-recorded-step'

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
    const result = await verifyRecordedStep(page, recorded, 0, { reverifier: vision })
    expect(result.finalResult).toBe('pass')
    expect(result.screenshotSimilarity).toBeGreaterThanOrEqual(0.99)
    expect(vision.calls).toHaveLength(0)
    await page.close()
  })

  it('asks vision when the pixels differ: its agreement makes a warning, its disagreement a failure', async () => {
    const page = await loginPage('?v=2')
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
