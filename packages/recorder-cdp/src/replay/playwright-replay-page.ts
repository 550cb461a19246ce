import type { LocateResult } from '@qa/matcher'
import type { Action, ReplayResult } from '@qa/model'
import { resolve } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { gotoOrExplain } from '../browser/browser'
import { watchBrowserHealth } from '../browser/browser-health'
import { answerDialogs } from '../browser/cdp-dialogs'
import { emulateNetworkConditions } from '../browser/cdp-side-buttons'
import { devtoolsReplayPlan } from '../devtools'
import { WebError } from '../errors'
import { answerFileChooser, filesForStep } from '../browser/file-chooser'
import { pressWaitingForDocument } from '../browser/document-arrival'
import { adoptPage, type NewPageWatch, watchNewPages } from '../browser/new-page'
import { trackPageActivity } from '../browser/page-activity'
import { maskedScreenshot } from '../browser/masked-screenshot'
import { installPressGuardInPage } from '../injected/page-scripts'
import { settle } from '../browser/settle'
import { targetLabel } from '../record/target-label'
import { scrollTarget } from './act-on-target'
import { pageAssertionProbe, pollAssertion } from './assert-step'
import type { PlaywrightCandidate } from './candidate-source'
import { runElementStep } from './locate-step-target'
import { elementBroughtUnderPointer } from './pointer-aim'
import type { ReplayPage, ReplayPageStep, StepStartOptions } from './replay-page'
import type { PlaywrightReplayPageOptions, ReplayState, StepContext } from './step-context'

export type { PlaywrightReplayPageOptions } from './step-context'

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

/** The browser contexts whose documents get the direct click's press listeners at their start. */
const guardedContexts = new WeakSet<BrowserContext>()

/**
 * Every document the replay opens from now on (in this page's context, popups too) listens for the direct click's
 * presses before any script of the page (`installPressGuardInPage`): a press the guard stops reaches none of the
 * page's listeners. Once per context.
 */
export async function guardPressesFromTheStart(page: Page): Promise<void> {
  const context = page.context()
  if (guardedContexts.has(context)) return
  guardedContexts.add(context)
  await context.addInitScript({ content: `(${installPressGuardInPage.toString()})()` })
}

/**
 * The real `ReplayPage`: a Playwright page over CDP. Each step is located by the self-healing cascade of
 * @qa/matcher over the live DOM (role+name → aria-label → name → test id → CSS → XPath → text → similarity →
 * visual) and given its input: a plain click straight at the element's centre, guarded in the page
 * (`direct-click.ts`), else waited for as Playwright does (visible, stable, enabled, receiving events). It follows the
 * pages steps open, answers the dialogs and file choosers they were recorded answering, and notices a crashed browser.
 */
export function playwrightReplayPage(opts: PlaywrightReplayPageOptions): ReplayPage {
  /** The page steps happen in: a step recorded with `opens_page` moves the replay into the page it opens. */
  let page = opts.page
  const timeout = opts.actionTimeoutMs ?? 5_000
  const env = opts.env ?? {}
  const urls = opts.urls
  const adaptive = opts.adaptive ?? true
  const state: ReplayState = {
    reader: null,
    pendingIdentity: null,
    assertion: null,
    quick: false,
    aim: null,
    nativeListOpen: false,
    onScrolledIntoView: null,
  }
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
  /** What the step code of the other files of this adapter reads: the page steps happen in now, and the rest. */
  const ctx: StepContext = {
    get page() {
      return page
    },
    opts,
    timeout,
    env,
    adaptive,
    state,
  }

  return {
    async open(url) {
      await guardPressesFromTheStart(page)
      await gotoOrExplain(page, url)
      watchers = { health: watchBrowserHealth(page), activity: trackPageActivity(page) }
    },
    settle: (o) => settle(page, opts.settleQuietMs, undefined, o),
    domLoaded: () => page.waitForLoadState('domcontentloaded', { timeout }).catch(() => undefined),
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

  function startStep(action: Action, stepOpts?: StepStartOptions): ReplayPageStep {
    state.quick = stepOpts?.quick === true
    state.nativeListOpen = stepOpts?.nativeListOpen === true
    state.onScrolledIntoView = stepOpts?.onScrolledIntoView ?? null
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
    if (action.actionType === 'scroll' && (action.identity || plan?.scrollsWindow))
      return scrollTarget(ctx, action, result)
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
        await pressWaitingForDocument(page, action.key, timeout)
        return null
      default:
        break
    }
    return runElementStep(ctx, action, result)
  }
}
