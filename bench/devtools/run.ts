/**
 * DevTools Recorder parity bench: recordings imported from Chrome DevTools Recorder replay as DevTools replays them. Run from the repo root after `pnpm build`:
 *   node --import tsx bench/devtools/run.ts [--only id,id] [--json rows.json] [--keep] [--no-variants] [--no-round-trip]
 *
 * Real Chrome DevTools Recorder exports from public repositories (`sources.json`: repository, commit, path, licence;
 * read at bench time, never copied here), each pointed at a local page carrying what its selectors name, replayed
 * side by side by the reference (`@puppeteer/replay`'s own runner on puppeteer-core and Debian's Chromium) and by qa
 * as a user types it (`qa import devtools rec.json --out case.json`, `qa replay case.json --json`), selectors
 * unchanged. Judged per step by which element received the step's event, from listeners in a closure of the page
 * (a WeakMap from element to truth id, invisible to both runners): same element, different element, qa failed,
 * reference failed. Then:
 *   - assertion variants: the page without the element a `waitForElement` asserts, or with the link a click was
 *     recorded navigating by made inert: both runners must fail;
 *   - round trip: `qa export devtools` of each imported case must pass the reference's `parse()` and, replayed by
 *     the reference on the same page, hit the same element at every step as the reference's run of the original.
 *
 * The pages: for every URL a recording visits, one page built in the browser from the recording's own selectors
 * (`page-builder.ts`): each step's element is created along the first plain-CSS selector path (ids, classes,
 * attributes, `:nth-child`/`:nth-of-type` siblings, shadow roots for selector arrays), named as its `aria/` and
 * `text/` selectors name it (aria-label, role, text) and carrying the id an `//*[@id=…]` XPath names; a click
 * recorded causing a navigation is a link to the next URL; a `change` is a field (a `<select>` with that option
 * when the selector names one).
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argv } from 'node:process'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { buildPagesScript, type PageSpec, pagesOf, type RecordingPlan } from './page-builder'

const run = promisify(execFile)
const flag = (name: string) => argv.includes(name)
const opt = (name: string): string | null => {
  const i = argv.indexOf(name)
  return i >= 0 ? (argv[i + 1] ?? null) : null
}
const ROOT = resolve(new URL('../..', import.meta.url).pathname)
const CLI = join(ROOT, 'apps/cli/bin/qa.js')
const CHROMIUM = process.env.QA_CHROMIUM ?? '/usr/bin/chromium'
const MIRROR = process.env.QA_DEVTOOLS_MIRROR ?? '/work/.mirror'
const STEP_TIMEOUT_MS = 4000

// @puppeteer/replay and puppeteer-core are pinned devDependencies of @qa/cli (the devtools-parity e2e test uses them)
const cliRequire = createRequire(join(ROOT, 'apps/cli/package.json'))
const replayMod = (await import(
  pathToFileURL(cliRequire.resolve('@puppeteer/replay')).href
)) as typeof import('@puppeteer/replay')
const puppeteer = (
  (await import(pathToFileURL(cliRequire.resolve('puppeteer-core')).href)) as {
    default: typeof import('puppeteer-core').default
  }
).default

interface Source {
  id: string
  repo: string
  commit: string
  path: string
  license: string
  pick?: string
  /** A copy kept in this folder (the repository is too large to fetch here), under its licence. */
  file?: string
}

// ---------------------------------------------------------------------------------------------------------
// Loading the exports

