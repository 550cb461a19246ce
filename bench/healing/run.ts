/**
 * Healing benchmark: how often each approach finds the recorded element again on mutated pages. Run from the repo root: `node --import tsx bench/healing/run.ts`
 * Options: --workers N (parallel replays, default 2), --quick (single mutations only), --only <truth,truth>, --variants <name,name>, --verbose
 * (every replay), --json <file> (raw outcomes).
 *
 * For every non-decoy target of the sample app (`sampleTargets`, incl. the shadow-DOM widget and the iframe),
 * one click step is recorded on v1 with the real recorder (`createWebRecorder(...).click(x, y)` at the centre
 * of the element, as a person would click it). Each step is then replayed on every single mutation, a few
 * combinations and the `removal` variant by four approaches, each in a fresh browser context of one shared
 * browser:
 *   ours    `replayWebCase` of the recorded one-step case (full cascade, default options, no verify)
 *   coords  a click at the recorded x,y
 *   selenium a Selenium-IDE-style chain: recorded id (#id) → stored CSS → stored XPath; the first selector
 *           that matches anything wins and its first match is clicked (no label or ambiguity checks)
 *   role    plain Playwright `getByRole(recordedRole, { name: recordedName, exact: true }).click()` (strict)
 * and judged by the sample app's ground truth (which instrumented element received the trusted click),
 * which none of the approaches can see: right (the target; on `removal`: no click at all), wrong (another
 * element or empty space), nothing (no click).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { argv } from 'node:process'
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core'
import type { Action, TestCase } from '@qa/model'
import { createWebRecorder, openBrowser, replayWebCase } from '@qa/recorder-cdp'
import {
  type MutationName,
  type SampleApp,
  type SampleTarget,
  sampleTargets,
  serializeMutationList,
  startSampleApp,
  type TruthEvent,
  variantCookie,
  variantLabel,
} from '@qa/sample-app'

const flag = (name: string) => argv.includes(name)
const opt = (name: string): string | null => {
  const i = argv.indexOf(name)
  return i >= 0 ? (argv[i + 1] ?? null) : null
}

const WORKERS = Math.max(1, Number(opt('--workers') ?? 2))

type Setup = 'modal' | 'detail' | null
type Approach = 'ours' | 'coords' | 'selenium' | 'role'
const APPROACHES: readonly Approach[] = ['ours', 'coords', 'selenium', 'role']
type Outcome = 'correct' | 'wrong' | 'nothing'

interface Variant {
  name: string
  mutations: MutationName[]
  kind: 'single' | 'combination' | 'removal'
}

const SINGLES: MutationName[] = [
  'renamed-ids',
  'renamed-classes',
  'extra-wrappers',
  'layout-shift',
  'reworded-labels',
  'tag-changes',
  'decoy-siblings',
  'reordered-blocks',
]
const V2: MutationName[] = [...SINGLES]
const ALL_VARIANTS: Variant[] = [
  ...SINGLES.map((m) => ({ name: m, mutations: [m], kind: 'single' as const })),
  { name: 'v2 (all but removal)', mutations: V2, kind: 'combination' },
  { name: 'renamed-ids+decoy-siblings', mutations: ['renamed-ids', 'decoy-siblings'], kind: 'combination' },
  {
    name: 'layout-shift+reworded-labels+extra-wrappers',
    mutations: ['layout-shift', 'reworded-labels', 'extra-wrappers'],
    kind: 'combination',
  },
  { name: 'removal', mutations: ['removal'], kind: 'removal' },
]

const CONTEXT_OPTIONS = {
  viewport: { width: 1280, height: 720 },
  deviceScaleFactor: 1,
  bypassCSP: true,
  reducedMotion: 'reduce' as const,
  colorScheme: 'light' as const,
  locale: 'ko-KR',
  timezoneId: 'UTC',
}

/**
 * The state a target needs before its step, put in place by the harness inside the page (so `replayWebCase`
 * can be used unchanged: it navigates to the start URL and the page sets itself up on load). `detail` clicks
 * the first card with a synthetic (untrusted) click, `modal` un-hides the dialog; the same on every variant,
 * including `removal` where the create button is gone.
 */
