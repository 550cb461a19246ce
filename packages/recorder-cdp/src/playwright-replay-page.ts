import {
  describeAttempts,
  type LocateOptions,
  type LocateResult,
  locate,
  recordedTargetObjection,
  WEB_STRATEGIES,
  type WebStrategy,
} from '@qa/matcher'
import { type Action, type AssertionCheck, isClickLike, type KeyModifier, type ReplayResult } from '@qa/model'
import { resolve } from 'node:path'
import type { Frame, JSHandle, Locator, Page } from 'playwright-core'
import { pageAssertionProbe, pollAssertion } from './assert-step'
import { gotoOrExplain } from './browser/browser'
import { watchBrowserHealth } from './browser/browser-health'
import { type PlaywrightCandidate, playwrightCandidateSource } from './candidate-source'
import { closedShadowTargetOf } from './browser/cdp-closed-shadow'
import { answerDialogs } from './browser/cdp-dialogs'
import { type CapturedElement, type CdpIdentityReader, createCdpIdentityReader } from './browser/cdp-identity'
import { secretFieldsOf } from './browser/cdp-secret-fields'
import { clickSideButton, emulateNetworkConditions } from './browser/cdp-side-buttons'
import { type DevtoolsSelector, devtoolsReplayPlan, recordedDevtoolsSelectors } from './devtools'
import { type DevtoolsSelectorKind, type GroupOutcome, resolveRecordedSelectors } from './devtools-selectors'
import { WebError } from './errors'
import { answerFileChooser, filesForStep } from './browser/file-chooser'
import { adoptPage, type NewPageWatch, watchNewPages } from './browser/new-page'
import { trackPageActivity } from './browser/page-activity'
import { maskedScreenshot } from './browser/masked-screenshot'
import { settle } from './browser/settle'
import type { ReplayPage, ReplayPageStep } from './replay-page'
import { clickAsAPerson, pointOnTheElement } from './browser/styled-control'
import { targetLabel } from './record/target-label'
import type { UrlPlan } from './url-plan'
import { decodeFrame } from './browser/visual'

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

/** Steps that act on an element: an imported one resolves the recording's selectors first. */
const ELEMENT_STEPS = new Set<Action['actionType']>(['click', 'double_click', 'right_click', 'hover', 'type', 'select'])

/** The recording's selectors of an imported step and what each group named at the last look. */
interface RecordedSelectors {
  selectors: DevtoolsSelector[]
  frame: number[]
  lastOutcomes: GroupOutcome[]
}

/** What each selector group named, for a failing step's reason. */
function describeGroups(outcomes: readonly GroupOutcome[]): string {
  if (outcomes.length === 0) return 'the recording names it by no selector'
  return outcomes
    .map((o) =>
      o.error
        ? `${o.selector} could not be evaluated (${o.error})`
        : o.count === 0
          ? `${o.selector} names nothing`
          : o.count > 1
            ? `${o.selector} names ${o.count} elements, the first not visible`
            : `${o.selector} names one element, not visible`,
    )
    .join('; ')
}

const methodOfKind = (kind: DevtoolsSelectorKind): ReplayResult['method'] =>
  kind === 'aria' ? 'role' : kind === 'xpath' ? 'xpath' : kind === 'text' ? 'text' : 'css'

const round = (v: number) => Math.round(v)

/**
 * The page now as `URL#length:hash` of its DOM (FNV-1a over the markup, in the page): equal strings, same page.
 * Null when the page cannot be asked (closed, navigating).
 */
async function pageFingerprint(page: Page): Promise<string | null> {
  if (page.isClosed()) return null
  return page
    .evaluate(() => {
      const markup = document.documentElement?.outerHTML ?? ''
      let h = 2166136261
      for (let i = 0; i < markup.length; i++) h = Math.imul(h ^ markup.charCodeAt(i), 16777619)
      return `${location.href}#${markup.length}:${h >>> 0}`
    })
    .catch(() => null)
}

/** Found by the first strategy the identity allows, exactly as recorded: nothing to heal. */
/** At most this many strategies are set aside in one step because their element could not be acted on. */
const MAX_FAILED_STRATEGIES = 4

const isWebStrategy = (s: string): s is WebStrategy => (WEB_STRATEGIES as readonly string[]).includes(s)

/** The found element's box as a key (the same element answered by two strategies has one box), or null. */
function boxKey(found: LocateResult<PlaywrightCandidate>): string | null {
  const b = found.coordinateFallback ? null : found.element?.boundingBox
  return b ? `${Math.round(b.x)},${Math.round(b.y)},${Math.round(b.width)},${Math.round(b.height)}` : null
}

/**
 * Why the input on a found element failed, when that is the element's failure (Playwright could not click, fill
 * or hover it: not visible, not enabled, detached, covered, not fillable); null for our own refusals (a covered
 * target in a closed shadow root, a missing drop target), which fail the step.
 */
function actionFailure(error: unknown): string | null {
  if (error instanceof WebError) return null
  if (!(error instanceof Error)) return null
  return error.message.split('\n')[0] ?? error.message
}

