import type { Action, FirstCause, ReplayResult, VerificationResult } from '@qa/model'
import { decideStepVerdict, stepNumber, stepVerification } from './step-verdict'

export { stepNumber }

/**
 * Root cause first. Every step of a case runs, but after a step fails "not found",
 * the steps after it on a page that has not changed since are located once, without the wait a step normally
 * gets; `--max-failures N` stops the case after N failed steps. Pure: the replay loops (web and desktop) ask it
 * before each step and tell it how the step went.
 */
export interface StepPlan {
  /** false: the failure limit was reached, the step is reported as not run. */
  run: boolean
  /** Locate once without waiting: a "not found" step came before, and the page has not changed since. */
  quick: boolean
}

export interface StepOutcome {
  /** The step's verdict is a failure. */
  failed: boolean
  /** It failed because its element was not found (the page may not have reached the state the case expects). */
  notFound: boolean
  /** What the page looked like after the step (URL + DOM hash, a screenshot hash, …), or null when unknown. */
  fingerprint: string | null
}

export interface RootCauseGate {
  /** What to do with the next step, given the page's fingerprint now (null when it cannot be told). */
  plan(fingerprint: string | null): StepPlan
  /** Tells the gate how a step went (a step that was not run is not reported here). */
  done(index: number, outcome: StepOutcome): void
  /** The index of the first failed step, or null. */
  readonly firstCause: number | null
  readonly failures: number
  /** The page's fingerprint after the last "not found" step (what `quick` compares against). */
  readonly notFoundFingerprint: string | null
}

/** A `RootCauseGate`; `maxFailures` (≥ 1) stops the case once that many steps failed. */
export function createRootCauseGate(opts: { maxFailures?: number | null } = {}): RootCauseGate {
  const max = opts.maxFailures != null && opts.maxFailures > 0 ? opts.maxFailures : null
  let failures = 0
  let firstCause: number | null = null
  let mark: string | null = null
  return {
    plan(fingerprint) {
      if (max !== null && failures >= max) return { run: false, quick: false }
      return { run: true, quick: mark !== null && fingerprint !== null && fingerprint === mark }
    },
    done(index, outcome) {
      if (outcome.failed) {
        failures++
        if (firstCause === null) firstCause = index
      }
      // a "not found" step marks the page as it is now; any other step ends the mark once the page changed
      if (outcome.notFound) mark = outcome.fingerprint
      else if (outcome.fingerprint === null || outcome.fingerprint !== mark) mark = null
    },
    get firstCause() {
      return firstCause
    },
    get failures() {
      return failures
    },
    get notFoundFingerprint() {
      return mark
    },
  }
}

/**
 * The results as a report shows them: each with its `step` (1-based); the first failed step (a step not run is
 * never one) marked `first_cause`, every step after it `after_first_cause` = its step number. Returns the first
 * cause, or null when nothing failed. The input is not changed.
 */
export function markRootCause(results: readonly VerificationResult[]): {
  results: VerificationResult[]
  firstCause: FirstCause | null
} {
  const first = results.find((r) => r.finalResult === 'fail' && !r.notRun) ?? null
  const marked = results.map((r) => {
    const out: VerificationResult = { ...r, step: stepNumber(r.actionIndex) }
    delete out.firstCause
    delete out.afterFirstCause
    if (first && r === first) out.firstCause = true
    else if (first && r.actionIndex > first.actionIndex) out.afterFirstCause = stepNumber(first.actionIndex)
    return out
  })
  return {
    results: marked,
    firstCause: first
      ? {
          step: stepNumber(first.actionIndex),
          actionIndex: first.actionIndex,
          description: first.actionDescription,
          reason: first.reason ?? '',
        }
      : null,
  }
}

/** The verification result of a step the replay did not run (the failure limit was reached before it). */
export function notRunResult(opts: {
  actionIndex: number
  description: string
  maxFailures: number
  expectedScreenshot?: string | null
}): VerificationResult {
  return stepVerification(
    opts.actionIndex,
    { description: opts.description, screenshotPath: opts.expectedScreenshot ?? null },
    decideStepVerdict({ kind: 'not-run', maxFailures: opts.maxFailures }),
  )
}

/**
 * A step the replay did not run (the `--max-failures` limit was reached), as both replay loops (web and desktop)
 * report it: its failed verification and a replay result that says why, with no time spent.
 */
export function notRunStep(
  action: Pick<Action, 'description' | 'x' | 'y' | 'screenshotPath'>,
  at: { actionId: string; actionIndex: number; maxFailures: number },
): { verification: VerificationResult; result: ReplayResult } {
  const verification = notRunResult({
    actionIndex: at.actionIndex,
    description: action.description,
    maxFailures: at.maxFailures,
    expectedScreenshot: action.screenshotPath ?? null,
  })
  const result: ReplayResult = {
    actionId: at.actionId,
    actionIndex: at.actionIndex,
    success: false,
    method: 'none',
    originalCoords: { x: action.x, y: action.y },
    matchConfidence: 0,
    screenTransitionVerified: false,
    errorMessage: verification.reason ?? 'Not run.',
    durationMs: 0,
  }
  return { verification, result }
}

/** `Not found` failures: the step's element was not found (web `Element not found…`, desktop `… not found …`). */
export function isNotFoundMessage(message: string | null | undefined): boolean {
  return !!message && /\bnot found\b/i.test(message)
}
