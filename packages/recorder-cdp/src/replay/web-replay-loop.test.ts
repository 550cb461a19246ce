import { fc, test } from '@fast-check/vitest'
import type { Action, TestCase } from '@qa/model'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { type FakeStepScript, fakeReplayPage } from './fake-replay-page'
import type { LocatedTarget } from './replay-page'
import { focusesFieldTypedNext, opensNativeListFor, replayOnPage, type WebStepEvent } from './web-replay-loop'

// The web replay loop against a fake page (no browser): settling, verdicts, failure paths and bookkeeping. The
// real page (`playwrightReplayPage`) is covered by the e2e tests of this package.

const START = 'http://127.0.0.1:9/start'

/** A 200×120 PNG of one colour, with a box of another colour when given. */
async function png(background: string, box?: { left: number; top: number; colour: string }): Promise<Uint8Array> {
  const base = sharp({ create: { width: 200, height: 120, channels: 3, background } })
  const composed = box
    ? base.composite([
        {
          input: { create: { width: 80, height: 60, channels: 3, background: box.colour } },
          left: box.left,
          top: box.top,
        },
      ])
    : base
  return new Uint8Array(await composed.png().toBuffer())
}

let dir: string
let blank: Uint8Array
let withBox: Uint8Array
let otherScreen: Uint8Array
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'qa-loop-'))
  blank = await png('#ffffff')
  withBox = await png('#ffffff', { left: 20, top: 20, colour: '#1565c0' })
  otherScreen = await png('#202020', { left: 100, top: 50, colour: '#ef6c00' })
  writeFileSync(join(dir, 'after-box.png'), withBox)
})

const click = (i: number, extra: Partial<Action> = {}): Action => ({
  timestamp: i,
  actionType: 'click',
  x: 60,
  y: 50,
  description: `클릭 ${i + 1}`,
  ...extra,
})

const caseOf = (actions: Action[], startUrl: string | null = START): TestCase => ({
  name: '루프',
  version: '3.0',
  platform: 'web',
  startUrl,
  actions,
})

/** Found by the text strategy after role+name found nothing: a heal. */
const healedByText: LocatedTarget = {
  status: 'found',
  strategy: 'text',
  confidence: 0.9,
  point: { x: 61, y: 52 },
  element: { boundingBox: { x: 20, y: 20, width: 80, height: 60 } },
  coordinateFallback: false,
  attempts: [
    { strategy: 'role', outcome: 'none' },
    { strategy: 'text', outcome: 'matched', candidates: 1 },
  ],
}

