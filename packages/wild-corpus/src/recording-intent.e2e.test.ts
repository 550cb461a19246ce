import { execFile } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type BrowserSession, createWebRecorder, openBrowser, replayWebCase } from '@qa/recorder-cdp'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { askTruth } from './page-script'
import { type CorpusServer, startCorpusServer } from './start-corpus-server'

/**
 * On pages nobody here wrote (npm kits of the wild corpus), judged by the corpus's
 * in-page truth listener: what a click on an icon, a styled checkbox, radio or switch, or on nothing records,
 * and what its replay clicks.
 */

type TestCase = Parameters<typeof replayWebCase>[0]
type Action = TestCase['actions'][number]

let corpus: CorpusServer
const sessions: BrowserSession[] = []
// tall enough that no target needs scrolling: these tests are about what a point means, not about scrolling
const VIEWPORT = { width: 1280, height: 4400 }

beforeAll(async () => {
  corpus = await startCorpusServer()
})
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()))
  await corpus?.close()
})

async function newPage(): Promise<Page> {
  const s = await openBrowser({ viewport: VIEWPORT })
  sessions.push(s)
  return s.page
}

const centre = async (l: Locator): Promise<[number, number]> => {
  const b = await l.boundingBox()
  if (!b) throw new Error('the target has no box')
  return [b.x + b.width / 2, b.y + b.height / 2]
}

/** Records clicks at the points `points` returns on a corpus page; returns the case and the page's truth ids. */
async function recordOn(
  pageId: string,
  points: (p: Page) => Promise<[number, number][]>,
  truths: (p: Page) => Promise<string[]> = async () => [],
) {
  const dir = await mkdtemp(join(tmpdir(), 'qa-intent-'))
  const p = await newPage()
  const rec = await createWebRecorder(p, { caseFile: join(dir, 'case.json'), screenshots: false })
  await rec.start(corpus.pageUrl(pageId))
  const ids = await truths(p)
  for (const [x, y] of await points(p)) await rec.click(x, y)
  const testCase = rec.testCase()
  await rec.close()
  return { dir, testCase, ids, page: p }
}

/** Replays on a fresh page (a variant's or the unchanged one) and returns the clicks its truth listener saw. */
async function replayOn(testCase: TestCase, dir: string, url: string, truthLog = corpus.truth) {
  const p = await newPage()
  truthLog.clear()
  const outcome = await replayWebCase(testCase, { page: p, caseDir: dir, url, actionTimeoutMs: 5_000 })
  await p.waitForTimeout(300) // the truth beacons of the last click
  const clicks = truthLog.events().filter((e) => e.kind === 'click')
  return { outcome, clicks, page: p }
}

const checked = (p: Page, selector: string) => p.locator(selector).evaluate((el) => (el as HTMLInputElement).checked)