/** A recording from its repository at the commit: a local mirror (`git show`), else raw.githubusercontent.com. */
async function loadSource(s: Source): Promise<unknown> {
  let text: string | null = s.file ? await readFile(join(ROOT, 'bench/devtools', s.file), 'utf8') : null
  const mirror = join(MIRROR, s.repo.replace('/', '+'), 'repo')
  if (text === null && existsSync(mirror)) {
    text = await run('git', ['--git-dir', mirror, 'show', `${s.commit}:${s.path}`], { maxBuffer: 1 << 24 })
      .then((r) => r.stdout)
      .catch(() => null)
  }
  if (text === null && existsSync(mirror)) {
    text = null
  }
  if (text === null) {
    const res = await fetch(`https://raw.githubusercontent.com/${s.repo}/${s.commit}/${s.path}`).catch(() => null)
    if (res?.ok) text = await res.text()
  }
  if (text === null) throw new Error(`${s.repo}/${s.path} could not be read (no mirror, no network)`)
  // the DevTools e2e fixtures name their test server's port `<test-port>`: no port (the bench serves its own)
  text = text.replaceAll(':<test-port>', '')
  if (!s.pick) return JSON.parse(text)
  if (s.path.endsWith('.py')) return pythonDict(text, s.pick)
  const all = JSON.parse(text) as Record<string, unknown>
  if (!(s.pick in all)) throw new Error(`no ${s.pick} in the file`)
  return all[s.pick]
}

/** `name = { … }` in a Python file → the dict as JSON (True/False/None, trailing commas). */
function pythonDict(text: string, name: string): unknown {
  const start = text.indexOf(`${name} = {`)
  if (start < 0) throw new Error(`no ${name} in the file`)
  let depth = 0
  let i = text.indexOf('{', start)
  const from = i
  let quote = ''
  for (; i < text.length; i++) {
    const c = text[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = ''
      continue
    }
    if (c === '"' || c === "'") quote = c
    else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') {
      depth--
      if (depth === 0) break
    }
  }
  const body = text
    .slice(from, i + 1)
    .replace(/\bTrue\b/g, 'true')
    .replace(/\bFalse\b/g, 'false')
    .replace(/\bNone\b/g, 'null')
    .replace(/,(\s*[}\]])/g, '$1')
  return JSON.parse(body)
}

// ---------------------------------------------------------------------------------------------------------
// Serving the pages, with the truth log

interface Site {
  origin: string
  events: string[]
  server: Server
}

async function serve(pages: Map<string, PageSpec>, script: string): Promise<Site> {
  const site = { origin: '', events: [] as string[] } as Site
  site.server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/__truth') {
      let body = ''
      req.on('data', (d) => {
        body += d
      })
      req.on('end', () => {
        site.events.push(body)
        res.end('ok')
      })
      return
    }
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]?.split('#')[0] ?? '/')
    const page = pages.get(path)
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/html' })
      res.end('<!doctype html><title>404</title><p>not found')
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title><style>body{font:14px sans-serif;margin:8px}*{box-sizing:border-box}</style></head><body><script>${script}\nbuildPage(${JSON.stringify(page).replaceAll('{{origin}}', site.origin)})</script></body></html>`,
    )
  })
  await new Promise<void>((r) => site.server.listen(0, '127.0.0.1', r))
  site.origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`
  return site
}

const escapeHtml = (s: string) => s.replace(/[<&"]/g, (c) => `&#${c.charCodeAt(0)};`)
const close = (site: Site) => new Promise((r) => site.server.close(r))

// ---------------------------------------------------------------------------------------------------------
// The two runners

interface RunOutcome {
  /** Steps the runner completed (reference) / per element step: failed (qa). */
  failedAt: number | null
  failure: string | null
  events: string[]
}

type Browser = Awaited<ReturnType<typeof puppeteer.launch>>

async function runReference(browser: Browser, flow: unknown, site: Site, start: string | null): Promise<RunOutcome> {
  site.events = []
  const parsed = replayMod.parse(flow)
  const context = await browser.createBrowserContext()
  const page = await context.newPage()
  // a recording with no navigate first runs on the page the user opened: the start page
  if (start) await page.goto(`${site.origin}${start}`)
  let done = 0
  class Counting extends replayMod.PuppeteerRunnerExtension {
    override async afterEachStep(step: import('@puppeteer/replay').Step, f?: import('@puppeteer/replay').UserFlow) {
      await super.afterEachStep?.(step, f)
      done++
    }
  }
  let failure: string | null = null
  try {
    const runner = await replayMod.createRunner(
      parsed,
      new Counting(context.browser(), page, { timeout: STEP_TIMEOUT_MS }),
    )
    await runner.run()
  } catch (e) {
    failure = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? 'failed'
  } finally {
    await new Promise((r) => setTimeout(r, 150))
    await context.close().catch(() => undefined)
  }
  return { failedAt: failure === null ? null : done, failure, events: [...site.events] }
}

interface OursOutcome {
  importCode: number
  replayCode: number
  /** Per action of the case: its verdict and reason. */
  verdicts: { action_index: number; final_result: string; reason?: string }[]
  actions: { actionType: string }[]
  events: string[]
  caseFile: string
  stderr: string
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [CLI, ...args], { maxBuffer: 1 << 26, env: { ...process.env, NO_COLOR: '1' } })
    .then((r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }))
    .catch((e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof e.code === 'number' ? e.code : 99,
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? '',
    }))
}

