import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRunner, PuppeteerRunnerExtension, parse, type Step, type UserFlow } from '@puppeteer/replay'
import puppeteer, { type Browser } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LoggingSite, serveLoggingSite } from '../__tests__/logging-site'
import { ensureBuilt, qaAsync } from '../__tests__/run-cli'

/**
 * Chrome DevTools Recorder parity: DevTools exports of our own test pages, written as the
 * Recorder writes them, are replayed by @puppeteer/replay's own runner (the reference, on puppeteer-core and
 * Debian's Chromium) and by `qa replay` after `qa import devtools`. Each page reports every event it sees to
 * the test server (in-page listeners neither runner can see), and the two runs must agree on those events and
 * on which step failed.
 */

const CHROMIUM = process.env.QA_CHROMIUM ?? '/usr/bin/chromium'

/** Runs in every page: each event the page sees is posted (synchronously, so none is lost to a navigation). */
const LOGGER = `<script>
  const post = (line) => { const x = new XMLHttpRequest(); x.open('POST', '/log', false); x.send(location.pathname + ' ' + line) }
  const idOf = (t) => (t && t.closest && t.closest('[id]') ? t.closest('[id]').id : String(t && t.nodeName))
  const scrolls = () => { const box = document.getElementById('box'); return 'box=' + (box ? Math.round(box.scrollTop) : '-') + ' window=' + Math.round(scrollY) }
  // a page shown again from the back/forward cache runs no script: pageshow tells both kinds of showing
  addEventListener('pageshow', () => post('show'))
  for (const type of ['mousedown', 'click', 'dblclick', 'contextmenu', 'auxclick'])
    document.addEventListener(type, (e) => {
      if (type === 'mousedown' && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.nodeName)) return
      post(type + ' #' + idOf(e.target) + ' button=' + e.button + (e.shiftKey ? ' shift' : '') + (type === 'click' ? ' ' + scrolls() : ''))
    }, true)
  document.addEventListener('change', (e) => post('change #' + e.target.id + ' = ' + e.target.value), true)
  document.addEventListener('keydown', (e) => {
    if (!/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.nodeName) && !['Shift', 'Control', 'Alt', 'Meta'].includes(e.key)) post('keydown ' + e.key)
  }, true)
</script>`

const PAGES: Record<string, string> = {
  '/': `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>Parity</title><style>
    body { font: 16px sans-serif; margin: 20px; height: 2400px }
    button, select, input { display: block; margin: 6px 0 }
    #box { height: 120px; width: 300px; overflow: auto; border: 1px solid #999 }
    #box div { height: 900px; background: linear-gradient(#fff, #88c) }
    #menu { display: inline-block; padding: 8px; border: 1px solid #333 }
    #menu-item { display: none }
    #menu:hover #menu-item { display: block }
    #late { color: green }
  </style></head><body>
    <h1>로그인</h1>
    <button id="save">저장하기</button>
    <button id="save2">두 번째</button>
    <button id="save3">세 번째</button>
    <label for="name">이름</label><input id="name">
    <select id="fruit"><option value="apple">사과</option><option value="banana">바나나</option></select>
    <button id="item1">Item 1</button><button id="item2">Item 2</button>
    <div id="box"><div>scroll me</div></div>
    <button id="after">After scroll</button>
    <div id="menu">Menu<button id="menu-item">Open settings</button></div>
    <button id="aux">Middle button target</button>
    <button id="side">Side button target</button>
    <button id="open-popup" onclick="window.open('/popup', '_blank', 'width=400,height=300')">Open popup</button>
    <button id="reveal" onclick="setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'Ready'; document.body.append(p) }, 300)">Reveal</button>
    <a id="go" href="/next">Next page</a>
  ${LOGGER}</body></html>`,
  '/popup': `<!doctype html><html><head><meta charset="utf-8"><title>Popup</title></head><body>
    <button id="popup-ok">OK in popup</button>${LOGGER}</body></html>`,
  '/next': `<!doctype html><html><head><meta charset="utf-8"><title>Next</title></head><body>
    <h1 id="next-title">Next</h1><button id="next-ok">Done</button>${LOGGER}</body></html>`,
  '/framed': `<!doctype html><html><head><meta charset="utf-8"><title>Framed</title></head><body>
    <button id="outer-ok">Outer OK</button>
    <iframe src="/inner" width="400" height="200"></iframe>${LOGGER}</body></html>`,
  // the same inner page from another site (localhost, not 127.0.0.1): an out-of-process frame
  '/framed-cross': `<!doctype html><html><head><meta charset="utf-8"><title>Framed across sites</title></head><body>
    <button id="outer-ok">Outer OK</button>
    <iframe src="{{other-site}}/inner" width="400" height="200"></iframe>${LOGGER}</body></html>`,
  '/inner': `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>Inner</title></head><body>
    <p>안쪽</p><button id="inner-decoy">Inner</button><button id="inner-ok" aria-label="확인 (inner)">OK</button>${LOGGER}</body></html>`,
}