describe('Build 2: a click on an icon records the control that owns it', () => {
  it('stisla: the Font Awesome bars icon (a ::before pseudo-element) records its link, not <body>', async () => {
    const icon = (p: Page) => p.locator('a[data-toggle="sidebar"] i.fa-bars')
    let hitNode: string | undefined
    const { testCase, ids } = await recordOn(
      'stisla/bootstrap-form.html',
      async (p) => [await centre(icon(p))],
      async (p) => {
        // the cause, on this page: the hit test at the icon's centre answers with a ::before pseudo-element
        const cdp = await p.context().newCDPSession(p)
        await cdp.send('DOM.getDocument', { depth: 0 })
        const [x, y] = await centre(icon(p))
        const at = { x: Math.round(x), y: Math.round(y), ignorePointerEventsNone: true }
        const { backendNodeId } = await cdp.send('DOM.getNodeForLocation', at)
        hitNode = (await cdp.send('DOM.describeNode', { backendNodeId })).node.nodeName
        await cdp.detach()
        return [await p.locator('a[data-toggle="sidebar"]').evaluate(askTruth)]
      },
    )
    expect(hitNode).toBe('::before')
    const a = testCase.actions[0] as Action
    expect(a.identity?.tagName).toBe('a')
    expect(a.identity?.href).toBe('#')
    expect(a.identity?.classNames).toContain('nav-link')
    // the icon's glyph (U+F0C9) prints as nothing, so the description names the icon class instead
    expect(a.description).toBe('Click link (icon fa-bars)')
    expect(a.warning ?? null).toBeNull()

    // replayed on a page with renamed classes and extra wrappers, the click reaches that link
    const changed = await corpus.variant({ ops: ['renamed-classes', 'extra-wrappers'] })
    const { outcome, clicks } = await replayOn(
      testCase,
      '.',
      changed.pageUrl('stisla/bootstrap-form.html'),
      changed.truth,
    )
    expect(outcome.replayResults[0]?.success).toBe(true)
    expect(outcome.replayResults[0]?.method).not.toBe('coordinate')
    expect(clicks).toHaveLength(1)
    expect(clicks[0]?.chain).toContain(ids[0])
  })

  it('sneat: a boxicon inside a menu link and an avatar image inside a dropdown toggle record their links', async () => {
    // the avatar first: the menu link reloads the page
    const { testCase } = await recordOn('sneat/html/index.html', async (p) => [
      await centre(p.locator('.dropdown-user img').first()),
      await centre(p.locator('.menu-link .bx-home-circle').first()),
    ])
    const [avatar, home] = testCase.actions as [Action, Action]
    expect(home.identity).toMatchObject({ tagName: 'a', axRole: 'link' })
    expect(home.identity?.classNames).toContain('menu-link')
    expect(avatar.identity).toMatchObject({ tagName: 'a' })
    expect(avatar.identity?.classNames).toContain('dropdown-toggle')
  })

  it('sneat: a click on plain text is a coordinate step with a warning, never <body> or a container', async () => {
    const { testCase } = await recordOn('sneat/html/index.html', async (p) => [
      await centre(p.locator('.card-body p').first()),
    ])
    const a = testCase.actions[0] as Action
    expect(a.identity ?? null).toBeNull()
    expect(a.selectors ?? null).toBeNull()
    expect(a.warning).toMatch(/no interactive element under the point \(hit <p>\): recorded as a coordinate step/)
    expect(a.description).toMatch(/^Click \(\d+, \d+\)$/)
  })

  it('qa record web prints the warning in its summary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-intent-cli-'))
    const p = await newPage()
    await p.goto(corpus.pageUrl('sneat/html/index.html'))
    const [tx, ty] = await centre(p.locator('.card-body p').first())
    const [lx, ly] = await centre(p.locator('.menu-link .bx-home-circle').first())
    await writeFile(
      join(dir, 'steps.json'),
      JSON.stringify([
        { type: 'click', x: Math.round(lx), y: Math.round(ly) },
        { type: 'click', x: Math.round(tx), y: Math.round(ty) },
      ]),
    )
    // @qa/cli is a devDependency of this package: its bin, as `pnpm exec qa` runs it
    const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '@qa', 'cli', 'bin', 'qa.js')
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        cli,
        'record',
        'web',
        corpus.pageUrl('sneat/html/index.html'),
        '--script',
        join(dir, 'steps.json'),
        '--out',
        join(dir, 'case.json'),
        '--viewport',
        `${VIEWPORT.width}x${VIEWPORT.height}`,
      ],
      { timeout: 90_000 },
    )
    expect(stdout).toMatch(/ 1\. Click link/)
    // the step line names the strategy replay will try first ("[coordinates]"), then the warning below it
    expect(stdout).toMatch(/ 2\. Click \(\d+, \d+\)[^\n]*\n\s+warning: no interactive element under the point/)
    expect(stdout).toContain('1 step recorded with a warning (2): they replay by coordinates.')
    const saved = JSON.parse(await readFile(join(dir, 'case.json'), 'utf8'))
    expect(saved.actions[1].warning).toMatch(/no interactive element/)
  })
})