function pageSetup(setup: Setup): string {
  // A string, not a function: tsx adds `__name(...)` helpers to functions, which do not exist in the page.
  return `(() => {
  const setup = ${JSON.stringify(setup)};
  if (!setup || window !== window.top || location.pathname !== '/list') return;
  const run = () => {
    if (setup === 'modal') {
      const dialog = document.querySelector('[role=dialog]');
      const backdrop = document.querySelector('[data-role=backdrop]');
      if (dialog) dialog.hidden = false;
      if (backdrop) backdrop.hidden = false;
    } else if (setup === 'detail') {
      const card = document.querySelector('[data-role=grid] [aria-pressed]');
      if (card) card.click();
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
})()`
}

const setupOf = (t: SampleTarget): Setup =>
  t.truth.startsWith('modal.') ? 'modal' : t.truth === 'list.detail.close' ? 'detail' : null
const startPathOf = (t: SampleTarget): string => (t.page === '/frame-inner' ? '/frame' : t.page)

interface Recorded {
  target: SampleTarget
  testCase: TestCase
  action: Action
  caseDir: string
  setup: Setup
}

async function newPage(browser: Browser, setup: Setup): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(CONTEXT_OPTIONS)
  await context.addInitScript(pageSetup(setup))
  const page = await context.newPage()
  return { context, page }
}

/** Signs the context in (a session cookie), so the pages show the header nav; again after a logout step. */
async function login(context: BrowserContext, app: SampleApp): Promise<void> {
  const res = await context.request.post(`${app.url}/login`, {
    form: { username: 'qa', password: 'bench' },
    maxRedirects: 0,
  })
  if (res.status() !== 303) throw new Error(`login failed: HTTP ${res.status()}`)
}

const isTrustedClick = (e: TruthEvent) => e.type === 'click' && e.trusted

async function record(browser: Browser, app: SampleApp, target: SampleTarget, dir: string): Promise<Recorded> {
  const setup = setupOf(target)
  const { context, page } = await newPage(browser, setup)
  try {
    await login(context, app)
    const caseFile = join(dir, `${target.truth}.json`)
    const recorder = await createWebRecorder(page, { caseFile, name: `click ${target.truth}` })
    await recorder.start(`${app.url}${startPathOf(target)}`)
    const scope: Page | FrameLocator = target.page === '/frame-inner' ? page.frameLocator('iframe') : page
    const box = await scope
      .getByRole(target.role as Parameters<Page['getByRole']>[0], { name: target.name, exact: true })
      .boundingBox({ timeout: 5_000 })
    if (!box) throw new Error(`${target.truth}: no box on v1`)
    app.clearEvents()
    const action = await recorder.click(box.x + box.width / 2, box.y + box.height / 2)
    const hit = await app.waitForEvent(isTrustedClick, { timeoutMs: 3_000 })
    if (hit.truth !== target.truth)
      throw new Error(`${target.truth}: the recording click landed on ${hit.truth} (harness bug)`)
    await recorder.save({ overwrite: true })
    return { target, testCase: recorder.testCase(), action, caseDir: dir, setup }
  } finally {
    await context.close()
  }
}

interface Run {
  clicked: boolean
  /** What the approach says it did (strategy, or the error). */
  how: string
}

const ACTION_TIMEOUT_MS = 2_000

function scopeOf(page: Page, action: Action): Page | FrameLocator {
  return (action.identity?.framePath ?? []).reduce<Page | FrameLocator>((s, sel) => s.frameLocator(sel), page)
}

async function clickFirst(locator: Locator): Promise<boolean> {
  try {
    await locator.first().click({ timeout: ACTION_TIMEOUT_MS })
    return true
  } catch {
    return false
  }
}

