import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { fc, test as propTest } from '@fast-check/vitest'
import { type Action, type ElementIdentity, parseTestCase, serializeTestCase, type TestCase } from '@qa/model'
import { describe, expect, it } from 'vitest'
import {
  type DevtoolsRecording,
  type DevtoolsStep,
  devtoolsReplayPlan,
  devtoolsSelectorsFor,
  exportDevtoolsRecording,
  identityFromDevtoolsSelectors,
  importDevtoolsRecording,
} from './index'
import { waitForElementExpression } from './assertions'
import { DevtoolsError } from './errors'

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../test/fixtures/devtools/${name}`, import.meta.url)), 'utf8'))
const NOW = Date.UTC(2026, 10, 20, 8, 0, 0)
const importFixture = (name: string) => importDevtoolsRecording(fixture(name), { file: name, now: NOW })

/** The case must survive our own file format unchanged (validation + round trip through the codec). */
function throughFile(tc: TestCase): TestCase {
  return parseTestCase(JSON.parse(JSON.stringify(serializeTestCase(tc)))).testCase
}

describe('importDevtoolsRecording', () => {
  it('turns a Korean login recording into a valid web case with identities', () => {
    const { testCase, warnings } = importFixture('login-korean.json')
    const tc = throughFile(testCase)
    expect(tc).toEqual(testCase)
    expect(tc.platform).toBe('web')
    expect(tc.version).toBe('3.2')
    expect(tc.name).toBe('로그인 후 검색')
    expect(tc.startUrl).toBe('http://127.0.0.1:4173/login')
    expect(tc.viewport).toEqual({ width: 1280, height: 720 })
    expect(tc.actions.map((a) => a.actionType)).toEqual([
      'click',
      'type',
      'click',
      'type',
      'hover',
      'click',
      'assert',
      'assert',
      'scroll',
      'scroll',
      'click',
      'click',
      'double_click',
      'right_click',
      'key_press',
    ])
    // the hover is replayed: it targets the login button
    expect(tc.actions[4]).toMatchObject({ actionType: 'hover', identity: { axName: '로그인', axRole: 'button' } })
    tc.actions.splice(4, 1)
    // the login click's asserted navigation, then the waited-for list: assertions checked on replay
    expect(tc.actions[5]).toMatchObject({ assertion: { kind: 'url', expected: 'http://127.0.0.1:4173/list' } })
    expect(tc.actions[6]).toMatchObject({
      assertion: { kind: 'visible' },
      identity: { axRole: 'list', axName: '검색 결과' },
    })
    expect(tc.actions[6]?.description).toBe('Assert list "검색 결과" is visible')
    tc.actions.splice(5, 2)
    const first = tc.actions[0] as Action
    expect(first.identity).toMatchObject({
      axName: '아이디',
      axRole: 'textbox',
      id: 'user-id',
      tagName: 'input', // implied by the textbox role: no CSS names a tag
      xpath: '//*[@id="user-id"]',
      boundingBox: { x: 0, y: 0, width: 0, height: 0 },
    })
    expect(first.selectors).toEqual({ css: '#user-id', xpath: '//*[@id="user-id"]' })
    expect(first.extra?.devtools).toMatchObject({ offsetX: 52.5, offsetY: 14, target: 'main' })
    expect([first.x, first.y]).toEqual([53, 14])
    expect(tc.actions[1]).toMatchObject({ actionType: 'type', text: 'qa-user' })

    const login = tc.actions[4] as Action
    expect(login.identity).toMatchObject({
      axName: '로그인',
      axRole: 'button',
      dataTestId: 'login-submit',
      tagName: 'button',
      textContent: '로그인',
    })
    expect(login.identity?.tagName).toBe('button') // from the XPath's last step
    expect(login.extra?.devtools).not.toHaveProperty('assertedEvents')

    // scroll positions are absolute in DevTools, deltas here; they restart after the navigation of the login click
    expect(tc.actions.slice(5, 7).map((a) => a.scrollDy)).toEqual([400, -150])
    expect(tc.actions[10]).toMatchObject({ actionType: 'right_click', button: 'right' })
    expect(tc.actions[10]?.identity).toMatchObject({ tagName: 'h3', textContent: '두 번째 카드' })
    expect(tc.actions[10]?.identity?.classNames).toBeUndefined() // .card is the parent's class, not the h3's
    expect(tc.actions[11]).toMatchObject({ actionType: 'key_press', key: 'Escape' })

    expect(warnings).toEqual([expect.stringMatching(/^steps\[5\] \(change\): looks like a password field.*QA_SECRET_/)])
  })

  it('never stores a password typed in DevTools: masked text and a secret variable', () => {
    const { testCase } = importFixture('login-korean.json')
    const pw = testCase.actions[3] as Action
    expect(pw).toMatchObject({ actionType: 'type', text: '********', secretEnv: 'QA_SECRET_PASSWORD' })
    expect(pw.identity?.type).toBe('password')
    expect(JSON.stringify(serializeTestCase(testCase))).not.toContain('s3cret')
  })

  it('keeps shadow-DOM paths, iframes, chords, timers and unsupported steps', () => {
    const { testCase, warnings } = importFixture('shadow-iframe.json')
    const tc = throughFile(testCase)
    expect(tc.actions.map((a) => a.actionType)).toEqual([
      'click',
      'type',
      'key_press',
      'key_press',
      'assert',
      'scroll',
      'click',
      'wait',
      'assert',
      'wait',
      'navigate',
      'wait',
    ])
    // a custom step has no equivalent: an action in its place that fails on replay with the reason; closing the
    // page is honoured by the replay
    expect(tc.actions[9]?.extra?.devtools).toMatchObject({
      step: { type: 'customStep', name: 'lighthouse-snapshot' },
      unsupported: 'the custom step "lighthouse-snapshot" has no equivalent',
    })
    expect(tc.actions[11]?.extra?.devtools).toEqual({ step: { type: 'close', target: 'main' } })
    tc.actions.splice(11, 1)
    tc.actions.splice(9, 1)
    const search = tc.actions[0] as Action
    expect(search.identity).toMatchObject({
      axName: '검색어',
      axRole: 'searchbox',
      shadowPath: ['qa-search-box'],
      tagName: 'input',
      classNames: ['query'],
    })
    expect(search.selectors).toEqual({ css: 'input.query' }) // pierce/input.query is the same CSS (Playwright pierces)
    expect(tc.actions[2]).toMatchObject({ key: 'Control+a' })
    expect(tc.actions[3]).toMatchObject({ key: 'Enter' })
    // Enter's asserted navigation is checked right after it; the JavaScript condition is an assertion too
    expect(tc.actions[4]).toMatchObject({
      actionType: 'assert',
      assertion: { kind: 'url', expected: 'https://shop.example.test/search?q=%EB%AC%B4%EC%84%A0' },
    })
    expect(tc.actions[3]?.extra?.devtools).not.toHaveProperty('assertedEvents')
    expect(tc.actions[8]).toMatchObject({
      actionType: 'assert',
      assertion: { kind: 'expression', expected: "document.querySelectorAll('.toast').length === 0" },
    })
    tc.actions.splice(8, 1)
    tc.actions.splice(4, 1)
    expect(tc.actions[4]).toMatchObject({ scrollDy: 320, selectors: { css: 'div.results-pane' } })
    const pay = tc.actions[5] as Action
    expect(pay.identity).toMatchObject({ axName: '결제하기', dataTestId: 'pay-now', framePath: ['iframe >> nth=0'] })
    expect(pay.extra?.devtools).toMatchObject({ frame: [0], duration: 120 })
    expect(tc.actions[6]).toMatchObject({ actionType: 'wait', durationMs: 1500 })
    expect(tc.actions[7]).toMatchObject({ actionType: 'navigate', url: 'https://shop.example.test/orders' })
    expect(tc.extra?.devtools).toMatchObject({
      recording: { timeout: 7000, selectorAttribute: 'data-qa' },
      viewportStep: { deviceScaleFactor: 2 },
    })
    expect(warnings.map((w) => w.replace(/:.*/, ''))).toEqual(['steps[14] (customStep)'])
  })

  it('warns when there is no start URL; keeps an unpaired keyUp to replay alone; reads <select> as select and keeps the back button', () => {
    const { testCase, warnings } = importFixture('no-start.json')
    expect(testCase.startUrl).toBeUndefined()
    expect(testCase.actions.map((a) => a.actionType)).toEqual(['click', 'wait', 'select', 'click'])
    // the keyUp with no keyDown: kept whole, replayed as a key release alone (the reference sends it)
    expect(devtoolsReplayPlan(testCase.actions[1] as Action)?.honour).toMatchObject({ kind: 'key', up: true })
    expect(testCase.actions[2]).toMatchObject({ value: 'ko', identity: { tagName: 'select', id: 'lang' } })
    expect(testCase.actions[0]?.identity).toMatchObject({ tagName: 'input', axRole: 'checkbox' })
    expect(testCase.actions[3]).toMatchObject({ actionType: 'click', button: 'back' })
    expect(warnings).toEqual([expect.stringMatching(/no start_url/)])
    // and written back as it was
    const back = exportDevtoolsRecording(testCase).recording.steps
    expect(back.filter((s) => s.type === 'keyUp')).toHaveLength(1)
  })

  it('an unpaired keyDown (never released) is pressed alone, a modifier too; both go back out as they were', () => {
    const { testCase } = importDevtoolsRecording({
      title: 'held',
      steps: [
        { type: 'navigate', url: 'http://x.test/' },
        { type: 'keyDown', key: 'a' },
        { type: 'keyDown', key: 'Shift' },
        { type: 'click', selectors: [['#b']], offsetX: 1, offsetY: 1 },
        { type: 'keyDown', key: 'Control' },
      ],
    })
    expect(testCase.actions.map((a) => a.description)).toEqual(['Hold down a', 'Shift+Click #b', 'Hold down Control'])
    expect(devtoolsReplayPlan(testCase.actions[0] as Action)?.honour).toEqual({ kind: 'key', key: 'a', up: false })
    expect(devtoolsReplayPlan(testCase.actions[2] as Action)?.honour).toEqual({
      kind: 'key',
      key: 'Control',
      up: false,
    })
    const types = exportDevtoolsRecording(testCase).recording.steps.map((s) => `${s.type} ${s.key ?? ''}`.trim())
    expect(types).toEqual(['navigate', 'keyDown a', 'keyDown Shift', 'click', 'keyUp Shift', 'keyDown Control'])
  })

  it('a navigate-only recording becomes a case with its start page and no action; export writes the navigate back', () => {
    const { testCase } = importDevtoolsRecording({
      title: 'nav',
      steps: [
        {
          type: 'navigate',
          url: 'http://x.test/a',
          assertedEvents: [{ type: 'navigation', url: 'http://x.test/a', title: 'A' }],
        },
      ],
    })
    expect(testCase.startUrl).toBe('http://x.test/a')
    expect(testCase.actions).toEqual([])
    expect(exportDevtoolsRecording(testCase).recording.steps.map((s) => s.type)).toEqual(['navigate'])
  })

  it("export writes back only the recording's own selectors for an identity derived from them (no guessed #id)", () => {
    const { testCase } = importDevtoolsRecording({
      title: 'ids',
      steps: [
        { type: 'navigate', url: 'http://x.test/' },
        { type: 'click', selectors: [["[id='cbCSS']"], ['xpath///*[@id="tea"]']], offsetX: 3, offsetY: 4 },
      ],
    })
    const click = exportDevtoolsRecording(testCase).recording.steps.find((s) => s.type === 'click')
    expect(click?.selectors).toEqual([["[id='cbCSS']"], ['xpath///*[@id="tea"]']])
  })
})

describe('identityFromDevtoolsSelectors', () => {
  it('reads aria, css attributes, xpath and text, and falls back to "unknown" for the tag', () => {
    const t = identityFromDevtoolsSelectors([
      ['aria/게임 입장'],
      ['div.menu > [name="enter"][aria-label="입장"]'],
      ['xpath//html/body/div/*[3]'],
      ['text/게임 입장'],
    ])
    expect(t.identity).toMatchObject({
      axName: '게임 입장',
      name: 'enter',
      ariaLabel: '입장',
      tagName: 'unknown',
      textContent: '게임 입장',
    })
    expect(t.identity.axRole).toBeUndefined()
    expect(t.empty).toBe(false)
    expect(identityFromDevtoolsSelectors([]).empty).toBe(true)
  })

  it('unescapes CSS ids and keeps extra paths and xpaths as fallbacks', () => {
    const t = identityFromDevtoolsSelectors([['#a\\:b'], ['#other'], ['xpath///x'], ['xpath/id("y")']])
    expect(t.identity.id).toBe('a:b')
    expect(t.selectors).toEqual({ css: '#a\\:b', xpath: '//x', fallbacks: ['#other', 'xpath=id("y")'] })
  })
})

describe('exportDevtoolsRecording', () => {
  it('writes a recording back from an imported one, restoring unsupported steps in place', () => {
    const original = fixture('login-korean.json') as DevtoolsRecording
    const { recording, warnings } = exportDevtoolsRecording(importFixture('login-korean.json').testCase)
    expect(recording.title).toBe('로그인 후 검색')
    expect(recording.steps.map((s) => s.type)).toEqual(original.steps.map((s) => s.type))
    expect(recording.steps[0]).toEqual(original.steps[0])
    expect(recording.steps[1]).toEqual(original.steps[1])
    expect(recording.steps[6]).toEqual(original.steps[6]) // the hover, verbatim
    const click = recording.steps[2] as DevtoolsStep
    expect(click.selectors?.[0]).toEqual(['aria/아이디[role="textbox"]'])
    expect(click.selectors).toEqual(expect.arrayContaining(original.steps[2]?.selectors ?? []))
    expect([click.offsetX, click.offsetY]).toEqual([52.5, 14])
    // stable first: aria, test id, css, xpath; no text/ of ours (로그인 is also a heading); DevTools's own after
    const loginSelectors = (recording.steps[7] as DevtoolsStep).selectors
    expect(loginSelectors?.slice(0, 3)).toEqual([
      ['aria/로그인[role="button"]'],
      ['[data-testid="login-submit"]'],
      ['xpath//html/body/main/form/button'],
    ])
    expect(loginSelectors?.at(-1)).toEqual(['text/로그인'])
    expect(recording.steps.slice(9, 11).map((s) => s.y)).toEqual([400, 250])
    expect(recording.steps[14]).toMatchObject({ type: 'click', button: 'secondary' })
    expect(recording.steps[5]).toMatchObject({ type: 'change', value: '' })
    expect(JSON.stringify(recording)).not.toContain('********')
    expect(warnings).toEqual([
      expect.stringMatching(/^actions\[3\] \(type\): is a password step: exported with an empty value/),
    ])
  })

  it('writes shadow paths, frames, chords, timers and the recording options back', () => {
    const original = fixture('shadow-iframe.json') as DevtoolsRecording
    const { recording } = exportDevtoolsRecording(importFixture('shadow-iframe.json').testCase)
    expect(recording.steps.map((s) => s.type)).toEqual(original.steps.map((s) => s.type))
    expect(recording).toMatchObject({ timeout: 7000, selectorAttribute: 'data-qa' })
    expect(recording.steps[0]).toEqual(original.steps[0])
    expect(recording.steps[2]?.selectors).toContainEqual(['qa-search-box', 'input.query'])
    expect(recording.steps.slice(4, 8)).toEqual(original.steps.slice(4, 8))
    expect(recording.steps[11]).toMatchObject({ frame: [0], offsetX: 64, offsetY: 20, duration: 120 })
    expect(recording.steps[12]).toEqual(original.steps[12])
    expect(recording.steps.slice(13)).toEqual(original.steps.slice(13))
  })

  it('warns that the steps after one that opened a new page are exported for the main page', () => {
    const raw = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../../../examples/web-login.json', import.meta.url)), 'utf8'),
    )
    const tc = parseTestCase(raw).testCase
    const k = tc.actions.findIndex((a) => a.actionType === 'click' && a.identity)
    tc.actions[k]!.opensPage = true
    const { warnings } = exportDevtoolsRecording(tc)
    expect(warnings).toContainEqual(
      expect.stringMatching(new RegExp(`^actions\\[${k}\\] \\(click\\): opens a new page`)),
    )
  })

  it('exports a recorded case: offsets from the box, most stable selectors first, no secret, warnings for the rest', () => {
    const raw = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../../../examples/web-login.json', import.meta.url)), 'utf8'),
    )
    const tc = parseTestCase(raw).testCase
    tc.actions.push(
      { timestamp: 1, actionType: 'click', x: 10, y: 10, description: 'coordinate-only' },
      { timestamp: 2, actionType: 'wait', x: 0, y: 0, durationMs: 250, description: 'Wait' },
      { timestamp: 3, actionType: 'drag', x: 0, y: 0, endX: 5, endY: 5, description: 'Drag' },
    )
    const { recording, warnings } = exportDevtoolsRecording(tc)
    expect(recording.steps.map((s) => s.type)).toEqual([
      'setViewport',
      'navigate',
      'click',
      'change',
      'click',
      'navigate',
      'waitForExpression',
    ])
    expect(recording.steps[2]).toMatchObject({ offsetX: 100, offsetY: 16 })
    expect(recording.steps[2]?.selectors).toEqual([
      ['aria/아이디[role="textbox"]'],
      ['#user-id'],
      ['input[name="username"]'],
      ['xpath//html/body/main/form/label[1]/input'],
    ])
    expect(recording.steps[3]).toMatchObject({ value: 'qa-user', selectors: recording.steps[2]?.selectors })
    expect(recording.steps[6]).toMatchObject({
      expression: 'new Promise(resolve => setTimeout(() => resolve(true), 250))',
    })
    expect(JSON.stringify(recording)).not.toContain('********')
    expect(warnings).toEqual([
      expect.stringMatching(
        /^actions\[1\] \(type\): has no element identity; assumed it types into the element clicked in actions\[0\]/,
      ),
      expect.stringMatching(/^actions\[2\] \(type\): has no element identity or selector/),
      expect.stringMatching(/^actions\[5\] \(click\): has no element identity or selector \(a coordinate-only step\)/),
      expect.stringMatching(/^actions\[7\] \(drag\): /),
    ])
  })

  it('assumes the first iframe for a recorded CSS frame path, with a warning', () => {
    const identity: ElementIdentity = {
      tagName: 'button',
      axRole: 'button',
      axName: '확인',
      boundingBox: { x: 10, y: 10, width: 20, height: 20 },
      framePath: ['iframe#pay'],
    }
    const tc: TestCase = {
      name: 'f',
      version: '3.0',
      platform: 'web',
      startUrl: 'http://x.test/',
      actions: [{ timestamp: 0, actionType: 'click', x: 15, y: 25, identity, description: '' }],
    }
    const { recording, warnings } = exportDevtoolsRecording(tc)
    expect(recording.steps[1]).toMatchObject({ frame: [0], offsetX: 5, offsetY: 15 })
    expect(warnings[0]).toMatch(/iframe path \["iframe#pay"\] has no DevTools frame index/)
  })

  it('builds shadow paths from identity.shadowPath and escapes ids', () => {
    const sel = devtoolsSelectorsFor(
      {
        tagName: 'input',
        id: '1st',
        shadowPath: ['my-app', 'my-form'],
        boundingBox: { x: 0, y: 0, width: 0, height: 0 },
      },
      { css: 'input.q' },
    )
    expect(sel).toEqual([
      ['my-app', 'my-form', '#\\31 st'],
      ['my-app', 'my-form', 'input.q'],
    ])
  })
})

describe('bad input', () => {
  const expectBad = (json: unknown, message: RegExp) => {
    let error: unknown
    try {
      importDevtoolsRecording(json, { file: 'recording.json' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(DevtoolsError)
    expect((error as DevtoolsError).code).toBe('WEB_BAD_DEVTOOLS_RECORDING')
    expect((error as DevtoolsError).message).toMatch(message)
    expect((error as DevtoolsError).hint).toMatch(/DevTools/)
  }
  const click = { type: 'click', selectors: [['#a']], offsetX: 1, offsetY: 1 }

  it('rejects what is not a recording, naming file, path and expectation', () => {
    expectBad('hello', /^recording\.json: \(root\): expected an object with "title" and "steps"/)
    expectBad([], /\(root\): expected an object/)
    expectBad({ title: 'x' }, /^recording\.json: steps: expected array of steps, got nothing$/)
    expectBad({ title: 'x', steps: {} }, /steps: expected array of steps, got \{\}/)
  })

  it('rejects bad steps', () => {
    expectBad(
      { title: 'x', steps: [click, click, click, { ...click, selectors: 'x' }] },
      /^recording\.json: steps\[3\]\.selectors: expected array of arrays of strings, got "x"$/,
    )
    expectBad(
      { title: 'x', steps: [{ selectors: [] }] },
      /steps\[0\]\.type: expected a step type such as "click", got nothing/,
    )
    expectBad({ title: 'x', steps: [42] }, /steps\[0\]: expected a step object, got 42/)
    expectBad(
      { title: 'x', steps: [{ ...click, selectors: [['#a', 3]] }] },
      /steps\[0\]\.selectors\[0\]: expected array of non-empty strings/,
    )
    expectBad(
      { title: 'x', steps: [{ type: 'change', selectors: [['#a']] }] },
      /steps\[0\]\.value: expected string, got nothing/,
    )
    expectBad({ title: 'x', steps: [{ ...click, offsetX: '3' }] }, /steps\[0\]\.offsetX: expected number, got "3"/)
    expectBad({ title: 'x', steps: [{ ...click, frame: [-1] }] }, /steps\[0\]\.frame: expected array of frame indices/)
    expectBad({ title: 'x', steps: [{ ...click, button: 'left' }] }, /steps\[0\]\.button: expected one of primary/)
    expectBad({ title: 'x', steps: [{ type: 'navigate' }] }, /steps\[0\]\.url: expected non-empty string/)
    expectBad(
      { title: 'x', steps: [{ type: 'setViewport', width: 0, height: 1 }] },
      /steps\[0\]\.width: expected positive number, got 0/,
    )
  })

  it('lists every problem, not only the first', () => {
    expectBad(
      { title: 3, steps: [{ type: 'keyDown' }, { type: 'click' }] },
      /title: expected string.*\n.*steps\[0\]\.key: .*\n.*steps\[1\]\.selectors: /s,
    )
  })
})

// ---------------------------------------------------------------------------------------------------------
// Properties

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

describe('DevTools parity', () => {
  const flow = (steps: DevtoolsStep[]) =>
    importDevtoolsRecording(
      { title: 'parity', steps: [{ type: 'navigate', url: 'http://x/' }, ...steps] },
      { now: NOW },
    )

  it('a held Shift goes with the click (and back out as keyDown/keyUp around it)', () => {
    const { testCase } = flow([
      { type: 'keyDown', target: 'main', key: 'Shift' },
      { type: 'click', target: 'main', selectors: [['#item2']], offsetX: 3, offsetY: 4 },
      { type: 'keyUp', target: 'main', key: 'Shift' },
    ])
    expect(testCase.actions).toHaveLength(1)
    expect(testCase.actions[0]).toMatchObject({ actionType: 'click', modifiers: ['Shift'] })
    expect(throughFile(testCase)).toEqual(testCase)
    expect(JSON.stringify(serializeTestCase(testCase))).toContain('"modifiers":["Shift"]')
    const { recording } = exportDevtoolsRecording(testCase)
    expect(recording.steps.map((s) => [s.type, s.key ?? null])).toEqual([
      ['navigate', null],
      ['keyDown', 'Shift'],
      ['click', null],
      ['keyUp', 'Shift'],
    ])
  })

  it('a Shift pressed and released with no click in between is a key press', () => {
    const { testCase } = flow([
      { type: 'keyDown', target: 'main', key: 'Shift' },
      { type: 'keyUp', target: 'main', key: 'Shift' },
    ])
    expect(testCase.actions).toMatchObject([{ actionType: 'key_press', key: 'Shift' }])
  })

  it('back/forward buttons, hover, popup targets and window scrolls are kept for the replay', () => {
    const { testCase, warnings } = flow([
      { type: 'click', target: 'main', selectors: [['#a']], button: 'forward', offsetX: 1, offsetY: 1 },
      { type: 'hover', target: 'main', selectors: [['#menu']] },
      { type: 'click', target: 'http://x/popup', selectors: [['#ok']], offsetX: 1, offsetY: 1 },
      { type: 'scroll', target: 'main', x: 0, y: 200 },
      { type: 'scroll', target: 'main', selectors: [['#box']], x: 0, y: 300 },
    ])
    expect(warnings).toEqual([])
    expect(testCase.actions.map((a) => [a.actionType, a.button ?? null])).toEqual([
      ['click', 'forward'],
      ['hover', null],
      ['click', 'left'],
      ['scroll', null],
      ['scroll', null],
    ])
    const plans = testCase.actions.map((a) => devtoolsReplayPlan(a))
    expect(plans.map((p) => p?.target)).toEqual(['main', 'main', 'http://x/popup', 'main', 'main'])
    expect(plans.map((p) => p?.scrollsWindow)).toEqual([false, false, false, true, false])
    expect(testCase.actions[4]).toMatchObject({ scrollDy: 300, identity: { id: 'box' } })
    const { recording } = exportDevtoolsRecording(testCase)
    expect(recording.steps.slice(1).map((s) => [s.type, s.target, s.button ?? null])).toEqual([
      ['click', 'main', 'forward'],
      ['hover', 'main', null],
      ['click', 'http://x/popup', null],
      ['scroll', 'main', null],
      ['scroll', 'main', null],
    ])
    expect(recording.steps[4]).not.toHaveProperty('scrolls')
  })

  it('an asserted navigation without a URL is awaited on replay', () => {
    const { testCase } = flow([
      { type: 'click', selectors: [['#go']], assertedEvents: [{ type: 'navigation', url: '', title: '' }] },
    ])
    expect(devtoolsReplayPlan(testCase.actions[0] as Action)?.awaitsNavigation).toBe(true)
    const { recording } = exportDevtoolsRecording(testCase)
    expect(recording.steps[1]).toMatchObject({ assertedEvents: [{ type: 'navigation', url: '', title: '' }] })
    expect(recording.steps[1]).not.toHaveProperty('awaitsNavigation')
  })

  it('a scoped ARIA path is not flattened: no unscoped aria/Download on export', () => {
    const { testCase } = flow([
      { type: 'click', selectors: [['aria/Download Crosstab', 'aria/Download'], ['#dl-crosstab']] },
    ])
    expect(testCase.actions[0]?.identity?.axName).toBeUndefined()
    const { recording } = exportDevtoolsRecording(testCase)
    const selectors = recording.steps[1]?.selectors ?? []
    expect(selectors).toContainEqual(['aria/Download Crosstab', 'aria/Download'])
    expect(selectors).not.toContainEqual(['aria/Download'])
  })

  it('writes text/ only when no accessible name, test id or id names the element', () => {
    const button: ElementIdentity = {
      tagName: 'button',
      axRole: 'button',
      axName: '로그인',
      textContent: '로그인',
      boundingBox: { x: 0, y: 0, width: 80, height: 30 },
    }
    expect(devtoolsSelectorsFor(button, { css: 'form > button' })).toEqual([
      ['aria/로그인[role="button"]'],
      ['form > button'],
    ])
    // no name of its own: the text tells it from the other elements its CSS matches
    expect(
      devtoolsSelectorsFor(
        { tagName: 'label', textContent: '알림 받기', boundingBox: button.boundingBox },
        { css: 'label.check' },
      ),
    ).toEqual([['label.check'], ['text/알림 받기']])
  })

  it('network conditions before the navigate stay before it', () => {
    const recording = {
      title: 'slow',
      steps: [
        {
          type: 'setViewport',
          width: 800,
          height: 600,
          deviceScaleFactor: 1,
          isMobile: false,
          hasTouch: false,
          isLandscape: false,
        },
        { type: 'emulateNetworkConditions', download: 50000, upload: 20000, latency: 400 },
        { type: 'navigate', url: 'http://x/' },
        { type: 'click', selectors: [['#a']], offsetX: 1, offsetY: 1 },
      ],
    }
    const { testCase } = importDevtoolsRecording(recording, { now: NOW })
    expect(testCase.startUrl).toBe('http://x/')
    expect(devtoolsReplayPlan(testCase.actions[0] as Action)?.honour).toEqual({
      kind: 'network',
      offline: false,
      download: 50000,
      upload: 20000,
      latency: 400,
    })
    const back = exportDevtoolsRecording(testCase).recording
    expect(back.steps.map((s) => s.type)).toEqual(['setViewport', 'emulateNetworkConditions', 'navigate', 'click'])
    expect(back.steps[1]).toEqual(recording.steps[1])
  })

  it('a recording of only unsupported steps imports steps that fail, never an empty case', () => {
    const { testCase } = flow([{ type: 'customStep', name: 'x', parameters: {} }])
    expect(testCase.actions).toHaveLength(1)
    expect(devtoolsReplayPlan(testCase.actions[0] as Action)?.unsupported).toBe('the custom step "x" has no equivalent')
  })
})
