/**
 * The review → accept → green loop on a page nobody here wrote: a flow recorded with
 * `qa record web --script` on sb-admin's login page, replayed `--verify` on a new "release" of the page (ids and
 * classes renamed, the layout shifted), accepted — from the report with `qa accept` run from another
 * folder, and in one go with `qa replay --update-baselines` — and replayed again on that release: green.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CHROMIUM_ARGS } from '@qa/recorder-cdp'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MutationOp } from './page-script'
import { runCli } from './run-cli'
import { type CorpusServer, type CorpusVariant, startCorpusServer } from './start-corpus-server'

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../../apps/cli/bin/qa.js')
const VIEWPORT = { width: 1280, height: 720 }
const PAGE = 'sb-admin/dist/login.html'
const RELEASE: MutationOp[] = ['renamed-ids', 'renamed-classes', 'layout-shift']

let corpus: CorpusServer
let browser: Browser
let dir: string
let release: CorpusVariant

beforeAll(async () => {
  corpus = await startCorpusServer()
  browser = await chromium.launch({
    executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS],
  })
  dir = await mkdtemp(join(tmpdir(), 'qa-accept-e2e-'))
  release = await corpus.variant({ ops: RELEASE, name: 'release-2' })
})
afterAll(async () => {
  await release?.close()
  await browser?.close()
  await corpus?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

const qa = (args: string[], cwd = dir) => runCli(CLI, args, cwd)

/** Writes the script of clicks on the targets (found in a real copy of the page) and records it. */
async function record(name: string, targets: { find: (p: Page) => Locator; type?: string }[]): Promise<string> {
  const page = await browser.newPage({ viewport: VIEWPORT })
  await page.goto(corpus.pageUrl(PAGE), { waitUntil: 'load' })
  const steps: unknown[] = []
  for (const t of targets) {
    const box = await t.find(page).boundingBox()
    if (!box) throw new Error('a target is not visible')
    const x = Math.round(box.x + box.width / 2)
    const y = Math.round(box.y + box.height / 2)
    steps.push({ type: 'click', x, y })
    await page.mouse.click(x, y)
    if (t.type) {
      steps.push({ type: 'type', text: t.type })
      await page.keyboard.type(t.type)
    }
  }
  await page.close()
  await writeFile(join(dir, `${name}.steps.json`), JSON.stringify(steps))
  const caseFile = join(dir, 'cases', `${name}.json`)
  await mkdir(dirname(caseFile), { recursive: true })
  const res = await qa(['record', 'web', corpus.pageUrl(PAGE), '--script', `${name}.steps.json`, '--out', caseFile])
  expect(res.code, res.stderr).toBe(0)
  return caseFile
}

interface ReportJson {
  passed: boolean
  verification_results: { action_index: number; final_result: string }[]
  replay_results: { success: boolean; method: string }[]
  acceptance?: { case_file: string; case_sha256: string; steps: { action_index: number; healing?: unknown }[] }
}

async function replay(caseFile: string, reportDir: string, extra: string[] = []) {
  const res = await qa([
    'replay',
    caseFile,
    '--url',
    release.pageUrl(PAGE),
    '--verify',
    '--report-dir',
    reportDir,
    ...extra,
  ])
  const json = (await readdir(reportDir)).find((f) => f.endsWith('.json'))
  const reportFile = json ? join(reportDir, json) : ''
  const report = json ? (JSON.parse(await readFile(reportFile, 'utf8')) as ReportJson) : null
  return { ...res, report, reportFile }
}

const verdicts = (r: ReportJson | null) => r?.verification_results.map((v) => v.final_result)

