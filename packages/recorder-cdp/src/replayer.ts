import type { LocateOptions } from '@qa/matcher'
import type { Action, TestCase } from '@qa/model'
import type { VerdictPolicy, VisionReverifier } from '@qa/verifier'
import type { Page } from 'playwright-core'
import { playwrightReplayPage } from './playwright-replay-page'
import { planUrls } from './url-plan'
import { replayOnPage, type WebReplayOutcome, type WebStepEvent } from './web-replay-loop'

export type { WebReplayOutcome, WebStepEvent } from './web-replay-loop'

export interface WebReplayOptions {
  page: Page
  /** Folder of the case file: the case's screenshot paths are relative to it. */
  caseDir: string
  caseFile?: string
  /**
   * The start URL of this case, exactly as given (path, query, hash); later recorded URLs on the recorded
   * start's origin move onto its origin, keeping their own paths (`planUrls`).
   */
  url?: string
  /** Every recorded URL on the case's recorded origin, the start included, moves onto this base (`planUrls`). */
  baseUrl?: string
  /** Compare every step's screen with its recorded after-screenshot (SPEC §6). */
  verify?: boolean
  /**
   * Decide each verified step on its expected region (default true, issue 14): the recorded element's region
   * and the change it caused, moved as far as the element moved. false: seed 000's whole-screen flow (the demo's
   * restyled v2, which no pixel region can confirm without a vision provider).
   */
  verifyRegion?: boolean
  reverifier?: VisionReverifier | null
  policy?: VerdictPolicy
  /** Ignore-masks etc. for comparisons. */
  compareIgnore?: { x: number; y: number; width: number; height: number }[]
  /** Where actual and diff screenshots of non-passing steps go (the report folder). */
  artifactDir?: string | null
  /** Keep the actual screenshot of every step in artifactDir (`always`), or only of steps that did not pass. */
  keepActual?: 'always' | 'non-pass'
  /** Time an element gets to become actionable (visible, stable, enabled, receiving events). Default 5000. */
  actionTimeoutMs?: number
  /** Where secrets of password steps are read from (`secret_env`). The CLI passes process.env. */
  env?: Readonly<Record<string, string | undefined>>
  locate?: LocateOptions
  /**
   * Where the files of steps that chose files in a file chooser (`files`) are read from, by name; default: the
   * case's folder.
   */
  filesDir?: string
  /** Settle after each step: DOM quiet for this long (default 150 ms). */
  settleQuietMs?: number
  /**
   * When to settle (default `adaptive`). `always`: after every step. `adaptive`: after a step that navigated,
   * before every verified screenshot, and before a step whose element was not found at once by the first
   * strategy (the cascade then runs again on the settled page, so a heal never happens on a page that was
   * still changing); after a step that started requests, until they finished; otherwise straight on.
   */
  settle?: 'adaptive' | 'always'
  onStep?: (event: WebStepEvent) => void
  /** Called before each step runs (progress display). */
  onStepStart?: (event: { index: number; total: number; action: Action }) => void
}

/**
 * Replays a web case in a real page: per action, the self-healing cascade of @qa/matcher over the live DOM
 * (role+name → aria-label → name → test id → CSS → XPath → text → similarity), Playwright's actionability
 * waits, the input, a settle, and (with `verify`) the screenshot verdict of @qa/verifier. Never stops at a
 * failing step. The loop is `replayOnPage`; the Playwright page is its `playwrightReplayPage` adapter.
 */
export async function replayWebCase(testCase: TestCase, opts: WebReplayOptions): Promise<WebReplayOutcome> {
  const urls = planUrls({ recordedStart: testCase.startUrl, url: opts.url, baseUrl: opts.baseUrl })
  const adaptive = (opts.settle ?? 'adaptive') === 'adaptive'
  const page = playwrightReplayPage({
    page: opts.page,
    caseDir: opts.caseDir,
    urls,
    adaptive,
    ...(opts.actionTimeoutMs !== undefined ? { actionTimeoutMs: opts.actionTimeoutMs } : {}),
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.locate ? { locate: opts.locate } : {}),
    ...(opts.filesDir !== undefined ? { filesDir: opts.filesDir } : {}),
    ...(opts.settleQuietMs !== undefined ? { settleQuietMs: opts.settleQuietMs } : {}),
    ...(opts.verify ? { verify: true } : {}),
  })
  return replayOnPage(testCase, page, {
    startUrl: urls.start,
    caseDir: opts.caseDir,
    ...(opts.caseFile !== undefined ? { caseFile: opts.caseFile } : {}),
    ...(opts.verify !== undefined ? { verify: opts.verify } : {}),
    ...(opts.verifyRegion !== undefined ? { verifyRegion: opts.verifyRegion } : {}),
    ...(opts.reverifier !== undefined ? { reverifier: opts.reverifier } : {}),
    ...(opts.policy ? { policy: opts.policy } : {}),
    ...(opts.compareIgnore ? { compareIgnore: opts.compareIgnore } : {}),
    ...(opts.artifactDir !== undefined ? { artifactDir: opts.artifactDir } : {}),
    ...(opts.keepActual ? { keepActual: opts.keepActual } : {}),
    ...(opts.settle ? { settle: opts.settle } : {}),
    ...(opts.onStep ? { onStep: opts.onStep } : {}),
    ...(opts.onStepStart ? { onStepStart: opts.onStepStart } : {}),
  })
}