describe('replayOnPage: every step runs and is counted, whatever fails', () => {
  type Kind = 'ok' | 'warning' | 'fails' | 'dialog-missing' | 'crashes'
  const scriptOf = (kind: Kind): FakeStepScript =>
    kind === 'ok'
      ? { method: 'role' }
      : kind === 'warning'
        ? { method: 'coordinate', warning: 'the recorded target was the page body' }
        : kind === 'fails'
          ? { fails: 'Element not found: button "저장"' }
          : kind === 'crashes'
            ? { crashes: 'the browser closed or crashed' }
            : { method: 'role' }

  test.prop(
    [fc.array(fc.constantFrom<Kind>('ok', 'warning', 'fails', 'dialog-missing', 'crashes'), { maxLength: 8 })],
    {
      numRuns: 100,
    },
  )('one result per step, in order; a failed step fails the case; after a crash nothing runs', async (kinds) => {
    const page = fakeReplayPage({ screen: blank, steps: kinds.map(scriptOf) })
    const actions = kinds.map((kind, i) =>
      click(i, kind === 'dialog-missing' ? { dialog: { type: 'confirm', accept: true, message: '삭제할까요?' } } : {}),
    )
    const events: WebStepEvent[] = []
    const outcome = await replayOnPage(caseOf(actions), page, {
      startUrl: START,
      caseDir: dir,
      onStep: (e) => events.push(e),
    })

    const crashedAt = kinds.indexOf('crashes')
    const expected = kinds.map((kind, i) =>
      crashedAt >= 0 && i > crashedAt ? 'fail' : kind === 'ok' ? 'pass' : kind === 'warning' ? 'warning' : 'fail',
    )
    expect(outcome.report.verificationResults.map((v) => v.finalResult)).toEqual(expected)
    expect(events.map((e) => e.index)).toEqual(kinds.map((_, i) => i))
    expect(outcome.replayResults.map((r) => r.actionIndex)).toEqual(kinds.map((_, i) => i))
    expect(outcome.report.totalActions).toBe(kinds.length)
    const { passedCount, failedCount, warningCount } = outcome.report
    expect(passedCount + failedCount + warningCount).toBe(kinds.length)
    expect(outcome.passed).toBe(!expected.includes('fail'))
    for (const r of outcome.replayResults) {
      expect(r.success).toBe(expected[r.actionIndex ?? -1] !== 'fail')
      // a step that did not run says why, in one line, and is never reported as located
      if (!r.success) {
        expect(r.errorMessage).not.toBe('')
        expect(r.errorMessage).not.toContain('\n')
      }
    }
    // after a crash, the steps are not run at all, and say so
    for (let i = crashedAt + 1; crashedAt >= 0 && i < kinds.length; i++) {
      expect(page.log).not.toContain(`run ${i}`)
      expect(outcome.replayResults[i]?.errorMessage).toMatch(/crashed before this step/)
      expect(outcome.replayResults[i]?.method).toBe('failed')
    }
    if (crashedAt >= 0) expect(outcome.replayResults[crashedAt]?.errorMessage).toMatch(/crashed during this step/)
    expect(page.log.at(-1)).toBe('dispose')
  })

  it('a step recorded opening a dialog that did not open fails, naming the dialog', async () => {
    const page = fakeReplayPage({ screen: blank, steps: [{ method: 'role', dialogOpens: false }] })
    const action = click(0, { dialog: { type: 'confirm', accept: true, message: '삭제할까요?' } })
    const outcome = await replayOnPage(caseOf([action]), page, { startUrl: START, caseDir: dir })
    expect(outcome.replayResults[0]?.success).toBe(false)
    expect(outcome.replayResults[0]?.errorMessage).toMatch(/confirm dialog \("삭제할까요\?"\), and none opened/)
    expect(outcome.report.verificationResults[0]?.finalResult).toBe('fail')
  })

  it('a thrown step without a method is reported as failed, with the first line of the error', async () => {
    const page = fakeReplayPage({ screen: blank, steps: [{ fails: 'The password step needs QA_SECRET_PW.' }] })
    const outcome = await replayOnPage(caseOf([click(0)]), page, { startUrl: START, caseDir: dir })
    expect(outcome.replayResults[0]).toMatchObject({
      success: false,
      method: 'failed',
      errorMessage: 'The password step needs QA_SECRET_PW.',
    })
  })

  it('refuses a case with no start URL before opening anything', async () => {
    const page = fakeReplayPage({ screen: blank, steps: [{}] })
    await expect(replayOnPage(caseOf([click(0)], null), page, { startUrl: null, caseDir: dir })).rejects.toMatchObject({
      code: 'WEB_NO_START_URL',
    })
    expect(page.log).toEqual([])
  })
})