/** The test pages on their own port, with the events they saw (`{{other-site}}`: the same server as localhost). */
const serveTestPages = () =>
  serveLoggingSite((path, port) => PAGES[path]?.replaceAll('{{other-site}}', `http://localhost:${port}`))

/** One site per runner: both runs of a recording go at once, each page log its own. */
let referenceSite: LoggingSite
let ourSite: LoggingSite
let browser: Browser

beforeAll(async () => {
  ensureBuilt()
  referenceSite = await serveTestPages()
  ourSite = await serveTestPages()
  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
})
afterAll(async () => {
  await browser?.close()
  for (const site of [referenceSite, ourSite]) await new Promise((r) => site?.server.close(r))
})

const sel = (...s: string[]) => s.map((x) => [x])
/** A step as DevTools writes it (plain JSON; `parse` checks it). */
type RawStep = { type: string; [field: string]: unknown }
const start = (): RawStep[] => [
  {
    type: 'setViewport',
    width: 1000,
    height: 700,
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
    isLandscape: false,
  },
  { type: 'navigate', url: `${ORIGIN}/`, assertedEvents: [{ type: 'navigation', url: `${ORIGIN}/`, title: 'Parity' }] },
]
/** Placeholder for the test server's origin in the recordings (filled in at test time). */
const ORIGIN = '{{origin}}'

interface ParityCase {
  title: string
  steps: RawStep[]
  /** The index of the step the reference fails on, or null when it runs them all. */
  referenceFails: number | null
  /**
   * Only where the reference cannot replay a step either (it skips it as a no-op): the step ours fails, with
   * its reason.
   */
  oursAlsoFails?: { action: number; reason: RegExp }
  /**
   * Steps qa must answer from the recording's own selectors (its report's first attempt), and by which one: where
   * the healing cascade would find the same element anyway, the events alone cannot tell.
   */
  answeredBy?: { action: number; selector: RegExp }[]
}

/**
 * A page with an iframe (`frame: [0]`): a click outside it, then two inside it by `aria/` names (one also outside
 * it), each answered by the recording's own `aria/` selector (not healed to the same element).
 */
function frameCase(title: string, path: string, pageTitle: string): ParityCase {
  const inFrame = (selectors: string[][]): RawStep => ({
    type: 'click',
    target: 'main',
    frame: [0],
    selectors,
    offsetX: 5,
    offsetY: 5,
  })
  return {
    title,
    steps: [
      start()[0] as RawStep,
      {
        type: 'navigate',
        url: `${ORIGIN}${path}`,
        assertedEvents: [{ type: 'navigation', url: `${ORIGIN}${path}`, title: pageTitle }],
      },
      { type: 'click', target: 'main', selectors: sel('aria/Outer OK'), offsetX: 10, offsetY: 8 },
      inFrame([['aria/확인 (inner)[role="button"]']]),
      inFrame(sel('aria/Inner', '#inner-decoy')),
    ],
    referenceFails: null,
    answeredBy: [
      { action: 1, selector: /^\["aria\/확인 \(inner\)\[role=\\"button\\"\]"\] names exactly this element$/ },
      { action: 2, selector: /^\["aria\/Inner"\] names exactly this element$/ },
    ],
  }
}

