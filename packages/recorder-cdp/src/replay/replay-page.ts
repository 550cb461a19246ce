import type { LocateResult } from '@qa/matcher'
import type { Action, AssertionCheck, BoundingBox, ElementIdentity, ReplayResult, Selectors } from '@qa/model'

/** What the replay loop needs to know of a located element: where it is now. */
export interface LocatedElement {
  readonly boundingBox?: BoundingBox | null
  /** What the element is (its tag and input type), where the page tells. */
  readonly tagName?: string | null
  readonly type?: string | null
}

/** How a step's target was located (the cascade's answer), or null when the step has no target. */
export type LocatedTarget = LocateResult<LocatedElement>

/** The live identity of the element a step healed to, captured before its input (learnt when verified). */
export interface HealedIdentity {
  identity: ElementIdentity
  selectors: Selectors
}

/**
 * The browser page the web replay loop drives (the port; `playwrightReplayPage` is the real adapter, over
 * Playwright and CDP). The loop owns the order of things — settle, verification, verdicts, bookkeeping, learning
 * heals — and the page owns how a step is done: locating its element through the cascade and giving the input.
 */
export interface ReplayPage {
  /** Opens the start URL; throws an error that says why when the page cannot be reached. */
  open(url: string): Promise<void>
  /**
   * Waits until the page is quiet: loaded, the DOM unchanged for a while, and its finite CSS transitions and
   * animations over. `finiteAnimations: false` leaves out the last wait: the screenshot that follows fast-forwards
   * them to their end (Playwright's `animations: 'disabled'`), which is the look the wait would have ended on.
   */
  settle(opts?: { finiteAnimations?: boolean }): Promise<void>
  /** Waits until the document a navigation brought has its DOM (`DOMContentLoaded`), nothing more. */
  domLoaded(): Promise<void>
  /** The screen now, as PNG, with the fields secrets were typed into painted over. */
  screenshot(): Promise<Uint8Array>
  /** Why the browser can run no more steps (it crashed), or null. */
  lost(): string | null
  /** Asks the browser now whether it is still there: why it is gone, or null. */
  checkLost(): Promise<string | null>
  /** The browser is gone or the page was closed: nothing to settle or to wait for. */
  gone(): boolean
  /**
   * Starts a step: from now the page watches what it causes (navigations, requests, dialogs, new pages).
   * `quick`: a "not found" step came before and the page has not changed since: locate once, with no settle and
   * no second look (the root cause is named first, without waiting again). `nativeListOpen`: the last step's click opened the native list of
   * the `<select>` this step picks in (`opensNativeListFor`): the page closes that list after the pick, as the
   * person's pick in it did, so it does not stay drawn over the page. `onScrolledIntoView`: called when the page
   * scrolled the step's target into view, before its input (a verified step takes its screen before again: the
   * recording's screen before was taken where the person saw the target, and the scroll is not the step's change).
   */
  startStep(action: Action, opts?: StepStartOptions): ReplayPageStep
  /**
   * What the page is now, as a short string that changes when the page changes (URL and a hash of the DOM); null
   * when it cannot be told. Compared after a "not found" step to give the steps after it no wait.
   */
  fingerprint?(): Promise<string | null>
  /** Stops every watcher; the page itself stays open (its owner closes it). */
  dispose(): Promise<void>
}

/** How `ReplayPage.startStep` starts a step. */
export interface StepStartOptions {
  quick?: boolean
  nativeListOpen?: boolean
  onScrolledIntoView?: () => Promise<void>
}

/** One step on a `ReplayPage`, from `startStep` to `end`. */
export interface ReplayPageStep {
  /**
   * Locates the step's target and gives its input. Fills `result` as it goes (method, coordinates, strategies
   * tried, confidence, a warning); throws when the step cannot run (the message says why). Returns how the
   * target was located, or null for a step without one (a key, a navigation, a wait).
   */
  run(result: ReplayResult): Promise<LocatedTarget | null>
  /** An assert step: what its condition check found (set by `run`, also when it throws). */
  readonly assertion: AssertionCheck | null
  /** A healed step under verification: the live identity of the element it healed to, captured before its input. */
  readonly healedIdentity: HealedIdentity | null
  /**
   * After a click (with verification): the box of the control the step brought under the resting pointer, when it
   * is not the target (a menu closed and the button behind it is where the pointer is); null otherwise. Whether it
   * shows its hover look depends on when the browser updates it, so the verdict compares it through a colour map.
   */
  restingHover?(): Promise<BoundingBox | null>
  /** The page navigated since the step started. */
  navigated(): boolean
  /** The step started requests. */
  requested(): boolean
  /** Waits until the requests the step started are done (at most the step timeout). */
  requestsIdle(): Promise<void>
  /** Stops watching the step; tells whether a dialog opened while it was watched. */
  end(): { dialogSeen: boolean }
}