describe('replayOnPage: settling', () => {
  const steps: FakeStepScript[] = [
    { method: 'role' },
    { method: 'role', navigates: true },
    { method: 'role', requests: true },
    { fails: 'Element not found' },
  ]
  /** What happened between each step's run and its end. */
  const between = (log: readonly string[]) =>
    steps.map((_, i) => log.slice(log.indexOf(`run ${i}`) + 1, log.indexOf(`end ${i}`)))

  it('adaptive: after a navigation it waits for the new DOM, after a failure it settles, after requests it waits for them, else it goes on', async () => {
    const page = fakeReplayPage({ screen: blank, steps })
    const out = await replayOnPage(caseOf(steps.map((_, i) => click(i))), page, { startUrl: START, caseDir: dir })
    expect(page.log.slice(0, 2)).toEqual([`open ${START}`, 'settle'])
    expect(between(page.log)).toEqual([[], ['dom-loaded'], ['idle 2'], ['settle']])
    // the report says what each step waited for (the speed bench counts it)
    expect(out.replayResults.map((r) => r.settle)).toEqual(['none', 'loaded', 'requests', 'full'])
    for (const r of out.replayResults) expect(r.settleMs).toBeGreaterThanOrEqual(0)
  })

  it('always: it settles after every step', async () => {
    const page = fakeReplayPage({ screen: blank, steps })
    await replayOnPage(caseOf(steps.map((_, i) => click(i))), page, { startUrl: START, caseDir: dir, settle: 'always' })
    expect(between(page.log)).toEqual(steps.map(() => ['settle']))
  })

  it('with verification: it settles after every step, before the screen is compared; finite animations are left to the screenshot, which fast-forwards them, unless the step failed', async () => {
    const page = fakeReplayPage({ screen: blank, steps })
    await replayOnPage(caseOf(steps.map((_, i) => click(i))), page, { startUrl: START, caseDir: dir, verify: true })
    const ff = 'settle (animations fast-forwarded)'
    expect(between(page.log)).toEqual([[ff], [ff], [ff], ['settle']])
    const always = fakeReplayPage({ screen: blank, steps })
    await replayOnPage(caseOf(steps.map((_, i) => click(i))), always, {
      startUrl: START,
      caseDir: dir,
      verify: true,
      settle: 'always',
    })
    expect(between(always.log)).toEqual(steps.map(() => ['settle']))
  })

  it('once the browser is gone, nothing is settled or waited for', async () => {
    const crash: FakeStepScript[] = [{ crashes: 'the browser closed or crashed', navigates: true }, { requests: true }]
    const page = fakeReplayPage({ screen: blank, steps: crash })
    const out = await replayOnPage(caseOf([click(0), click(1)]), page, { startUrl: START, caseDir: dir })
    expect(page.log.slice(2)).toEqual(['start 0', 'run 0', 'end 0', 'start 1', 'end 1', 'dispose'])
    expect(out.replayResults.map((r) => r.settle)).toEqual(['none', 'none'])
  })
})

