import { fc, test as propTest } from '@fast-check/vitest'
import type { Action, ElementIdentity, TestCase } from '@qa/model'
import { describe, expect } from 'vitest'
import { type DevtoolsRecording, type DevtoolsStep, exportDevtoolsRecording, importDevtoolsRecording } from './index'
import { NOW, throughFile } from './__tests__/fixtures'

const ROLES = ['button', 'link', 'textbox', 'checkbox', 'menuitem', 'tab', 'combobox']
const WORDS = [
  '시작',
  '시작하기',
  '설정',
  '확인',
  '취소',
  '게임 입장',
  '로그인',
  '아이디 입력',
  '검색',
  'Save',
  'Open menu',
  '다음 단계로',
]
const PASSWORDISH = /passw|passwd|pwd|비밀번호|패스워드|암호/i
/** Accessible names as DevTools writes them in `aria/…`: trimmed, no brackets (puppeteer reads those as attributes). */
const arbName = fc
  .oneof(
    fc.constantFrom(...WORDS),
    fc
      .array(
        fc.integer({ min: 0xac00, max: 0xd7a3 }).map((c) => String.fromCharCode(c)),
        { minLength: 1, maxLength: 6 },
      )
      .map((cs) => cs.join('')),
    fc.string({ minLength: 1, maxLength: 16 }),
  )
  .map((s) => s.replace(/\s+/g, ' ').trim())
  .filter((s) => s !== '' && !/[[\]]/.test(s) && !PASSWORDISH.test(s))
const arbValue = fc
  .oneof(fc.constantFrom('qa-user', '무선 키보드', '', '서울 강남구'), fc.string({ maxLength: 20 }))
  .filter((s) => s !== '********' && !PASSWORDISH.test(s))
const arbCss = fc.oneof(
  fc.integer({ min: 1, max: 99 }).map((n) => `#field-${n}`),
  fc.constantFrom(
    'button.primary',
    'input[name="q"]',
    'ul.results > li:nth-child(2) > a',
    'div.card h3',
    '[data-testid="go"]',
  ),
)
const arbSelectors = fc
  .record({ name: arbName, role: fc.constantFrom(...ROLES), css: arbCss, n: fc.integer({ min: 1, max: 9 }) })
  .map(({ name, role, css, n }) => [[`aria/${name}[role="${role}"]`], [css], [`xpath//html/body/main/div[${n}]`]])
const arbOffset = fc.integer({ min: 0, max: 400 })

/** Groups of DevTools steps as the Recorder writes them (a key press is keyDown + keyUp). */
const arbStepGroup: fc.Arbitrary<DevtoolsStep[]> = fc.oneof(
  fc
    .record({
      type: fc.constantFrom('click', 'doubleClick'),
      selectors: arbSelectors,
      offsetX: arbOffset,
      offsetY: arbOffset,
    })
    .map((s) => [{ ...s, target: 'main' }]),
  fc
    .record({ selectors: arbSelectors, offsetX: arbOffset, offsetY: arbOffset })
    .map((s) => [{ type: 'click', button: 'secondary', target: 'main', ...s }]),
  fc.record({ selectors: arbSelectors, value: arbValue }).map((s) => [{ type: 'change', target: 'main', ...s }]),
  fc.constantFrom('Enter', 'Tab', 'Escape', 'a', 'ArrowDown', 'Shift').map((key) => [
    { type: 'keyDown', target: 'main', key },
    { type: 'keyUp', target: 'main', key },
  ]),
  fc.constantFrom('a', 'c', 'v').map((key) => [
    { type: 'keyDown', target: 'main', key: 'Control' },
    { type: 'keyDown', target: 'main', key },
    { type: 'keyUp', target: 'main', key },
    { type: 'keyUp', target: 'main', key: 'Control' },
  ]),
  fc.webUrl().map((url) => [{ type: 'navigate', target: 'main', url }]),
  fc
    .record({ x: fc.integer({ min: 0, max: 3000 }), y: fc.integer({ min: 0, max: 3000 }) })
    .map((p) => [{ type: 'scroll', target: 'main', ...p }]),
  fc.integer({ min: 0, max: 10_000 }).map((ms) => [
    {
      type: 'waitForExpression',
      target: 'main',
      expression: `new Promise(resolve => setTimeout(() => resolve(true), ${ms}))`,
    },
  ]),
  arbSelectors.map((selectors) => [{ type: 'hover', target: 'main', selectors }]),
)
const arbRecording: fc.Arbitrary<DevtoolsRecording> = fc
  .record({ title: arbName, url: fc.webUrl(), groups: fc.array(arbStepGroup, { maxLength: 12 }) })
  .map(({ title, url, groups }) => ({
    title,
    steps: [
      {
        type: 'setViewport',
        width: 1280,
        height: 720,
        deviceScaleFactor: 1,
        isMobile: false,
        hasTouch: false,
        isLandscape: false,
      },
      { type: 'navigate', url },
      ...groups.flat(),
    ],
  }))

const ariaOf = (s: DevtoolsStep) =>
  s.selectors?.map((p) => (Array.isArray(p) ? p : [p])).find((p) => p[0]?.startsWith('aria/'))

