/**
 * Scale-out of the test runner across workers. Run from the repo root: `node --import tsx bench/scale/run.ts`
 * (options: --cases N, default 40; --reps N, default 1; --workers 1,2,4).
 *
 * N web cases (the bundled demo cases login/search/settings, renamed and repeated) against @qa/sample-app on
 * loopback, with screenshot verification as `qa serve` does it; each suite gets a fresh headless Chromium.
 *   in-process  `createRunner({ concurrency: w })`: the default pool of `qa serve`
 *   bullmq      `createBullmqJobRunner` + w separate `qa worker` processes (concurrency 1 each) on a local
 *               redis-server; the workers are started and connected before the clock starts
 * Wall time = from enqueue to the run's last suite finished; per configuration the median over --reps runs, and
 * the speed-up against 1 worker of the same backend, side by side.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { argv } from 'node:process'
import {
  createBullmqJobRunner,
  createRunner,
  createSuiteCatalog,
  type JobRunner,
  localArtifactStore,
  memoryRunStore,
  webReplayer,
} from '@qa/runner'
import { DEMO_CASES_DIR } from '@qa/api'
import { startTestRedis } from '@qa/runner/testing'
import { startSampleApp } from '@qa/sample-app'

const arg = (name: string, def: string) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 && argv[i + 1] ? (argv[i + 1] as string) : def
}
const CASES = Number(arg('cases', '40'))
const REPS = Number(arg('reps', '1'))
const WORKERS = arg('workers', '1,2,4').split(',').map(Number)
const QA_BIN = new URL('../../apps/cli/bin/qa.js', import.meta.url).pathname

function caseFolder(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'qa-bench-scale-'))
  const docs = ['login.json', 'search.json', 'settings.json'].map(
    (f) => JSON.parse(readFileSync(join(DEMO_CASES_DIR, f), 'utf8')) as { name: string },
  )
  for (let i = 0; i < n; i++) {
    const doc = docs[i % docs.length] as { name: string }
    writeFileSync(
      join(dir, `case-${String(i).padStart(3, '0')}.json`),
      JSON.stringify({ ...doc, name: `${doc.name} #${i}` }),
    )
  }
  return dir
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2
}

/** Busy CPU ticks (1/100 s) of the whole machine so far, from /proc/stat (null where there is none). */
function machineBusyTicks(): number | null {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number)
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0)
    return fields.reduce((a, b) => a + b, 0) - idle
  } catch {
    return null
  }
}

async function timeRun(
  runner: JobRunner,
  suites: Parameters<JobRunner['enqueue']>[0],
): Promise<{ ms: number; passed: number; nodeCpuMs: number; coresBusy: number | null }> {
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const busy0 = machineBusyTicks()
  const run = runner.enqueue(suites, { all: true })
  const done = await runner.waitFor(run.id)
  const cpu = process.cpuUsage(cpu0)
  const busy1 = machineBusyTicks()
  const ms = performance.now() - t0
  return {
    ms,
    // cores the whole machine kept busy meanwhile (Chromium, this process, anything else): /proc/stat ticks
    coresBusy: busy0 !== null && busy1 !== null ? (busy1 - busy0) / 100 / (ms / 1000) : null,
    passed: done.suites.filter((s) => s.passed).length,
    // this process's own CPU (user + system): the in-process pool's replays, verification and bookkeeping
    nodeCpuMs: (cpu.user + cpu.system) / 1000,
  }
}

async function main() {
  const app = await startSampleApp({ version: 'v1', requireLogin: false })
  const redis = await startTestRedis()
  const dir = caseFolder(CASES)
  const suites = (await createSuiteCatalog(dir).list()).suites
  const rows: Array<{ backend: string; workers: number; ms: number; passed: number }> = []
  const replay = webReplayer({ url: app.url, verify: true })
  try {
    for (const w of WORKERS) {
      const times: number[] = []
      let passed = 0
      let nodeCpu = 0
      let cores: number | null = null
      for (let r = 0; r < REPS; r++) {
        const runner = createRunner({
          replayers: { web: replay },
          reportDir: mkdtempSync(join(tmpdir(), 'qa-bench-r-')),
          store: memoryRunStore(),
          concurrency: w,
        })
        const t = await timeRun(runner, suites)
        await runner.close()
        times.push(t.ms)
        passed = t.passed
        nodeCpu = t.nodeCpuMs
        cores = t.coresBusy
      }
      rows.push({ backend: 'in-process', workers: w, ms: median(times), passed })
      console.error(
        `in-process ${w}: ${(median(times) / 1000).toFixed(1)} s (${passed}/${suites.length} passed; node CPU ${(nodeCpu / 1000).toFixed(1)} s, machine ${cores?.toFixed(2) ?? '?'} cores busy)`,
      )
    }
    for (const w of WORKERS) {
      const times: number[] = []
      let passed = 0
      for (let r = 0; r < REPS; r++) {
        const reportDir = mkdtempSync(join(tmpdir(), 'qa-bench-q-'))
        const runner = await createBullmqJobRunner({
          url: redis.url,
          store: memoryRunStore(),
          artifacts: localArtifactStore(reportDir),
          attempts: 1,
        })
        const procs: ChildProcess[] = []
        await Promise.all(
          Array.from(
            { length: w },
            (_, i) =>
              new Promise<void>((resolve, reject) => {
                const p = spawn(
                  process.execPath,
                  [QA_BIN, 'worker', '--queue', redis.url, '--url', app.url, '--artifacts', reportDir, '--id', `b${i}`],
                  { stdio: ['ignore', 'pipe', 'ignore'] },
                )
                procs.push(p)
                p.stdout?.on('data', (d: Buffer) => {
                  if (/serving web/.test(d.toString())) resolve()
                })
                p.once('exit', (c) => reject(new Error(`worker exited ${c}`)))
              }),
          ),
        )
        const t = await timeRun(runner, suites)
        for (const p of procs) p.kill('SIGTERM')
        await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode === null ? p.once('exit', r) : r(null)))))
        await runner.close()
        times.push(t.ms)
        passed = t.passed
      }
      rows.push({ backend: 'bullmq', workers: w, ms: median(times), passed })
      console.error(`bullmq ${w}: ${(median(times) / 1000).toFixed(1)} s (${passed}/${suites.length} passed)`)
    }
  } finally {
    await replay.close()
    await redis.stop()
    await app.close()
  }
  console.log(`\n${CASES} web cases, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), median of ${REPS} run(s)\n`)
  console.log('| workers | in-process wall | speed-up | bullmq + qa worker wall | speed-up |')
  console.log('|---:|---:|---:|---:|---:|')
  const base = (b: string) => rows.find((r) => r.backend === b && r.workers === 1)?.ms ?? Number.NaN
  for (const w of WORKERS) {
    const a = rows.find((r) => r.backend === 'in-process' && r.workers === w)
    const q = rows.find((r) => r.backend === 'bullmq' && r.workers === w)
    const cell = (r: typeof a, b: string) =>
      r ? [`${(r.ms / 1000).toFixed(1)} s`, `${(base(b) / r.ms).toFixed(2)}×`] : ['–', '–']
    console.log(`| ${w} | ${cell(a, 'in-process').join(' | ')} | ${cell(q, 'bullmq').join(' | ')} |`)
  }
}

await main()