describe('replayOnPage: verification against the recorded screenshots (real PNGs)', () => {
  const recorded = (i: number) => click(i, { screenshotPath: 'after-box.png' })

  it('the same screen passes, a different one fails (no vision), a step without a screenshot is named once, not a warning', async () => {
    const page = fakeReplayPage({
      screen: blank,
      steps: [{ method: 'role', screen: withBox }, { method: 'role', screen: otherScreen }, { method: 'role' }],
    })
    const outcome = await replayOnPage(caseOf([recorded(0), recorded(1), click(2)]), page, {
      startUrl: START,
      caseDir: dir,
      verify: true,
      verifyRegion: false,
    })
    expect(outcome.report.verificationResults.map((v) => v.finalResult)).toEqual(['pass', 'fail', 'pass'])
    expect(outcome.report.unverifiedSteps).toEqual([2])
    expect(outcome.report.verificationResults[0]?.screenshotSimilarity).toBe(1)
    expect(outcome.replayResults.map((r) => r.screenTransitionVerified)).toEqual([true, false, true])
    expect(outcome.passed).toBe(false)
  })

  it('region verification: the screen before each step is taken, and a step that changed nothing fails', async () => {
    // recorded: the box appeared; replayed: the screen stayed blank
    const page = fakeReplayPage({ screen: blank, steps: [{ method: 'role', located: healedByText }] })
    const action = recorded(0)
    action.identity = {
      tagName: 'button',
      axRole: 'button',
      axName: '저장',
      boundingBox: { x: 20, y: 20, width: 80, height: 60 },
    }
    const outcome = await replayOnPage(caseOf([action]), page, { startUrl: START, caseDir: dir, verify: true })
    expect(page.log.slice(page.log.indexOf('settle') + 1, page.log.indexOf('run 0'))).toEqual(['screenshot', 'start 0'])
    expect(outcome.report.verificationResults[0]?.finalResult).toBe('fail')
  })

  it('a target the page scrolls into view: the screen before is taken again after the scroll, and the unchanged page passes', async () => {
    // recorded where the person saw the target: the page scrolled down, the click turned the box blue
    const scrolledDown = await png('#ffffff', { left: 20, top: 20, colour: '#e0e0e0' })
    const clicked = await png('#ffffff', { left: 20, top: 20, colour: '#1565c0' })
    const atTheTop = await png('#ffffff', { left: 20, top: 60, colour: '#e0e0e0' })
    writeFileSync(join(dir, 'scrolled-before.png'), scrolledDown)
    writeFileSync(join(dir, 'scrolled-after.png'), clicked)
    const action = click(0, { screenshotBeforePath: 'scrolled-before.png', screenshotPath: 'scrolled-after.png' })
    action.identity = {
      tagName: 'button',
      axRole: 'button',
      axName: 'Justify',
      boundingBox: { x: 20, y: 20, width: 80, height: 60 },
    }
    const found: LocatedTarget = { ...healedByText, strategy: 'role', point: { x: 60, y: 50 } }
    const replay = async (scrolls: boolean) => {
      const artifactDir = mkdtempSync(join(tmpdir(), 'qa-loop-scroll-'))
      const page = fakeReplayPage({
        screen: atTheTop, // the top of the page, where the replay starts: the same page 40 px lower
        steps: [
          { method: 'role', located: found, ...(scrolls ? { scrolledScreen: scrolledDown } : {}), screen: clicked },
        ],
      })
      const outcome = await replayOnPage(caseOf([action]), page, {
        startUrl: START,
        caseDir: dir,
        verify: true,
        artifactDir,
      })
      return { outcome, log: page.log, before: readFileSync(join(artifactDir, 'step-000-before.png')) }
    }
    const scrolled = await replay(true)
    expect(scrolled.outcome.report.verificationResults[0]?.finalResult).toBe('pass')
    // one screenshot before the step, one when the page told of its scroll, one after
    expect(scrolled.log.filter((l) => l === 'screenshot' || l.startsWith('scrolled') || l.startsWith('run'))).toEqual([
      'screenshot',
      'run 0',
      'scrolled 0',
      'screenshot',
      'screenshot',
    ])
    expect(scrolled.before).toEqual(Buffer.from(scrolledDown))
    // a page that scrolled nothing keeps the screen from before the step
    const still = await replay(false)
    expect(still.before).toEqual(Buffer.from(atTheTop))
  })

  it("a click that opens a <select>'s native list is judged by the choice made next, not by its pixels", async () => {
    // the list is drawn apart from the page: the recording's capture never holds it, a headless replay's may
    const select = {
      tagName: 'select',
      axRole: 'combobox',
      axName: 'Client',
      xpath: '/html/body/select',
      boundingBox: { x: 20, y: 20, width: 80, height: 30 },
    }
    const open = click(0, { identity: select, selectors: { css: '#client' }, screenshotPath: 'after-box.png' })
    const choose: Action = { ...click(1), actionType: 'select', value: 'Globex', identity: select }
    const elsewhere = click(2, {
      identity: { ...select, xpath: '/html/body/div/select' },
      screenshotPath: 'after-box.png',
    })
    const page = fakeReplayPage({
      screen: blank,
      steps: [
        { method: 'role', screen: otherScreen },
        { method: 'role', screen: withBox },
        { method: 'role', screen: otherScreen },
      ],
    })
    const outcome = await replayOnPage(
      caseOf([open, { ...choose, screenshotPath: 'after-box.png' }, elsewhere]),
      page,
      {
        startUrl: START,
        caseDir: dir,
        verify: true,
        verifyRegion: false,
        artifactDir: join(dir, 'native-list'),
      },
    )
    const [opened, chosen, other] = outcome.report.verificationResults
    expect(opened?.finalResult).toBe('pass')
    // the reviewer still sees the recorded screen and the screen at that moment
    expect(opened?.expectedScreenshot).toBe('after-box.png')
    expect(readFileSync(opened?.actualScreenshot as string)).toEqual(Buffer.from(otherScreen))
    expect(opened?.reason).toMatch(/native list of .*step 2, the choice made in it, is verified instead/)
    expect(chosen?.finalResult).toBe('pass')
    // a click on a <select> that no choice follows is compared as any click
    expect(other?.finalResult).toBe('fail')
    expect(outcome.report.unverifiedSteps ?? []).toEqual([])
  })

  it('opensNativeListFor: the same <select> by selector, XPath or box, and only a click followed by a select', () => {
    const select = { tagName: 'SELECT', boundingBox: { x: 10, y: 10, width: 100, height: 30 } }
    const open = click(0, { identity: select })
    const choose: Action = { ...click(1), actionType: 'select', value: 'a', identity: select }
    expect(opensNativeListFor(open, choose)).toBe(true)
    expect(opensNativeListFor(open, undefined)).toBe(false)
    expect(opensNativeListFor(open, { ...choose, actionType: 'click' })).toBe(false)
    expect(opensNativeListFor({ ...open, actionType: 'double_click' }, choose)).toBe(false)
    expect(opensNativeListFor(click(0, { identity: { ...select, tagName: 'input' } }), choose)).toBe(false)
    const moved = { ...choose, identity: { ...select, boundingBox: { x: 10, y: 80, width: 100, height: 30 } } }
    expect(opensNativeListFor(open, moved)).toBe(false)
  })

  it('focusesFieldTypedNext: a click into a text field the next step types into, the same element', () => {
    const field = { tagName: 'INPUT', type: 'email', boundingBox: { x: 10, y: 10, width: 200, height: 30 } }
    const into = click(0, { identity: field, selectors: { css: '#email' } })
    const typing: Action = {
      ...click(1),
      actionType: 'type',
      text: 'a@b.c',
      identity: field,
      selectors: { css: '#email' },
    }
    expect(focusesFieldTypedNext(into, typing)).toBe(true)
    expect(focusesFieldTypedNext(into, undefined)).toBe(false)
    expect(focusesFieldTypedNext(into, { ...typing, actionType: 'click' })).toBe(false)
    // a checkbox, a button, a right click: the click itself is the step's effect
    const box = { ...field, type: 'checkbox' }
    expect(focusesFieldTypedNext(click(0, { identity: box }), { ...typing, identity: box })).toBe(false)
    const button = { ...field, tagName: 'button', type: 'submit' }
    expect(focusesFieldTypedNext(click(0, { identity: button }), { ...typing, identity: button })).toBe(false)
    expect(focusesFieldTypedNext({ ...into, button: 'right' }, typing)).toBe(false)
    // typing into another field
    const other = {
      ...typing,
      selectors: { css: '#name' },
      identity: { ...field, boundingBox: { ...field.boundingBox, y: 90 } },
    }
    expect(focusesFieldTypedNext(into, other)).toBe(false)
  })

  it('a click into a field typed into at once is judged by the typing; found on something else, by its own pixels', async () => {
    // the person typed while the focus ring was fading in: the click's recorded after-image holds that moment
    const field = {
      tagName: 'input',
      type: 'text',
      axRole: 'textbox',
      axName: 'Project name',
      xpath: '/html/body/input',
      boundingBox: { x: 20, y: 20, width: 80, height: 30 },
    }
    const into = click(0, { identity: field, selectors: { css: '#project' }, screenshotPath: 'after-box.png' })
    const typing: Action = {
      ...click(1),
      actionType: 'type',
      text: 'site',
      identity: field,
      selectors: { css: '#project' },
      screenshotPath: 'after-box.png',
    }
    const found = (element: { tagName: string; type?: string }) => ({
      status: 'found' as const,
      strategy: 'role' as const,
      confidence: 1,
      point: { x: 60, y: 35 },
      element: { ...element, boundingBox: field.boundingBox },
      coordinateFallback: false,
      attempts: [],
    })
    const run = (element: { tagName: string; type?: string }) =>
      replayOnPage(
        caseOf([into, typing]),
        fakeReplayPage({
          screen: blank,
          steps: [
            { method: 'role', screen: otherScreen, located: found(element) },
            { method: 'role', screen: withBox, located: found(element) },
          ],
        }),
        { startUrl: START, caseDir: dir, verify: true, verifyRegion: false },
      )
    const [clicked, typed] = (await run({ tagName: 'input', type: 'text' })).report.verificationResults
    expect(clicked?.finalResult).toBe('pass')
    expect(clicked?.reason).toMatch(
      /caret in .*step 2 types into right after; that step, the field focused and filled, is verified instead/,
    )
    expect(typed?.finalResult).toBe('pass')
    // the click found a button where the field was: its own pixels judge it (and they differ)
    const [onButton] = (await run({ tagName: 'button' })).report.verificationResults
    expect(onButton?.finalResult).toBe('fail')
  })

  it('an assert step is decided by its condition, never by a screenshot', async () => {
    const assertStep = (i: number): Action => ({
      ...click(i),
      actionType: 'assert',
      screenshotPath: 'after-box.png',
      assertion: { kind: 'text', op: 'equals', expected: '3개' },
    })
    const page = fakeReplayPage({
      screen: otherScreen,
      steps: [
        { method: 'text', assertion: { holds: true, expected: 'text equals "3개"', actual: '"3개"' } },
        {
          fails: 'Assertion failed: expected text equals "3개", actual not found.',
          assertion: { holds: false, expected: 'text equals "3개"', actual: 'not found' },
        },
      ],
    })
    const outcome = await replayOnPage(caseOf([assertStep(0), assertStep(1)]), page, {
      startUrl: START,
      caseDir: dir,
      verify: true,
    })
    const [held, failed] = outcome.report.verificationResults
    expect(held?.finalResult).toBe('pass')
    expect(held?.reason).toMatch(/^Assertion held/)
    expect(failed?.finalResult).toBe('fail')
    expect(failed?.reason).toMatch(/^Assertion failed: expected text equals "3개", actual not found/)
    expect(failed?.details).toMatchObject({ assertion: { kind: 'text', holds: false } })
    // no screen was taken for either step, though the screen differs from the recorded one
    expect(page.log.filter((l) => l === 'screenshot')).toEqual([])
  })
})