async function runApproach(approach: Approach, rec: Recorded, page: Page): Promise<Run> {
  const { action } = rec
  if (approach === 'ours') {
    const out = await replayWebCase(rec.testCase, {
      page,
      caseDir: rec.caseDir,
      verify: false,
      env: {},
      actionTimeoutMs: ACTION_TIMEOUT_MS,
    })
    const r = out.replayResults.at(-1)
    if (!r) return { clicked: false, how: 'no result' }
    const matched = r.strategiesTried?.find((a) => a.outcome === 'matched')
    const tried = (r.strategiesTried ?? [])
      .filter((a) => a.outcome !== 'skipped' && a.outcome !== 'none')
      .map((a) => `${a.strategy} ${a.outcome}${a.detail ? `: ${a.detail}` : ''}`)
      .join('; ')
    const how = r.success
      ? `${r.method}${matched?.detail ? ` (${matched.detail})` : ''}`
      : `not found (${tried || r.errorMessage.slice(0, 200)})`
    return { clicked: r.success, how }
  }
  // The sample app is complete at `load` (inline scripts, no fetches before input; the harness setup runs at
  // DOMContentLoaded), so the baselines act right then; ours also waits for its DOM-quiet settle.
  await page.goto(rec.testCase.startUrl as string, { waitUntil: 'load' })
  const scope = scopeOf(page, action)
  if (approach === 'coords') {
    await page.mouse.click(action.x, action.y)
    return { clicked: true, how: 'coordinates' }
  }
  if (approach === 'selenium') {
    const chain: string[] = []
    if (action.identity?.id) chain.push(`#${CSS.escape(action.identity.id)}`)
    if (action.selectors?.css) chain.push(action.selectors.css)
    if (action.selectors?.xpath) chain.push(`xpath=${action.selectors.xpath}`)
    for (const selector of chain) {
      const locator = scope.locator(selector)
      if ((await locator.count()) === 0) continue
      const clicked = await clickFirst(locator)
      return { clicked, how: `${selector}${clicked ? '' : ' (not interactable)'}` }
    }
    return { clicked: false, how: 'no selector matched' }
  }
  const role = action.identity?.axRole
  const name = action.identity?.axName
  if (!role || !name) return { clicked: false, how: 'no role/name recorded' }
  const locator = scope.getByRole(role as Parameters<Page['getByRole']>[0], { name, exact: true })
  const n = await locator.count()
  if (n !== 1) return { clicked: false, how: n === 0 ? 'not found' : `${n} matches (strict)` }
  return { clicked: await clickFirst(locator), how: 'role+name' }
}

/** CSS.escape for Node (ids of the sample app are plain, but keep the chain honest for any id). */
const CSS = {
  escape: (v: string) => v.replace(/([^a-zA-Z0-9_-])/g, '\\$1').replace(/^(\d)/, '\\3$1 '),
}

interface Row {
  variant: string
  kind: Variant['kind']
  target: string
  approach: Approach
  outcome: Outcome
  /** The right outcome for this step: the target clicked, or nothing on removal. */
  right: boolean
  hitTruth: string | null
  how: string
  ms: number
}

/**
 * One long-lived page per setup kind: every replay navigates it to the step's start URL, so each replay gets
 * a fresh document (all the state these pages have; the sample app keeps no server state these clicks
 * change). A fresh context + page per replay cost 0.3-0.8 s more per replay on the shared 2-core machine.
 */
type Pages = Map<Setup, { context: BrowserContext; page: Page }>

async function pageFor(pages: Pages, browser: Browser, setup: Setup): Promise<Page> {
  let entry = pages.get(setup)
  if (!entry || entry.page.isClosed()) {
    entry = await newPage(browser, setup)
    pages.set(setup, entry)
  }
  return entry.page
}

/** The setup's page on about:blank, after whatever the previous replay's click started (a logout navigates). */
async function resetPage(pages: Pages, browser: Browser, setup: Setup): Promise<Page> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const page = await pageFor(pages, browser, setup)
    try {
      await page.goto('about:blank', { waitUntil: 'load', timeout: 5_000 })
      return page
    } catch {
      await page.waitForTimeout(200).catch(() => undefined)
      if (attempt === 1)
        await page
          .context()
          .close()
          .catch(() => undefined) // start over with a new context
    }
  }
  throw new Error('could not reset the replay page')
}

