import { parseTestCase } from '@qa/model'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { exportPlaywrightTest } from './codegen'

const caseFile = fileURLToPath(new URL('../../../examples/playwright-test/cases/login.json', import.meta.url))
const recorded = parseTestCase(JSON.parse(readFileSync(caseFile, 'utf8'))).testCase

describe('exportPlaywrightTest', () => {
  it('writes one healing line per step, naming the element, with the start URL relative to baseURL', () => {
    const { source, warnings } = exportPlaywrightTest(recorded, { casePath: '../cases/login.json' })
    expect(warnings).toEqual([])
    expect(source).toContain("const recorded = '../cases/login.json'")
    expect(source).toContain("await page.goto(at('/login', baseURL))")
    expect(source).toContain('await heal(page).fromCase(recorded, 4).click() // button "로그인"')
    expect(source).toContain('await heal(page).fromCase(recorded, 1).fill(\'player01\') // textbox "아이디"')
    expect(source).toContain("await expect(page).toHaveURL(new RegExp('/list'))")
    // the password is never written: it is read from the variable the case names
    expect(source).toContain(".fill(process.env.QA_SECRET_PASSWORD ?? '')")
    expect(source).not.toContain('********')
  })

  it('is what the example project runs (tests/exported/login.spec.ts is the export of cases/login.json)', () => {
    const spec = fileURLToPath(
      new URL('../../../examples/playwright-test/tests/exported/login.spec.ts', import.meta.url),
    )
    const { source } = exportPlaywrightTest(recorded, { casePath: '../../cases/login.json' })
    expect(readFileSync(spec, 'utf8')).toBe(source)
  })

  it('writes assertions as expect lines, and a step without identity as a warned click at its point', () => {
    const tc = structuredClone(recorded)
    const button = tc.actions[4]!
    tc.actions.push(
      { ...button, actionType: 'assert', assertion: { kind: 'text', op: 'contains', expected: '로그' } },
      { ...button, actionType: 'assert', assertion: { kind: 'hidden' } },
      { ...button, actionType: 'click', identity: null, x: 10, y: 20 },
      {
        ...button,
        actionType: 'click',
        identity: { tagName: 'body', boundingBox: { x: 0, y: 0, width: 1280, height: 720 } },
        x: 5,
        y: 6,
      },
    )
    const { source, warnings } = exportPlaywrightTest(tc, { casePath: './login.json', title: "it's" })
    expect(source).toContain("test('it\\'s', async")
    expect(source).toContain("await expect(await heal(page).fromCase(recorded, 8).locator()).toContainText('로그')")
    expect(source).toContain('await heal(page).fromCase(recorded, 9).assert() // hidden of button "로그인"')
    expect(source).toContain('await page.mouse.click(10, 20) // recorded point only')
    expect(source).toContain('await page.mouse.click(5, 6) // recorded point only')
    expect(warnings).toEqual([
      expect.stringMatching(/^actions\[10\] \(click\): has no element identity/),
      expect.stringMatching(/^actions\[11\] \(click\): its recorded target is not a real target/),
    ])
  })
})