describe('replayOnPage: a heal is learnt only when its step is verified a pass', () => {
  const healedTo = {
    identity: {
      tagName: 'button',
      axRole: 'button',
      axName: '저장하기',
      boundingBox: { x: 20, y: 20, width: 80, height: 60 },
    },
    selectors: { css: '#save-2', xpath: null, fallbacks: [] },
  }
  const action = () => click(0, { screenshotPath: 'after-box.png', selectors: { css: '#save', fallbacks: [] } })

  it('verified pass: the healed case has the new identity and a verified healing record; the input case is unchanged', async () => {
    const page = fakeReplayPage({
      screen: blank,
      steps: [{ method: 'text', located: healedByText, healedIdentity: healedTo, screen: withBox }],
    })
    const tc = caseOf([action()])
    const outcome = await replayOnPage(tc, page, { startUrl: START, caseDir: dir, verify: true, verifyRegion: false })
    expect(outcome.healedSteps).toEqual([0])
    const healed = outcome.healedCase.actions[0]
    expect(healed?.identity).toEqual(healedTo.identity)
    expect(healed?.healingHistory).toHaveLength(1)
    expect(healed?.healingHistory?.[0]).toMatchObject({
      strategy: 'text',
      verified: true,
      previousSelector: '#save',
      newSelector: '#save-2',
      coordinateChange: { x: 1, y: 2 },
    })
    expect(tc.actions[0]?.identity).toBeUndefined()
    expect(tc.actions[0]?.healingHistory).toBeUndefined()
  })

  it.each([
    ['the screen did not match', true, otherScreen],
    ['the replay was not verified', false, withBox],
  ])('not learnt when %s', async (_why, verify, screen) => {
    const page = fakeReplayPage({
      screen: blank,
      steps: [{ method: 'text', located: healedByText, healedIdentity: healedTo, screen }],
    })
    const outcome = await replayOnPage(caseOf([action()]), page, {
      startUrl: START,
      caseDir: dir,
      verify,
      verifyRegion: false,
    })
    expect(outcome.healedSteps).toEqual([])
    expect(outcome.healedCase.actions[0]?.healingHistory).toBeUndefined()
  })

  it('not learnt when the first strategy found the element (nothing healed)', async () => {
    const atOnce: LocatedTarget = {
      ...healedByText,
      strategy: 'role',
      attempts: [{ strategy: 'role', outcome: 'matched' }],
    }
    const page = fakeReplayPage({
      screen: blank,
      steps: [{ method: 'role', located: atOnce, healedIdentity: healedTo, screen: withBox }],
    })
    const outcome = await replayOnPage(caseOf([action()]), page, {
      startUrl: START,
      caseDir: dir,
      verify: true,
      verifyRegion: false,
    })
    expect(outcome.report.verificationResults[0]?.finalResult).toBe('pass')
    expect(outcome.healedSteps).toEqual([])
  })
})