describe('Build 3: styled checkboxes, radios and switches', () => {
  const page = 'stisla/bootstrap-form.html'

  it('stisla custom-checkbox: a click on its box records the label and the checkbox it operates; replay checks it', async () => {
    const { testCase, ids } = await recordOn(
      page,
      async (p) => [await centre(p.locator('#customCheck1'))],
      async (p) => [
        await p.locator('label[for="customCheck1"]').evaluate(askTruth),
        await p.locator('#customCheck1').evaluate(askTruth),
      ],
    )
    const a = testCase.actions[0] as Action
    expect(a.identity).toMatchObject({ tagName: 'label', textContent: 'Check this custom checkbox' })
    expect(a.operates).toMatchObject({ tagName: 'input', type: 'checkbox', axRole: 'checkbox' })
    expect(a.operates?.axName).toBe('Check this custom checkbox')

    const { outcome, clicks, page: p } = await replayOn(testCase, '.', corpus.pageUrl(page))
    expect(outcome.replayResults[0]?.success).toBe(true)
    expect(await checked(p, '#customCheck1')).toBe(true)
    expect(clicks[0]?.chain).toContain(ids[0])
  })

  it('a case whose target is the covered input (as older recordings have it) clicks its label, at once', async () => {
    const { testCase, ids } = await recordOn(
      page,
      async (p) => [await centre(p.locator('#customCheck1'))],
      async (p) => [await p.locator('label[for="customCheck1"]').evaluate(askTruth)],
    )
    const a = testCase.actions[0] as Action
    // what the recorder wrote before it kept the label apart: the label lifted to its control
    a.identity = a.operates ?? null
    a.selectors = { css: '#customCheck1', xpath: a.identity?.xpath ?? null }
    delete a.operates
    const { outcome, clicks, page: p } = await replayOn(testCase, '.', corpus.pageUrl(page))
    expect(outcome.replayResults[0]).toMatchObject({ success: true, method: 'role' })
    expect(await checked(p, '#customCheck1')).toBe(true)
    // the label received the click, and the first strategy's element was acted on with no retry (a click sent to
    // the covered input would have waited out the 5 s timeout and failed the step); the second click is the one
    // the label's activation sends to its input
    expect(clicks[0]?.chain).toContain(ids[0])
    expect(clicks.map((c) => c.tag)).toEqual(['label', 'input'])
    expect(outcome.replayResults[0]?.errorMessage).toBe('')
  })

  it('stisla radio group: the second custom radio is chosen on replay, also with its siblings reordered', async () => {
    const { testCase } = await recordOn(page, async (p) => [await centre(p.locator('#customRadio2'))])
    const a = testCase.actions[0] as Action
    expect(a.identity?.tagName).toBe('label')
    expect(a.operates).toMatchObject({ type: 'radio', axName: 'Or toggle this other custom radio' })
    const changed = await corpus.variant({ ops: ['reordered-siblings', 'renamed-ids'] })
    const { outcome, page: p } = await replayOn(testCase, '.', changed.pageUrl(page), changed.truth)
    expect(outcome.replayResults[0]?.success).toBe(true)
    const states = await p
      .locator('input[name="customRadio"]')
      .evaluateAll((els) =>
        els.map((e) => [(e.nextElementSibling?.textContent ?? '').trim(), (e as HTMLInputElement).checked]),
      )
    expect(Object.fromEntries(states)).toEqual({
      'Toggle this custom radio': false,
      'Or toggle this other custom radio': true,
    })
  })

  it('gentelella switch: a click on the track (a pseudo-element knob) toggles that switch on replay', async () => {
    const gPage = 'gentelella/dist/production/form.html'
    const track = (p: Page) => p.locator('label.switch', { hasText: 'Beta features' }).locator('.track')
    const { testCase } = await recordOn(gPage, async (p) => [await centre(track(p))])
    const a = testCase.actions[0] as Action
    expect(a.identity?.tagName).toBe('label')
    expect(a.operates).toMatchObject({ type: 'checkbox', axName: 'Beta features' })
    const { outcome, page: p } = await replayOn(testCase, '.', corpus.pageUrl(gPage))
    expect(outcome.replayResults[0]?.success).toBe(true)
    const beta = p.locator('label.switch', { hasText: 'Beta features' }).locator('input')
    const weekly = p.locator('label.switch', { hasText: 'Send weekly summary email' }).locator('input')
    expect(await beta.isChecked()).toBe(true) // unchecked as shipped
    expect(await weekly.isChecked()).toBe(true) // untouched
  })
})

describe('Build 5: replay precision', () => {
  it('a recorded <body> (the old icon-button recording) is replayed by coordinates with a warning in the report', async () => {
    const { testCase, ids } = await recordOn(
      'stisla/bootstrap-form.html',
      async (p) => [await centre(p.locator('a[data-toggle="sidebar"] i.fa-bars'))],
      async (p) => [await p.locator('a[data-toggle="sidebar"]').evaluate(askTruth)],
    )
    const a = testCase.actions[0] as Action
    // what the recorder wrote for this click when it lifted the label to its control
    a.identity = {
      tagName: 'body',
      textContent: 'Search Stisla Admin Dashboard',
      xpath: '/html/body',
      boundingBox: { x: 0, y: 0, width: 1280, height: 2000 },
    }
    a.selectors = { css: 'body', xpath: '/html/body', fallbacks: [] }
    const { outcome, clicks } = await replayOn(testCase, '.', corpus.pageUrl('stisla/bootstrap-form.html'))
    const r = outcome.replayResults[0]
    expect(r).toMatchObject({ success: true, method: 'coordinate' })
    expect(r?.warning).toMatch(/the recorded target is <body>, the page itself.*replayed by coordinates/)
    expect(r?.strategiesTried ?? []).toEqual([])
    // not a silent pass, and the click went to the recorded point (the icon), not to body's centre
    expect(outcome.report.verificationResults[0]?.finalResult).toBe('warning')
    expect(clicks[0]?.chain).toContain(ids[0])
  })

  it('a stored selector that now matches a container far larger than the recorded link is rejected', async () => {
    const { testCase, ids } = await recordOn(
      'stisla/bootstrap-form.html',
      async (p) => [await centre(p.locator('a[data-toggle="sidebar"] i.fa-bars'))],
      async (p) => [await p.locator('a[data-toggle="sidebar"]').evaluate(askTruth)],
    )
    const a = testCase.actions[0] as Action
    // the link's stored CSS matches the whole navbar now (as after a class moved to the wrapper); its
    // accessible name (Chromium names it by the icon's glyph) is left out so that the CSS strategy runs
    a.selectors = { css: 'nav.navbar', xpath: null, fallbacks: [] }
    if (a.identity) a.identity.axName = null
    const { outcome, clicks } = await replayOn(testCase, '.', corpus.pageUrl('stisla/bootstrap-form.html'))
    const css = outcome.replayResults[0]?.strategiesTried?.find((s) => s.strategy === 'css')
    expect(css?.outcome).toBe('below_threshold')
    expect(css?.detail).toMatch(/far larger than the recorded element/)
    // whatever answered instead, the click reached the link, not the navbar's centre
    for (const c of clicks) expect(c.chain).toContain(ids[0])
  })
})
