/**
 * The report of a 200-step case: time to write it and its size, per format (JSON, TXT, HTML with its
 * embedded thumbnails, JUnit). Run from the repo root after `pnpm build`:
 *   node --import tsx bench/replay-overhead/report.ts     # --steps N (200) --reps N (3)
 *
 * A real 20-step case is recorded on v1 of `@qa/sample-app` with the real recorder (screenshots on) and replayed
 * with `replayWebCase(..., { verify: true, artifactDir, keepActual: 'always' })`, as `qa replay --verify` does;
 * its report is then repeated to N steps, each repeated step pointing at its own copies of the recorded and
 * replayed screenshots (so the HTML reads and scales N distinct pairs of real PNGs, as a real N-step replay's
 * report does). `writeReports` (what `qa replay` calls) is timed per format, median over repetitions.
 */
import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { argv } from 'node:process'
import type { ReplayReport } from '@qa/model'
import { createWebRecorder, openBrowser, replayWebCase, settle } from '@qa/recorder-cdp'
import { startSampleApp } from '@qa/sample-app'
import { type ReportFormat, writeReports } from '@qa/verifier'

const opt = (name: string): string | null => {
  const i = argv.indexOf(name)
  return i >= 0 ? (argv[i + 1] ?? null) : null
}
const STEPS = Number(opt('--steps') ?? 200)
const REPS = Number(opt('--reps') ?? 3)
const load = () => loadavg()[0]!.toFixed(2)

async function main() {
  console.log(`Load average at start: ${load()} (2 cores shared with other jobs)`)
  const dir = await mkdtemp(join(tmpdir(), 'qa-bench-report-'))
  const app = await startSampleApp({ port: 0, version: 'v1', requireLogin: false })
  const session = await openBrowser()
  try {
    const caseFile = join(dir, 'case.json')
    const recorder = await createWebRecorder(session.page, { caseFile, screenshots: true })
    await recorder.start(`${app.url}/list`)
    await settle(session.page)
    for (let i = 0; i < 20; i++) {
      const card = session.page.locator('[data-role=grid] [aria-pressed]').nth((i * 3) % 11)
      await card.scrollIntoViewIfNeeded()
      const box = await card.boundingBox()
      if (!box) throw new Error(`no box for card ${i}`)
      await recorder.click(box.x + box.width / 2, box.y + box.height / 2)
    }
    await recorder.save()
    const artifactDir = join(dir, 'replay')
    const out = await replayWebCase(recorder.testCase(), {
      page: session.page,
      caseDir: dir,
      caseFile,
      verify: true,
      env: {},
      artifactDir,
      keepActual: 'always',
    })
    const base = out.report
    const n = base.verificationResults.length
    const verdicts = base.verificationResults.map((v) => v.finalResult)
    console.log(`Replayed ${n} steps with --verify: ${verdicts.filter((v) => v === 'pass').length} pass`)
    // N steps: the replayed steps repeated, each with its own copies of its images
    const images = join(dir, 'images')
    await mkdir(images)
    const copy = async (path: string | null | undefined, i: number, what: string) => {
      if (!path) return path
      const to = join(images, `step-${String(i).padStart(3, '0')}-${what}.png`)
      await copyFile(path.startsWith('/') ? path : join(dir, path), to)
      return to
    }
    const verificationResults: ReplayReport['verificationResults'] = []
    const replayResults: NonNullable<ReplayReport['replayResults']> = []
    for (let i = 0; i < STEPS; i++) {
      const v = structuredClone(base.verificationResults[i % n]!)
      v.actionIndex = i
      v.expectedScreenshot = (await copy(v.expectedScreenshot, i, 'expected')) ?? null
      v.actualScreenshot = (await copy(v.actualScreenshot, i, 'actual')) ?? null
      if (v.diffScreenshot) v.diffScreenshot = (await copy(v.diffScreenshot, i, 'diff')) ?? null
      verificationResults.push(v)
      const r = structuredClone(base.replayResults![i % n]!)
      r.actionIndex = i
      r.actionId = `action-${String(i).padStart(3, '0')}`
      if (r.foundCrop) r.foundCrop = (await copy(r.foundCrop, i, 'found')) ?? null
      replayResults.push(r)
    }
    const report: ReplayReport = {
      ...base,
      totalActions: STEPS,
      passedCount: verificationResults.filter((v) => v.finalResult === 'pass').length,
      failedCount: verificationResults.filter((v) => v.finalResult === 'fail').length,
      warningCount: verificationResults.filter((v) => v.finalResult === 'warning').length,
      verificationResults,
      replayResults,
    }
    const formats: ReportFormat[] = ['json', 'txt', 'html', 'junit']
    const times: Record<string, number[]> = {}
    const sizes: Record<string, number> = {}
    for (let r = 0; r < REPS; r++) {
      for (const f of formats) {
        const outDir = join(dir, `out-${r}`)
        const t = performance.now()
        const written = await writeReports(report, outDir, [f], { baseDir: dir, baseName: 'report' })
        times[f] = [...(times[f] ?? []), performance.now() - t]
        sizes[f] = (await stat(written[f]!)).size
      }
      // the baseline side by side: the HTML report with one step's thumbnails made at a time (as the report did before)
      const t = performance.now()
      await writeReports(report, join(dir, `serial-${r}`), ['html'], {
        baseDir: dir,
        baseName: 'report',
        stepsAtOnce: 1,
      })
      times.serial = [...(times.serial ?? []), performance.now() - t]
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
    console.log(`\nThe report of a ${STEPS}-step case, median over ${REPS} writes; load ${load()}`)
    console.log('| format | time ms | size KB | per step ms |')
    console.log('| --- | --: | --: | --: |')
    for (const f of formats)
      console.log(
        `| ${f} | ${median(times[f]!).toFixed(0)} | ${(sizes[f]! / 1024).toFixed(0)} | ${(median(times[f]!) / STEPS).toFixed(2)} |`,
      )
    console.log(
      `| html, one step at a time (baseline) | ${median(times.serial!).toFixed(0)} | ${(sizes.html! / 1024).toFixed(0)} | ${(median(times.serial!) / STEPS).toFixed(2)} |`,
    )
    console.log(`html: ${(median(times.html!) / median(times.serial!)).toFixed(2)}× the one-step-at-a-time baseline`)
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
