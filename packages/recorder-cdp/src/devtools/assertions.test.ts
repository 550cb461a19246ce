import type { Action, ElementIdentity, TestCase } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { type DevtoolsStep, devtoolsReplayPlan, exportDevtoolsRecording, importDevtoolsRecording } from './index'
import { waitForElementExpression } from './assertions'
import { NOW } from './__tests__/fixtures'

describe('assertions through DevTools recordings', () => {
  const box = { x: 10, y: 20, width: 100, height: 30 }
  const cart: ElementIdentity = {
    axRole: 'status',
    axName: '장바구니',
    tagName: 'output',
    id: 'cart',
    boundingBox: box,
  }
  const assertStep = (assertion: Action['assertion'], identity: ElementIdentity | null = cart): Action => ({
    timestamp: 1,
    actionType: 'assert',
    x: 60,
    y: 35,
    description: 'Assert',
    assertion,
    ...(identity ? { identity, selectors: { css: '#cart' } } : {}),
  })
  const assertions: NonNullable<Action['assertion']>[] = [
    { kind: 'visible' },
    { kind: 'hidden' },
    { kind: 'text', expected: '장바구니 3개' },
    { kind: 'text', op: 'contains', expected: '3개' },
    { kind: 'text', op: 'matches', expected: '/^장바구니 \\d+개$/' },
    { kind: 'value', expected: 'qa-user' },
    { kind: 'value', op: 'contains', expected: 'qa' },
    { kind: 'checked', expected: false },
    { kind: 'count', expected: 3 },
    { kind: 'count', op: 'at_least', expected: 2 },
    { kind: 'count', op: 'at_most', expected: 5 },
  ]
  const tc: TestCase = {
    name: '장바구니',
    version: '3.1',
    platform: 'web',
    startUrl: 'http://127.0.0.1:4173/shop',
    actions: [
      ...assertions.map((a) => assertStep(a)),
      assertStep({ kind: 'url', expected: 'http://127.0.0.1:4173/cart' }, null),
      assertStep({ kind: 'url', op: 'matches', expected: '/cart$' }, null),
      assertStep({ kind: 'url', expected: '/cart' }, null),
      assertStep({ kind: 'expression', expected: 'window.cartCount === 3' }, null),
    ],
  }

  it('every kind exports to waitForElement or waitForExpression and imports back as the same assertion', () => {
    const { recording, warnings } = exportDevtoolsRecording(tc)
    expect(warnings).toEqual([])
    const kinds = recording.steps.slice(1).map((s) => s.type)
    expect(kinds).toEqual([
      ...Array(3).fill('waitForElement'),
      'waitForExpression',
      'waitForExpression',
      'waitForElement',
      'waitForExpression',
      ...Array(4).fill('waitForElement'),
      ...Array(4).fill('waitForExpression'),
    ])
    expect(recording.steps[2]).toMatchObject({ operator: '==', count: 0 })
    expect(recording.steps[3]).toMatchObject({ properties: { innerText: '장바구니 3개' } })
    expect(recording.steps[15]).toMatchObject({ expression: 'window.cartCount === 3' })
    const back = importDevtoolsRecording(JSON.parse(JSON.stringify(recording)), { now: NOW })
    expect(back.warnings).toEqual([])
    expect(back.testCase.actions.map((a) => a.assertion)).toEqual(tc.actions.map((a) => a.assertion))
    expect(back.testCase.actions.slice(0, 11).every((a) => a.selectors?.css === '#cart')).toBe(true)
  })

  it('the exported expressions check what the assertions check (evaluated as DevTools would)', () => {
    const { recording } = exportDevtoolsRecording(tc)
    const expressions = recording.steps.filter((s) => s.type === 'waitForExpression').map((s) => s.expression as string)
    // a tiny page: the cart says "장바구니 3개", the field holds "qa-user", the page is /cart
    const el = { innerText: '  장바구니\n3개 ', value: 'qa-user' }
    // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees is what is asserted
    const evaluate = (expression: string, href: string, text = el.innerText) =>
      new Function('document', 'location', 'window', `return (${expression})`)(
        { querySelector: (css: string) => (css === '#cart' ? { ...el, innerText: text } : null) },
        Object.assign(new URL(href), {}),
        { cartCount: 3 },
      )
    const here = 'http://127.0.0.1:4173/cart'
    expect(expressions.map((e) => evaluate(e, here))).toEqual([true, true, true, true, true, true, true])
    const elsewhere = 'http://127.0.0.1:4173/cart/old'
    expect(expressions.map((e) => evaluate(e, elsewhere, '장바구니 2개'))).toEqual([
      false, // text contains "3개"
      true, // text matches /^장바구니 \d+개$/: any count
      true, // value contains "qa": the field did not change
      false,
      false,
      false,
      true,
    ])
  })

  it('a waitForElement no typed assertion says is checked as the reference checks it (an in-page expression); with aria/ it fails its step', () => {
    const { testCase, warnings } = importDevtoolsRecording(
      {
        title: 't',
        steps: [
          { type: 'navigate', url: 'http://x/' },
          { type: 'waitForElement', selectors: ['#a'], attributes: { 'data-state': 'open' } },
          { type: 'waitForElement', selectors: ['#a'], visible: false, properties: { value: 'x' } },
          { type: 'waitForElement', selectors: ['#a'], visible: false },
          { type: 'waitForElement', selectors: ['#a'], visible: false, operator: '<=', count: 2 },
          { type: 'waitForElement', selectors: [['aria/Menu']], attributes: { 'data-state': 'open' } },
        ],
      },
      { now: NOW },
    )
    expect(testCase.actions.map((a) => devtoolsReplayPlan(a)?.unsupported ?? null)).toEqual([
      null,
      null,
      null,
      null,
      'waiting for element attributes has no equivalent',
    ])
    expect(testCase.actions.slice(0, 2).map((a) => a.assertion?.kind)).toEqual(['expression', 'expression'])
    // visible: false waits until the count condition no longer holds (DevTools counts matches, shown or not)
    expect(testCase.actions.slice(2, 4).map((a) => a.assertion)).toEqual([
      { kind: 'count', op: 'at_most', expected: 0 },
      { kind: 'count', op: 'at_least', expected: 3 },
    ])
    expect(warnings).toEqual([
      expect.stringMatching(
        /^steps\[5\] \(waitForElement\): waiting for element attributes has no equivalent; the step fails on replay/,
      ),
    ])
  })

  it('the waitForElement expression checks what the reference checks (count, attributes, properties, visible: false)', () => {
    const expr = (step: Partial<DevtoolsStep>) =>
      waitForElementExpression({ type: 'waitForElement', selectors: [['#nothing'], ['.item']], ...step }) as string
    // evaluated against a fake document of two .item elements (the first group names none, so the second counts)
    const items = [
      { getAttribute: (k: string) => (k === 'data-state' ? 'open' : null), value: 'x' },
      { getAttribute: (k: string) => (k === 'data-state' ? 'open' : null), value: 'y' },
    ]
    const document = {
      querySelectorAll: (s: string) => (s === '.item' ? items : []),
      head: null,
    }
    const run = (e: string) => new Function('document', 'NodeFilter', 'XPathResult', `return ${e}`)(document, {}, {})
    expect(run(expr({}))).toBe(true)
    expect(run(expr({ count: 3 }))).toBe(false)
    expect(run(expr({ operator: '==', count: 2 }))).toBe(true)
    expect(run(expr({ attributes: { 'data-state': 'open' } }))).toBe(true)
    expect(run(expr({ attributes: { 'data-state': 'closed' } }))).toBe(false)
    expect(run(expr({ properties: { value: 'x' } }))).toBe(false)
    expect(run(expr({ visible: false, count: 3 }))).toBe(true)
    expect(waitForElementExpression({ type: 'waitForElement', selectors: [['aria/Menu']] })).toBeNull()
  })
})
