import { focusesFieldTypedNext, isTextField, opensNativeListFor } from '../record/step-pairs'
import { createHash } from 'node:crypto'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { toHealingRecord } from '@qa/matcher'
import type {
  AcceptanceStep,
  Action,
  HealingRecord,
  ReplayReport,
  ReplayResult,
  TestCase,
  VerificationResult,
} from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import {
  createReplayVerifier,
  createStepBook,
  decideStepVerdict,
  isNotFoundMessage,
  stepTimer,
  type VerdictPolicy,
  type VisionReverifier,
} from '@qa/verifier'
import { WebError } from '../errors'
import type { LocatedTarget, ReplayPage } from './replay-page'
import { targetLabel } from '../record/target-label'
import { saveElementCrop } from '../browser/visual'

export interface WebStepEvent {
  index: number
  total: number
  action: Action
  result: ReplayResult
  verification?: VerificationResult
  /** The index of the first failed step so far (this one when it is the first to fail), or null. */
  firstCause: number | null
}

/** How the loop runs a case on a `ReplayPage`: verification, settling and the callbacks. */
export interface WebReplayLoopOptions {
  /** The URL the case starts at (`planUrls(…).start`); a case without one is refused. */
  startUrl: string | null | undefined
  /** Folder of the case file: the case's screenshot paths are relative to it. */
  caseDir: string
  caseFile?: string
  /** Compare every step's screen with its recorded after-screenshot. */
  verify?: boolean
  /**
   * Decide each verified step on its expected region (default true): the recorded element's region
   * and the change it caused, moved as far as the element moved. false: the whole-screen comparison alone (the demo's
   * restyled v2, which no pixel region can confirm without a vision provider).
   */
  verifyRegion?: boolean
  reverifier?: VisionReverifier | null
  policy?: VerdictPolicy
  /** Ignore-masks etc. for comparisons. */
  compareIgnore?: { x: number; y: number; width: number; height: number }[]
  /**
   * A verified step that does not pass at once is looked at again for this long (every 150 ms), keeping the best
   * look; what changes by itself between looks (an animated image, a video, a carousel) is not compared. Default
   * 600; 0: one look.
   */
  recheckMs?: number
  /** Where actual and diff screenshots of non-passing steps go (the report folder). */
  artifactDir?: string | null
  /** Keep the actual screenshot of every step in artifactDir (`always`), or only of steps that did not pass. */
  keepActual?: 'always' | 'non-pass'
  /**
   * Keep what `qa accept` needs in artifactDir (default true with `verify` and an artifactDir): per replayed and
   * located step the screens before and after it (every step's actual screenshot is kept), the element's box and
   * the healed identity (`WebReplayOutcome.acceptanceSteps`).
   */
  keepForAcceptance?: boolean
  /**
   * When to settle (default `adaptive`). `always`: after every step. `adaptive`: after a step that navigated
   * until the new document's DOM is loaded (fully when verified), before every verified screenshot, and before a step whose element was not found at once by the first
   * strategy (the cascade then runs again on the settled page, so a heal never happens on a page that was
   * still changing); after a step that started requests, until they finished; otherwise straight on.
   */
  settle?: 'adaptive' | 'always'
  /**
   * Stop the case once this many steps failed (`--max-failures`, Playwright's name); the steps after it are
   * reported as not run (failed, with no similarity). Default: every step runs, whatever fails before it.
   */
  maxFailures?: number | null
  onStep?: (event: WebStepEvent) => void
  /** Called before each step runs (progress display). */
  onStepStart?: (event: { index: number; total: number; action: Action }) => void
}

export interface WebReplayOutcome {
  report: ReplayReport
  replayResults: ReplayResult[]
  /** The case with verified heals learnt: new identity and a `healing_history` entry on each healed step. */
  healedCase: TestCase
  healedSteps: number[]
  /**
   * Per step that ran and was located (with `verify` and an artifactDir): the evidence `qa accept` writes into the
   * case; image paths are absolute (the caller makes them relative to its report).
   */
  acceptanceSteps: AcceptanceStep[]
  passed: boolean
}

/** The identity and selectors a healed step was found by. */
type HealedIdentity = { identity: NonNullable<Action['identity']>; selectors: NonNullable<Action['selectors']> }

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

const pad = (n: number) => String(n).padStart(3, '0')

