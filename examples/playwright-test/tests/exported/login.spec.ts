// Exported by `qa export playwright` from ../../cases/login.json ("login").
// Each element is found by qa's healing cascade (heal), so the test survives a redesign; the recorded
// identities stay in the case file.
import { expect, heal, test } from '@qa/playwright'

const recorded = '../../cases/login.json'
// Recorded on http://127.0.0.1:4173; set `use.baseURL` in playwright.config.ts to run against another server.
const at = (path: string, baseURL?: string) => new URL(path, baseURL ?? 'http://127.0.0.1:4173').href

test('login', async ({ page, baseURL }) => {
  await page.goto(at('/login', baseURL))
  await heal(page).fromCase(recorded, 0).click() // textbox "아이디"
  await heal(page).fromCase(recorded, 1).fill('player01') // textbox "아이디"
  await heal(page).fromCase(recorded, 2).click() // textbox "비밀번호"
  await heal(page).fromCase(recorded, 3).fill(process.env.QA_SECRET_PASSWORD ?? '') // textbox "비밀번호" (secret from $QA_SECRET_PASSWORD)
  await heal(page).fromCase(recorded, 4).click() // button "로그인"
  await page.waitForTimeout(500)
  await expect(page).toHaveURL(new RegExp('/list'))
  await heal(page).fromCase(recorded, 7).click() // button "새로 만들기"
})
