/**
 * Throughput of the speed bench: cases per minute with 1, 2 and 4 workers on one machine, through the
 * documented CLI as a user types it. Run from the repo root after `pnpm build`:
 *   node --import tsx bench/replay-overhead/throughput.ts
 * Options: --cases N (default 8), --reps N (default 2), --workers 1,2,4, --no-verify, --no-serve, --no-shards,
 * --json <file>.
 *
 * The cases are recorded first, with the real recorder (`createWebRecorder(...).click(x, y)`, what
 * `qa record web --script` does, screenshots on), on v1 of `@qa/sample-app` and on two wild-corpus pages
 * (served offline as bench/wild serves them), into one folder. Then, per worker count W, round-robin per
 * repetition:
 *   shards  W processes `qa replay <folder> --shard k/W --verify --report-dir …` started together; wall time until
 *           the last one exits (what a CI matrix of W jobs on one machine does)
 *   serve   one `qa serve --dir <folder> --concurrency W --verify` process (one shared Chromium, one context per
 *           suite); `POST /api/runs {"all":true}`, wall time until `GET /api/runs/:id` says done (the server is
 *           started and its catalog read before the clock starts)
 * Figure: cases per minute = cases / wall time; speed-up = that over the same mode's one-worker figure.
 * Truth the tool cannot see: the shard runs' exit codes and the serve run's per-suite `passed` are counted, and
 * every case must have passed once when recorded and replayed (a failing case would make a fast figure meaningless).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argv } from 'node:process'
import { createInterface } from 'node:readline'
import type { Page } from 'playwright-core'
import { createWebRecorder, openBrowser, settle } from '@qa/recorder-cdp'
import { watchProcessCpu } from './process-cpu'
import { startSampleApp } from '@qa/sample-app'
import { startCorpusServer } from '@qa/wild-corpus'

const opt = (name: string): string | null => {
  const i = argv.indexOf(name)
  return i >= 0 ? (argv[i + 1] ?? null) : null
}
const CASES = Number(opt('--cases') ?? 8)
const REPS = Number(opt('--reps') ?? 2)
const WORKERS = (opt('--workers') ?? '1,2,4').split(',').map(Number)
const VERIFY = !argv.includes('--no-verify')
const SERVE = !argv.includes('--no-serve')
const SHARDS = !argv.includes('--no-shards')
const JSON_OUT = opt('--json')
const QA = resolve('apps/cli/bin/qa.js')
const load = () => loadavg()[0]!

/**
 * CPU time (ms, user + system) of this process's exited children and everything they waited for (Linux
 * `/proc/self/stat` cutime + cstime): a `qa replay` shard with its Chromium, a `qa serve` with its own. Taken
 * around a configuration, it says how many cores its workers kept busy (CPU over wall time): with 2 cores, W
 * workers cannot run faster than 2 / (one worker's cores) times one worker.
 */
async function childrenCpuMs(): Promise<number> {
  const stat = await readFile('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // fields[0] is field 3 (state): cutime is field 16, cstime 17, in clock ticks (100 per second on Linux)
  return (Number(fields[13]) + Number(fields[14])) * 10
}
/** This process's own CPU time (ms): the sample app and the corpus server it serves the cases from. */
const ownCpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const cpuNow = async () => (await childrenCpuMs()) + ownCpuMs()

/**
 * The whole machine's CPU time (ms) from `/proc/stat`: busy (user, nice, system, irq, softirq) and steal (time the
 * hypervisor gave another guest). Chromium's renderers are forked by its zygote and may be reaped outside this
 * process tree, so the tree's count can fall short; on a quiet machine the machine's count bounds it from above.
 */
async function machineCpuMs(): Promise<{ busy: number; steal: number }> {
  const [cpu] = (await readFile('/proc/stat', 'utf8')).split('\n')
  const [, user, nice, system, , , irq, softirq, steal] = (cpu ?? '').trim().split(/\s+/).map(Number)
  const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)
  return { busy: busy * 10, steal: (steal ?? 0) * 10 }
}

type Role = Parameters<Page['getByRole']>[0]
type Target = { role: Role; name: string } | { card: number } | { css: string }

/** The cases: the sample app (list cards, the detail's close button) and two wild pages (tabs), 8–10 clicks each. */
function plans(appUrl: string, pageUrl: (p: string) => string): { name: string; url: string; steps: Target[] }[] {
  const out: { name: string; url: string; steps: Target[] }[] = []
  for (let i = 0; out.length < CASES; i++) {
    const kind = i % 4
    if (kind === 0 || kind === 1) {
      const cards: Target[] = Array.from({ length: 8 }, (_, k) => ({ card: (i * 2 + k * 3) % 11 }))
      out.push({
        name: `sample-${i}`,
        url: `${appUrl}/list`,
        // no login in a fresh replay context: the list and its detail (the nav's settings link needs a login)
        steps: [
          ...cards.slice(0, 4),
          { role: 'button', name: '닫기' },
          ...cards.slice(4),
          { role: 'button', name: '닫기' },
        ],
      })
    } else if (kind === 2) {
      const tabs = ['profile', 'contact', 'home']
      out.push({
        name: `stisla-tabs-${i}`,
        url: pageUrl('stisla/components-tab.html'),
        steps: Array.from({ length: 9 }, (_, k) => ({ css: `#${tabs[k % 3]}-tab` })),
      })
    } else {
      out.push({
        name: `sneat-tabs-${i}`,
        url: pageUrl('sneat/html/ui-tabs-pills.html'),
        steps: Array.from({ length: 8 }, (_, k) => ({
          css: `[data-bs-target="#navs-top-${['profile', 'messages', 'home'][k % 3]}"]`,
        })),
      })
    }
  }
  return out
}

