/**
 * The speed bench (issues 6 and 34). Run from the repo root after `pnpm build`:
 *   node --import tsx bench/replay-overhead/run.ts
 * Options: --reps N (default 6), --steps N (per site, default 12; the sample app gets 30), --sites a,b (names
 * below; default all), --no-verify (skip the --verify pair), --json <file>.
 *
 * Every figure is a ratio to a baseline run side by side, in this process, in the same browser, on the same
 * pages, round-robin per repetition (after one warm-up round). Sites: v1 of `@qa/sample-app` and pages nobody
 * here wrote from `@qa/wild-corpus` (served offline, as bench/wild does). Per site, click steps on controls that
 * keep the page (buttons, tabs, checkboxes, radios, `#` links) are picked automatically: every candidate must be
 * clickable by plain Playwright from a fresh load, in sequence, without navigating. The steps are then recorded
 * with the real recorder (`createWebRecorder(...).click(x, y)`, as `qa record web --script` does).
 *
 *   plain         Playwright `getByRole(role, { name, exact: true }).click()` (as codegen writes it)
 *   ours          `replayWebCase(case, { verify: false })` (cascade, actionability, click, adaptive settle)
 *   plain+shot    the same Playwright clicks + `expect(page).toHaveScreenshot()` after every step (what the matcher
 *                 runs: `page._expectScreenshot` with animations disabled, caret hidden, css scale, the baseline
 *                 taken in a first pass; hideOverlays as the matcher does)
 *   ours --verify `replayWebCase(case, { verify: true, artifactDir, keepActual: 'always' })`, as `qa replay --verify`
 *                 calls it (screen before, region comparison, report images, acceptance evidence)
 *   recording     the recorder's cost per step (`recorder.click`, with screenshots) vs ours replaying it
 * Figure: median over repetitions of (time of the N steps / N); the page load before the first step is excluded
 * everywhere (ours: the sum of the per-step `durationMs`).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { argv } from 'node:process'
import { writeFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import type { Action, TestCase } from '@qa/model'
import { createWebRecorder, openBrowser, replayWebCase, settle } from '@qa/recorder-cdp'
import { startSampleApp } from '@qa/sample-app'
import { startCorpusServer } from '@qa/wild-corpus'

const opt = (name: string): string | null => {
  const i = argv.indexOf(name)
  return i >= 0 ? (argv[i + 1] ?? null) : null
}
const REPS = Number(opt('--reps') ?? 6)
const STEPS = Number(opt('--steps') ?? 12)
const ONLY = opt('--sites')?.split(',') ?? null
const VERIFY = !argv.includes('--no-verify')
const JSON_OUT = opt('--json')

const median = (xs: number[]) => {
  if (!xs.length) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
const load = () => loadavg()[0]!.toFixed(2)
/** A marker in the protocol log (`DEBUG=pw:protocol`): round trips are counted between markers. */
const mark = (what: string) => {
  if (process.env.DEBUG?.includes('pw:protocol')) process.stderr.write(`\nQA-BENCH-MARK ${what}\n`)
}

type Role = Parameters<Page['getByRole']>[0]
interface Pick {
  role: Role
  name: string
}
interface Site {
  name: string
  url: string
  /** Called before every fresh load (the sample app's login cookie). */
  before?: () => Promise<void>
  /** Picks (role, name) steps on the loaded page, or null: the sample app's are given. */
  picks?: Pick[]
  steps?: number
}

const WILD: { name: string; page: string }[] = [
  { name: 'stisla-buttons', page: 'stisla/bootstrap-buttons.html' },
  { name: 'stisla-tabs', page: 'stisla/components-tab.html' },
  { name: 'sneat-tabs', page: 'sneat/html/ui-tabs-pills.html' },
  { name: 'sneat-buttons', page: 'sneat/html/ui-buttons.html' },
  { name: 'gentelella-form', page: 'gentelella/dist/production/form.html' },
  { name: 'material-billing', page: 'material-dashboard/pages/billing.html' },
  { name: 'swagger-ui', page: 'swagger-ui/index.html' },
  { name: 'sneat-pagination', page: 'sneat/html/ui-pagination-breadcrumbs.html' },
  { name: 'gentelella-buttons', page: 'gentelella/dist/production/form_buttons.html' },
  { name: 'material-profile', page: 'material-dashboard/pages/profile.html' },
]