describe('accepting a new release of a wild page', () => {
  let caseFile: string
  let first: Awaited<ReturnType<typeof replay>>

  it('records the login flow, which fails the pixel check on the new release (the layout moved)', {
    timeout: 600_000,
  }, async () => {
    caseFile = await record('login', [
      { find: (p) => p.getByLabel('Email address'), type: 'qa@example.com' },
      { find: (p) => p.getByRole('checkbox', { name: 'Remember Password' }) },
      { find: (p) => p.getByRole('link', { name: 'Forgot Password?' }) },
    ])
    // a second case of the same flow, with screenshots of its own, for --update-baselines
    await writeFile(
      join(dir, 'cases', 'login-copy.json'),
      (await readFile(caseFile, 'utf8')).replaceAll('"login/', '"login-copy/'),
    )
    await cp(join(dir, 'cases', 'login'), join(dir, 'cases', 'login-copy'), { recursive: true })
    // and one in a folder of its own, replayed as a folder
    await mkdir(join(dir, 'suite'), { recursive: true })
    await cp(caseFile, join(dir, 'suite', 'login.json'))
    await cp(join(dir, 'cases', 'login'), join(dir, 'suite', 'login'), { recursive: true })
    const before = await replay(caseFile, join(dir, 'r1'))
    first = before
    expect(before.code, before.stderr).toBe(1)
    expect(before.report?.replay_results.every((r) => r.success)).toBe(true)
    expect(verdicts(before.report)).toContain('fail')
    // what accepting needs is in the report: the case's hash and one entry per located step
    expect(before.report?.acceptance?.case_sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(before.report?.acceptance?.steps.map((s) => s.action_index)).toEqual([0, 1, 2, 3])
  })

  it('qa accept <relative report path> from another folder writes the new baseline; the next replay is green', {
    timeout: 600_000,
  }, async () => {
    const originalCase = await readFile(caseFile, 'utf8')
    const elsewhere = await mkdtemp(join(tmpdir(), 'qa-accept-cwd-'))
    const accepted = await qa(['accept', relative(elsewhere, first.reportFile)], elsewhere)
    expect(accepted.code, accepted.stderr).toBe(0)
    expect(accepted.stderr).toMatch(/the previous baseline is kept in .*\.login\.history/)
    // the previous baseline: the case as it was and its screenshots
    const history = join(dir, 'cases', '.login.history')
    const [stamp] = await readdir(history)
    expect(await readFile(join(history, stamp!, 'login.json'), 'utf8')).toBe(originalCase)
    const kept = JSON.parse(originalCase) as { actions: { screenshot_path?: string }[] }
    await expect(readFile(join(history, stamp!, kept.actions[0]!.screenshot_path!))).resolves.toBeTruthy()

    const again = await replay(caseFile, join(dir, 'r2'))
    expect(again.code, `${again.stdout}\n${again.stderr}`).toBe(0)
    expect(verdicts(again.report)).not.toContain('fail')

    // the report of before the acceptance names a case that has changed since: refused, nothing written
    const stale = await qa(['accept', first.reportFile])
    expect(stale.code).toBe(2)
    expect(stale.stderr).toContain('changed since the replay')
    await rm(elsewhere, { recursive: true, force: true })
  })

  it('qa replay --verify --update-baselines accepts in one go; the next replay is green', {
    timeout: 600_000,
  }, async () => {
    const copy = join(dir, 'cases', 'login-copy.json')
    const updated = await replay(copy, join(dir, 'r3'), ['--update-baselines'])
    expect(updated.code, `${updated.stdout}\n${updated.stderr}`).toBe(0)
    expect(updated.stderr).toMatch(/Accepted steps? .* into .*login-copy\.json/)
    const again = await replay(copy, join(dir, 'r4'))
    expect(again.code, `${again.stdout}\n${again.stderr}`).toBe(0)
  })

  it("a folder replayed with --verify keeps each case's report, which qa accept takes; the folder is then green", {
    timeout: 600_000,
  }, async () => {
    const folder = join(dir, 'suite')
    const reportDir = join(dir, 'r5')
    const args = ['replay', folder, '--base-url', release.url, '--verify', '--report-dir', reportDir]
    const red = await qa(args)
    expect(red.code, red.stderr).toBe(1)
    const runs = join(reportDir, 'runs')
    const [run] = await readdir(runs)
    const [suite] = await readdir(join(runs, run!))
    const accepted = await qa(['accept', join(runs, run!, suite!, 'report.json')])
    expect(accepted.code, accepted.stderr).toBe(0)
    const green = await qa([...args.slice(0, -1), join(dir, 'r6')])
    expect(green.code, `${green.stdout}\n${green.stderr}`).toBe(0)
  })
})
