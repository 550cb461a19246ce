/**
 * Record and replay on real npm pages through the documented CLI, judged by the corpus's ground truth
 *: a fixed small subset of the wild corpus, so that CI stays within a few minutes.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CHROMIUM_ARGS } from '@qa/recorder-cdp'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MutationOp } from './page-script'
import { askTruth } from './page-script'
import { runCli } from './run-cli'
import { type CorpusServer, startCorpusServer } from './start-corpus-server'
import type { TruthEvent } from './truth-log'

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../../apps/cli/bin/qa.js')
const VIEWPORT = { width: 1280, height: 720 }

let corpus: CorpusServer
let browser: Browser
let dir: string

beforeAll(async () => {
  corpus = await startCorpusServer()
  browser = await chromium.launch({
    executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS],
  })
  dir = await mkdtemp(join(tmpdir(), 'qa-wild-e2e-'))
})
afterAll(async () => {
  await browser?.close()
  await corpus?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

const qa = (args: string[]) => runCli(CLI, args, dir)

type Target = { find: (page: Page) => Locator; type?: string }
interface Recorded {
  caseFile: string
  truths: string[]
  actions: { action_type: string; identity?: { tag_name?: string; ax_role?: string } }[]
}

/**
 * Finds each target in a fresh copy of the page and acts on it there (so later targets can be ones that appear
 * after a click), writes steps.json and records it with `qa record web --script`.
 */
async function record(pageId: string, name: string, targets: Target[]): Promise<Recorded> {
  const page = await browser.newPage({ viewport: VIEWPORT })
  await page.goto(corpus.pageUrl(pageId), { waitUntil: 'load' })
  const steps: unknown[] = []
  const truths: string[] = []
  for (const t of targets) {
    const el = t.find(page)
    const box = await el.boundingBox()
    if (!box) throw new Error(`${pageId}: a target is not visible`)
    truths.push(await el.evaluate(askTruth))
    const x = Math.round(box.x + box.width / 2)
    const y = Math.round(box.y + box.height / 2)
    steps.push({ type: 'click', x, y })
    await page.mouse.click(x, y)
    if (t.type) {
      steps.push({ type: 'type', text: t.type })
      await page.keyboard.type(t.type)
    }
    await page.waitForTimeout(300)
  }
  await page.close()
  await writeFile(join(dir, `${name}.steps.json`), JSON.stringify(steps))
  const rec = await corpus.variant({ ops: [], name: `rec-${name}` })
  const caseFile = join(dir, `${name}.json`)
  const res = await qa(['record', 'web', rec.pageUrl(pageId), '--script', `${name}.steps.json`, '--out', caseFile])
  expect(res.code, res.stderr).toBe(0)
  // The recorder's own input reached each target (the script's coordinates are right).
  expect(await clickedInOrder(rec.truth.events(), truths.length)).toEqual(truths.map(() => true))
  const downs = rec.truth.events().filter((e) => e.kind === 'pointerdown')
  truths.forEach((t, k) => {
    expect(downs[k]?.chain).toContain(t)
  })
  await rec.close()
  const tc = JSON.parse(await readFile(caseFile, 'utf8')) as { actions: Recorded['actions'] }
  return { caseFile, truths, actions: tc.actions }
}

async function clickedInOrder(events: readonly TruthEvent[], n: number): Promise<boolean[]> {
  const downs = events.filter((e) => e.kind === 'pointerdown')
  return Array.from({ length: n }, (_, k) => downs[k] !== undefined)
}

/** Replays the case with `qa replay --url <variant page> --json`; the truth ids the page saw, click by click. */
async function replay(rec: Recorded, pageId: string, ops: MutationOp[], remove: string[] = []) {
  const v = await corpus.variant({ ops, remove })
  const res = await qa([
    'replay',
    rec.caseFile,
    '--url',
    v.pageUrl(pageId),
    '--json',
    '--report-dir',
    join(dir, 'reports'),
  ])
  // the page reports each event to the server as it happens: wait until no report has come for 500 ms (a loaded
  // machine delivers the last click's report after the CLI has exited)
  for (let seen = -1, quietSince = Date.now(); Date.now() - quietSince < 500; ) {
    await new Promise((r) => setTimeout(r, 100))
    const now = v.truth.events().length
    if (now !== seen) {
      seen = now
      quietSince = Date.now()
    }
  }
  const events = v.truth.events()
  await v.close()
  const report = JSON.parse(res.stdout) as { replay_results: { success: boolean; method: string }[] }
  return { code: res.code, report, events, downs: events.filter((e) => e.kind === 'pointerdown') }
}

const ADMIN = 'sb-admin/dist/login.html'
const SPA = 'swagger-ui/index.html'