async function runOurs(
  flow: unknown,
  site: Site,
  dir: string,
  name: string,
  start: string | null,
): Promise<OursOutcome> {
  const rec = join(dir, `${name}.json`)
  const caseFile = join(dir, `${name}.case.json`)
  await writeFile(rec, JSON.stringify(flow, null, 2))
  const imported = await cli(['import', 'devtools', rec, '--out', caseFile, '--force'])
  if (imported.code !== 0)
    return {
      importCode: imported.code,
      replayCode: -1,
      verdicts: [],
      actions: [],
      events: [],
      caseFile,
      stderr: imported.stderr,
    }
  site.events = []
  const replay = await cli([
    'replay',
    caseFile,
    '--json',
    '--report-dir',
    join(dir, `${name}-report`),
    '--timeout',
    String(STEP_TIMEOUT_MS),
    ...(start ? ['--url', `${site.origin}${start}`] : []),
  ])
  await new Promise((r) => setTimeout(r, 150))
  const tc = JSON.parse(await readFile(caseFile, 'utf8')) as { actions: { action_type: string }[] }
  let verdicts: OursOutcome['verdicts'] = []
  try {
    verdicts = (JSON.parse(replay.stdout) as { verification_results: OursOutcome['verdicts'] }).verification_results
  } catch {
    verdicts = []
  }
  return {
    importCode: 0,
    replayCode: replay.code,
    verdicts,
    actions: tc.actions.map((a) => ({ actionType: a.action_type })),
    events: [...site.events],
    caseFile,
    stderr: replay.stderr,
  }
}

// ---------------------------------------------------------------------------------------------------------
// Judging

const ELEMENT_STEP = new Set(['click', 'doubleClick', 'hover', 'change'])
const ELEMENT_ACTION = new Set(['click', 'double_click', 'right_click', 'hover', 'type', 'select'])

/** The event a step's element receives first: what tells which element got the step. */
function eventOf(step: Record<string, unknown>): string {
  if (step.type === 'doubleClick') return 'dblclick'
  if (step.type === 'hover') return 'mouseover'
  if (step.type === 'change') return 'input'
  return 'mousedown'
}

/**
 * Per element step, in order, the truth id of the element that received its event (null: none), reading the log
 * from a cursor: each step takes the first event of its kind after the previous step's, and a `change` also the
 * typing that follows it in the same element.
 */
function hits(steps: Record<string, unknown>[], events: string[], upTo: number): (string | null)[] {
  const out: (string | null)[] = []
  let cursor = 0
  for (const [k, step] of steps.entries()) {
    if (k >= upTo) {
      out.push(null)
      continue
    }
    const want = eventOf(step)
    let found: string | null = null
    for (let i = cursor; i < events.length; i++) {
      const [type, target] = (events[i] as string).split(' ')
      if (type !== want) continue
      found = target ?? null
      cursor = i + 1
      if (want === 'input')
        while (cursor < events.length && /^(input|keydown|keyup|change) /.test(events[cursor] as string)) cursor++
      break
    }
    out.push(found)
  }
  return out
}

type Verdict = 'same element' | 'different element' | 'qa failed' | 'reference failed' | 'both failed'

interface StepRow {
  recording: string
  step: number
  type: string
  reference: string | null
  ours: string | null
  oursVerdict: string
  verdict: Verdict
  /** qa reported this step passing (or warning) while its element got nothing or another element. */
  wrongPass: boolean
  reason?: string
}