/** The sample app's 30 steps (list cards, the detail close button, nav links, settings controls). */
function samplePicks(n: number): (Pick | { card: number })[] {
  const out: (Pick | { card: number })[] = []
  const push = (p: Pick | { card: number }) => {
    if (out.length < n) out.push(p)
  }
  for (let i = 0; i < 8; i++) push({ card: i })
  push({ role: 'button', name: '닫기' })
  for (let i = 8; i < 11; i++) push({ card: i })
  push({ role: 'link', name: '설정' })
  push({ role: 'checkbox', name: '알림 받기' })
  push({ role: 'radio', name: '다크' })
  push({ role: 'radio', name: '라이트' })
  push({ role: 'checkbox', name: '알림 받기' })
  push({ role: 'button', name: '저장' })
  push({ role: 'link', name: '목록' })
  for (let i = 0; i < 6; i++) push({ card: (i * 3) % 11 })
  push({ role: 'button', name: '닫기' })
  push({ role: 'link', name: '설정' })
  push({ role: 'radio', name: '다크' })
  push({ role: 'radio', name: '라이트' })
  push({ role: 'button', name: '저장' })
  push({ role: 'link', name: '목록' })
  while (out.length < n) push({ card: out.length % 11 })
  return out
}

const ROLES: Role[] = ['tab', 'checkbox', 'radio', 'switch', 'button', 'link']

/** Candidates on the loaded page: visible controls of these roles whose role+name is unique on the page. */
async function candidates(page: Page): Promise<Pick[]> {
  const out: Pick[] = []
  for (const role of ROLES) {
    const all = await page.getByRole(role).all()
    for (const el of all.slice(0, 60)) {
      if (!(await el.isVisible().catch(() => false))) continue
      const snap = await el.ariaSnapshot({ timeout: 1000 }).catch(() => '')
      const m = /^- \w+ "([^"]{2,40})"/.exec(snap)
      if (!m?.[1]) continue
      if (role === 'link') {
        const href = await el.getAttribute('href', { timeout: 500 }).catch(() => null)
        if (href !== '#' && href !== 'javascript:void(0)' && href !== '' && href !== null) continue
      }
      const name = m[1]
      if (out.some((p) => p.role === role && p.name === name)) continue
      if ((await page.getByRole(role, { name, exact: true }).count()) !== 1) continue
      out.push({ role, name })
    }
  }
  return out
}