const CASES: ParityCase[] = [
  {
    title:
      'network conditions before the navigate; id-only selectors (#id, xpath //*[@id], pierce/#id); change on a <select> named by id only and on a text field (Korean)',
    steps: [
      start()[0] as RawStep,
      { type: 'emulateNetworkConditions', download: 5_000_000, upload: 1_000_000, latency: 20 },
      start()[1] as RawStep,
      { type: 'click', target: 'main', selectors: sel('#save'), offsetX: 10, offsetY: 8 },
      { type: 'click', target: 'main', selectors: sel('xpath///*[@id="save2"]'), offsetX: 10, offsetY: 8 },
      { type: 'click', target: 'main', selectors: sel('pierce/#save3'), offsetX: 10, offsetY: 8 },
      { type: 'change', target: 'main', selectors: sel('#fruit'), value: 'banana' },
      { type: 'click', target: 'main', selectors: sel('aria/이름', '#name'), offsetX: 20, offsetY: 8 },
      { type: 'change', target: 'main', selectors: sel('aria/이름', '#name'), value: '홍길동' },
      { type: 'click', target: 'main', selectors: sel('#save'), offsetX: 10, offsetY: 8 },
    ],
    referenceFails: null,
  },
  {
    title: 'Shift-click, scrolling an element and the window, hover menu',
    steps: [
      ...start(),
      { type: 'keyDown', target: 'main', key: 'Shift' },
      { type: 'click', target: 'main', selectors: sel('aria/Item 2', '#item2'), offsetX: 10, offsetY: 8 },
      { type: 'keyUp', target: 'main', key: 'Shift' },
      { type: 'scroll', target: 'main', selectors: sel('#box'), x: 0, y: 300 },
      { type: 'click', target: 'main', selectors: sel('aria/After scroll', '#after'), offsetX: 10, offsetY: 8 },
      { type: 'scroll', target: 'main', x: 0, y: 150 },
      { type: 'click', target: 'main', selectors: sel('aria/After scroll', '#after'), offsetX: 10, offsetY: 8 },
      { type: 'hover', target: 'main', selectors: sel('#menu') },
      { type: 'click', target: 'main', selectors: sel('aria/Open settings', '#menu-item'), offsetX: 10, offsetY: 8 },
      { type: 'keyDown', target: 'main', key: 'Escape' },
      { type: 'keyUp', target: 'main', key: 'Escape' },
    ],
    referenceFails: null,
  },
  {
    title: 'middle, forward and back mouse buttons',
    steps: [
      ...start(),
      { type: 'click', target: 'main', selectors: sel('#aux'), offsetX: 10, offsetY: 8, button: 'auxiliary' },
      { type: 'click', target: 'main', selectors: sel('#side'), offsetX: 10, offsetY: 8, button: 'forward' },
      { type: 'click', target: 'main', selectors: sel('#go'), offsetX: 10, offsetY: 8 },
      { type: 'click', target: 'main', selectors: sel('#next-ok'), offsetX: 10, offsetY: 8, button: 'back' },
      // the back button went back in history: both runners wait for the page before it, then click there
      {
        type: 'waitForExpression',
        target: 'main',
        expression: "location.pathname === '/' && !!document.getElementById('save')",
      },
      { type: 'click', target: 'main', selectors: sel('#save'), offsetX: 10, offsetY: 8 },
    ],
    referenceFails: null,
  },
  {
    title: 'a popup: steps with its URL as target run in it; closing it goes back to the main page',
    steps: [
      ...start(),
      { type: 'click', target: 'main', selectors: sel('aria/Open popup', '#open-popup'), offsetX: 10, offsetY: 8 },
      {
        type: 'click',
        target: `${ORIGIN}/popup`,
        selectors: sel('aria/OK in popup', '#popup-ok'),
        offsetX: 5,
        offsetY: 5,
      },
      { type: 'close', target: `${ORIGIN}/popup` },
      { type: 'click', target: 'main', selectors: sel('#save'), offsetX: 10, offsetY: 8 },
    ],
    referenceFails: null,
  },
  {
    title: 'waits that hold: waitForElement (also visible: false), waitForExpression, an asserted navigation',
    steps: [
      ...start(),
      { type: 'click', target: 'main', selectors: sel('aria/Reveal', '#reveal'), offsetX: 10, offsetY: 8 },
      { type: 'waitForElement', target: 'main', selectors: sel('#late') },
      { type: 'waitForExpression', target: 'main', expression: "document.querySelector('#late') !== null" },
      { type: 'waitForElement', target: 'main', selectors: sel('#never-there'), visible: false },
      {
        type: 'click',
        target: 'main',
        selectors: sel('aria/Next page', '#go'),
        offsetX: 10,
        offsetY: 8,
        assertedEvents: [{ type: 'navigation', url: `${ORIGIN}/next`, title: 'Next' }],
      },
      { type: 'click', target: 'main', selectors: sel('#next-ok'), offsetX: 10, offsetY: 8 },
    ],
    referenceFails: null,
  },
  {
    title:
      'selector groups race as in the reference: a group naming nothing is passed over, the next one names several buttons and answers with its first, a later group naming another button is not used',
    steps: [
      ...start(),
      {
        type: 'click',
        target: 'main',
        selectors: sel('#nothing-here', 'body > button', '#save3'),
        offsetX: 10,
        offsetY: 8,
      },
      {
        type: 'click',
        target: 'main',
        selectors: sel('xpath///*[@id="none"]', 'button[id^="item"]', '#save2'),
        offsetX: 10,
        offsetY: 8,
      },
      { type: 'click', target: 'main', selectors: sel('#item2'), offsetX: 10, offsetY: 8 },
    ],
    referenceFails: null,
  },
  frameCase('aria/ selectors inside an iframe (frame: [0]), beside the same name outside it', '/framed', 'Framed'),
  frameCase(
    'aria/ selectors inside an iframe from another site (an out-of-process frame), beside the same name outside it',
    '/framed-cross',
    'Framed across sites',
  ),
  {
    title: 'a waitForExpression that never holds fails',
    steps: [
      ...start(),
      { type: 'click', target: 'main', selectors: sel('#save'), offsetX: 10, offsetY: 8 },
      { type: 'waitForExpression', target: 'main', expression: 'window.neverTrue === true', timeout: 1500 },
    ],
    referenceFails: 3,
  },
  {
    title: 'a waitForElement that never holds fails',
    steps: [
      ...start(),
      { type: 'click', target: 'main', selectors: sel('#save'), offsetX: 10, offsetY: 8 },
      { type: 'waitForElement', target: 'main', selectors: sel('#late'), timeout: 1500 },
    ],
    referenceFails: 3,
  },
  {
    title: 'a click asserted to navigate that does not navigate fails',
    steps: [
      ...start(),
      {
        type: 'click',
        target: 'main',
        selectors: sel('#save'),
        offsetX: 10,
        offsetY: 8,
        timeout: 1500,
        assertedEvents: [{ type: 'navigation', url: '', title: '' }],
      },
    ],
    referenceFails: 2,
  },
  {
    title: 'only a custom step: the reference skips it silently, ours fails it',
    steps: [...start(), { type: 'customStep', target: 'main', name: 'myStep', parameters: {} }],
    referenceFails: null,
    oursAlsoFails: { action: 0, reason: /cannot be replayed: the custom step "myStep" has no equivalent/ },
  },
]

