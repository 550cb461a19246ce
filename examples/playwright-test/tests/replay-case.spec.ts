/** The whole recorded case replayed inside a Playwright test, on the redesigned v2. */
import { expect, replayCase, test } from '@qa/playwright'

test('replays the recorded login case on v2 with healing', async ({ page, baseURL }) => {
  const outcome = await replayCase(page, '../cases/login.json', {
    url: `${baseURL}/login`,
    // the pixels of a redesign differ from the recording; without a vision provider only the steps are checked
    verify: false,
    env: { QA_SECRET_PASSWORD: 'secret' },
  })
  expect(outcome.passed).toBe(true)
  expect(outcome.replayResults.every((r) => r.success)).toBe(true)
  await expect(page.getByRole('dialog')).toBeVisible()
})

test('verifies a step against its recorded screenshot (seed 000) on the unchanged v1', async ({ page }) => {
  await page.goto('/login?v=1')
  await expect(page).toMatchRecordedStep('../cases/login.json', 0)
})