describe('replayOnPage: what accepting a new baseline needs', () => {
  const healedTo = {
    identity: {
      tagName: 'button',
      axRole: 'button',
      axName: '보관',
      boundingBox: { x: 20, y: 20, width: 80, height: 60 },
    },
    selectors: { css: '#keep', xpath: null, fallbacks: [] },
  }
  it('keeps, per step that ran, the screens before and after with their hashes, the box and a heal (also a failed one); none for a step that did not run', async () => {
    const artifactDir = mkdtempSync(join(tmpdir(), 'qa-loop-accept-'))
    const page = fakeReplayPage({
      screen: blank,
      steps: [
        { method: 'text', located: healedByText, healedIdentity: healedTo, screen: otherScreen },
        { fails: 'Element not found: button "저장"' },
      ],
    })
    const tc = caseOf([
      click(0, { screenshotPath: 'after-box.png', selectors: { css: '#save', fallbacks: [] } }),
      click(1, { screenshotPath: 'after-box.png' }),
    ])
    const outcome = await replayOnPage(tc, page, { startUrl: START, caseDir: dir, verify: true, artifactDir })
    expect(outcome.report.verificationResults.map((v) => v.finalResult)).toEqual(['fail', 'fail'])
    expect(outcome.healedSteps).toEqual([])
    expect(outcome.acceptanceSteps.map((s) => s.actionIndex)).toEqual([0])
    const [step] = outcome.acceptanceSteps
    expect(step).toMatchObject({
      verdict: 'fail',
      screenshotBefore: join(artifactDir, 'step-000-before.png'),
      screenshotAfter: join(artifactDir, 'step-000-actual.png'),
      elementBox: { x: 20, y: 20, width: 80, height: 60 },
      identity: healedTo.identity,
      selectors: healedTo.selectors,
      healing: { strategy: 'text', verified: false, previousSelector: '#save', newSelector: '#keep' },
    })
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
    expect(step?.screenshotBeforeSha256).toBe(sha(readFileSync(join(artifactDir, 'step-000-before.png'))))
    expect(step?.screenshotAfterSha256).toBe(sha(readFileSync(join(artifactDir, 'step-000-actual.png'))))
    expect(readFileSync(join(artifactDir, 'step-000-before.png'))).toEqual(Buffer.from(blank))
  })

  it('keeps the box of the element the new identity is about, not of the control found in its stead', async () => {
    // the clicked label was found through the radio it operates (13 × 13, inside the label): the accepted identity is
    // the label's, and so must be its box, or the next replay measures the step's displacement between the two
    const radio: LocatedTarget = { ...healedByText, element: { boundingBox: { x: 45, y: 43, width: 13, height: 13 } } }
    const page = fakeReplayPage({
      screen: blank,
      steps: [{ method: 'name', located: radio, healedIdentity: healedTo, screen: otherScreen }],
    })
    const artifactDir = mkdtempSync(join(tmpdir(), 'qa-loop-accept-'))
    const tc = caseOf([click(0, { screenshotPath: 'after-box.png', selectors: { css: '#save', fallbacks: [] } })])
    const outcome = await replayOnPage(tc, page, { startUrl: START, caseDir: dir, verify: true, artifactDir })
    expect(outcome.acceptanceSteps[0]).toMatchObject({
      identity: healedTo.identity,
      elementBox: healedTo.identity.boundingBox,
    })
  })

  it('measures a step found through the control its label operates against that control, not the label', async () => {
    // the label (80 × 60) is gone, its radio (13 × 13, 5 px in, 10 px down) stands in and is found 2 px lower: the
    // step moved (0, 2), not the (5, 12) between the label's recorded box and the radio's box now
    const label = { tagName: 'label', axName: 'Team', boundingBox: { x: 20, y: 20, width: 80, height: 60 } }
    const radio = { tagName: 'input', type: 'radio', boundingBox: { x: 25, y: 30, width: 13, height: 13 } }
    const foundRadio: LocatedTarget = {
      ...healedByText,
      element: { tagName: 'INPUT', type: 'radio', boundingBox: { x: 25, y: 32, width: 13, height: 13 } },
    }
    const page = fakeReplayPage({ screen: blank, steps: [{ method: 'name', located: foundRadio, screen: withBox }] })
    const step = click(0, { identity: label, operates: radio, screenshotPath: 'after-box.png' })
    const outcome = await replayOnPage(caseOf([step]), page, { startUrl: START, caseDir: dir, verify: true })
    const region = outcome.report.verificationResults[0]?.details?.region as { displacement?: unknown } | undefined
    expect(region?.displacement).toEqual({ x: 0, y: 2 })
  })

  it('keeps nothing without an artifact folder, or when turned off', async () => {
    for (const opts of [
      {},
      { artifactDir: mkdtempSync(join(tmpdir(), 'qa-loop-accept-')), keepForAcceptance: false },
    ]) {
      const page = fakeReplayPage({ screen: blank, steps: [{ method: 'role', screen: withBox }] })
      const outcome = await replayOnPage(caseOf([click(0, { screenshotPath: 'after-box.png' })]), page, {
        startUrl: START,
        caseDir: dir,
        verify: true,
        ...opts,
      })
      expect(outcome.acceptanceSteps).toEqual([])
    }
  })
})