/** The recording with the test server's origin in its URLs, as DevTools would have exported it. */
function recordingOf(c: ParityCase, origin: string): UserFlow {
  const text = JSON.stringify({ title: c.title, timeout: 5000, steps: c.steps }).replaceAll(ORIGIN, origin)
  return parse(JSON.parse(text))
}

/** @puppeteer/replay's own runner: how many steps ran, and the events the pages saw. */
async function runReference(flow: UserFlow): Promise<{ ranSteps: number; failed: string | null; seen: string[] }> {
  referenceSite.seen = []
  const context = await browser.createBrowserContext()
  const page = await context.newPage()
  let ranSteps = 0
  class Counting extends PuppeteerRunnerExtension {
    override async afterEachStep(step: Step, f?: UserFlow) {
      await super.afterEachStep?.(step, f)
      ranSteps++
    }
  }
  let failed: string | null = null
  try {
    const runner = await createRunner(flow, new Counting(context.browser(), page, { timeout: 5000 }))
    await runner.run()
  } catch (e) {
    failed = e instanceof Error ? e.message : String(e)
  } finally {
    await context.close()
  }
  return { ranSteps, failed, seen: [...referenceSite.seen] }
}

interface OurVerdict {
  action_index: number
  final_result: 'pass' | 'warning' | 'fail'
  reason?: string
}