// ---------------------------------------------------------------------------------------------------------

interface RecordingRow {
  id: string
  repo: string
  steps: number
  referencePassed: boolean
  referenceFailure: string | null
  oursPassed: boolean
  importOk: boolean
  rows: StepRow[]
  /** qa's failing verdicts (action and reason), for the log. */
  oursFailures: string[]
  variants: { name: string; referenceFailed: boolean; oursFailed: boolean }[]
  roundTrip: { parsed: boolean; sameHits: boolean | null; note?: string } | null
}

async function main() {
  const only = opt('--only')?.split(',') ?? null
  const sources = (
    JSON.parse(await readFile(join(ROOT, 'bench/devtools/sources.json'), 'utf8')) as { sources: Source[] }
  ).sources.filter((s) => !only || only.some((o) => s.id.includes(o)))
  const dir = await mkdtemp(join(tmpdir(), 'qa-devtools-bench-'))
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
  const script = buildPagesScript()
  const results: RecordingRow[] = []
  try {
    for (const source of sources) {
      let raw: unknown
      try {
        raw = await loadSource(source)
      } catch (e) {
        console.log(`${source.id}: skipped (${(e as Error).message})`)
        continue
      }
      // DevTools' own e2e snapshots store clicks without their offsets (they vary); the reference's parse() needs
      // them: 1, 1 inside the element, as Puppeteer's stringified scripts of those fixtures use
      for (const step of (raw as { steps?: Record<string, unknown>[] }).steps ?? [])
        if ((step.type === 'click' || step.type === 'doubleClick') && step.offsetX === undefined) {
          step.offsetX = 1
          step.offsetY = 1
        }
      const plan: RecordingPlan = pagesOf(raw)
      try {
        const row = await benchRecording(source, plan, browser, script, dir)
        results.push(row)
        printRecording(row)
      } catch (e) {
        console.log(`${source.id}: the bench failed on it: ${(e as Error).message.split('\n')[0]}`)
      }
    }
  } finally {
    await browser.close()
  }
  printSummary(results)
  const jsonOut = opt('--json')
  if (jsonOut) await writeFile(jsonOut, JSON.stringify(results, null, 2))
  if (!flag('--keep')) await rm(dir, { recursive: true, force: true })
  else console.log(`kept: ${dir}`)
}