function foundAtOnce(found: LocateResult<PlaywrightCandidate>): boolean {
  if (found.status !== 'found') return false
  const first = found.attempts.find((a) => a.outcome !== 'skipped')
  return first !== undefined && first.outcome === 'matched' && first.strategy === found.strategy
}

/**
 * The real `ReplayPage`: a Playwright page over CDP. Each step is located by the self-healing cascade of
 * @qa/matcher over the live DOM (role+name → aria-label → name → test id → CSS → XPath → text → similarity →
 * visual), waited for as Playwright does (visible, stable, enabled, receiving events) and given its input; it
 * follows the pages steps open, answers the dialogs and file choosers they were recorded answering, and notices a
 * crashed browser.
 */
export function playwrightReplayPage(opts: PlaywrightReplayPageOptions): ReplayPage {
  /** The page steps happen in: a step recorded with `opens_page` moves the replay into the page it opens. */
  let page = opts.page
  const timeout = opts.actionTimeoutMs ?? 5_000
  const env = opts.env ?? {}
  const urls = opts.urls
  const adaptive = opts.adaptive ?? true
  const state: {
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
  } = { reader: null, pendingIdentity: null, assertion: null, quick: false, aim: null, nativeListOpen: false }
  let watchers: {
    health: ReturnType<typeof watchBrowserHealth>
    activity: ReturnType<typeof trackPageActivity>
  } | null = null
  const watching = () => {
    if (!watchers) throw new Error('The replay page was not opened: call open(url) first.')
    return watchers
  }
  // the watchers, as the step code below names them
  const health = {
    lost: () => watching().health.lost(),
    check: (p: Page) => watching().health.check(p),
    follow: (p: Page) => watching().health.follow(p),
    release: (p: Page) => watching().health.release(p),
  }
  const restartActivity = () => {
    const w = watching()
    w.activity.dispose()
    w.activity = trackPageActivity(page)
    w.activity.mark()
  }

  return {
    async open(url) {
      await gotoOrExplain(page, url)
      watchers = { health: watchBrowserHealth(page), activity: trackPageActivity(page) }
    },
    settle: () => settle(page, opts.settleQuietMs),
    screenshot: () => maskedScreenshot(page),
    lost: () => health.lost(),
    checkLost: () => health.check(page),
    gone: () => health.lost() !== null || page.isClosed(),
    startStep,
    fingerprint: () => pageFingerprint(page),
    async dispose() {
      watchers?.activity.dispose()
      watchers?.health.dispose()
      watchers = null
      await state.reader?.detach().catch(() => undefined)
    },
  }

  function startStep(action: Action, stepOpts?: { quick?: boolean; nativeListOpen?: boolean }): ReplayPageStep {
    state.quick = stepOpts?.quick === true
    state.nativeListOpen = stepOpts?.nativeListOpen === true
    state.assertion = null
    state.pendingIdentity = null
    void state.aim?.dispose().catch(() => undefined)
    state.aim = null
    watching().activity.mark()
    const newPages = watchNewPages(page)
    /** The recorded dialog answer, given when the step opens the dialog. */
    let dialog: ReturnType<typeof answerDialogs> | null = null
    /** The recorded files, given to the file chooser the step opens. */
    let chooser: ReturnType<typeof answerFileChooser> | null = null
    const release = () => {
      newPages.dispose()
      chooser?.dispose()
    }
    return {
      get assertion() {
        return state.assertion
      },
      get healedIdentity() {
        return state.pendingIdentity
      },
      async restingHover() {
        const aim = state.aim
        state.aim = null
        if (!aim) return null
        try {
          return await page.evaluate(elementBroughtUnderPointer, aim)
        } catch {
          return null // the page navigated or the aim is gone: nothing to say
        } finally {
          await aim.dispose().catch(() => undefined)
        }
      },
      navigated: () => watching().activity.navigatedSinceMark(),
      requested: () => watching().activity.requestsSinceMark(),
      requestsIdle: () => watching().activity.idle(timeout),
      async run(result) {
        try {
          const plan = devtoolsReplayPlan(action)
          // a DevTools step names the page it runs in: the main page, or a popup by its URL
          if (plan?.target) await enterPage(plan.target)
          dialog = action.dialog ? answerDialogs(page, action.dialog) : null
          if (action.files?.length) {
            // the files first: a missing one fails the step before anything is clicked
            const paths = await filesForStep(action.files, resolve(opts.filesDir ?? opts.caseDir))
            chooser = answerFileChooser(page, paths, timeout)
          }
          const located = await runAction(action, result)
          await chooser?.settle(targetLabel(action))
          if (plan?.awaitsNavigation) await navigationCaused(action)
          if (await followNewPage(action, newPages, result)) {
            health.follow(page)
            restartActivity()
          }
          return located
        } finally {
          release()
        }
      },
      end() {
        release()
        dialog?.dispose()
        return { dialogSeen: dialog?.seen() ?? false }
      },
    }
  }

  /**
   * After a step recorded as opening a page: waits for the page this step opened and goes on there; when
   * none opens, the step fails (the steps after it would act on the wrong page). A page opened by a step not
   * recorded so is left alone: the recording went on in the old page.
   */
  async function followNewPage(action: Action, watch: NewPageWatch, result: ReplayResult): Promise<boolean> {
    try {
      if (!action.opensPage) return false
      const opened = await watch.next(timeout)
      if (!opened) {
        result.method = result.method === 'none' ? 'failed' : result.method
        throw new WebError(
          'WEB_NEW_PAGE_MISSING',
          `${targetLabel(action)} was recorded opening a new page (tab or window), and none opened.`,
          { hint: 'The later steps were recorded in that page; check that the link or button still opens it.' },
        )
      }
      await adoptPage(opened)
      page = opened
      await state.reader?.detach()
      state.reader = null
      return true
    } finally {
      watch.dispose()
    }
  }

  /**
   * Goes on in the page a DevTools step names: `main` (the page the replay started in) or the page whose URL is
   * the recorded one (rebased), waited for up to the step timeout, as @puppeteer/replay does.
   */
  async function enterPage(target: string): Promise<void> {
    let next: Page | undefined = target === 'main' ? opts.page : undefined
    if (!next) {
      const want = urls.rebase(target)
      const deadline = Date.now() + timeout
      for (;;) {
        next = opts.page
          .context()
          .pages()
          .find((p) => !p.isClosed() && p.url() === want)
        if (next || Date.now() > deadline) break
        await new Promise((r) => setTimeout(r, 100))
      }
      if (!next)
        throw new WebError('WEB_NEW_PAGE_MISSING', `The step runs in the page at ${want}, and no page is open there.`, {
          hint: 'An earlier step was recorded opening it (a popup or a new tab); check that it still does.',
        })
    }
    if (next === page) return
    if (next.isClosed())
      throw new WebError('WEB_NEW_PAGE_MISSING', `The step runs in the ${target} page, which was closed.`)
    page = next
    await page.bringToFront().catch(() => undefined)
    health.follow(page)
    restartActivity()
    await state.reader?.detach()
    state.reader = null
  }

  /** A DevTools step with an asserted navigation: it must have made the page navigate (waited up to the timeout). */
  async function navigationCaused(action: Action): Promise<void> {
    if (watching().activity.navigatedSinceMark()) return
    const frame = page.mainFrame()
    const navigated = await page
      .waitForEvent('framenavigated', { predicate: (f) => f === frame, timeout })
      .then(() => true)
      .catch(() => false)
    if (!navigated)
      throw new WebError(
        'WEB_NAVIGATION_MISSING',
        `${targetLabel(action)} was recorded causing a navigation (an asserted navigation event), and the page did not navigate within ${timeout} ms.`,
      )
  }

  /**
   * An assert step: its target located by the same cascade (or counted by its exact keys), the condition polled
   * until the step timeout (a DevTools step's own `timeout` when it had one). The step fails when the condition
   * does not hold, with expected and actual.
   */
  async function runAssert(action: Action, result: ReplayResult): Promise<LocateResult<PlaywrightCandidate> | null> {
    const assertion = action.assertion
    if (!assertion) throw new Error('The assert step has no assertion.')
    const kept = (action.extra?.devtools as { timeout?: unknown } | undefined)?.timeout
    const asserted =
      assertion.kind === 'url' &&
      (assertion.op ?? 'equals') === 'equals' &&
      /^[a-z]+:/i.test(String(assertion.expected))
        ? { ...assertion, expected: urls.rebase(String(assertion.expected)) }
        : assertion
    const probe = pageAssertionProbe(
      () => page,
      { ...action, assertion: asserted },
      { ...(opts.locate ? { locate: opts.locate } : {}) },
    )
    const polled = await pollAssertion(asserted, probe, {
      timeoutMs: typeof kept === 'number' && kept > 0 ? kept : timeout,
    })
    state.assertion = polled
    const found = probe.located
    result.method = 'none'
    if (found) {
      result.strategiesTried = found.attempts
      result.matchConfidence = found.confidence
      if (found.status === 'found' && found.point && !found.coordinateFallback) {
        result.method = found.strategy
        result.actualCoords = { x: round(found.point.x), y: round(found.point.y) }
        result.coordinateChange = { x: round(found.point.x) - action.x, y: round(found.point.y) - action.y }
      } else if (!polled.holds) result.method = 'failed'
    } else if (probe.countedBy) {
      result.method = probe.countedBy as ReplayResult['method']
      result.matchConfidence = 1
    }
    if (!polled.holds) {
      const message = `Assertion failed: expected ${polled.expected}, actual ${polled.actual}.`
      // a target that was needed and not found: the step did not run; else it ran and its check failed
      if (result.method === 'failed') throw new WebError('WEB_ASSERTION_FAILED', message)
      result.errorMessage = message
    }
    return found
  }

  async function runAction(action: Action, result: ReplayResult): Promise<LocateResult<PlaywrightCandidate> | null> {
    const plan = devtoolsReplayPlan(action)
    if (plan?.unsupported) {
      result.method = 'failed'
      throw new WebError(
        'WEB_UNSUPPORTED_STEP',
        `This imported DevTools step cannot be replayed: ${plan.unsupported}.`,
        {
          hint: 'Replace it with an equivalent step (an assert, a wait) or remove it from the case.',
        },
      )
    }
    if (plan?.honour) {
      result.method = 'none'
      const h = plan.honour
      if (h.kind === 'network') await emulateNetworkConditions(page, h)
      else if (h.kind === 'viewport') await page.setViewportSize({ width: h.width, height: h.height })
      else if (h.kind === 'key') await (h.up ? page.keyboard.up(h.key) : page.keyboard.down(h.key))
      else if (page !== opts.page) {
        // closing a popup: the steps after it go on in the main page (or name theirs)
        health.release(page)
        watching().activity.dispose()
        await page.close()
        page = opts.page
        watching().activity = trackPageActivity(page)
        watching().activity.mark()
      } else await page.close()
      return null
    }
    if (action.actionType === 'scroll' && (action.identity || plan?.scrollsWindow)) return scrollTarget(action, result)
    switch (action.actionType) {
      case 'assert':
        return runAssert(action, result)
      case 'navigate': {
        const url = urls.rebase(action.url ?? '')
        result.method = 'none'
        await gotoOrExplain(page, url)
        return null
      }
      case 'wait':
        result.method = 'none'
        await page.waitForTimeout(Math.min(action.durationMs ?? 0, 60_000))
        return null
      case 'scroll':
        result.method = 'none'
        await page.mouse.move(action.x, action.y)
        await page.mouse.wheel(action.scrollDx ?? 0, action.scrollDy ?? 0)
        return null
      case 'key_press':
        result.method = 'none'
        if (!action.key) throw new Error('The key_press step has no key.')
        await page.keyboard.press(action.key)
        return null
      default:
        break
    }
    const text = action.actionType === 'type' ? secretOrText(action) : null
    // A DevTools import: a selector of the recording that still names exactly one element is that element (the
    // person's own words outrank any similarity); the cascade heals only when none does
    const kept = ELEMENT_STEPS.has(action.actionType) ? recordedDevtoolsSelectors(action) : null
    const recorded: RecordedSelectors | null = kept ? { ...kept, lastOutcomes: [] } : null
    if (recorded) {
      const hit = await recordedTarget(action, recorded, result, { untilTimeout: false })
      if (hit) return actOn(action, result, hit, text)
    }
    // A recorded body/html (or an empty identity) matches any page: no strategy may answer for it (Build 5).
    const notATarget = action.identity ? recordedTargetObjection(action.identity) : null
    if (recorded && (!action.identity || notATarget) && !opts.allowCoordinates) {
      // an imported step is never replayed at the recorded offset instead (that point is inside the element,
      // not on the page): it fails with what each selector of the recording named
      result.method = 'failed'
      throw new WebError(
        'WEB_ELEMENT_NOT_FOUND',
        `Element not found: ${targetLabel(action)}: ${describeGroups(recorded.lastOutcomes)}; no coordinate fallback for an imported step.`,
        {
          hint: 'Check the page; `qa replay --allow-coordinates` clicks the recorded point instead (reported as a warning).',
        },
      )
    }
    if (!action.identity || notATarget) {
      // A legacy step (only coordinates were recorded), a step recorded with no interactive element under the
      // point, or a recorded target that was not a real target: coordinates, and the report says why.
      const why = notATarget ?? action.warning
      if (why) result.warning = `${why}; replayed by coordinates`
      result.method = 'coordinate'
      result.actualCoords = { x: action.x, y: action.y }
      result.coordinateChange = { x: 0, y: 0 }
      // an imported step replayed by its point (asked for): an effect that went nowhere fails
      if (recorded && (isClickLike(action) || action.actionType === 'hover')) {
        const under = await page
          .evaluate(
            ([x, y]) => document.elementFromPoint(x as number, y as number)?.localName ?? null,
            [action.x, action.y],
          )
          .catch(() => null)
        if (under === null || under === 'html' || under === 'body') {
          result.method = 'failed'
          throw new WebError(
            'WEB_ELEMENT_NOT_FOUND',
            `Element not found: ${targetLabel(action)}: ${describeGroups(recorded.lastOutcomes)}; the recorded point (${action.x}, ${action.y}) is on ${under ? `<${under}>` : 'nothing'}, the page itself, so the step was not done.`,
          )
        }
      }
      if (action.actionType === 'drag') await dragBetween(action, { x: action.x, y: action.y })
      else if (isClickLike(action) || action.actionType === 'hover') await clickAt(action, action.x, action.y)
      else if (action.actionType === 'type') {
        if (recorded && !(await page.evaluate(focusedFieldTakesText).catch(() => false))) {
          result.method = 'failed'
          throw new WebError(
            'WEB_ELEMENT_NOT_FOUND',
            `Element not found: ${targetLabel(action)}: ${describeGroups(recorded.lastOutcomes)}; no field has the focus, so typing would change nothing.`,
          )
        }
        await page.keyboard.type(text ?? '')
      }
      await rememberSecretField(action)
      return null
    }
    const cropPath = action.elementCropPath ? resolve(opts.caseDir, action.elementCropPath) : null
    const loadElementCrop = cropPath ? () => decodeFrame(cropPath).catch(() => null) : null
    const identity = action.identity
    /** Strategies whose element could not be acted on in this step, with why (each is that strategy's failure). */
    const failed = new Map<WebStrategy, string>()
    /** The boxes of those elements: another strategy answering with the same element is not tried on it again. */
    const failedBoxes: string[] = []
    const locateHere = () =>
      locate(
        identity,
        playwrightCandidateSource(page, {
          framePath: identity.framePath ?? null,
          shadowPath: identity.shadowPath ?? null,
          loadElementCrop,
        }),
        {
          selectors: action.selectors ?? null,
          coordinates: { x: action.x, y: action.y },
          ...opts.locate,
          ...(failed.size ? { failed } : {}),
        },
      )
    for (let round = 0; ; round++) {
      let found = await locateHere()
      if (failed.size === 0 && adaptive && !state.quick && !foundAtOnce(found)) {
        // Not the recorded element at once: the page may still be changing from the last step. Heal (or give
        // up) only on the settled page.
        await settle(page, opts.settleQuietMs)
        found = await locateHere()
      }
      if (found.status !== 'found' && action.operates && !recordedTargetObjection(action.operates)) {
        // The clicked label or styled part is gone: the control it operates stands in (clicked as a person would).
        const control = action.operates
        const viaControl = await locate(
          control,
          playwrightCandidateSource(page, {
            framePath: control.framePath ?? null,
            shadowPath: control.shadowPath ?? null,
          }),
          {
            coordinates: null,
            ...opts.locate,
          },
        )
        if (viaControl.status === 'found') {
          found = {
            ...viaControl,
            attempts: [
              ...found.attempts,
              ...viaControl.attempts.map((a) => ({ ...a, detail: `operated control: ${a.detail ?? a.outcome}` })),
            ],
          }
          result.warning = `the clicked ${targetLabel(action)} was not found; clicked the control it operates`
        }
      }
      result.strategiesTried = found.attempts
      result.matchConfidence = found.confidence
      if ((found.status !== 'found' || !found.point) && recorded && round === 0) {
        // nothing healed: the recording's selectors get the step's whole timeout, as in the reference
        const late = await recordedTarget(action, recorded, result, { untilTimeout: true })
        if (late) return actOn(action, result, late, text)
      }
      if (found.status !== 'found' || !found.point) {
        result.method = 'failed'
        throw new WebError(
          'WEB_ELEMENT_NOT_FOUND',
          `Element not found: ${targetLabel(action)} (tried ${describeAttempts(found.attempts)}).`,
        )
      }
      const box = boxKey(found)
      if (box !== null && failedBoxes.includes(box) && isWebStrategy(found.strategy) && !failed.has(found.strategy)) {
        // another strategy answered with the element that could not be acted on: its failure too
        const [first, why] = [...failed.entries()][0] ?? ['an earlier strategy', 'it could not be acted on']
        failed.set(found.strategy, `the element the ${first} strategy found, which ${why.replace(/^its element /, '')}`)
        continue
      }
      try {
        return await actOn(action, result, { ...found, point: found.point }, text)
      } catch (error) {
        const why = actionFailure(error)
        if (why === null || page.isClosed() || found.coordinateFallback || !isWebStrategy(found.strategy)) throw error
        if (failed.has(found.strategy) || failed.size >= MAX_FAILED_STRATEGIES) throw error
        // the element this strategy matched could not be acted on: the cascade goes on with the next strategy
        failed.set(found.strategy, `its element could not be acted on: ${why}`)
        if (box !== null) failedBoxes.push(box)
      }
    }
  }

  /** The frame a DevTools step names by indices (`frame: [0, 2]`: the first iframe's third iframe). */
  function frameOf(indices: readonly number[]): Frame | null {
    let f: Frame | undefined = page.mainFrame()
    for (const i of indices) f = f?.childFrames()[i]
    return f ?? null
  }

  /**
   * The element the recording's own selectors name (the first group naming exactly one visible element), looked
   * for now and, when none does, once more on the settled page; with `untilTimeout`, polled until the step's
   * timeout as the reference waits. A located result that `actOn` takes, or null (`recorded.lastOutcomes` says why).
   */
  async function recordedTarget(
    action: Action,
    recorded: RecordedSelectors,
    result: ReplayResult,
    how: { untilTimeout: boolean },
  ): Promise<(LocateResult<PlaywrightCandidate> & { point: { x: number; y: number } }) | null> {
    const started = performance.now()
    const deadline = Date.now() + (how.untilTimeout ? timeout : 0)
    for (let attempt = 0; ; attempt++) {
      const frame = frameOf(recorded.frame)
      const { hit, outcomes } = frame
        ? await resolveRecordedSelectors(page, frame, recorded.selectors).catch(() => ({
            hit: null,
            outcomes: [] as GroupOutcome[],
          }))
        : { hit: null, outcomes: [] as GroupOutcome[] }
      recorded.lastOutcomes = outcomes
      if (hit) {
        await hit.handle.scrollIntoViewIfNeeded({ timeout }).catch(() => undefined)
        const box = await hit.handle.boundingBox().catch(() => null)
        const point = box ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : { x: action.x, y: action.y }
        const found: LocateResult<PlaywrightCandidate> & { point: { x: number; y: number } } = {
          status: 'found',
          strategy: methodOfKind(hit.kind),
          confidence: 1,
          coordinateFallback: false,
          point,
          element: {
            handle: hit.handle as unknown as Locator,
            ...(box ? { boundingBox: box } : {}),
          },
          attempts: [
            {
              strategy: 'devtools_selectors',
              outcome: 'matched',
              candidates: 1,
              confidence: 1,
              durationMs: Math.round(performance.now() - started),
              detail: `the recording's selector ${outcomes[hit.group]?.selector ?? hit.group} names ${(outcomes[hit.group]?.count ?? 1) > 1 ? `${outcomes[hit.group]?.count} elements; the first, as @puppeteer/replay takes it, is this element` : 'exactly this element'}`,
            },
          ],
        }
        result.strategiesTried = found.attempts
        result.matchConfidence = 1
        return found
      }
      if (!how.untilTimeout) {
        if (attempt > 0 || state.quick || !adaptive) return null
        await settle(page, opts.settleQuietMs)
        continue
      }
      if (Date.now() > deadline) return null
      await new Promise((r) => setTimeout(r, 100))
    }
  }

  /** Acts on the element the cascade found (the input of the step); throws when it cannot. */
  async function actOn(
    action: Action,
    result: ReplayResult,
    found: LocateResult<PlaywrightCandidate> & { point: { x: number; y: number } },
    text: string | null,
  ): Promise<LocateResult<PlaywrightCandidate>> {
    result.method = found.strategy
    result.actualCoords = { x: round(found.point.x), y: round(found.point.y) }
    result.coordinateChange = { x: round(found.point.x) - action.x, y: round(found.point.y) - action.y }
    if (opts.verify && !found.coordinateFallback && found.attempts[0]?.outcome !== 'matched') {
      // Capture the live identity now, before the input changes the page, in case the heal is learnt.
      state.reader ??= await createCdpIdentityReader(page)
      state.pendingIdentity = await state.reader.atPoint(found.point.x, found.point.y).catch(() => null)
    }
    const handle: Locator | undefined = found.element?.handle
    // A visual hit clicks the matched pixels: the element under them only vouches for the place, and it may be a
    // container (gentelella's segmented "Private | Team | Public" group, whose centre is "Team").
    const atThePixels = found.strategy === 'visual' && action.actionType !== 'type' && action.actionType !== 'select'
    if (action.actionType === 'drag') {
      await dragBetween(action, found.point, found.coordinateFallback || atThePixels ? undefined : handle)
      return found
    }
    if (action.actionType === 'hover') {
      if (found.coordinateFallback || !handle || atThePixels) await clickAt(action, found.point.x, found.point.y)
      else await handle.hover({ timeout, ...modifiersOf(action) })
      return found
    }
    // an element in a closed shadow root has no locator: it is clicked at its centre, checked to be what a click
    // there reaches (scrolled into view first)
    const closedShadow = found.coordinateFallback || atThePixels ? undefined : closedShadowTargetOf(found.element)
    if (closedShadow) {
      const aimed = await closedShadow.aim(targetLabel(action))
      result.actualCoords = { x: round(aimed.x), y: round(aimed.y) }
      result.coordinateChange = { x: round(aimed.x) - action.x, y: round(aimed.y) - action.y }
      await clickAt(action, aimed.x, aimed.y)
      if (text !== null) {
        // typing replaces what the field held, as `fill` does for a field a locator reaches
        await page.keyboard.press('ControlOrMeta+A')
        await page.keyboard.type(text)
      }
      await rememberSecretField(action)
      return found
    }
    if (found.coordinateFallback || !handle || atThePixels) {
      await clickAt(action, found.point.x, found.point.y)
      if (text !== null) await page.keyboard.type(text)
      await rememberSecretField(action)
      return found
    }
    if (
      opts.verify &&
      (action.actionType === 'click' || action.actionType === 'double_click' || action.actionType === 'right_click')
    )
      state.aim = await handle.evaluateHandle(aimAtCentre, HOVERABLE, { timeout }).catch(() => null)
    switch (action.actionType) {
      case 'type':
        if (await handle.evaluate((el) => el.localName === 'select').catch(() => false)) {
          // a DevTools `change` on a <select> (its tag unknown at import): the option with that value, or label
          await handle
            .selectOption(text ?? '', { timeout })
            .catch(() => handle.selectOption({ label: text ?? '' }, { timeout }))
          break
        }
        await handle.fill(text ?? '', { timeout })
        await rememberSecretField(action)
        break
      case 'select':
        await handle
          .selectOption({ label: action.value ?? '' }, { timeout })
          .catch(() => handle.selectOption(action.value ?? '', { timeout }))
        if (state.nativeListOpen) {
          // the person's pick in the list the previous click opened closed it; a pick made in the page does not,
          // and the list the browser draws apart from the page would stay over it (in a headless screenshot, and
          // in the way of the next click): the select loses the focus and takes it back, which closes it
          await handle.evaluate((el) => {
            if (el !== document.activeElement) return
            ;(el as HTMLElement).blur()
            ;(el as HTMLElement).focus()
          })
        }
        break
      case 'right_click':
        await handle.click({ button: 'right', timeout, ...modifiersOf(action), ...(await aimOf(action, found)) })
        break
      case 'double_click':
        await handle.dblclick({ timeout, ...modifiersOf(action), ...(await aimOf(action, found)) })
        break
      default: {
        if (action.button === 'back' || action.button === 'forward') {
          await handle.scrollIntoViewIfNeeded({ timeout })
          const box = await handle.boundingBox({ timeout })
          if (!box) throw new Error(`${targetLabel(action)} has no box to click.`)
          await clickSideButton(
            page,
            box.x + box.width / 2,
            box.y + box.height / 2,
            action.button,
            action.modifiers ?? [],
          )
          break
        }
        // a styled checkbox/radio/switch covered by its own label: click the label, as the person did (Build 3)
        await clickAsAPerson(handle, {
          timeout,
          ...(action.button ? { button: action.button } : {}),
          ...(action.modifiers?.length ? { modifiers: action.modifiers } : {}),
          ...offsetOf(action, found),
        })
      }
    }
    return found
  }

  /** `offsetOf`, else a point that reaches the element itself when its centre is a control nested in it. */
  async function aimOf(
    action: Action,
    found: LocateResult<PlaywrightCandidate>,
  ): Promise<{ position?: { x: number; y: number } }> {
    const offset = offsetOf(action, found)
    if (offset.position || !found.element?.handle) return offset
    const position = await pointOnTheElement(found.element.handle, timeout)
    return position ? { position } : {}
  }

  /**
   * Where in the element a DevTools click lands: the recorded offset from its top-left corner (the reference
   * clicks there), when the element the recording's selectors named is still that large; else its centre.
   */
  function offsetOf(action: Action, found: LocateResult<PlaywrightCandidate>): { position?: { x: number; y: number } } {
    if (found.attempts[0]?.strategy !== 'devtools_selectors') return {}
    const box = found.element?.boundingBox
    const kept = action.extra?.devtools as { offsetX?: unknown; offsetY?: unknown } | undefined
    const x = typeof kept?.offsetX === 'number' ? kept.offsetX : null
    const y = typeof kept?.offsetY === 'number' ? kept.offsetY : null
    if (!box || x === null || y === null || x < 0 || y < 0 || x >= box.width || y >= box.height) return {}
    return { position: { x, y } }
  }

  function modifiersOf(action: Action): { modifiers?: KeyModifier[] } {
    return action.modifiers?.length ? { modifiers: [...action.modifiers] } : {}
  }

  /**
   * A scroll of an element (located like a click's target) or of the window, by the recorded distance: the
   * element itself scrolls, not whatever stands under a point.
   */
  async function scrollTarget(action: Action, result: ReplayResult): Promise<LocateResult<PlaywrightCandidate> | null> {
    const dx = action.scrollDx ?? 0
    const dy = action.scrollDy ?? 0
    if (!action.identity) {
      result.method = 'none'
      await page.evaluate(([x, y]) => window.scrollBy(x as number, y as number), [dx, dy])
      return null
    }
    const identity = action.identity
    const found = await locate(identity, playwrightCandidateSource(page, { framePath: identity.framePath ?? null }), {
      selectors: action.selectors ?? null,
      coordinates: null,
      ...opts.locate,
    })
    result.strategiesTried = found.attempts
    result.matchConfidence = found.confidence
    const handle: Locator | undefined =
      found.status === 'found' && !found.coordinateFallback ? found.element?.handle : undefined
    if (!handle) {
      result.method = 'failed'
      throw new WebError(
        'WEB_ELEMENT_NOT_FOUND',
        `Element to scroll not found: ${targetLabel(action)} (tried ${describeAttempts(found.attempts)}).`,
      )
    }
    result.method = found.strategy
    await handle.evaluate((el, [x, y]) => el.scrollBy(x as number, y as number), [dx, dy])
    return found
  }

  /**
   * A drag from the located source to the drop target, located by the same cascade from `drop_identity` (else the
   * recorded end point, moved as the source moved). Playwright's mouse drives both mouse drags and HTML5 drag and
   * drop.
   */
  async function dragBetween(action: Action, from: { x: number; y: number }, source?: Locator): Promise<void> {
    const moved = { x: from.x - action.x, y: from.y - action.y }
    let to = { x: (action.endX ?? action.x) + moved.x, y: (action.endY ?? action.y) + moved.y }
    const drop = action.dropIdentity
    if (drop && !recordedTargetObjection(drop)) {
      const found = await locate(drop, playwrightCandidateSource(page, { framePath: drop.framePath ?? null }), {
        selectors: action.dropSelectors ?? null,
        coordinates: { x: action.endX ?? action.x, y: action.endY ?? action.y },
        ...opts.locate,
      })
      if (found.status !== 'found' || !found.point)
        throw new WebError(
          'WEB_ELEMENT_NOT_FOUND',
          `Drop target not found: ${drop.axRole ?? drop.tagName} "${(drop.axName || drop.textContent || '').slice(0, 50)}" (tried ${describeAttempts(found.attempts)}).`,
        )
      to = found.point
      // where in the drop target it was dropped (a slider's track, a list between two items), kept in proportion
      const recorded = drop.boundingBox
      const box = found.coordinateFallback ? null : await found.element?.handle?.boundingBox().catch(() => null)
      if (box && recorded && recorded.width > 0 && recorded.height > 0 && action.endX != null && action.endY != null) {
        const fx = Math.min(1, Math.max(0, (action.endX - recorded.x) / recorded.width))
        const fy = Math.min(1, Math.max(0, (action.endY - recorded.y) / recorded.height))
        to = { x: box.x + fx * box.width, y: box.y + fy * box.height }
      }
    }
    if (source) {
      await source.hover({ timeout })
      const box = await source.boundingBox()
      if (box) from = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    }
    await page.mouse.move(from.x, from.y)
    await page.mouse.down()
    await page.mouse.move(from.x + (to.x - from.x) / 3, from.y + (to.y - from.y) / 3, { steps: 4 })
    await page.mouse.move(to.x, to.y, { steps: 8 })
    await page.mouse.up()
  }

  async function clickAt(action: Action, x: number, y: number) {
    if (action.actionType === 'hover') {
      await page.mouse.move(x, y)
      return
    }
    if (action.button === 'back' || action.button === 'forward') {
      await clickSideButton(page, x, y, action.button, action.modifiers ?? [])
      return
    }
    const button = action.actionType === 'right_click' ? 'right' : (action.button ?? 'left')
    const held = action.modifiers ?? []
    for (const m of held) await page.keyboard.down(m)
    try {
      await page.mouse.click(x, y, { button, clickCount: action.actionType === 'double_click' ? 2 : 1 })
    } finally {
      for (const m of [...held].reverse()) await page.keyboard.up(m)
    }
  }

  /** The field a secret was typed into stays painted over in every later screenshot ("show password"). */
  async function rememberSecretField(action: Action): Promise<void> {
    if (action.actionType === 'type' && action.secretEnv)
      await secretFieldsOf(page)
        .rememberFocused()
        .catch(() => null)
  }

  function secretOrText(action: Action): string {
    if (!action.secretEnv) return action.text ?? ''
    const value = env[action.secretEnv]
    if (value === undefined) {
      throw new WebError(
        'WEB_SECRET_MISSING',
        `The password step needs the environment variable ${action.secretEnv}.`,
        {
          hint: `Set ${action.secretEnv} to the secret before replaying; it is never stored in the case file.`,
        },
      )
    }
    return value
  }
}

