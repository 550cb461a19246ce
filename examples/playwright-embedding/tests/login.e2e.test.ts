/**
 * A team's own Playwright test, written once against v1 of an app, that keeps working after a redesign
 * because the element is located by qa's healing cascade instead of a brittle selector.
 */
import { healingLocator } from '@qa/recorder-cdp'
import { startSampleApp } from '@qa/sample-app'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'

// What qa recorded for the login button (copied from a case file's "identity"): v1 had id "login-btn",
// class "btn btn-primary" and the label "로그인".
const loginButton = {
  axRole: 'button',
  axName: '로그인',
  tagName: 'button',
  id: 'login-btn',
  classNames: ['btn', 'btn-primary'],
  textContent: '로그인',
  boundingBox: { x: 540, y: 420, width: 280, height: 40 },
}

let app: Awaited<ReturnType<typeof startSampleApp>>
beforeAll(async () => {
  app = await startSampleApp({ version: 'v2' }) // the redesign: renamed, reworded, decoys added
})
afterAll(async () => app.close())

test('logs in on the redesigned app with a healing locator', async () => {
  const browser = await chromium.launch({
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
  try {
    const page = await browser.newPage()
    await page.goto(`${app.url}/login`)
    await page.getByLabel('아이디', { exact: false }).first().fill('player01')
    await page.locator('input[type="password"]').fill('secret')
    const { locator, result } = await healingLocator(page, loginButton)
    console.log(
      `login button found by ${result.strategy} (${result.attempts.map((a) => `${a.strategy}: ${a.outcome}`).join(', ')})`,
    )
    await locator.click()
    await page.waitForURL(/\/list/)
    expect(page.url()).toMatch(/\/list$/)
    const click = app.events().find((e) => e.type === 'click')
    expect(click?.truth).toBe('login.submit')
  } finally {
    await browser.close()
  }
})