/**
 * How far the step's element moved since recording: its box now against its recorded box (the click point is
 * where the person pressed, the located point the element's centre, so they cannot be subtracted). A step
 * without a located element keeps the last displacement (keys act in the field just typed into); a navigation
 * starts again from none.
 */
function stepDisplacement(
  action: Action,
  located: LocatedTarget | null,
  last: { x: number; y: number },
): { x: number; y: number } {
  if (action.actionType === 'navigate') return { x: 0, y: 0 }
  const found = located?.status === 'found' && !located.coordinateFallback ? located.element : null
  const now = found?.boundingBox
  // a clicked label or styled part found through the control it operates (the label gone): that control's recorded
  // box, not the label's, is where the found element stood (two different elements are never compared)
  const viaControl =
    !!found?.tagName &&
    !!action.operates &&
    sameTag(found.tagName, action.operates.tagName) &&
    !sameTag(found.tagName, action.identity?.tagName)
  const then = viaControl ? action.operates?.boundingBox : action.identity?.boundingBox
  if (now && then) return { x: Math.round(now.x - then.x), y: Math.round(now.y - then.y) }
  return located ? { x: 0, y: 0 } : last
}

const sameTag = (a: string | null | undefined, b: string | null | undefined): boolean =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase()

/** The name a person reads for an element: accessible name, else aria-label, label, placeholder or text. */
function nameOf(e: {
  axName?: string | null
  ariaLabel?: string | null
  placeholder?: string | null
  textContent?: string | null
  name?: string | null
}): string | null {
  const n = [e.axName, e.ariaLabel, e.placeholder, e.textContent, e.name].find((x) => x && x.trim() !== '')
  return n ? n.trim().replace(/\s+/g, ' ').slice(0, 120) : null
}

/** How long a verified step that does not pass at once is looked at again (`recheckMs`). */
const RECHECK_MS = 600

/**
 * The web replay loop over a `ReplayPage`: per action, the step (located and done by the page), a settle, and
 * (with `verify`) the screenshot verdict of @qa/verifier; an assert step's verdict is its condition. Never stops
 * at a failing step; a heal is learnt only when its step is verified a pass.
 */