/** Page function: whether the focused element takes typed text (a text field, a textarea, an editable element). */
function focusedFieldTakesText(): boolean {
  let e: Element | null = document.activeElement
  while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement
  if (!e || e === document.body || e === document.documentElement) return false
  if (e instanceof HTMLTextAreaElement) return !e.readOnly && !e.disabled
  if (e instanceof HTMLInputElement)
    return (
      !e.readOnly &&
      !e.disabled &&
      !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color', 'hidden'].includes(e.type)
    )
  return (e as HTMLElement).isContentEditable
}

/** The elements a hover look is drawn on: controls and links (a page function gets it as an argument). */
const HOVERABLE =
  'a[href],button,input,select,textarea,label,summary,[role=button],[role=link],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=tab],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem]'

/** Where a click on an element leaves the pointer (its centre) and the control under that point before the click. */
interface PointerAim {
  target: Element
  x: number
  y: number
  before: Element | null
  hoverable: string
}

/**
 * Page function: the aim of a click on `target` at its centre, in the top frame's viewport; null when the element
 * is in a frame or its centre is out of view (the click will scroll, and the point is not known).
 */
function aimAtCentre(target: Element, hoverable: string): PointerAim | null {
  if (window !== window.top) return null
  const r = target.getBoundingClientRect()
  const x = r.x + r.width / 2
  const y = r.y + r.height / 2
  if (!(x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)) return null
  return { target, x, y, before: document.elementFromPoint(x, y)?.closest(hoverable) ?? null, hoverable }
}

/**
 * Page function: the box of the control the click brought under the resting pointer (a menu closed and the button
 * behind it is there now): not the target, its label or a part of it, and not what was under the pointer before.
 * Its hover look depends on when the browser updates it, so the verdict compares it through a colour map.
 */
function elementBroughtUnderPointer(
  aim: PointerAim | null,
): { x: number; y: number; width: number; height: number } | null {
  if (!aim) return null
  const now = document.elementFromPoint(aim.x, aim.y)?.closest(aim.hoverable) ?? null
  const t = aim.target
  if (!now || now === aim.before || now === t || now.contains(t) || t.contains(now)) return null
  const labels = (t as HTMLInputElement).labels
  if (labels && Array.from(labels).includes(now as HTMLLabelElement)) return null
  const r = now.getBoundingClientRect()
  return r.width > 0 && r.height > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null
}