interface Proc {
  child: ChildProcess
  exit: Promise<number>
  lines: string[]
}
function run(args: string[]): Proc {
  // QA_BENCH_CPU_PROF=<dir>: every qa process writes a V8 CPU profile there (open it in Chrome DevTools)
  const profile = process.env.QA_BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.QA_BENCH_CPU_PROF] : []
  const child = spawn(process.execPath, [...profile, QA, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  const lines: string[] = []
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l))
  createInterface({ input: child.stderr! }).on('line', (l) => lines.push(l))
  const exit = new Promise<number>((res) => child.on('exit', (code) => res(code ?? 1)))
  return { child, exit, lines }
}

/** The CPU per kind of process, as cores busy over the configuration's wall time. */
function printByKind(byKind: Record<string, number>, wallMs: number) {
  const kinds = Object.entries(byKind).sort((a, b) => b[1] - a[1])
  console.log(`           by process: ${kinds.map(([k, ms]) => `${k} ${(ms / wallMs).toFixed(2)}`).join(', ')}`)
}

async function main() {
  const t0 = performance.now()
  console.log(`Load average at start: ${load().toFixed(2)} (2 cores shared with other jobs)`)
  const dir = await mkdtemp(join(tmpdir(), 'qa-bench-throughput-'))
  const cases = join(dir, 'cases')
  await mkdir(cases)
  const app = await startSampleApp({ port: 0, version: 'v1', requireLogin: false })
  const corpus = await startCorpusServer()
  const rows: Record<string, unknown>[] = []
  try {
    // 1. record the cases
    const session = await openBrowser()
    try {
      for (const plan of plans(app.url, (p) => corpus.pageUrl(p))) {
        const recorder = await createWebRecorder(session.page, {
          caseFile: join(cases, `${plan.name}.json`),
          name: plan.name,
          screenshots: VERIFY,
        })
        await recorder.start(plan.url)
        await settle(recorder.page)
        for (const t of plan.steps) {
          const page = recorder.page
          const locator =
            'card' in t
              ? page.locator('[data-role=grid] [aria-pressed]').nth(t.card)
              : 'css' in t
                ? page.locator(t.css)
                : page.getByRole(t.role, { name: t.name, exact: true })
          await locator.scrollIntoViewIfNeeded({ timeout: 5_000 })
          const box = await locator.boundingBox({ timeout: 5_000 })
          if (!box) throw new Error(`${plan.name}: no box for ${JSON.stringify(t)}`)
          await recorder.click(box.x + box.width / 2, box.y + box.height / 2)
        }
        await recorder.save()
      }
    } finally {
      await session.close()
    }
    const verifyFlag = VERIFY ? ['--verify'] : []
    console.log(`${CASES} cases recorded in ${cases}`)

    // 2. the worker counts, round-robin per repetition
    const per: Record<string, number[]> = {}
    const failed: Record<string, number> = {}
    const loads: Record<string, number[]> = {}
    const cpus: Record<string, number[]> = {}
    const machine: Record<string, number[]> = {}
    const steals: Record<string, number[]> = {}
    const note = (key: string, ms: number, bad: number, cpuMs: number, onMachine: { busy: number; steal: number }) => {
      per[key] = [...(per[key] ?? []), ms]
      failed[key] = (failed[key] ?? 0) + bad
      loads[key] = [...(loads[key] ?? []), load()]
      cpus[key] = [...(cpus[key] ?? []), cpuMs]
      machine[key] = [...(machine[key] ?? []), onMachine.busy]
      steals[key] = [...(steals[key] ?? []), onMachine.steal]
      console.log(
        `${key.padEnd(10)} ${(ms / 1000).toFixed(1)} s  ${((CASES * 60_000) / ms).toFixed(1)} cases/min  CPU ${(cpuMs / 1000).toFixed(1)} s (${(cpuMs / ms).toFixed(2)} cores; machine ${(onMachine.busy / ms).toFixed(2)}, steal ${(onMachine.steal / ms).toFixed(2)})  failed ${bad}  load ${load().toFixed(2)}`,
      )
    }
    const machineSince = async (from: { busy: number; steal: number }) => {
      const now = await machineCpuMs()
      return { busy: now.busy - from.busy, steal: now.steal - from.steal }
    }
    for (let r = 0; r < REPS; r++) {
      for (const w of WORKERS) {
        if (SHARDS) {
          const reportRoot = join(dir, `shards-${w}-${r}`)
          const cpu0 = await cpuNow()
          const machine0 = await machineCpuMs()
          const byKind = watchProcessCpu()
          const t = performance.now()
          const procs = Array.from({ length: w }, (_, k) =>
            run(['replay', cases, '--shard', `${k + 1}/${w}`, ...verifyFlag, '--report-dir', join(reportRoot, `${k}`)]),
          )
          const codes = await Promise.all(procs.map((p) => p.exit))
          const ms = performance.now() - t
          const onMachine = await machineSince(machine0)
          printByKind(await byKind.stop(), ms)
          const cpuMs = (await cpuNow()) - cpu0
          const bad = codes.filter((c) => c !== 0).length
          if (bad) for (const p of procs) if ((await p.exit) !== 0) console.log(p.lines.slice(-15).join('\n'))
          note(`shards ${w}`, ms, bad, cpuMs, onMachine)
          await rm(reportRoot, { recursive: true, force: true })
        }
        if (SERVE) {
          const reportDir = join(dir, `serve-${w}-${r}`)
          // the server's CPU is counted once it exited, its start and stop included (a little more than the run's)
          const cpu0 = await cpuNow()
          let done = { ms: Number.NaN, bad: 0, onMachine: { busy: 0, steal: 0 } }
          const server = run([
            'serve',
            '--dir',
            cases,
            '--port',
            '0',
            '--concurrency',
            String(w),
            ...(VERIFY ? ['--verify'] : ['--no-verify']),
            '--report-dir',
            reportDir,
          ])
          try {
            let url: string | null = null
            for (let i = 0; i < 300 && !url; i++) {
              url = /Runner Inspector: (http:\/\/[^/\s]+)/.exec(server.lines.join('\n'))?.[1] ?? null
              if (!url) await new Promise((res) => setTimeout(res, 100))
            }
            if (!url) throw new Error(`qa serve did not start:\n${server.lines.join('\n')}`)
            const machine0 = await machineCpuMs()
            const byKind = watchProcessCpu()
            const t = performance.now()
            const posted = (await (
              await fetch(`${url}/api/runs`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ all: true }),
              })
            ).json()) as { id?: string; run?: { id: string } }
            const id = posted.id ?? posted.run?.id
            if (!id) throw new Error(`POST /api/runs answered ${JSON.stringify(posted).slice(0, 300)}`)
            let record: { status: string; suites: { passed: boolean }[] } | null = null
            for (let polls = 0; ; polls++) {
              if (polls > 36_000) throw new Error(`qa serve: run ${id} not done after an hour`)
              record = ((await (await fetch(`${url}/api/runs/${id}`)).json()) as { run: typeof record }).run
              if (record && ['done', 'canceled', 'interrupted'].includes(record.status)) break
              await new Promise((res) => setTimeout(res, 100))
            }
            const ms = performance.now() - t
            printByKind(await byKind.stop(), ms)
            done = { ms, bad: record.suites.filter((s) => !s.passed).length, onMachine: await machineSince(machine0) }
          } finally {
            server.child.kill('SIGTERM')
            await server.exit
            await rm(reportDir, { recursive: true, force: true })
          }
          note(`serve ${w}`, done.ms, done.bad, (await cpuNow()) - cpu0, done.onMachine)
        }
      }
    }
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b)
      const m = s.length >> 1
      return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
    }
    console.log(`\n${CASES} cases${VERIFY ? ' with --verify' : ''}, medians over ${REPS} repetitions.`)
    console.log(
      '| mode | workers | wall s | cases/min | speed-up vs 1 | CPU s per case | cores busy | machine busy | steal | failed runs | load |',
    )
    console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |')
    for (const mode of ['shards', 'serve']) {
      const one = per[`${mode} 1`] ? median(per[`${mode} 1`]!) : Number.NaN
      for (const w of WORKERS) {
        const key = `${mode} ${w}`
        if (!per[key]) continue
        const ms = median(per[key]!)
        const row = {
          mode,
          workers: w,
          wallS: ms / 1000,
          casesPerMin: (CASES * 60_000) / ms,
          speedUp: one / ms,
          cpuSPerCase: median(cpus[key]!) / 1000 / CASES,
          coresBusy: median(cpus[key]!) / ms,
          machineBusy: median(machine[key]!) / ms,
          steal: median(steals[key]!) / ms,
          failed: failed[key],
          load: median(loads[key]!),
        }
        rows.push(row)
        console.log(
          `| ${mode} | ${w} | ${row.wallS.toFixed(1)} | ${row.casesPerMin.toFixed(1)} | ${row.speedUp.toFixed(2)}× | ${row.cpuSPerCase.toFixed(2)} | ${row.coresBusy.toFixed(2)} | ${row.machineBusy.toFixed(2)} | ${row.steal.toFixed(2)} | ${row.failed} | ${row.load.toFixed(2)} |`,
        )
      }
    }
    if (JSON_OUT) await writeFile(JSON_OUT, JSON.stringify(rows, null, 2))
    console.log(`Total ${((performance.now() - t0) / 1000).toFixed(1)} s; load average at end ${load().toFixed(2)}.`)
  } finally {
    await app.close()
    await corpus.close()
    await rm(dir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
