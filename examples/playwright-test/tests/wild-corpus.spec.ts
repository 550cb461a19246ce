/**
 * A page nobody here wrote (the sneat admin template's login), mutated after it renders: ids and classes
 * renamed, labels reworded, a look-alike inserted before each control. The healed element is checked against
 * the page's own ground truth (a closure the tool cannot see).
 */
import { askTruth } from '@qa/wild-corpus'
import { expect, test } from '@qa/playwright'

const PAGE = 'sneat/html/auth-login-basic.html'

test('heals the sneat login button on a mutated copy to the very same element', async ({ page, heal }) => {
  const corpus = String(test.info().config.metadata.corpusUrl)
  await page.goto(`${corpus}/${PAGE}`)
  const original = page.getByRole('button', { name: 'Sign in' })
  const truth = await original.evaluate(askTruth)
  const box = await original.boundingBox()
  const identity = {
    axRole: 'button',
    axName: 'Sign in',
    tagName: 'button',
    type: 'submit',
    classNames: ['btn', 'btn-primary', 'd-grid', 'w-100'],
    textContent: 'Sign in',
    boundingBox: box ?? { x: 0, y: 0, width: 0, height: 0 },
  }
  await page.goto(`${corpus}/m/pw/renamed-ids+renamed-classes+decoy-siblings+layout-shift/${PAGE}`)
  await page.waitForLoadState('load')
  const step = await heal(page).identity(identity)
  expect(await step.locator.evaluate(askTruth)).toBe(truth)
})
