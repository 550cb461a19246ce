import type { LocateOptions } from '@qa/matcher'
import type { AssertionCheck } from '@qa/model'
import type { JSHandle, Page } from 'playwright-core'
import type { CapturedElement, CdpIdentityReader } from '../browser/cdp-identity'
import type { PointerAim } from './pointer-aim'
import type { UrlPlan } from './url-plan'

export interface PlaywrightReplayPageOptions {
  /** The page the replay starts in (a step recorded opening a page moves it into that page). */
  page: Page
  /** Folder of the case file: element crops are relative to it, and so are chosen files by default. */
  caseDir: string
  /** The case's URLs: recorded URLs on the recorded origin move as `planUrls` says. */
  urls: UrlPlan
  /** Time an element gets to become actionable (visible, stable, enabled, receiving events). Default 5000. */
  actionTimeoutMs?: number
  /** Where secrets of password steps are read from (`secret_env`). */
  env?: Readonly<Record<string, string | undefined>>
  locate?: LocateOptions
  /** Where the files of steps that choose files are read from, by name; default: the case's folder. */
  filesDir?: string
  /** Settle: DOM quiet for this long (default 150 ms). */
  settleQuietMs?: number
  /** Settle before healing: a step whose element was not found at once is located again on the settled page. */
  adaptive?: boolean
  /** The replay verifies its steps: a healed step's live identity is captured before its input (to be learnt). */
  verify?: boolean
  /**
   * A step imported from DevTools whose element none of its selectors names and no strategy finds is acted on at
   * its recorded point (`--allow-coordinates`), and fails when that lands on the page itself; default off: it fails.
   */
  allowCoordinates?: boolean
}

/** What the Playwright replay page keeps from one step to the next (and across the files that do a step). */
export interface ReplayState {
  reader: CdpIdentityReader | null
  /** The live identity of the element a step healed to, captured before its input; learnt if verified. */
  pendingIdentity: CapturedElement | null
  /** What an assert step found: its verdict comes from the condition, not from a screenshot. */
  assertion: AssertionCheck | null
  /** The step runs after a "not found" step on a page unchanged since: located once, no settle: the root cause is named first, without waiting again. */
  quick: boolean
  /** Where the step's click leaves the pointer and what was under it before (verification only). */
  aim: JSHandle<PointerAim | null> | null
  /** The last step's click opened a `<select>`'s native list, whose choice this step makes (`ReplayPage.startStep`). */
  nativeListOpen: boolean
  /** Called when the step scrolled its target into view, before its input (`ReplayPage.startStep`). */
  onScrolledIntoView: (() => Promise<void>) | null
}

/**
 * What the step code of `playwrightReplayPage` reads: the page steps happen in now (a step recorded opening a page
 * moves the replay there), the adapter's options and defaults, and the state kept across steps.
 */
export interface StepContext {
  readonly page: Page
  readonly opts: PlaywrightReplayPageOptions
  /** Time an element gets to become actionable (`actionTimeoutMs`). */
  readonly timeout: number
  /** Where secrets are read from (`env`, default none). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Settle before healing (`adaptive`). */
  readonly adaptive: boolean
  readonly state: ReplayState
}
