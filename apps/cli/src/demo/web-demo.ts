import { join, resolve } from 'node:path'
import type { ReplayReport, ReplayResult } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import { DEFAULT_CONFIG, type QaConfig } from '@qa/model'
import { createWebRecorder, openBrowser, type WebReplayOutcome, type WebStepEvent } from '@qa/recorder-cdp'
import { replayCase } from '@qa/runner'
import { startSampleApp, versionPresets } from '@qa/sample-app'
import type { ReportFormat } from '@qa/verifier'
import type { Locator, Page } from 'playwright-core'
import { resetDemoFolder } from './demo-folder'

export interface WebDemoOptions {
  /** Folder for the recorded case, its screenshots and the reports (replaced on every run). */
  outDir: string
  executablePath?: string
  onProgress?: (line: string) => void
  onStep?: (event: WebStepEvent) => void
  onStepStart?: (event: { index: number; total: number; description: string }) => void
}

export interface DemoStepSummary {
  index: number
  description: string
  verdict: string
  method: ReplayResult['method']
  healed: boolean
  confidence: number
  /** The strategies that failed before the winning one, e.g. `role: none`. */
  failedFirst: string[]
  error?: string
}

/** One line of the demo summary per replayed step: verdict, how the element was found, what failed first. */
export function summarizeDemoSteps(
  report: ReplayReport,
  results: readonly ReplayResult[],
  actions: readonly { description: string }[],
): DemoStepSummary[] {
  return results.map((r, i) => {
    const tried = (r.strategiesTried ?? []).filter((a) => a.outcome !== 'skipped' && a.outcome !== 'matched')
    const step: DemoStepSummary = {
      index: i,
      description: actions[i]?.description ?? '',
      verdict: report.verificationResults[i]?.finalResult ?? 'unknown',
      method: r.method,
      healed: r.success && tried.length > 0,
      confidence: r.matchConfidence,
      failedFirst: tried.map((a) => `${a.strategy}: ${a.outcome}`),
    }
    if (r.errorMessage) step.error = r.errorMessage
    return step
  })
}

export interface WebDemoResult {
  caseFile: string
  reportFiles: Partial<Record<ReportFormat, string>>
  report: ReplayReport
  steps: DemoStepSummary[]
  passed: boolean
  recordMs: number
  replayMs: number
}

/**
 * The redesign the demo replays on: the sample app's v2, every mutation but `removal` at once (renamed ids and
 * classes, wrappers, an 80 px layout shift, reworded labels, tag changes, decoys, reordered blocks).
 */
const DEMO_REDESIGN = versionPresets.v2

/** The demo's password; the recorded case stores only the variable's name. */
const DEMO_SECRET_ENV = 'QA_SECRET_PASSWORD'

/** The demo's config: the defaults, on this Chromium. */
function demoConfig(executablePath: string | undefined): QaConfig {
  return executablePath
    ? { ...DEFAULT_CONFIG, browser: { ...DEFAULT_CONFIG.browser, chromiumPath: executablePath } }
    : DEFAULT_CONFIG
}

/** Where a person would click on an element: its centre. */
async function centre(locator: Locator): Promise<[number, number]> {
  await locator.waitFor({ state: 'visible', timeout: 10_000 })
  const box = await locator.boundingBox()
  if (!box) throw new Error(`The demo could not see ${locator}.`)
  return [box.x + box.width / 2, box.y + box.height / 2]
}

/**
 * `qa demo`: serves the bundled sample app (v1) on loopback, records a scripted flow (login, search, item
 * detail, settings) through the real recorder, switches the app to v2 (renamed ids and classes, moved and
 * reworded buttons, new decoy buttons, extra wrappers, a layout shift, reordered blocks), replays with healing
 * and verification, and writes the reports.
 */
export async function runWebDemo(opts: WebDemoOptions): Promise<WebDemoResult> {
  const log = opts.onProgress ?? (() => undefined)
  const outDir = resolve(opts.outDir)
  await resetDemoFolder(outDir)
  const caseFile = join(outDir, 'sample-app-flow.json')
  const app = await startSampleApp({ version: 'v1' })
  try {
    log(`Sample app (v1) at ${app.url}`)
    const recordStarted = performance.now()
    const session = await openBrowser({ ...(opts.executablePath ? { executablePath: opts.executablePath } : {}) })
    try {
      const page: Page = session.page
      const rec = await createWebRecorder(page, {
        caseFile,
        name: '샘플 앱: 로그인 → 아이템 → 설정 저장',
        description: 'Recorded by qa demo on the sample app v1.',
        tags: ['demo'],
      })
      await rec.start(`${app.url}/login`)
      const click = async (locator: Locator) => {
        const [x, y] = await centre(locator)
        await rec.click(x, y)
      }
      log('Recording on v1: login, search, item detail, settings …')
      await click(page.getByLabel('아이디'))
      await rec.type('qa-tester')
      await click(page.getByLabel('비밀번호'))
      await rec.type('demo-pass')
      await click(page.getByRole('button', { name: '로그인', exact: true }))
      // On the redesign a same-sized decoy input (태그 필터) takes the search box's place, and the box moves
      // 280 px away under a new label: healed by its form name and its label (아이템 검색).
      await click(page.getByRole('searchbox'))
      await rec.type('전설')
      await click(page.locator('[role="button"], button').filter({ hasText: '전설의 검' }).first())
      await click(page.getByRole('link', { name: '설정', exact: true }))
      const [lx, ly] = await centre(page.getByLabel('언어'))
      await rec.select(lx, ly, 'English')
      await click(page.getByLabel('알림 받기'))
      await click(page.getByRole('button', { name: '저장', exact: true }))
      await rec.save({ overwrite: true })
      await rec.close()
    } finally {
      await session.close()
    }
    const recordMs = performance.now() - recordStarted
    const loaded = await loadTestCase(caseFile)
    log(`Recorded ${loaded.testCase.actions.length} steps into ${caseFile}`)

    app.setMutations(DEMO_REDESIGN)
    log(`Redesigned the app (${DEMO_REDESIGN.join(', ')})`)
    const replayStarted = performance.now()
    // the one replay path of `qa replay`, on the defaults (no qa.config.json: the demo is the same everywhere)
    const replayed = await replayCase(loaded, demoConfig(opts.executablePath), {
      url: `${app.url}/login`,
      verify: true,
      // v2 restyles, renames and wraps the elements: without a vision provider no pixel region can confirm
      // them, so the demo keeps the whole-screen verdict (qa replay decides on the expected region)
      verifyRegion: false,
      // the demo's report keeps no acceptance record: `qa accept` of a demo report has nothing to accept into
      acceptance: false,
      env: { [DEMO_SECRET_ENV]: 'demo-pass' },
      reports: { dir: join(outDir, 'reports'), formats: ['json', 'txt', 'html', 'junit'], baseName: 'demo-report' },
      ...(opts.onStep ? { onStep: opts.onStep } : {}),
      onStepStart: ({ index, total, action }) => opts.onStepStart?.({ index, total, description: action.description }),
    })
    const outcome = replayed.web as WebReplayOutcome
    const replayMs = performance.now() - replayStarted
    const reportFiles = replayed.reportFiles
    const steps = summarizeDemoSteps(outcome.report, outcome.replayResults, loaded.testCase.actions)
    return { caseFile, reportFiles, report: outcome.report, steps, passed: outcome.passed, recordMs, replayMs }
  } finally {
    await app.close()
  }
}