export async function replayOnPage(
  testCase: TestCase,
  page: ReplayPage,
  opts: WebReplayLoopOptions,
): Promise<WebReplayOutcome> {
  const keepForAcceptance = Boolean(opts.verify && opts.artifactDir) && opts.keepForAcceptance !== false
  const verifier = createReplayVerifier({
    testCaseName: testCase.name,
    baseDir: opts.caseDir,
    testCasePath: opts.caseFile ?? null,
    platform: 'web',
    reverifier: opts.reverifier ?? null,
    ...(opts.policy ? { policy: opts.policy } : {}),
    ...(opts.compareIgnore ? { compare: { ignore: opts.compareIgnore } } : {}),
    recheck: (opts.recheckMs ?? RECHECK_MS) > 0 ? { timeoutMs: opts.recheckMs ?? RECHECK_MS, intervalMs: 150 } : null,
    artifactDir: opts.artifactDir ?? null,
    ...(keepForAcceptance ? { keepActual: 'always' as const } : opts.keepActual ? { keepActual: opts.keepActual } : {}),
  })
  if (opts.verify) await verifier.preload(testCase.actions)
  const healedCase: TestCase = structuredClone(testCase)
  const acceptanceSteps: AcceptanceStep[] = []
  /** A heal learnt: the healing record and the identity the step was found by. */
  const book = createStepBook<{ record: HealingRecord; healedTo: HealedIdentity }>({
    verifier,
    verify: opts.verify === true,
    maxFailures: opts.maxFailures ?? null,
  })
  /** The screenshot of the page when the last step failed, and the fingerprint it was taken at (reused). */
  let failureShot: { path: string; bytes: Uint8Array; fingerprint: string | null } | null = null

  if (!opts.startUrl) {
    throw new WebError('WEB_NO_START_URL', `${testCase.name}: the case has no start_url and no --url was given.`, {
      hint: 'Pass the app URL with --url http://host:port/.',
    })
  }
  await page.open(opts.startUrl)
  try {
    await page.settle()

    const adaptive = (opts.settle ?? 'adaptive') === 'adaptive'
    const total = testCase.actions.length
    /** How far the last located element had moved: the expected region of a step moves with it (Build 1). */
    let displacement = { x: 0, y: 0 }
    for (const [index, action] of testCase.actions.entries()) {
      // root cause first: after a "not found" step, a page unchanged since gets no wait
      const fingerprintNow =
        book.notFoundFingerprint !== null && page.fingerprint && !page.gone()
          ? await page.fingerprint().catch(() => null)
          : null
      const plan = book.plan(fingerprintNow)
      if (!plan.run) {
        const { verification, result } = book.notRun(index, action, `action-${pad(index)}`)
        opts.onStep?.({ index, total, action, result, verification, firstCause: book.firstCause })
        continue
      }
      opts.onStepStart?.({ index, total, action })
      // the screen before the step, to see a change somewhere else instead of the expected one (verification)
      const unchangedShot = plan.quick && failureShot && failureShot.fingerprint === fingerprintNow ? failureShot : null
      let screenBefore =
        opts.verify && (opts.verifyRegion !== false || keepForAcceptance) && action.actionType !== 'assert'
          ? (unchangedShot?.bytes ?? (await page.screenshot().catch(() => null)))
          : null
      const elapsed = stepTimer()
      const result: ReplayResult = {
        actionId: `action-${pad(index)}`,
        actionIndex: index,
        success: false,
        method: 'none',
        originalCoords: { x: action.x, y: action.y },
        matchConfidence: 0,
        screenTransitionVerified: false,
        errorMessage: '',
      }
      if (plan.quick) result.quickLocate = true
      let located: LocatedTarget | null = null
      const opensNativeList = opensNativeListFor(action, testCase.actions[index + 1])
      const nativeListOpen = index > 0 && opensNativeListFor(testCase.actions[index - 1] as Action, action)
      const step = page.startStep(action, {
        ...(plan.quick ? { quick: true } : {}),
        ...(nativeListOpen ? { nativeListOpen: true } : {}),
        // the scroll that brought the target into view is not the step's change: the screen before is taken again
        ...(screenBefore
          ? {
              onScrolledIntoView: async () => {
                screenBefore = (await page.screenshot().catch(() => null)) ?? screenBefore
              },
            }
          : {}),
      })
      const lostBefore = page.lost()
      try {
        if (lostBefore) {
          throw new WebError(
            'WEB_BROWSER_CRASHED',
            `The browser crashed before this step (${lostBefore}); it did not run.`,
          )
        }
        located = await step.run(result)
        result.success = true
        if (located?.status === 'found' && !located.coordinateFallback && located.element) {
          const found = located.element as Parameters<typeof nameOf>[0] & LocatedTarget['element']
          if (found.boundingBox) result.foundBox = found.boundingBox
          const foundName = nameOf(found)
          if (foundName) result.foundName = foundName
        }
      } catch (error) {
        result.success = false
        if (result.method === 'none' || !result.method) result.method = 'failed'
        result.errorMessage = error instanceof Error ? error.message.split('\n')[0]! : String(error)
        const lost = lostBefore ?? (await page.checkLost())
        if (lost && !lostBefore)
          result.errorMessage = `The browser crashed during this step (${lost}); the steps after it cannot run.`
      }
      if (action.identity) {
        const recordedName = nameOf(action.identity)
        if (recordedName) result.recordedName = recordedName
      }
      const settleStarted = performance.now()
      if (page.gone()) {
        // nothing to settle or wait for: the page is gone
        result.settle = 'none'
      } else if (plan.quick && !result.success && !step.navigated()) {
        // not found again on the page the first cause left: nothing changed, nothing to settle
        result.settle = 'none'
      } else if (!adaptive || opts.verify || !result.success) {
        result.settle = 'full'
        // a verified step's screenshot fast-forwards finite animations to their end: not waited for (a material
        // button's click ripple, ~0.4 s per step); a failed step, or settle 'always', waits for them
        await page.settle(adaptive && opts.verify && result.success ? { finiteAnimations: false } : undefined)
      } else if (step.navigated()) {
        // the new document's DOM, as a Playwright test goes on after a click that navigates: the next step settles
        // before it heals when its element is not there at once (`foundAtOnce`), and a verified step settles fully
        result.settle = 'loaded'
        await page.domLoaded()
      } else if (step.requested()) {
        result.settle = 'requests'
        await step.requestsIdle()
      } else result.settle = 'none'
      result.settleMs = Math.round(performance.now() - settleStarted)
      const restingHoverBox =
        opts.verify && result.success && !page.gone() ? await step.restingHover?.().catch(() => null) : null
      const { dialogSeen } = step.end()
      if (result.success && action.dialog && !dialogSeen) {
        result.success = false
        result.errorMessage = `${targetLabel(action)} was recorded opening a ${action.dialog.type} dialog ("${(action.dialog.message ?? '').slice(0, 60)}"), and none opened.`
      }
      result.durationMs = elapsed()

      let verification: VerificationResult | undefined
      const checked = step.assertion
      /** The click is verified by the next step (`opensNativeListFor`, `focusesFieldTypedNext`). */
      const judgedByNext = opensNativeList
        ? 'native-list'
        : focusesFieldTypedNext(action, testCase.actions[index + 1]) &&
            located?.status === 'found' &&
            !located.coordinateFallback &&
            isTextField(located.element)
          ? 'typed-field'
          : null
      if (action.actionType === 'assert' && action.assertion) {
        verification = book.decided(
          index,
          action,
          decideStepVerdict({
            kind: 'assert',
            ran: result.success,
            check: checked,
            error: result.errorMessage,
            assertion: action.assertion,
          }),
        )
      } else if (!result.success) {
        verification = book.decided(
          index,
          action,
          decideStepVerdict({
            kind: 'did-not-run',
            error: result.errorMessage,
            firstCause: book.firstCause,
            quick: plan.quick,
          }),
        )
      } else if (opts.verify && judgedByNext) {
        // the click opened a <select>'s native list, which the browser draws apart from the page (a recording's
        // capture never holds it, a headless replay's may), or put the caret in a field the person typed into at
        // once: the next step, the choice made in the list or the typing, is what is verified
        displacement = stepDisplacement(action, located, displacement)
        verification = book.decided(
          index,
          action,
          decideStepVerdict({ kind: 'judged-by-next', by: judgedByNext, target: targetLabel(action), next: index + 1 }),
        )
        // the screen for the reviewer (and for acceptance), though it is not compared
        if (opts.artifactDir) {
          const shot = await page.screenshot().catch(() => null)
          if (shot) {
            const path = join(opts.artifactDir, `step-${pad(index)}-actual.png`)
            await mkdir(opts.artifactDir, { recursive: true })
            await writeFileAtomic(path, shot, { overwrite: true })
            verification.actualScreenshot = path
          }
        }
        result.screenTransitionVerified = true
      } else if (opts.verify) {
        displacement = stepDisplacement(action, located, displacement)
        // the recorded element's region and the change it caused, moved as far as the element moved
        verification = await verifier.verifyAction(
          index,
          action,
          () => page.screenshot(),
          opts.verifyRegion === false
            ? undefined
            : {
                actualBefore: screenBefore,
                displacement,
                previousAction: index > 0 ? (testCase.actions[index - 1] ?? null) : null,
                actualTargetBox:
                  located?.status === 'found' && !located.coordinateFallback
                    ? (located.element?.boundingBox ?? null)
                    : null,
                ...(restingHoverBox ? { restingHoverBox } : {}),
              },
          // a step with no recorded screenshot was not compared: a coordinate fallback stays a warning
          { coordinateWarning: result.warning ?? null },
        )
        result.screenTransitionVerified = verification.finalResult !== 'fail'
      } else {
        verification = book.decided(
          index,
          action,
          decideStepVerdict({ kind: 'not-verified', coordinateWarning: result.warning ?? null }),
        )
      }
      // the element found, as the screen showed it before the input (the report's "Element found")
      if (result.success && result.foundBox && screenBefore && opts.artifactDir) {
        const file = join(opts.artifactDir, `step-${pad(index)}-found.png`)
        await mkdir(opts.artifactDir, { recursive: true })
        if (await saveElementCrop(screenBefore, result.foundBox, file).catch(() => false)) result.foundCrop = file
      }
      const notFound = !result.success && isNotFoundMessage(result.errorMessage)
      // what the page is after the step: marks the page a "not found" step left, or tells that it changed since
      const fingerprint =
        (!result.success || book.notFoundFingerprint !== null) && page.fingerprint && !page.gone()
          ? await page.fingerprint().catch(() => null)
          : null
      // the page when the step failed, for the report: taken once per unchanged page
      if (verification && !result.success && !verification.actualScreenshot && opts.artifactDir && !page.gone()) {
        if (failureShot && plan.quick && fingerprint !== null && fingerprint === failureShot.fingerprint)
          verification.actualScreenshot = failureShot.path
        else {
          const shot = await page.screenshot().catch(() => null)
          if (shot) {
            const path = join(opts.artifactDir, `step-${pad(index)}-actual.png`)
            await writeFileAtomic(path, shot, { overwrite: true })
            verification.actualScreenshot = path
            failureShot = { path, bytes: shot, fingerprint }
          }
        }
      }
      book.done(index, { result, verification, notFound, fingerprint })

      // a heal is learnt only when the step is proven right (its screen compared and passed)
      const heal = book.learn(index, result, verification, () => {
        const healedTo = step.healedIdentity
        const record = located
          ? toHealingRecord(located, {
              original: { x: action.x, y: action.y },
              previousSelector: action.selectors?.css ?? null,
              verified: true,
            })
          : null
        return record && healedTo ? { record, healedTo } : null
      })
      if (heal) {
        const healed = healedCase.actions[index]!
        healed.healingHistory = [...(healed.healingHistory ?? []), heal.record]
        healed.identity = heal.healedTo.identity
        healed.selectors = heal.healedTo.selectors
        heal.record.newSelector = heal.healedTo.selectors.css ?? null
      }
      if (keepForAcceptance && result.success && opts.artifactDir) {
        acceptanceSteps.push(
          await acceptanceEvidence({
            index,
            action,
            result,
            located,
            verification,
            before: screenBefore,
            healedTo: step.healedIdentity,
            artifactDir: opts.artifactDir,
          }),
        )
      }
      opts.onStep?.({
        index,
        total,
        action,
        result,
        ...(verification ? { verification } : {}),
        firstCause: book.firstCause,
      })
    }
  } finally {
    await page.dispose()
  }

  const report = verifier.buildReport(opts.maxFailures ? { maxFailures: opts.maxFailures } : {})
  return {
    report,
    replayResults: [...book.replayResults],
    healedCase,
    healedSteps: book.heals.map((h) => h.index),
    acceptanceSteps,
    passed: report.passed ?? verifier.determineTestResult(),
  }
}

