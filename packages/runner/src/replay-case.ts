import { join, relative, resolve } from 'node:path'
import type { QaConfig, ReplayReport, TestCase } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import type { WebReplayOutcome, WebStepEvent } from '@qa/recorder-cdp'
import type { DesktopReplayOutcome, DesktopSession, DesktopStepEvent } from '@qa/recorder-desktop'
import type { ReportFormat, VisionReverifier } from '@qa/verifier'
import type { Browser, Page } from 'playwright-core'
import type { LocateOptions } from './web-replayer'
import { type DesktopVisionConfig, replayDesktopSuite } from './desktop-replayer'
import { replayWebSuite, webReplayerOptionsOf } from './web-replayer'

type Size = { width: number; height: number }
type Env = Readonly<Record<string, string | undefined>>

/** Where the reports of a replay go, when `replayCase` writes them (the runner writes its own: `null`). */
export interface ReplayCaseReports {
  /** Default: the config's `replay.reportDir`. */
  dir?: string
  /** Default: the config's `replay.reportFormats`. */
  formats?: readonly ReportFormat[]
  /** File name without extension (default: `replay_<session>`). */
  baseName?: string
  /** Screenshot paths of the report are relative to this folder (default: the case's folder; null: as given). */
  baseDir?: string | null
}

/** What only the caller of one replay knows: its flags, its environment, what it already has open. */
export interface ReplayCaseRun {
  /** Compare each step with its recorded screenshot (`--verify`). */
  verify: boolean
  /** Where `secret_env` steps read their secrets (and, on desktop, `DISPLAY`). */
  env: Env
  /** Web: the start URL exactly as given; later recorded URLs on the recorded origin move onto its origin. */
  url?: string
  /** Web: every recorded URL on the case's recorded origin moves onto this base. */
  baseUrl?: string
  /** Web: this viewport whatever the case recorded (`--viewport`). */
  viewport?: Size
  /** Web: show the browser window (`--headed`). */
  headed?: boolean
  /** Web: the vision second opinion on steps below the threshold (null: none). */
  reverifier?: VisionReverifier | null
  /** Web: replay on this page as it is (a Playwright test's page); else a browser is opened. */
  page?: Page
  /** Web: open the case's context in this browser; else the replay launches its own and closes it. */
  browser?: Browser
  /** Decide a compared step on its expected region (default true); false: on the whole screen. */
  verifyRegion?: boolean
  /** Web: the cascade's tuning. */
  locate?: LocateOptions
  /** Desktop: the vision configuration of the cascade (semantic match, OCR, re-verification). */
  vision?: DesktopVisionConfig
  /** Desktop: an open desktop; else one is opened on `display` (default `DISPLAY` of `env`) and closed after. */
  desktop?: DesktopSession
  /** Desktop: the X display to open. */
  display?: string
  /** Desktop: write the case with its verified heals to this new file (needs `verify`). */
  saveHeals?: string
  /** Replace an existing `saveHeals` file. */
  overwrite?: boolean
  /** Keep what `qa accept` needs in the report (the case's hash, each step's screens; default: with `verify`). */
  acceptance?: boolean
  /** Step screenshots (actual, diff) go here (default: `<reports dir>/artifacts`; null: none kept). */
  artifactDir?: string | null
  /** The reports `replayCase` writes (default: the config's folder and formats); null: none written. */
  reports?: ReplayCaseReports | null
  /** Aborted on cancel: the replay stops and releases its page or display. */
  signal?: AbortSignal
  /** Lines for the person: the case started, warnings. */
  onProgress?: (line: string) => void
  onStepStart?: (event: { index: number; total: number; action: TestCase['actions'][number] }) => void
  /** Web: each step replayed. */
  onStep?: (event: WebStepEvent) => void
  /** Desktop: each step replayed. */
  onDesktopStep?: (event: DesktopStepEvent) => void
}

/** A case already read: its file, its folder (screenshot paths are relative to it) and its content. */
export interface CaseAtHand {
  file: string
  dir: string
  testCase: TestCase
}

export interface ReplayCaseOutcome {
  loaded: CaseAtHand
  report: ReplayReport
  passed: boolean
  /** The reports written (absolute paths); empty when `reports` is null. */
  reportFiles: Partial<Record<ReportFormat, string>>
  /** The web replay's outcome (healed case, acceptance steps), or null for a desktop case. */
  web: WebReplayOutcome | null
  /** The desktop replay's outcome (results, warnings, heals), or null for a web case. */
  desktop: DesktopReplayOutcome | null
  /** Heals written to `saveHeals` (0 without it). */
  healsSaved: number
}

/** A replayed case before its reports are written. */
interface Replayed {
  report: ReplayReport
  passed: boolean
  web: WebReplayOutcome | null
  desktop: DesktopReplayOutcome | null
  healsSaved: number
}

/**
 * Replays one recorded case, the one path every route takes (`qa replay` of a case, a folder or a shard, the
 * demo, `qa serve`, `qa worker`, `qa mcp`, `@qa/playwright`): reads the file, picks the surface (web or
 * desktop), opens what it needs (a browser context, the display), replays with the config's thresholds, masks,
 * timeouts and limits, verifies, and writes the reports.
 */