describe('properties', () => {
  // the test-case format's round trip, applied to DevTools: export ∘ import keeps every step's type, aria name/role and values
  propTest.prop([arbRecording], { numRuns: 150 })(
    'export(import(recording)) keeps step types, aria selectors and values',
    (original) => {
      const { testCase } = importDevtoolsRecording(original, { now: NOW })
      const { recording } = exportDevtoolsRecording(throughFile(testCase))
      expect(recording.steps.map((s) => s.type)).toEqual(original.steps.map((s) => s.type))
      for (const [i, step] of original.steps.entries()) {
        const back = recording.steps[i] as DevtoolsStep
        if (step.selectors) {
          expect(ariaOf(back)).toEqual(ariaOf(step))
          expect(back.selectors).toEqual(expect.arrayContaining(step.selectors))
        }
        for (const field of [
          'value',
          'key',
          'url',
          'x',
          'y',
          'offsetX',
          'offsetY',
          'button',
          'expression',
          'width',
          'height',
        ])
          expect(back[field]).toEqual(step[field])
      }
    },
  )

  const arbBox = fc.record({
    x: fc.integer({ min: 0, max: 1200 }),
    y: fc.integer({ min: 0, max: 700 }),
    width: fc.integer({ min: 1, max: 300 }),
    height: fc.integer({ min: 1, max: 80 }),
  })
  const arbIdentity: fc.Arbitrary<ElementIdentity> = fc
    .record({
      axRole: fc.constantFrom(...ROLES),
      axName: arbName,
      tagName: fc.constantFrom('button', 'a', 'input', 'div'),
      boundingBox: arbBox,
      id: fc.option(
        fc.integer({ min: 1, max: 99 }).map((n) => `el-${n}`),
        { nil: undefined },
      ),
    })
    .map((r) =>
      r.id === undefined ? { axRole: r.axRole, axName: r.axName, tagName: r.tagName, boundingBox: r.boundingBox } : r,
    )
  const arbAction: fc.Arbitrary<Omit<Action, 'timestamp'>> = fc.oneof(
    fc
      .record({
        actionType: fc.constantFrom('click', 'double_click', 'right_click' as const),
        identity: arbIdentity,
        css: arbCss,
        dx: fc.nat(),
        dy: fc.nat(),
      })
      .map(({ actionType, identity, css, dx, dy }) => ({
        actionType,
        x: identity.boundingBox.x + (dx % identity.boundingBox.width),
        y: identity.boundingBox.y + (dy % identity.boundingBox.height),
        button: actionType === 'right_click' ? ('right' as const) : ('left' as const),
        identity,
        selectors: { css },
        description: 'click',
      })),
    fc.record({ identity: arbIdentity, text: arbValue }).map(({ identity, text }) => ({
      actionType: 'type' as const,
      x: 1,
      y: 1,
      text,
      identity: { ...identity, tagName: 'input', type: 'text' },
      description: 'type',
    })),
    fc
      .constantFrom('Enter', 'Tab', 'Control+a', 'Shift+Tab', 'Control+Shift+z')
      .map((key) => ({ actionType: 'key_press' as const, x: 0, y: 0, key, description: 'press' })),
    fc.webUrl().map((url) => ({ actionType: 'navigate' as const, x: 0, y: 0, url, description: 'go' })),
    fc
      .record({ dx: fc.integer({ min: -500, max: 500 }), dy: fc.integer({ min: -500, max: 500 }) })
      .map(({ dx, dy }) => ({
        actionType: 'scroll' as const,
        x: 640,
        y: 360,
        scrollDx: dx,
        scrollDy: dy,
        description: 'scroll',
      })),
    fc
      .integer({ min: 0, max: 5000 })
      .map((ms) => ({ actionType: 'wait' as const, x: 0, y: 0, durationMs: ms, description: 'wait' })),
  )

  // the round trip the other way: import ∘ export of a recorded case keeps action types, roles, names and texts
  propTest.prop([fc.array(arbAction, { maxLength: 12 })], { numRuns: 150 })(
    'import(export(case)) keeps action types, roles, names and texts',
    (list) => {
      const tc: TestCase = {
        name: '녹화',
        version: '3.0',
        platform: 'web',
        startUrl: 'http://127.0.0.1:4173/',
        viewport: { width: 1280, height: 720 },
        actions: list.map((a, i) => ({ timestamp: i, ...a })),
      }
      const { recording, warnings } = exportDevtoolsRecording(tc)
      expect(warnings).toEqual([])
      const back = importDevtoolsRecording(JSON.parse(JSON.stringify(recording)), { now: NOW }).testCase
      expect(back.startUrl).toBe(tc.startUrl)
      expect(back.viewport).toEqual(tc.viewport)
      expect(back.actions.map((a) => a.actionType)).toEqual(tc.actions.map((a) => a.actionType))
      for (const [i, a] of tc.actions.entries()) {
        const b = back.actions[i] as Action
        expect(b.identity?.axRole).toEqual(a.identity?.axRole)
        expect(b.identity?.axName).toEqual(a.identity?.axName)
        if (a.identity?.id) expect(b.identity?.id).toBe(a.identity.id)
        expect(b.text).toEqual(a.text)
        expect(b.key).toEqual(a.key)
        expect(b.url).toEqual(a.url)
        expect(b.scrollDx).toEqual(a.scrollDx)
        expect(b.scrollDy).toEqual(a.scrollDy)
        expect(b.durationMs).toEqual(a.durationMs)
        if (a.identity && a.actionType !== 'type')
          expect(b.extra?.devtools).toMatchObject({
            offsetX: a.x - a.identity.boundingBox.x,
            offsetY: a.y - a.identity.boundingBox.y,
          })
      }
    },
  )
})