/**
 * What `qa accept` needs of a step that ran: its screens before and after (the after-screen is the one the
 * verdict compared), their hashes (a later replay into the same folder may overwrite them), the element's box,
 * the input's point, and a heal's new identity. Images are written to `artifactDir`; paths are absolute.
 */
async function acceptanceEvidence(s: {
  index: number
  action: Action
  result: ReplayResult
  located: LocatedTarget | null
  verification: VerificationResult | undefined
  before: Uint8Array | null
  healedTo: HealedIdentity | null
  artifactDir: string
}): Promise<AcceptanceStep> {
  const entry: AcceptanceStep = { actionIndex: s.index }
  if (s.verification) entry.verdict = s.verification.finalResult
  if (s.before) {
    const path = join(s.artifactDir, `step-${pad(s.index)}-before.png`)
    await writeFileAtomic(path, s.before, { overwrite: true })
    entry.screenshotBefore = path
    entry.screenshotBeforeSha256 = sha256(s.before)
  }
  const after = s.verification?.actualScreenshot
  if (after) {
    const bytes = await readFile(after).catch(() => null)
    if (bytes) {
      entry.screenshotAfter = after
      entry.screenshotAfterSha256 = sha256(bytes)
    }
  }
  const found = s.located?.status === 'found' && !s.located.coordinateFallback ? s.located : null
  // the box of the element the accepted identity is about: a heal's new identity (read before the input), else the
  // element found. Not the found one's when they differ: a clicked label found through the control it operates
  // (a radio of 13 × 13 inside a segmented button) would give the label's identity the radio's box, and every later
  // replay a displacement measured between two different elements (gentelella's "Team" renamed "People")
  const box = s.healedTo?.identity.boundingBox ?? found?.element?.boundingBox
  if (box) entry.elementBox = { x: box.x, y: box.y, width: box.width, height: box.height }
  if (found && s.result.actualCoords) entry.actualCoords = { ...s.result.actualCoords }
  if (found) {
    const record = toHealingRecord(found, {
      original: { x: s.action.x, y: s.action.y },
      previousSelector: s.action.selectors?.css ?? null,
      verified: s.verification?.finalResult === 'pass',
    })
    if (record && s.healedTo) {
      record.newSelector = s.healedTo.selectors.css ?? null
      entry.healing = record
      entry.identity = structuredClone(s.healedTo.identity)
      entry.selectors = structuredClone(s.healedTo.selectors)
    }
  }
  return entry
}

export { focusesFieldTypedNext, isTextField, opensNativeListFor } from '../record/step-pairs'