async function benchRecording(
  source: Source,
  plan: RecordingPlan,
  browser: Browser,
  script: string,
  dir: string,
): Promise<RecordingRow> {
  const steps = plan.steps
  const elementSteps = steps.filter((s) => ELEMENT_STEP.has(String(s.type)))
  const [refSite, ourSite] = [await serve(plan.pages, script), await serve(plan.pages, script)]
  try {
    const ref = await runReference(browser, plan.flowAt(refSite.origin), refSite, plan.startPath)
    plan.lastOrigin = ourSite.origin
    const ours = await runOurs(plan.flowAt(ourSite.origin), ourSite, dir, source.id, plan.startPath)
    // the element steps the reference completed
    const refIndexOfStep = steps.map((s, i) => ({ s, i })).filter(({ s }) => ELEMENT_STEP.has(String(s.type)))
    const refDone = ref.failedAt === null ? Number.POSITIVE_INFINITY : ref.failedAt
    const refUpTo = refIndexOfStep.filter(({ i }) => i < refDone).length
    const refHits = hits(elementSteps, ref.events, refUpTo)
    // ours: the k-th element action is the k-th element step (the import keeps their order one to one)
    const actionIdx = ours.actions.map((a, i) => ({ a, i })).filter(({ a }) => ELEMENT_ACTION.has(a.actionType))
    const verdictOf = (k: number) => {
      const i = actionIdx[k]?.i
      return i === undefined ? undefined : ours.verdicts.find((v) => v.action_index === i)
    }
    const firstFailed = elementSteps.findIndex((_s, k) => verdictOf(k)?.final_result === 'fail')
    const ourHits = hits(elementSteps, ours.events, Number.POSITIVE_INFINITY)
    const rows: StepRow[] = elementSteps.map((s, k) => {
      const v = verdictOf(k)
      const refRan = k < refUpTo
      const oursFailed = !v || v.final_result === 'fail'
      const reference = refRan ? (refHits[k] ?? null) : null
      const oursHit = oursFailed ? null : (ourHits[k] ?? null)
      let verdict: Verdict
      if (!refRan) verdict = oursFailed ? 'both failed' : 'reference failed'
      else if (oursFailed) verdict = 'qa failed'
      else verdict = reference === oursHit ? 'same element' : 'different element'
      const wrongPass = !oursFailed && refRan && reference !== null && oursHit !== reference
      return {
        recording: source.id,
        step: steps.indexOf(s),
        type: String(s.type),
        reference,
        ours: ourHits[k] ?? null,
        oursVerdict: v?.final_result ?? 'missing',
        verdict,
        wrongPass,
        ...(oursFailed && v?.reason ? { reason: v.reason.slice(0, 200) } : {}),
      }
    })
    void firstFailed
    const row: RecordingRow = {
      id: source.id,
      repo: source.repo,
      steps: steps.length,
      referencePassed: ref.failure === null,
      referenceFailure: ref.failure,
      oursPassed: ours.replayCode === 0,
      importOk: ours.importCode === 0,
      rows,
      oursFailures: [
        ...(ours.importCode !== 0 ? [`import failed: ${ours.stderr.split('\n')[0]}`] : []),
        ...(ours.replayCode !== 0 && ours.verdicts.length === 0
          ? [`replay exit ${ours.replayCode}: ${ours.stderr.split('\n').slice(-3).join(' ')}`]
          : []),
        ...ours.verdicts
          .filter((v) => v.final_result === 'fail')
          .map(
            (v) =>
              `action ${v.action_index} (${ours.actions[v.action_index]?.actionType}): ${(v.reason ?? '').slice(0, 220)}`,
          ),
      ],
      variants: [],
      roundTrip: null,
    }
    if (!flag('--no-round-trip') && ours.importCode === 0)
      row.roundTrip = await roundTrip(source, plan, ours.caseFile, browser, script, dir, refHits, elementSteps.length)
    if (!flag('--no-variants'))
      for (const variant of plan.variants()) {
        const [a, b] = [await serve(variant.pages, script), await serve(variant.pages, script)]
        try {
          const vr = await runReference(browser, variant.flowAt(a.origin), a, plan.startPath)
          const vo = await runOurs(variant.flowAt(b.origin), b, dir, `${source.id}-${variant.name}`, plan.startPath)
          row.variants.push({
            name: variant.name,
            referenceFailed: vr.failure !== null,
            oursFailed: vo.replayCode !== 0,
          })
        } finally {
          await close(a)
          await close(b)
        }
      }
    return row
  } finally {
    await close(refSite)
    await close(ourSite)
  }
}

/** `qa export devtools` of the imported case: the reference's parse() takes it and hits the same elements. */
async function roundTrip(
  source: Source,
  plan: RecordingPlan,
  caseFile: string,
  browser: Browser,
  script: string,
  dir: string,
  refHits: (string | null)[],
  count: number,
): Promise<RecordingRow['roundTrip']> {
  const out = join(dir, `${source.id}.exported.json`)
  const exported = await cli(['export', 'devtools', caseFile, '--out', out, '--force'])
  if (exported.code !== 0) return { parsed: false, sameHits: null, note: exported.stderr.split('\n')[0] }
  const flow = JSON.parse(await readFile(out, 'utf8'))
  try {
    replayMod.parse(flow)
  } catch (e) {
    return { parsed: false, sameHits: null, note: (e as Error).message.split('\n')[0] }
  }
  const site = await serve(plan.pages, script)
  try {
    // the export names the origin of the case (the ours site's); the same pages are served here
    const text = JSON.stringify(flow).replaceAll(plan.lastOrigin ?? '\u0000', site.origin)
    const again = await runReference(browser, JSON.parse(text), site, plan.startPath)
    const exportedSteps = (JSON.parse(text) as { steps: Record<string, unknown>[] }).steps.filter((s) =>
      ELEMENT_STEP.has(String(s.type)),
    )
    const upTo = again.failure === null ? Number.POSITIVE_INFINITY : exportedSteps.length
    const h = hits(exportedSteps, again.events, upTo)
    const sameHits = exportedSteps.length === count && h.every((x, i) => x === refHits[i])
    return {
      parsed: true,
      sameHits,
      ...(again.failure ? { note: `reference on the export: ${again.failure}` } : {}),
    }
  } finally {
    await close(site)
  }
}

