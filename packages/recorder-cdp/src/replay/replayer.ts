import type { TestCase } from '@qa/model'
import { type PlaywrightReplayPageOptions, playwrightReplayPage } from './playwright-replay-page'
import { planUrls } from './url-plan'
import { replayOnPage, type WebReplayLoopOptions, type WebReplayOutcome } from './web-replay-loop'

export type { WebReplayOutcome, WebStepEvent } from './web-replay-loop'

/** `replayOnPage`'s options (but the start URL, which comes from `url`/`baseUrl`) and the Playwright page's. */
export interface WebReplayOptions
  extends Omit<WebReplayLoopOptions, 'startUrl'>,
    Pick<
      PlaywrightReplayPageOptions,
      'page' | 'actionTimeoutMs' | 'env' | 'locate' | 'filesDir' | 'settleQuietMs' | 'allowCoordinates'
    > {
  /**
   * The start URL of this case, exactly as given (path, query, hash); later recorded URLs on the recorded
   * start's origin move onto its origin, keeping their own paths (`planUrls`).
   */
  url?: string
  /** Every recorded URL on the case's recorded origin, the start included, moves onto this base (`planUrls`). */
  baseUrl?: string
}

/**
 * Replays a web case in a real page: per action, the self-healing cascade of @qa/matcher over the live DOM
 * (role+name → aria-label → name → test id → CSS → XPath → text → similarity), Playwright's actionability
 * waits, the input, a settle, and (with `verify`) the screenshot verdict of @qa/verifier. Never stops at a
 * failing step. The loop is `replayOnPage`; the Playwright page is its `playwrightReplayPage` adapter.
 */
export async function replayWebCase(testCase: TestCase, opts: WebReplayOptions): Promise<WebReplayOutcome> {
  const { page, url, baseUrl, actionTimeoutMs, env, locate, filesDir, settleQuietMs, allowCoordinates, ...loop } = opts
  const urls = planUrls({ recordedStart: testCase.startUrl, url, baseUrl })
  const replayPage = playwrightReplayPage({
    page,
    caseDir: opts.caseDir,
    urls,
    adaptive: (opts.settle ?? 'adaptive') === 'adaptive',
    ...(actionTimeoutMs !== undefined ? { actionTimeoutMs } : {}),
    ...(env ? { env } : {}),
    ...(locate ? { locate } : {}),
    ...(filesDir !== undefined ? { filesDir } : {}),
    ...(settleQuietMs !== undefined ? { settleQuietMs } : {}),
    ...(opts.verify ? { verify: true } : {}),
    ...(allowCoordinates ? { allowCoordinates: true } : {}),
  })
  return replayOnPage(testCase, replayPage, { ...loop, startUrl: urls.start })
}
