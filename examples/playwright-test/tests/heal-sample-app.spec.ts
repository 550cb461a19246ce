/**
 * A Playwright test written against v1 of the sample app, run on its redesign (v2: ids, classes and labels
 * renamed, a decoy "간편 로그인" button with the same classes inserted before 로그인, blocks moved). Each element
 * is found by qa's healing cascade from the recorded case; the heals land in Playwright's report.
 */
import type { APIRequestContext } from '@playwright/test'
import { expect, heal, test } from '@qa/playwright'

const recorded = '../cases/login.json'

interface TruthEvent {
  type: string
  truth: string
}
async function clicks(request: APIRequestContext): Promise<string[]> {
  const events = (await (await request.get('/__events')).json()) as TruthEvent[]
  return events.filter((e) => e.type === 'click').map((e) => e.truth)
}

test.beforeEach(async ({ request }) => {
  await request.delete('/__events')
})

test('logs in on the redesigned v2 and opens the create dialog, every element healed from the recording', async ({
  page,
  request,
}) => {
  await page.goto('/login')
  await heal(page).fromCase(recorded, 1).fill('player01') // textbox "아이디" (v2: "사용자 아이디")
  await heal(page).fromCase(recorded, 3).fill('secret') // textbox "비밀번호"
  const login = await heal(page).fromCase(recorded, 4) // button "로그인" (v2: "로그인하기", decoy "간편 로그인" before it)
  expect(login.healed).toBe(true)
  await login.click()
  await expect(page).toHaveURL(/\/list$/)
  const create = await heal(page).fromCase(recorded, 7) // button "새로 만들기" (v2: a[role=button] "추가")
  await create.click()
  await expect(page.getByRole('dialog')).toBeVisible()
  // what really received the clicks (the page's own listeners): the right buttons, never the decoys
  expect(await clicks(request)).toEqual(expect.arrayContaining(['login.submit', 'list.create']))
  expect(await clicks(request)).not.toContain('login.quick')
  expect(await clicks(request)).not.toContain('list.import')
  const heals = test.info().attachments.filter((a) => a.name === 'qa-heal')
  expect(heals.length).toBeGreaterThanOrEqual(4)
})

test('a removed target fails the step: nothing is clicked, not even the look-alike left in its place', async ({
  page,
  request,
}) => {
  // ?m=removal: "로그인" is gone and "간편 로그인" (same classes, same place) remains
  await page.goto('/login?m=removal')
  await heal(page).fromCase(recorded, 1).fill('player01')
  await heal(page).fromCase(recorded, 3).fill('secret')
  const error = await heal(page, { timeoutMs: 1_000 })
    .fromCase(recorded, 4)
    .click()
    .then(
      () => null,
      (e: unknown) => e,
    )
  expect(error).toMatchObject({ code: 'PW_ELEMENT_NOT_FOUND' })
  expect(await clicks(request)).toEqual([])
  await expect(page).toHaveURL(/\/login/)
})

test('the handed-out locator follows its element through a re-render that reorders the page', async ({ page }) => {
  await page.goto('/login?v=1')
  const step = await heal(page).fromCase(recorded, 4) // button "로그인" exactly as recorded
  expect(step.stable).toBe(true)
  const locator = step.locator
  // re-render the form in reverse order, with a look-alike button first: an index-based locator would now
  // point at another element
  await page.evaluate(() => {
    const form = document.querySelector('form') as HTMLFormElement
    const children = [...form.children]
    const html = form.innerHTML
    form.innerHTML = ''
    form.innerHTML = html
    for (const c of [...form.children].reverse()) form.appendChild(c)
    const decoy = document.createElement('button')
    decoy.type = 'button'
    decoy.className = children.find((c) => c.tagName === 'BUTTON')?.className ?? ''
    decoy.textContent = '간편 로그인'
    form.prepend(decoy)
  })
  await expect(locator).toHaveText('로그인')
  expect(await locator.evaluate((el) => el === document.querySelector('form button[type="submit"]'))).toBe(true)
  // which button the click really reaches (the page's own listener)
  await page.evaluate(() => {
    document.addEventListener('click', (e) => {
      const button = (e.target as Element).closest('button')
      document.body.dataset.clicked = button?.textContent?.trim() ?? ''
      e.preventDefault()
    })
  })
  await step.click()
  await expect(page.locator('body')).toHaveAttribute('data-clicked', '로그인')
})
