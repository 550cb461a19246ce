/**
 * Replay overhead per step on an unchanged page (issue 6 "Done when"). Run from the repo root:
 * `node --import tsx bench/replay-overhead/run.ts` (options: --reps N, default 20; --steps N, default 30).
 *
 * N click steps on v1 of the sample app (list cards, the detail close button, nav links, settings controls)
 * are recorded once with the real recorder, then replayed in the same browser, round-robin per repetition:
 *   plain        Playwright `getByRole(role, { name, exact: true }).click()` with the recorded role and name
 *   locate+click ours without the runner: `locate(identity, playwrightCandidateSource(page), …)` + the click
 *   ours         `replayWebCase` (no verify): cascade, actionability, click, adaptive settle (default)
 *   ours always  the same with `settle: 'always'` (diagnostic, every 4th repetition: a 150 ms quiet window
 *                after every step, the behaviour before the adaptive settle)
 * Per approach: the median over repetitions of (time of the N steps / N); the page load before the first step
 * is excluded everywhere. A breakdown of ours (locate, click, settle) is printed for the profile.
 */
import { argv } from 'node:process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Action, TestCase } from '../../packages/model/dist/index.js'
import { locate } from '../../packages/matcher/dist/index.js'
import {
  createWebRecorder,
  openBrowser,
  playwrightCandidateSource,
  replayWebCase,
  settle,
} from '../../packages/recorder-cdp/dist/index.js'
import { startSampleApp } from '../../packages/sample-app/dist/index.js'
import type { Page } from 'playwright-core'

const arg = (name: string, def: number) => {
  const i = argv.indexOf(name)
  return i >= 0 ? Number(argv[i + 1]) : def
}
const REPS = arg('--reps', 20)
const STEPS = arg('--steps', 30)

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)

type Role = Parameters<Page['getByRole']>[0]

/** What to click while recording, in order (resolved to the element centre on the live v1 page). */
type Pick = { role: Role; name: string } | { card: number }