async function replayOne(
  pages: Pages,
  browser: Browser,
  app: SampleApp,
  rec: Recorded,
  variant: Variant,
  approach: Approach,
): Promise<Row> {
  const t0 = performance.now()
  const page = await resetPage(pages, browser, rec.setup)
  await login(page.context(), app)
  // The variant travels in the sample app's `qa_variant` cookie of this context (workers run different
  // variants at once); the app labels every ground-truth event with the variant it rendered.
  await page
    .context()
    .addCookies([
      { name: variantCookie, value: encodeURIComponent(serializeMutationList(variant.mutations)), url: app.url },
    ])
  const label = variantLabel(variant.mutations)
  const mark = app.events().at(-1)?.index ?? -1
  const mine = (e: TruthEvent) => isTrustedClick(e) && e.index > mark && e.variant === label
  let hit: TruthEvent | null = null
  const run: Run = await runApproach(approach, rec, page).catch((e: Error) => ({
    clicked: false,
    how: `error: ${String(e.message).split('\n')[0]}`,
  }))
  if (run.clicked) hit = await app.waitForEvent(mine, { timeoutMs: 2_000 }).catch(() => null)
  else {
    await page.waitForTimeout(50)
    hit = app.events().find(mine) ?? null
  }
  const outcome: Outcome = !hit ? 'nothing' : hit.truth === rec.target.truth ? 'correct' : 'wrong'
  const right = variant.kind === 'removal' ? outcome === 'nothing' : outcome === 'correct'
  return {
    variant: variant.name,
    kind: variant.kind,
    target: rec.target.truth,
    approach,
    outcome,
    right,
    hitTruth: hit?.truth ?? null,
    how: run.how,
    ms: performance.now() - t0,
  }
}

const pct = (n: number, d: number) => (d === 0 ? '   -' : `${Math.round((100 * n) / d)}`.padStart(4))

function printTable(rows: Row[], variants: Variant[]) {
  const head = ['variant'.padEnd(44), 'n'.padStart(3), ...APPROACHES.map((a) => `${a} ✓/✗/∅`.padStart(18))]
  console.log(`\n${head.join(' ')}`)
  console.log('-'.repeat(head.join(' ').length))
  const line = (label: string, subset: Row[]) => {
    const n = subset.filter((r) => r.approach === 'ours').length
    const cells = APPROACHES.map((a) => {
      const rs = subset.filter((r) => r.approach === a)
      const right = rs.filter((r) => r.right).length
      const wrong = rs.filter((r) => r.outcome === 'wrong' || (!r.right && r.outcome === 'correct')).length
      const nothing = rs.filter((r) => r.outcome === 'nothing' && !r.right).length
      return `${pct(right, rs.length)}/${pct(wrong, rs.length)}/${pct(nothing, rs.length)}`.padStart(18)
    })
    console.log([label.padEnd(44), String(n).padStart(3), ...cells].join(' '))
  }
  for (const v of variants)
    line(
      v.name,
      rows.filter((r) => r.variant === v.name),
    )
  console.log('-'.repeat(head.join(' ').length))
  line(
    'total single mutations',
    rows.filter((r) => r.kind === 'single'),
  )
  line(
    'total combinations',
    rows.filter((r) => r.kind === 'combination'),
  )
  line(
    'total removal',
    rows.filter((r) => r.kind === 'removal'),
  )
  line('total', rows)
  console.log(
    '✓ = % right (the target received the click; on removal: nothing was clicked), ✗ = % wrong (another element, empty space, or on removal any click), ∅ = % nothing clicked where the target existed.',
  )
}