function printRecording(r: RecordingRow) {
  const counts = tally(r.rows)
  console.log(
    `${r.id.padEnd(34)} ${String(r.rows.length).padStart(3)} el.steps  ref ${r.referencePassed ? 'pass' : 'FAIL'}  qa ${r.oursPassed ? 'pass' : 'FAIL'}  same ${counts['same element']} diff ${counts['different element']} qa-failed ${counts['qa failed']} ref-failed ${counts['reference failed']} both-failed ${counts['both failed']}  wrong-pass ${r.rows.filter((x) => x.wrongPass).length}  variants ${r.variants.map((v) => `${v.name}:${v.referenceFailed ? 'ref-fail' : 'REF-PASS'}/${v.oursFailed ? 'qa-fail' : 'QA-PASS'}`).join(' ') || '-'}  round-trip ${r.roundTrip ? `${r.roundTrip.parsed ? 'parse ok' : 'PARSE FAIL'}${r.roundTrip.sameHits === null ? '' : r.roundTrip.sameHits ? ', same hits' : ', OTHER HITS'}` : '-'}`,
  )
  if (r.referenceFailure) console.log(`    reference: ${r.referenceFailure}`)
  for (const x of r.rows)
    if (x.verdict !== 'same element')
      console.log(
        `    step ${x.step} ${x.type}: ${x.verdict} (ref ${x.reference}, qa ${x.ours} ${x.oursVerdict}) ${x.reason ?? ''}`,
      )
  if (r.roundTrip?.note) console.log(`    round trip: ${r.roundTrip.note}`)
  for (const f of r.oursFailures) console.log(`    qa: ${f}`)
}

function tally(rows: StepRow[]): Record<Verdict, number> {
  const t: Record<Verdict, number> = {
    'same element': 0,
    'different element': 0,
    'qa failed': 0,
    'reference failed': 0,
    'both failed': 0,
  }
  for (const r of rows) t[r.verdict]++
  return t
}

function printSummary(results: RecordingRow[]) {
  const rows = results.flatMap((r) => r.rows)
  const t = tally(rows)
  const variants = results.flatMap((r) => r.variants)
  const rt = results.filter((r) => r.roundTrip)
  console.log('\nsummary')
  console.log(`  recordings: ${results.length} (${new Set(results.map((r) => r.repo)).size} repositories)`)
  console.log(
    `  reference passes ${results.filter((r) => r.referencePassed).length}, qa passes ${results.filter((r) => r.oursPassed).length}, both pass ${results.filter((r) => r.referencePassed && r.oursPassed).length}, reference passes and qa fails ${results.filter((r) => r.referencePassed && !r.oursPassed).length}`,
  )
  console.log(
    `  element steps: ${rows.length}: same element ${t['same element']}, different element ${t['different element']}, qa failed ${t['qa failed']}, reference failed ${t['reference failed']} (qa ran them), both failed ${t['both failed']}; wrong element reported as pass/warning ${rows.filter((r) => r.wrongPass).length}`,
  )
  console.log(
    `  assertion variants: ${variants.length}; both fail ${variants.filter((v) => v.referenceFailed && v.oursFailed).length}, reference passes ${variants.filter((v) => !v.referenceFailed).length}, qa passes ${variants.filter((v) => !v.oursFailed).length}`,
  )
  console.log(
    `  round trip: ${rt.length} exported; parse ok ${rt.filter((r) => r.roundTrip?.parsed).length}; same elements hit ${rt.filter((r) => r.roundTrip?.sameHits).length}`,
  )
}

await mkdir(tmpdir(), { recursive: true })
await main()