export async function replayCase(
  file: string | CaseAtHand,
  config: QaConfig,
  run: ReplayCaseRun,
): Promise<ReplayCaseOutcome> {
  const loaded = typeof file === 'string' ? await loadTestCase(file) : file
  const reports = run.reports === null ? null : (run.reports ?? {})
  const reportDir = reports ? resolve(reports.dir ?? config.replay.reportDir) : null
  const artifactDir = run.artifactDir !== undefined ? run.artifactDir : reportDir ? join(reportDir, 'artifacts') : null
  const replayed =
    loaded.testCase.platform === 'web'
      ? await replayWebOf(loaded, config, run, artifactDir)
      : await replayDesktopOf(loaded, config, run, artifactDir)
  let reportFiles: Partial<Record<ReportFormat, string>> = {}
  if (reports && reportDir) {
    relativizeAcceptance(replayed.report, reportDir)
    const { writeReports } = await import('@qa/verifier')
    const baseDir = reports.baseDir === undefined ? loaded.dir : reports.baseDir
    reportFiles = await writeReports(replayed.report, reportDir, reports.formats ?? config.replay.reportFormats, {
      ...(baseDir !== null ? { baseDir } : {}),
      ...(reports.baseName ? { baseName: reports.baseName } : {}),
    })
  }
  return { loaded, reportFiles, ...replayed }
}

/**
 * The report as `qa accept` reads it from disk: the paths of `acceptance` relative to the report's folder and
 * the case path too (the report folder and the cases may move together, as CI artifacts).
 */
function relativizeAcceptance(report: ReplayReport, reportDir: string): void {
  const a = report.acceptance
  if (!a) return
  const rel = (p: string) => relative(reportDir, p).split('\\').join('/') || '.'
  a.caseFile = rel(a.caseFile)
  for (const s of a.steps) {
    if (s.screenshotBefore) s.screenshotBefore = rel(s.screenshotBefore)
    if (s.screenshotAfter) s.screenshotAfter = rel(s.screenshotAfter)
  }
}

async function replayWebOf(
  loaded: CaseAtHand,
  config: QaConfig,
  run: ReplayCaseRun,
  artifactDir: string | null,
): Promise<Replayed> {
  const options = webReplayerOptionsOf(config, {
    verify: run.verify,
    env: run.env,
    ...(run.headed !== undefined ? { headed: run.headed } : {}),
    ...(run.baseUrl ? { baseUrl: run.baseUrl } : {}),
    ...(run.reverifier ? { reverifier: run.reverifier } : {}),
    ...(run.viewport ? { viewport: run.viewport } : {}),
  })
  const outcome = await replayWebSuite(
    {
      testCase: loaded.testCase,
      caseDir: loaded.dir,
      caseFile: loaded.file,
      artifactDir,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.onStep ? { onStep: run.onStep } : {}),
      ...(run.onStepStart ? { onStepStart: run.onStepStart } : {}),
    },
    {
      ...options,
      ...(run.url ? { startUrl: run.url } : {}),
      ...(run.verifyRegion !== undefined ? { verifyRegion: run.verifyRegion } : {}),
      ...(run.locate ? { locate: run.locate } : {}),
      acceptance: run.acceptance ?? true,
      ...(run.page ? { page: run.page } : run.browser ? { browser: run.browser } : {}),
    },
    run.onProgress,
  )
  return { report: outcome.report, passed: outcome.passed, web: outcome, desktop: null, healsSaved: 0 }
}

async function replayDesktopOf(
  loaded: CaseAtHand,
  config: QaConfig,
  run: ReplayCaseRun,
  artifactDir: string | null,
): Promise<Replayed> {
  const mod = await import('@qa/recorder-desktop')
  if (!run.vision)
    throw new Error(`${loaded.file} is a ${loaded.testCase.platform} case: its replay needs the vision configuration.`)
  const outcome = await replayDesktopSuite(
    {
      testCase: loaded.testCase,
      caseDir: loaded.dir,
      caseFile: loaded.file,
      artifactDir,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.onDesktopStep ? { onStep: run.onDesktopStep } : {}),
    },
    {
      vision: run.vision,
      verify: run.verify,
      ...(run.verifyRegion !== undefined ? { verifyRegion: run.verifyRegion } : {}),
      ...mod.desktopReplaySettingsOf(config),
      env: { ...run.env, ...(run.display ? { DISPLAY: run.display } : {}) },
      learnHeals: run.saveHeals !== undefined && run.verify,
    },
    run.desktop ?? null,
    run.onProgress,
  )
  const healsSaved = run.saveHeals
    ? await mod.saveDesktopHeals({
        testCase: loaded.testCase,
        caseDir: loaded.dir,
        heals: outcome.heals,
        outPath: run.saveHeals,
        overwrite: run.overwrite ?? false,
      })
    : 0
  return { report: outcome.report, passed: outcome.passed, web: null, desktop: outcome, healsSaved }
}