function printGoals(rows: Row[], variants: Variant[]) {
  const rate = (v: string, a: Approach) => {
    const rs = rows.filter((r) => r.variant === v && r.approach === a)
    return rs.length ? rs.filter((r) => r.right).length / rs.length : Number.NaN
  }
  console.log('\nTargets (≥ 95 % per single mutation, ≥ 90 % for combinations, ahead of the best baseline):')
  for (const v of variants) {
    const ours = rate(v.name, 'ours')
    const goal = v.kind === 'single' ? 0.95 : v.kind === 'combination' ? 0.9 : 0.95
    const best = Math.max(...APPROACHES.filter((a) => a !== 'ours').map((a) => rate(v.name, a)))
    const met = ours >= goal
    const versus = ours > best ? 'beaten' : ours === best ? 'tied, not beaten' : 'NOT beaten'
    console.log(
      `  ${v.name.padEnd(44)} ours ${(100 * ours).toFixed(0).padStart(3)}% (goal ≥ ${goal * 100}%: ${met ? 'met' : 'NOT met'}), best baseline ${(100 * best).toFixed(0).padStart(3)}% (${versus})`,
    )
  }
}

async function main() {
  const t0 = performance.now()
  const only = opt('--only')?.split(',') ?? null
  const variantNames = opt('--variants')?.split(',') ?? null
  const variants = ALL_VARIANTS.filter(
    (v) => (!flag('--quick') || v.kind !== 'combination') && (!variantNames || variantNames.includes(v.name)),
  )
  const targets = sampleTargets.filter((t) => !t.decoy && (!only || only.includes(t.truth)))
  const dir = await mkdtemp(join(tmpdir(), 'qa-bench-healing-'))
  const app = await startSampleApp({ port: 0, version: 'v1', requireLogin: false })
  const session = await openBrowser()
  const browser = session.browser
  const rows: Row[] = []
  try {
    const recorded: Recorded[] = []
    for (const t of targets) recorded.push(await record(browser, app, t, dir))
    const tRec = performance.now()
    console.log(`Recorded ${recorded.length} click steps on v1 in ${((tRec - t0) / 1000).toFixed(1)} s.`)

    // Workers take whole variants (events are told apart by the variant label they carry).
    const queue = [...variants]
    const worker = async () => {
      const pages: Pages = new Map()
      try {
        for (let v = queue.shift(); v; v = queue.shift()) {
          const steps = v.kind === 'removal' ? recorded.filter((r) => r.target.removedBy === 'removal') : recorded
          for (const rec of steps) {
            for (const a of APPROACHES) {
              const row = await replayOne(pages, browser, app, rec, v, a)
              rows.push(row)
              if (flag('--verbose'))
                console.log(
                  `${v.name} ${rec.target.truth} ${a}: ${row.outcome}${row.hitTruth && row.outcome !== 'correct' ? ` (${row.hitTruth})` : ''} — ${row.how} [${row.ms.toFixed(0)} ms]`,
                )
            }
          }
        }
      } finally {
        for (const { context } of pages.values()) await context.close().catch(() => undefined)
      }
    }
    await Promise.all(Array.from({ length: WORKERS }, worker))
    printTable(rows, variants)
    printGoals(rows, variants)

    const order = (r: Row) =>
      variants.findIndex((v) => v.name === r.variant) * 1000 + targets.findIndex((t) => t.truth === r.target)
    const bad = rows.filter((r) => r.approach === 'ours' && !r.right).sort((a, b) => order(a) - order(b))
    console.log(`\nOurs, steps not right (${bad.length}; wrong ones name the strategy that chose the element):`)
    for (const r of bad)
      console.log(
        `  ${r.variant} · ${r.target}: ${r.outcome}${r.hitTruth ? ` → clicked ${r.hitTruth}` : ''} via ${r.how}`,
      )
    const ms = (a: Approach) => {
      const xs = rows.filter((r) => r.approach === a).map((r) => r.ms)
      return xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length)
    }
    console.log(
      `\nMean ms per replay (page reset, login and judging incl.): ${APPROACHES.map((a) => `${a} ${ms(a).toFixed(0)}`).join(', ')}`,
    )
    console.log(`Total ${rows.length} replays in ${((performance.now() - t0) / 1000).toFixed(1)} s.`)
    const jsonOut = opt('--json')
    if (jsonOut) {
      const { writeFile } = await import('node:fs/promises')
      await writeFile(jsonOut, JSON.stringify(rows, null, 2))
    }
  } finally {
    await session.close()
    await app.close()
    await rm(dir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
