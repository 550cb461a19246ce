/** The whole recorded case replayed inside a Playwright test, on the redesigned v2. */
import { expect, heal, replayCase, test } from '@qa/playwright'

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

test('replays against use.baseURL when no URL is given, as page.goto does (not the recorded origin)', async ({
  page,
  baseURL,
}) => {
  // the case was recorded on http://127.0.0.1:4173; the app under test is the baseURL's server
  const outcome = await replayCase(page, '../cases/login.json', {
    verify: false,
    env: { QA_SECRET_PASSWORD: 'secret' },
  })
  expect(outcome.passed).toBe(true)
  expect(new URL(page.url()).origin).toBe(new URL(baseURL ?? '').origin)
  await expect(page.getByRole('dialog')).toBeVisible()
})

test('verifies a step against its recorded screenshot on the unchanged v1', async ({ page }) => {
  await page.goto('/login?v=1')
  await heal(page).fromCase('../cases/login.json', 0).click() // the step itself: the field takes the focus
  await expect(page).toMatchRecordedStep('../cases/login.json', 0)
})

test('replays with verification on reworded labels; the verified heals are learnt (written by the reporter)', async ({
  page,
  baseURL,
}) => {
  // ?m=reworded-labels: "아이디" → "사용자 아이디", "로그인" → "로그인하기", "새로 만들기" → "추가"; the screens barely change
  // as a whole, but each step's expected region is compared too
  const outcome = await replayCase(page, '../cases/login.json', {
    url: `${baseURL}/login?m=reworded-labels`,
    env: { QA_SECRET_PASSWORD: 'secret' },
  })
  expect(outcome.passed).toBe(true)
  // Only heals whose step verified as a pass are learnt. The expected region of the login click (the list page it
  // opens) shows reworded texts, a warning without a vision provider: that heal is not learnt; 새로 만들기 → 추가 is.
  const verifiedPass = outcome.report.verificationResults
    .filter((v) => v.finalResult === 'pass')
    .map((v) => v.actionIndex)
  expect(outcome.healedSteps).toEqual(expect.arrayContaining([7]))
  for (const step of outcome.healedSteps) expect(verifiedPass).toContain(step)
  expect(outcome.healedSteps).not.toContain(4)
})

test('the recorded-step matcher fails on the redesign under a strict fallback floor, with the diff attached', async ({
  page,
}) => {
  await page.goto('/login') // v2: an 80 px banner, reworded labels, a decoy button (about 92% of the pixels agree)
  // without a vision provider, a fallback floor of 95% (default 70%) turns that difference into a failure
  await expect(page).not.toMatchRecordedStep('../cases/login.json', 0, {
    policy: { passSimilarity: 0.99, fallbackSimilarity: 0.95 },
  })
  const names = test.info().attachments.map((a) => a.name)
  expect(names).toEqual(
    expect.arrayContaining([
      'step-000-expected.png',
      'step-000-actual.png',
      'step-000-diff.png',
      'step-000-verification',
    ]),
  )
})