describe('wild corpus through the CLI', () => {
  let admin: Recorded
  let spa: Recorded

  it('records an admin login page (sb-admin) with every click on its intended element', async () => {
    admin = await record(ADMIN, 'admin', [
      { find: (p) => p.getByLabel('Email address'), type: 'qa@example.com' },
      { find: (p) => p.getByRole('checkbox', { name: 'Remember Password' }) },
      { find: (p) => p.getByRole('link', { name: 'Forgot Password?' }) },
    ])
    expect(admin.actions.map((a) => a.action_type)).toEqual(['click', 'type', 'click', 'click'])
    expect(admin.actions.map((a) => a.identity?.tag_name?.toLowerCase())).toEqual(['input', 'input', 'input', 'a'])
  })

  it('replays it unchanged: each click reaches its element and the text lands in the field', async () => {
    const r = await replay(admin, ADMIN, [])
    expect(r.downs.map((d) => admin.truths.some((t) => d.chain.includes(t)))).toEqual([true, true, true])
    r.downs.forEach((d, k) => {
      expect(d.chain).toContain(admin.truths[k])
    })
    expect(
      r.events.some((e) => e.kind === 'input' && e.truth === admin.truths[0] && e.value === 'qa@example.com'),
    ).toBe(true)
  })

  it('replays it on the page with renamed ids and classes (CSS rewritten) and a layout shift', async () => {
    const r = await replay(admin, ADMIN, ['renamed-ids', 'renamed-classes', 'layout-shift'])
    expect(r.downs).toHaveLength(3)
    r.downs.forEach((d, k) => {
      expect(d.chain).toContain(admin.truths[k])
    })
  })

  it('records a React SPA (swagger-ui): expand an operation, "Try it out", type a parameter', async () => {
    spa = await record(SPA, 'spa', [
      { find: (p) => p.locator('.opblock-summary-control').first() },
      { find: (p) => p.getByRole('button', { name: 'Try it out' }) },
      { find: (p) => p.getByPlaceholder('q', { exact: true }), type: 'sword' },
    ])
    expect(spa.actions.map((a) => a.action_type)).toEqual(['click', 'click', 'click', 'type'])
    expect(spa.actions.map((a) => a.identity?.tag_name?.toLowerCase())).toEqual(['button', 'button', 'input', 'input'])
  })

  it('replays the SPA flow unchanged and with extra wrappers and reworded labels', async () => {
    for (const ops of [[], ['extra-wrappers', 'reworded-labels']] as MutationOp[][]) {
      const r = await replay(spa, SPA, ops)
      expect(r.downs, `ops ${ops.join('+')}`).toHaveLength(3)
      r.downs.forEach((d, k) => {
        expect(d.chain, `ops ${ops.join('+')} step ${k}`).toContain(spa.truths[k])
      })
      expect(r.events.some((e) => e.kind === 'input' && e.truth === spa.truths[2] && e.value === 'sword')).toBe(true)
    }
  })

  it('replays a removed target without clicking its look-alike', async () => {
    const r = await replay(admin, ADMIN, ['removal'], [admin.truths[1] as string])
    // The checkbox (step 3) is gone and a look-alike with another label stands in its place.
    const onLookAlike = r.events.filter(
      (e) => e.kind === 'click' && e.chain.some((c) => c.startsWith(`decoy:${admin.truths[1]}`)),
    )
    expect(onLookAlike).toEqual([])
  })
})

