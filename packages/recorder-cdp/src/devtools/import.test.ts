import { type Action, type ElementIdentity, serializeTestCase } from '@qa/model'
import { describe, expect, it } from 'vitest'
import {
  type DevtoolsStep,
  devtoolsReplayPlan,
  devtoolsSelectorsFor,
  exportDevtoolsRecording,
  importDevtoolsRecording,
} from './index'
import { importFixture, NOW, throughFile } from './__tests__/fixtures'

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
