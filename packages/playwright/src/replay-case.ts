import type { LocateOptions } from '@qa/matcher'
import { DEFAULT_CONFIG, type QaConfig, serializeTestCase } from '@qa/model'
import type { WebReplayOutcome } from '@qa/recorder-cdp'
import { replayCase as replayCaseOnce } from '@qa/runner/replay-case'
import type { Rect, VerdictPolicy, VisionReverifier } from '@qa/verifier'
import type { Page } from 'playwright-core'
import { PlaywrightQaError } from './errors'
import type { HealRecord } from './heal'
import { type CaseRef, loadRecordedCase } from './recorded-case'
import { attachJson, currentTestInfo } from './test-info'

export interface ReplayCaseOptions {
  /** The start URL, exactly as given; later recorded URLs on the recorded origin move onto its origin. */
  url?: string
  /**
   * Every recorded URL on the recorded origin moves onto this base. Default: the test's `use.baseURL`, as
   * `page.goto` honours it; the recorded origin only when neither is set.
   */
  baseUrl?: string
  /** Compare each step's screen with its recorded after-screenshot (default true). */
  verify?: boolean
  reverifier?: VisionReverifier | null
  policy?: VerdictPolicy
  /** Regions to ignore (clocks, counters), in screenshot pixels: the config's `verify.masks`. */
  ignore?: Rect[]
  /** Where the secrets of password steps are read from (`secret_env`); pass `process.env` to use yours. */
  env?: Readonly<Record<string, string | undefined>>
  /** Time an element gets to become actionable (default 5000 ms). */
  actionTimeoutMs?: number
  locate?: LocateOptions
  /**
   * Throw PW_CASE_FAILED when a step failed (default true). false: return the outcome, whose `passed` and
   * `report` say which steps failed (soft checks, comparing routes).
   */
  throwOnFailure?: boolean
}

/** What the reporter reads: where the replay report of one case was written. */
export interface ReplayAttachment {
  caseFile: string
  caseDir: string
  reportJson: string
  passed: boolean
  healedSteps: number[]
}

/** The options as the config `qa replay` would resolve from them: thresholds, masks and timeout over the defaults. */
function configOf(opts: ReplayCaseOptions): QaConfig {
  return {
    ...DEFAULT_CONFIG,
    verify: {
      ...DEFAULT_CONFIG.verify,
      ...(opts.policy?.passSimilarity !== undefined ? { passSimilarity: opts.policy.passSimilarity } : {}),
      ...(opts.policy?.fallbackSimilarity !== undefined ? { fallbackSimilarity: opts.policy.fallbackSimilarity } : {}),
      ...(opts.ignore ? { masks: opts.ignore.map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })) } : {}),
    },
    replay: {
      ...DEFAULT_CONFIG.replay,
      ...(opts.actionTimeoutMs ? { actionTimeoutMs: opts.actionTimeoutMs } : {}),
    },
  }
}

/**
 * Replays a recorded web case inside a Playwright test, on the test's own page: every step located by qa's
 * healing cascade, its assertions polled, each screen verified against the recording. Every heal is
 * attached (`qa-heal`), the replay report too (`qa-replay`), and the case with its verified heals learnt
 * (`qa-healed-case`, which the reporter writes back only when the test passed). Throws PW_CASE_FAILED naming
 * the failed steps; never stops at the first one.
 */
export async function replayCase(page: Page, ref: CaseRef, opts: ReplayCaseOptions = {}): Promise<WebReplayOutcome> {
  const recorded = await loadRecordedCase(ref)
  if (recorded.testCase.platform !== 'web') {
    throw new PlaywrightQaError(
      'PW_NOT_A_WEB_CASE',
      `${recorded.file} is a ${recorded.testCase.platform} case; replayCase runs web cases.`,
    )
  }
  const info = currentTestInfo()
  const artifactDir = info ? info.outputPath('qa-replay') : null
  const verify = opts.verify ?? true
  // the app under test is where Playwright's baseURL points, not where the case was recorded
  const configured = info?.project.use.baseURL
  const baseUrl = opts.baseUrl ?? (typeof configured === 'string' && configured !== '' ? configured : undefined)
  // the one replay path of `qa replay`, on the test's own page: the options as a config over the defaults, the
  // report (JSON) beside the test's other outputs, no acceptance record (the reporter learns heals instead)
  const replayed = await replayCaseOnce(recorded, configOf(opts), {
    page,
    ...(opts.url ? { url: opts.url } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    verify,
    reverifier: opts.reverifier ?? null,
    env: opts.env ?? {},
    ...(opts.locate ? { locate: opts.locate } : {}),
    acceptance: false,
    artifactDir,
    reports: info && artifactDir ? { dir: artifactDir, formats: ['json'], baseName: 'report', baseDir: null } : null,
  })
  const outcome = replayed.web as WebReplayOutcome
  for (const [index, r] of outcome.replayResults.entries()) {
    const tried = r.strategiesTried ?? []
    if (tried.length === 0) continue
    const first = tried.find((a) => a.outcome !== 'skipped')
    const identity = recorded.testCase.actions[index]?.identity
    const name = identity?.axName || identity?.textContent || identity?.placeholder || ''
    const heal: HealRecord = {
      target: `${identity?.axRole ?? identity?.tagName ?? 'element'}${name ? ` "${name.slice(0, 60)}"` : ''}`,
      caseFile: recorded.file,
      actionIndex: index,
      strategy: r.method,
      confidence: r.matchConfidence ?? 0,
      healed: !(first && first.outcome === 'matched' && first.strategy === r.method),
      locator: '',
      stable: false,
      attempts: tried,
    }
    await attachJson('qa-heal', heal)
  }
  if (info && artifactDir) {
    const attachment: ReplayAttachment = {
      caseFile: recorded.file,
      caseDir: recorded.dir,
      reportJson: replayed.reportFiles.json ?? '',
      passed: outcome.passed,
      healedSteps: outcome.healedSteps,
    }
    await attachJson('qa-replay', attachment)
    if (outcome.healedSteps.length > 0)
      await attachJson('qa-healed-case', { caseFile: recorded.file, testCase: serializeTestCase(outcome.healedCase) })
  }
  if (!outcome.passed && opts.throwOnFailure !== false) {
    const failed = outcome.report.verificationResults
      .filter((v) => v.finalResult === 'fail')
      .map((v) => `actions[${v.actionIndex}] ${v.actionDescription}: ${v.reason ?? 'failed'}`)
    throw new PlaywrightQaError(
      'PW_CASE_FAILED',
      `${recorded.file}: ${failed.length} step(s) failed:\n${failed.map((f) => `  - ${f}`).join('\n')}`,
    )
  }
  return outcome
}