describe('wild corpus pitfalls through the CLI', () => {
  it('an icon-only button (<a><i class="fas fa-bars"></i></a>, stisla) is recorded as the link, not <body>', async () => {
    const rec = await record('stisla/bootstrap-form.html', 'icon', [
      { find: (p) => p.locator('a[data-toggle="sidebar"]') },
    ])
    expect(rec.actions[0]?.identity?.tag_name?.toLowerCase()).toBe('a')
    const r = await replay(rec, 'stisla/bootstrap-form.html', [])
    expect(r.downs[0]?.chain).toContain(rec.truths[0])
  })

  it('an icon-only button removed (sb-admin ☰, a look-alike with another glyph left): not found, nothing clicked', async () => {
    const page = 'sb-admin/dist/index.html'
    const rec = await record(page, 'icon-removed', [{ find: (p) => p.locator('#sidebarToggle') }])
    const r = await replay(rec, page, ['removal'], [rec.truths[0] as string])
    expect(r.report.replay_results[0]?.success).toBe(false)
    expect(r.downs).toEqual([])
    expect(r.code).not.toBe(0)
  })

  it('a collapsed sidebar rail (gentelella: the label is hidden by CSS, only the icon shows) heals when the menu is reordered', async () => {
    // Chromium names the rail button "Dashboards" from its display:none text; the page's candidate list must
    // name it the same, or the only "Dashboards" on the page, moved below the fold of the rail, is refused.
    const page = 'gentelella/dist/production/form_buttons.html'
    const rec = await record(page, 'rail', [
      { find: (p) => p.locator('button.sidebar-toggle') },
      { find: (p) => p.getByRole('button', { name: 'Dashboards', exact: true }) },
    ])
    expect(rec.actions[1]?.identity?.ax_role).toBe('button')
    const r = await replay(rec, page, ['reordered-siblings'])
    expect(r.report.replay_results.map((s) => s.success)).toEqual([true, true])
    expect(r.downs[1]?.chain).toContain(rec.truths[1])
  })

  it('icon-font buttons (stisla envelope, search) heal by their glyph when look-alikes with another glyph stand beside them and everything else changed', async () => {
    // Chromium names <a><i class="far fa-envelope"></i></a> by its ::before glyph (U+F0E0); the look-alike shows
    // a star. The page's candidate list must read the same glyph, or an icon button has no name to go by.
    const page = 'stisla/bootstrap-form.html'
    const rec = await record(page, 'glyphs', [
      { find: (p) => p.locator('a.message-toggle') },
      { find: (p) => p.locator('nav form button.btn') },
    ])
    const r = await replay(rec, page, [
      'renamed-ids',
      'renamed-classes',
      'extra-wrappers',
      'layout-shift',
      'reworded-labels',
      'decoy-siblings',
    ])
    expect(r.report.replay_results.map((s) => s.success)).toEqual([true, true])
    expect(r.downs[0]?.chain).toContain(rec.truths[0])
    expect(r.downs[1]?.chain).toContain(rec.truths[1])
  })

  it('a segmented control label found by its pixels is clicked at the pixels, not at the centre of the group under them (gentelella "Private | Team | Public", extra wrappers)', async () => {
    const page = 'gentelella/dist/production/form.html'
    const rec = await record(page, 'segmented', [
      { find: (p) => p.getByRole('button', { name: 'Open menu' }) },
      { find: (p) => p.locator('div.segmented label').first() },
    ])
    const r = await replay(rec, page, ['extra-wrappers'])
    // "Team" (the group's centre) must never receive the click; "Private" does, or nothing does
    const second = r.downs.slice(1)
    expect(second.every((e) => e.chain.includes(rec.truths[1] as string))).toBe(true)
    expect(r.report.replay_results[1]?.success).toBe(second.length > 0)
  })

  it('a segmented option reworded in place ("Team" → another word) is found by its place in its radio group; removed, it is refused (gentelella)', async () => {
    const page = 'gentelella/dist/production/form.html'
    const rec = await record(page, 'radio-team', [{ find: (p) => p.locator('div.segmented label').nth(1) }])
    expect(rec.actions[0]?.identity?.tag_name).toBe('label')
    const saved = JSON.parse(await readFile(rec.caseFile, 'utf8')) as {
      actions: { operates?: { name?: string; group_position?: { index: number; size: number } } }[]
    }
    expect(saved.actions[0]?.operates?.name).toBe('vis')
    expect(saved.actions[0]?.operates?.group_position).toEqual({ index: 1, size: 3 })
    const probe = await browser.newPage({ viewport: VIEWPORT })
    await probe.goto(corpus.pageUrl(page), { waitUntil: 'load' })
    const team = await probe.locator('input[name="vis"]').nth(1).evaluate(askTruth)
    await probe.close()
    // every label of the page reworded: the option the person picked is the one that changes (the page's own
    // listener sees which radio changed), and the step says it healed
    const reworded = await replay(rec, page, ['reworded-labels'])
    expect(reworded.report.replay_results[0]?.success).toBe(true)
    expect(reworded.events.filter((e) => e.kind === 'change').map((e) => e.truth)).toEqual([team])
    // the option removed (a look-alike in its place): nothing of the group is clicked
    const removed = await replay(rec, page, ['removal'], [team])
    expect(removed.report.replay_results[0]?.success).toBe(false)
    expect(removed.events.filter((e) => e.kind === 'change')).toEqual([])
  })

  it('a target below the fold, verified on the unchanged page without the recorded scroll: the scroll the replay makes to reach it is not the step’s change (stisla "Justify")', async () => {
    const page = 'stisla/bootstrap-buttons.html'
    // where a person sees the button: scrolled so that it stands in the middle of the view, as a click's own scroll puts it
    const probe = await browser.newPage({ viewport: VIEWPORT })
    await probe.goto(corpus.pageUrl(page), { waitUntil: 'load' })
    const justify = probe.getByRole('button', { name: 'Justify', exact: true })
    expect(await justify.evaluate((el) => el.getBoundingClientRect().top > innerHeight)).toBe(true)
    await justify.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' }))
    const dy = await probe.evaluate(() => Math.round(scrollY))
    const box = (await justify.boundingBox())!
    await probe.close()
    const at = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) }
    await writeFile(
      join(dir, 'justify.steps.json'),
      JSON.stringify([
        { type: 'scroll', dy },
        { type: 'click', ...at },
      ]),
    )
    const rec = await corpus.variant({ ops: [], name: 'rec-justify' })
    const caseFile = join(dir, 'justify.json')
    const made = await qa(['record', 'web', rec.pageUrl(page), '--script', 'justify.steps.json', '--out', caseFile])
    expect(made.code, made.stderr).toBe(0)
    await rec.close()
    // the case without its scroll step (edited by hand, or imported from a tool that records none)
    const tc = JSON.parse(await readFile(caseFile, 'utf8')) as { actions: { action_type: string }[] }
    tc.actions = tc.actions.filter((a) => a.action_type !== 'scroll')
    const clickOnly = join(dir, 'justify-click-only.json')
    await writeFile(clickOnly, JSON.stringify(tc))
    const v = await corpus.variant({ ops: [] })
    const res = await qa([
      'replay',
      clickOnly,
      '--url',
      v.pageUrl(page),
      '--verify',
      '--json',
      '--report-dir',
      join(dir, 'reports-justify'),
    ])
    await v.close()
    const report = JSON.parse(res.stdout) as { verification_results: { final_result: string; reason?: string }[] }
    expect(report.verification_results[0]?.final_result, report.verification_results[0]?.reason).toBe('pass')
    expect(res.code, res.stderr).toBe(0)
  })

  it('a target recorded with the page scrolled is found where it stood on the page when the replay is not scrolled (swagger-ui "POST /orders": its arrow agrees with its label, so its place decides)', async () => {
    const page = 'swagger-ui/index.html'
    const probe = await browser.newPage({ viewport: VIEWPORT })
    await probe.goto(corpus.pageUrl(page), { waitUntil: 'load' })
    const target = probe.getByRole('button', { name: 'POST /orders Place an order', exact: true })
    await target.waitFor()
    expect(await target.evaluate((el) => el.getBoundingClientRect().top > innerHeight)).toBe(true)
    await target.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }))
    const dy = await probe.evaluate(() => Math.round(scrollY))
    const box = (await target.boundingBox())!
    const truth = await target.evaluate(askTruth)
    await probe.close()
    const at = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) }
    await writeFile(
      join(dir, 'orders.steps.json'),
      JSON.stringify([
        { type: 'scroll', dy },
        { type: 'click', ...at },
      ]),
    )
    const rec = await corpus.variant({ ops: [], name: 'rec-orders' })
    const caseFile = join(dir, 'orders.json')
    const made = await qa(['record', 'web', rec.pageUrl(page), '--script', 'orders.steps.json', '--out', caseFile])
    expect(made.code, made.stderr).toBe(0)
    await rec.close()
    // the case without its scroll step: the replay looks for the button on the page as it loads, scrolled to the top
    const tc = JSON.parse(await readFile(caseFile, 'utf8')) as { actions: Recorded['actions'] }
    tc.actions = tc.actions.filter((a) => a.action_type !== 'scroll')
    expect(tc.actions.map((a) => a.identity?.ax_role)).toEqual(['button'])
    const clickOnly = join(dir, 'orders-click-only.json')
    await writeFile(clickOnly, JSON.stringify(tc))
    const r = await replay({ caseFile: clickOnly, truths: [truth], actions: tc.actions }, page, [])
    expect(r.report.replay_results[0]?.success).toBe(true)
    expect(r.downs[0]?.chain).toContain(truth)
  })

  it('a styled checkbox (stisla custom-control: the input is hidden, its label drawn) replays and ticks it', async () => {
    const page = 'stisla/auth-login.html'
    const rec = await record(page, 'styled', [{ find: (p) => p.locator('label[for="remember-me"]') }])
    const probe = await browser.newPage({ viewport: VIEWPORT })
    await probe.goto(corpus.pageUrl(page), { waitUntil: 'load' })
    const input = await probe.locator('#remember-me').evaluate(askTruth)
    await probe.close()
    const r = await replay(rec, page, ['renamed-classes'])
    expect(r.report.replay_results[0]?.success).toBe(true)
    expect(r.events.some((e) => e.kind === 'change' && e.truth === input)).toBe(true)
  })
})