function plan(n: number): Pick[] {
  const out: Pick[] = []
  const push = (p: Pick) => {
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

async function main() {
  const t0 = performance.now()
  const dir = await mkdtemp(join(tmpdir(), 'qa-bench-overhead-'))
  const app = await startSampleApp({ port: 0, version: 'v1', requireLogin: false })
  const session = await openBrowser()
  const { page, context } = session
  const login = async () => {
    await context.request.post(`${app.url}/login`, { form: { username: 'qa', password: 'bench' }, maxRedirects: 0 })
  }
  try {
    await login()
    // Record the N steps with the real recorder.
    const recorder = await createWebRecorder(page, { caseFile: join(dir, 'overhead.json'), screenshots: false })
    await recorder.start(`${app.url}/list`)
    for (const p of plan(STEPS)) {
      const locator =
        'card' in p
          ? page.locator('[data-role=grid] [aria-pressed]').nth(p.card)
          : page.getByRole(p.role, { name: p.name, exact: true })
      const box = await locator.boundingBox({ timeout: 5_000 })
      if (!box) throw new Error(`no box for ${JSON.stringify(p)}`)
      await recorder.click(box.x + box.width / 2, box.y + box.height / 2)
    }
    const testCase: TestCase = recorder.testCase()
    const steps: Action[] = testCase.actions
    const startUrl = testCase.startUrl as string
    for (const a of steps)
      if (!a.identity?.axRole || !a.identity.axName) throw new Error(`step without role/name: ${a.description}`)
    console.log(
      `Recorded ${steps.length} click steps in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${steps.map((a) => a.identity?.axName?.slice(0, 8)).join(' | ')}`,
    )

    const fresh = async () => {
      await login()
      await page.goto(startUrl, { waitUntil: 'load' })
      await settle(page)
    }
    const scopeOf = (a: Action) => playwrightCandidateSource(page, { framePath: a.identity?.framePath ?? null })

    const perStep: Record<string, number[]> = { plain: [], locateClick: [], ours: [], oursAlways: [] }
    const profile = {
      locate: [] as number[],
      click: [] as number[],
      settle: [] as number[],
      roleLookup: [] as number[],
    }
    const strategies = new Map<string, number>()

    const runPlain = async () => {
      await fresh()
      const t = performance.now()
      for (const a of steps) {
        await page.getByRole(a.identity?.axRole as Role, { name: a.identity?.axName as string, exact: true }).click()
      }
      return (performance.now() - t) / steps.length
    }
    const runLocateClick = async (collect: boolean) => {
      await fresh()
      const t = performance.now()
      for (const a of steps) {
        const t1 = performance.now()
        const found = await locate(a.identity!, scopeOf(a), {
          selectors: a.selectors ?? null,
          coordinates: { x: a.x, y: a.y },
        })
        const t2 = performance.now()
        const handle = found.element?.handle
        if (found.status !== 'found' || !handle) throw new Error(`not found on v1: ${a.description}`)
        await handle.click({ timeout: 5_000 })
        const t3 = performance.now()
        if (collect) {
          profile.locate.push(t2 - t1)
          profile.click.push(t3 - t2)
          const role = found.attempts.find((x) => x.strategy === 'role')
          if (role?.durationMs != null) profile.roleLookup.push(role.durationMs)
          strategies.set(found.strategy ?? 'none', (strategies.get(found.strategy ?? 'none') ?? 0) + 1)
        }
      }
      const perStepMs = (performance.now() - t) / steps.length
      if (collect) {
        // The settle ours runs after every step, alone, on the same (quiet) page.
        for (let i = 0; i < 5; i++) {
          const ts = performance.now()
          await settle(page)
          profile.settle.push(performance.now() - ts)
        }
      }
      return perStepMs
    }
    const runOurs = async (settle?: 'always') => {
      await login()
      const out = await replayWebCase(testCase, {
        page,
        caseDir: dir,
        verify: false,
        env: {},
        ...(settle ? { settle } : {}),
      })
      const failed = out.replayResults.filter((r) => !r.success)
      if (failed.length) throw new Error(`ours failed on v1: ${failed[0]?.errorMessage}`)
      // durationMs covers the step (cascade, actionability, click) and its settle; not the first page load.
      return sum(out.replayResults.map((r) => r.durationMs ?? 0)) / steps.length
    }

    // One warm-up round (JIT, caches), not measured.
    await runPlain()
    await runLocateClick(false)
    await runOurs()
    for (let r = 0; r < REPS; r++) {
      perStep.plain!.push(await runPlain())
      perStep.locateClick!.push(await runLocateClick(true))
      perStep.ours!.push(await runOurs())
      if (r % 4 === 0) perStep.oursAlways!.push(await runOurs('always')) // diagnostic: every 4th repetition
    }

    const base = median(perStep.plain!)
    const row = (label: string, xs: number[]) =>
      console.log(
        `${label.padEnd(48)} ${median(xs).toFixed(1).padStart(8)} ms/step   ${(median(xs) / base).toFixed(2).padStart(5)}×`,
      )
    console.log(`\n${steps.length} steps × ${REPS} repetitions, median per step (ratio vs plain Playwright):`)
    row('plain Playwright getByRole().click()', perStep.plain!)
    row('ours: locate() + click (no runner)', perStep.locateClick!)
    row('ours: replayWebCase (no verify, adaptive settle)', perStep.ours!)
    row(`ours: replayWebCase, settle 'always' (${perStep.oursAlways!.length} reps)`, perStep.oursAlways!)
    const goal = median(perStep.ours!) / base <= 1.5
    console.log(`\nGoal (replayWebCase within 1.5× of plain Playwright): ${goal ? 'met' : 'NOT met'}`)
    console.log(
      `Profile of ours per step (medians): locate ${median(profile.locate).toFixed(1)} ms (role lookup ${median(profile.roleLookup).toFixed(1)} ms), click on the located handle ${median(profile.click).toFixed(1)} ms, settle on a quiet page ${median(profile.settle).toFixed(1)} ms; winning strategies: ${[...strategies].map(([k, v]) => `${k} ${v}`).join(', ')}`,
    )
    console.log(`Total ${((performance.now() - t0) / 1000).toFixed(1)} s.`)
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
