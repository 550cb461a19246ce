import type { Action, ReplayResult, VerificationResult } from '@qa/model'
import type { ReplayVerifier } from './replay-verifier'
import { createRootCauseGate, notRunStep, type StepPlan } from './root-cause'
import { type StepVerdict, stepVerification } from './step-verdict'

/**
 * A replay's step bookkeeping, one for the web and the desktop loop: the root-cause gate asked before each step,
 * each step's replay result and verification recorded once (into the `ReplayVerifier` that builds the report),
 * and the heals learnt, each only once its step was proven right.
 */
export interface StepBook<H extends object> {
  readonly verifier: ReplayVerifier
  /** Replay results in step order (the verifier's list: the report's `replay_results`). */
  readonly replayResults: readonly ReplayResult[]
  /** Verification results in step order. */
  readonly verifications: readonly VerificationResult[]
  /** The heals proven by their step's verification, in step order. */
  readonly heals: readonly (H & { index: number })[]
  /** The index of the first failed step so far, or null. */
  readonly firstCause: number | null
  /** The page's fingerprint after the last "not found" step (a step on the same page is looked for once). */
  readonly notFoundFingerprint: string | null
  /** What to do with the next step, given the page's fingerprint now (null when it cannot be told). */
  plan(fingerprint: string | null): StepPlan
  /** A step the failure limit stopped: its failed verification and replay result, both recorded. */
  notRun(index: number, action: Action, actionId: string): { verification: VerificationResult; result: ReplayResult }
  /** Records the verification of a verdict decided without comparing screens (`decideStepVerdict`). */
  decided(index: number, action: Action, verdict: StepVerdict): VerificationResult
  /**
   * Closes a step that ran: tells the gate whether it failed (its verdict, or without one whether it ran) and
   * records its replay result.
   */
  done(index: number, step: StepEnd): void
  /**
   * Learns the step's heal when the step is proven right (`healProven`): `heal` is called only then, and what it
   * returns (null: nothing to learn) is kept with the step's index. Returns the heal kept, or null.
   */
  learn(
    index: number,
    result: ReplayResult,
    verification: VerificationResult | undefined,
    heal: () => H | null,
  ): H | null
}

export interface StepEnd {
  result: ReplayResult
  verification?: VerificationResult | undefined
  /** It failed because its element was not found. */
  notFound: boolean
  /** What the page looked like after the step, or null when unknown. */
  fingerprint: string | null
}

/**
 * Whether a step proved its heal right: it ran, its screen was compared (with `verify`, not skipped for want of a
 * recorded screenshot, not left to the next step) and it passed. Pure.
 */
export function healProven(
  result: Pick<ReplayResult, 'success'>,
  verification: Pick<VerificationResult, 'finalResult' | 'details'> | undefined,
  verify: boolean,
): boolean {
  return (
    verify &&
    result.success &&
    verification?.finalResult === 'pass' &&
    verification.details?.skipped !== true &&
    verification.details?.judged_by_action_index === undefined
  )
}

/** A `StepBook` over the replay's verifier; `maxFailures` (≥ 1) stops the case once that many steps failed. */
export function createStepBook<H extends object>(opts: {
  verifier: ReplayVerifier
  /** The replay compares screens (`--verify`): only then is a heal proven. */
  verify: boolean
  maxFailures?: number | null
}): StepBook<H> {
  const { verifier } = opts
  const gate = createRootCauseGate({ maxFailures: opts.maxFailures ?? null })
  const heals: (H & { index: number })[] = []
  return {
    verifier,
    get replayResults() {
      return verifier.replayResults
    },
    get verifications() {
      return verifier.results
    },
    heals,
    get firstCause() {
      return gate.firstCause
    },
    get notFoundFingerprint() {
      return gate.notFoundFingerprint
    },
    plan: (fingerprint) => gate.plan(fingerprint),
    notRun(index, action, actionId) {
      const step = notRunStep(action, { actionId, actionIndex: index, maxFailures: opts.maxFailures as number })
      verifier.recordResult(step.verification)
      verifier.recordReplayResult(step.result)
      return step
    },
    decided(index, action, verdict) {
      const verification = stepVerification(index, action, verdict)
      verifier.recordResult(verification)
      return verification
    },
    done(index, step) {
      gate.done(index, {
        failed: step.verification ? step.verification.finalResult === 'fail' : !step.result.success,
        notFound: step.notFound,
        fingerprint: step.fingerprint,
      })
      verifier.recordReplayResult(step.result)
    },
    learn(index, result, verification, heal) {
      if (!healProven(result, verification, opts.verify)) return null
      const learnt = heal()
      if (learnt) heals.push({ index, ...learnt })
      return learnt
    },
  }
}

/** A step's stopwatch: the whole milliseconds since it was started. */
export function stepTimer(): () => number {
  const started = performance.now()
  return () => Math.round(performance.now() - started)
}