async function main() {
  const t0 = performance.now()
  console.log(`Load average at start: ${load()} (2 cores shared with other jobs)`)
  const dir = await mkdtemp(join(tmpdir(), 'qa-bench-speed-'))
  const app = await startSampleApp({ port: 0, version: 'v1', requireLogin: false })
  const corpus = await startCorpusServer()
  const session = await openBrowser()
  const { page, context } = session
  const login = async () => {
    await context.request.post(`${app.url}/login`, { form: { username: 'qa', password: 'bench' }, maxRedirects: 0 })
  }
  const sites: Site[] = [
    { name: 'sample-app', url: `${app.url}/list`, before: login, steps: Math.max(STEPS, 30) },
    ...WILD.map((w) => ({ name: w.name, url: corpus.pageUrl(w.page) })),
  ].filter((s) => !ONLY || ONLY.includes(s.name))
  const rows: Record<string, unknown>[] = []
  try {
    for (const site of sites) {
      try {
        await measureSite(site)
      } catch (e) {
        // a page whose picked steps could not be recorded or replayed by the baseline: said, and the run goes on
        console.log(`${site.name}: skipped (${(e instanceof Error ? e.message : String(e)).split('\n')[0]})`)
      }
    }
    async function measureSite(site: Site) {
      const fresh = async () => {
        await site.before?.()
        await page.goto(site.url, { waitUntil: 'load' })
        await settle(page)
      }
      const plainClick = (p: Pick, timeout?: number) =>
        page.getByRole(p.role, { name: p.name, exact: true }).click(timeout ? { timeout } : {})
      // 1. the steps: the sample app's plan, or picked and checked on the wild page
      let picks: Pick[]
      const clickable: (Pick | { card: number })[] = []
      if (site.name === 'sample-app') {
        clickable.push(...samplePicks(site.steps ?? 30))
        picks = []
      } else {
        await fresh()
        let pool = await candidates(page)
        picks = []
        for (let attempt = 0; attempt < 40 && pool.length; attempt++) {
          const n = Math.min(STEPS, Math.max(pool.length, Math.min(STEPS, pool.length * 2)))
          const seq = Array.from({ length: n }, (_, i) => pool[i % pool.length] as Pick)
          await fresh()
          const url = page.url()
          let bad: Pick | null = null
          for (const p of seq) {
            const ok = await plainClick(p, 1500).then(
              () => true,
              () => false,
            )
            if (!ok || page.url().split('#')[0] !== url.split('#')[0]) {
              bad = p
              break
            }
          }
          if (!bad) {
            picks = seq
            break
          }
          pool = pool.filter((p) => p !== bad)
        }
        if (picks.length < 4) {
          console.log(`${site.name}: only ${picks.length} clickable steps, skipped`)
          return
        }
        clickable.push(...picks)
      }
      // 2. recorded with the real recorder (screenshots on: the --verify replay compares against them)
      const caseFile = join(dir, `${site.name}.json`)
      await site.before?.()
      const recorder = await createWebRecorder(page, { caseFile, screenshots: VERIFY })
      await recorder.start(site.url)
      const recordMs: number[] = []
      for (const p of clickable) {
        const locator =
          'card' in p
            ? page.locator('[data-role=grid] [aria-pressed]').nth(p.card)
            : page.getByRole(p.role, { name: p.name, exact: true })
        await locator.scrollIntoViewIfNeeded({ timeout: 5_000 })
        const box = await locator.boundingBox({ timeout: 5_000 })
        if (!box) throw new Error(`${site.name}: no box for ${JSON.stringify(p)}`)
        const t = performance.now()
        await recorder.click(box.x + box.width / 2, box.y + box.height / 2)
        recordMs.push(performance.now() - t)
      }
      const testCase: TestCase = recorder.testCase()
      if (process.env.QA_BENCH_WHY) await writeFile(caseFile, JSON.stringify(testCase, null, 2))
      const steps: Action[] = testCase.actions
      if (site.name === 'sample-app') {
        picks = steps.map((a) => ({ role: a.identity?.axRole as Role, name: a.identity?.axName as string }))
        if (picks.some((p) => !p.role || !p.name)) throw new Error('sample app: a step without role/name')
      }
      if (steps.length !== picks.length)
        throw new Error(`${site.name}: recorded ${steps.length} steps of ${picks.length}`)

      // 3. the approaches, round-robin
      const runPlain = async () => {
        await fresh()
        mark(`${site.name} plain`)
        const t = performance.now()
        for (const p of picks) await plainClick(p)
        mark('end')
        return (performance.now() - t) / picks.length
      }
      const shots: (Buffer | undefined)[] = []
      let shotMismatches = 0
      const expectScreenshot = async (i: number, takeBaseline: boolean) => {
        // what `expect(page).toHaveScreenshot()` runs (playwright/lib/matchers/expect.js, toHaveScreenshot)
        const p = page as unknown as {
          screencast?: { hideOverlays?: () => Promise<void> }
          _expectScreenshot: (o: Record<string, unknown>) => Promise<{ actual?: Buffer; errorMessage?: string }>
        }
        await p.screencast?.hideOverlays?.()
        const out = await p._expectScreenshot({
          animations: 'disabled',
          caret: 'hide',
          scale: 'css',
          isNot: false,
          timeout: 5000,
          type: 'png',
          expected: takeBaseline ? undefined : shots[i],
        })
        if (takeBaseline) shots[i] = out.actual
        else if (out.errorMessage) shotMismatches++
      }
      const runPlainShot = async (takeBaseline = false) => {
        await fresh()
        mark(`${site.name} plain+shot`)
        const t = performance.now()
        for (const [i, p] of picks.entries()) {
          await plainClick(p)
          await expectScreenshot(i, takeBaseline)
        }
        mark('end')
        return (performance.now() - t) / picks.length
      }
      let oursFailed = 0
      let oursNotPass = 0
      /** The adaptive settle's decision after each step of ours (no verify): how many steps, how long in all. */
      let settles: Record<string, number> = {}
      let settleMs: Record<string, number> = {}
      const runOurs = async (verify: boolean) => {
        await site.before?.()
        const artifactDir = verify ? await mkdtemp(join(dir, 'report-')) : undefined
        mark(`${site.name} ours${verify ? ' verify' : ''}`)
        const out = await replayWebCase(testCase, {
          page,
          caseDir: dir,
          caseFile,
          verify,
          env: {},
          ...(artifactDir ? { artifactDir, keepActual: 'always' as const } : {}),
        })
        mark('end')
        oursFailed += out.replayResults.filter((r) => !r.success).length
        if (process.env.QA_BENCH_WHY) {
          for (const r of out.replayResults.filter((r) => !r.success)) {
            console.log(`  failed step ${r.actionIndex}: ${r.errorMessage}`)
            for (const a of r.strategiesTried ?? [])
              console.log(`    ${a.strategy} ${a.outcome} ${a.confidence?.toFixed(3) ?? ''} ${a.detail ?? ''}`)
          }
          if (verify)
            console.log(
              `  verified steps (ms, looks again): ${out.replayResults
                .map((r) => {
                  const v = out.report.verificationResults.find((v) => v.actionIndex === r.actionIndex)
                  const again = (v?.details as { looks_again?: number } | undefined)?.looks_again
                  return `${Math.round(r.durationMs ?? 0)}${again ? `+${again}` : ''}`
                })
                .join(' ')}`,
            )
          for (const v of out.report.verificationResults)
            if (v.finalResult !== 'pass')
              console.log(`  ${v.finalResult} step ${v.actionIndex} (${artifactDir}): ${v.reason ?? ''}`)
        }
        if (artifactDir && !process.env.QA_BENCH_WHY) await rm(artifactDir, { recursive: true, force: true })
        if (!verify)
          for (const r of out.replayResults) {
            const k = r.settle ?? 'none'
            settles[k] = (settles[k] ?? 0) + 1
            settleMs[k] = (settleMs[k] ?? 0) + (r.settleMs ?? 0)
          }
        if (verify) oursNotPass += out.report.verificationResults.filter((r) => r.finalResult !== 'pass').length
        return sum(out.replayResults.map((r) => r.durationMs ?? 0)) / steps.length
      }
      if (VERIFY) await runPlainShot(true) // the baselines of toHaveScreenshot
      // one warm-up round (JIT, caches), not measured
      await runPlain()
      await runOurs(false)
      if (VERIFY) {
        await runPlainShot()
        await runOurs(true)
      }
      oursFailed = 0
      oursNotPass = 0
      shotMismatches = 0
      settles = {}
      settleMs = {}
      const per: Record<string, number[]> = { plain: [], ours: [], plainShot: [], oursVerify: [] }
      const loads: number[] = []
      for (let r = 0; r < REPS; r++) {
        loads.push(loadavg()[0]!)
        per.plain!.push(await runPlain())
        per.ours!.push(await runOurs(false))
        if (VERIFY) {
          per.plainShot!.push(await runPlainShot())
          per.oursVerify!.push(await runOurs(true))
        }
      }
      const row = {
        site: site.name,
        steps: steps.length,
        plain: median(per.plain!),
        ours: median(per.ours!),
        ratio: median(per.ours!) / median(per.plain!),
        plainShot: median(per.plainShot!),
        oursVerify: median(per.oursVerify!),
        verifyRatio: median(per.oursVerify!) / median(per.plainShot!),
        record: median(recordMs),
        recordRatio: median(recordMs) / median(per.ours!),
        oursFailedSteps: oursFailed,
        oursVerifyNotPass: oursNotPass,
        shotMismatches,
        load: median(loads),
        /** per decision: share of ours' steps, and its mean wait in ms */
        settle: Object.fromEntries(
          Object.entries(settles).map(([k, n]) => [
            k,
            { share: n / (REPS * steps.length), meanMs: (settleMs[k] ?? 0) / n },
          ]),
        ),
      }
      rows.push(row)
      console.log(
        `${site.name.padEnd(18)} ${String(steps.length).padStart(3)} steps  plain ${row.plain.toFixed(1)}  ours ${row.ours.toFixed(1)} (${row.ratio.toFixed(2)}×)  plain+shot ${row.plainShot.toFixed(1)}  ours --verify ${row.oursVerify.toFixed(1)} (${row.verifyRatio.toFixed(2)}×)  record ${row.record.toFixed(1)} (${row.recordRatio.toFixed(2)}× ours)  failed ${oursFailed} not-pass ${oursNotPass} shot-mismatch ${shotMismatches}  load ${row.load.toFixed(2)}`,
      )
      console.log(
        `${''.padEnd(18)} settle after ours' steps: ${Object.entries(row.settle)
          .map(([k, v]) => `${k} ${(v.share * 100).toFixed(0)}% (mean ${v.meanMs.toFixed(1)} ms)`)
          .join(', ')}; steps: ${picks.map((p) => `${p.role} "${p.name}"`).join(', ')}`,
      )
    }
    console.log(`\nms/step, medians over ${REPS} repetitions; ratios vs the Playwright baseline run side by side.`)
    console.log(
      '| site | steps | plain | ours | ratio | plain + toHaveScreenshot | ours --verify | ratio | record | record/ours | load |',
    )
    console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |')
    for (const r of rows as {
      site: string
      steps: number
      plain: number
      ours: number
      ratio: number
      plainShot: number
      oursVerify: number
      verifyRatio: number
      record: number
      recordRatio: number
      load: number
    }[])
      console.log(
        `| ${r.site} | ${r.steps} | ${r.plain.toFixed(1)} | ${r.ours.toFixed(1)} | ${r.ratio.toFixed(2)}× | ${r.plainShot.toFixed(1)} | ${r.oursVerify.toFixed(1)} | ${r.verifyRatio.toFixed(2)}× | ${r.record.toFixed(1)} | ${r.recordRatio.toFixed(2)}× | ${r.load.toFixed(2)} |`,
      )
    if (JSON_OUT) await writeFile(JSON_OUT, JSON.stringify(rows, null, 2))
    console.log(`Total ${((performance.now() - t0) / 1000).toFixed(1)} s; load average at end ${load()}.`)
  } finally {
    await session.close()
    await app.close()
    await corpus.close()
    if (!process.env.QA_BENCH_WHY) await rm(dir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