interface OurReplayResult {
  action_index: number
  strategies_tried?: { strategy: string; outcome: string; detail?: string }[] | null
}

/** `qa import devtools` then `qa replay --json`: the per-step results and the events the pages saw. */
async function runOurs(flow: UserFlow, dir: string, name: string) {
  const recording = join(dir, `${name}.json`)
  writeFileSync(recording, JSON.stringify(flow, null, 2))
  const caseFile = join(dir, `${name}.case.json`)
  const imported = await qaAsync(['import', 'devtools', recording, '--out', caseFile])
  expect(imported.code, imported.stderr).toBe(0)
  ourSite.seen = []
  const replay = await qaAsync([
    'replay',
    caseFile,
    '--json',
    '--report-dir',
    join(dir, `${name}-report`),
    '--timeout',
    '5000',
  ])
  const ours = [...ourSite.seen]
  expect([0, 1], replay.stderr).toContain(replay.code)
  const report = JSON.parse(replay.stdout) as {
    passed: boolean
    verification_results: OurVerdict[]
    replay_results: OurReplayResult[]
  }
  return { code: replay.code, report, seen: ours }
}

describe('Chrome DevTools Recorder parity with @puppeteer/replay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-devtools-parity-'))
  for (const [n, c] of CASES.entries()) {
    it(c.title, async () => {
      const [reference, ours] = await Promise.all([
        runReference(recordingOf(c, referenceSite.origin)),
        runOurs(recordingOf(c, ourSite.origin), dir, `case-${n}`),
      ])

      // the reference ran as this recording says it does
      if (c.referenceFails === null) expect(reference.failed, 'the reference runner failed').toBeNull()
      else {
        expect(reference.failed).not.toBeNull()
        expect(reference.ranSteps).toBe(c.referenceFails)
      }
      expect(reference.seen.length).toBeGreaterThan(0)

      // the pages saw the same events, in the same order
      expect(ours.seen).toEqual(reference.seen)
      for (const want of c.answeredBy ?? []) {
        const first = ours.report.replay_results.find((r) => r.action_index === want.action)?.strategies_tried?.[0]
        expect(first?.strategy, `action ${want.action}`).toBe('devtools_selectors')
        expect(first?.detail?.replace(/^the recording's selector /, ''), `action ${want.action}`).toMatch(want.selector)
      }

      // and the same outcome: a recording whose reference run fails never passes here
      const failedSteps = ours.report.verification_results.filter((v) => v.final_result === 'fail')
      if (c.referenceFails === null && !c.oursAlsoFails) {
        expect(failedSteps, JSON.stringify(failedSteps)).toEqual([])
        expect(ours.code).toBe(0)
      } else {
        expect(ours.code).toBe(1)
        expect(ours.report.passed).toBe(false)
        expect(failedSteps.length).toBeGreaterThan(0)
        for (const f of failedSteps) expect(f.reason ?? '').not.toBe('')
        if (c.oursAlsoFails) {
          expect(failedSteps.map((f) => f.action_index)).toEqual([c.oursAlsoFails.action])
          expect(failedSteps[0]?.reason).toMatch(c.oursAlsoFails.reason)
        }
      }
    })
  }
})
