import type { Action, AssertionCheck, JsonObject, Verdict, VerificationResult } from '@qa/model'
import {
  type DecidingVerdictInput,
  decideVerdict,
  type VerdictDecision,
  type VerdictInput,
  type VerdictOutcome,
  type VerdictPolicy,
} from './decide-verdict'

/** The step number people read: action index + 1. */
export const stepNumber = (actionIndex: number): number => actionIndex + 1

/**
 * What a replay loop knows about a step when its verdict is due. One kind per way a step is judged:
 * - `not-run`: the failure limit (`--max-failures`) was reached before it;
 * - `did-not-run`: it was tried and could not be done (not found, crashed, no dialog);
 * - `assert`: an assertion step, judged by its condition, never by a screenshot;
 * - `judged-by-next`: a click whose effect the next step shows (a native list opened, a field focused and typed
 *   into at once);
 * - `not-verified`: it ran, and the replay compares no screens (no `--verify`);
 * - `screenshot`: the screenshot verdict flow (`decideVerdict`), with the coordinate warning.
 */
export type StepVerdictInput =
  | { kind: 'not-run'; maxFailures: number }
  | {
      kind: 'did-not-run'
      /** Why it could not be done (the replay result's error message). */
      error: string
      /** The first failed step before it, or null. */
      firstCause: number | null
      /** It was looked for once, without waiting, on a page unchanged since the first cause. */
      quick?: boolean
    }
  | {
      kind: 'assert'
      /** The step itself ran (its condition could be polled to the end). */
      ran: boolean
      /** The condition as last checked, or null when it could not be checked. */
      check: AssertionCheck | null
      /** Why it could not be checked (the replay result's error message). */
      error: string
      assertion: { kind: string; op?: string | null }
    }
  | {
      kind: 'judged-by-next'
      by: 'native-list' | 'typed-field'
      /** The step's target as people read it: `the "Country" select`. */
      target: string
      /** The action index of the step that is verified instead. */
      next: number
    }
  | {
      kind: 'not-verified'
      /** Why the target was not really located (clicked at the recorded coordinates), or null. */
      coordinateWarning?: string | null
    }
  | ({ kind: 'screenshot' } & VerdictInput)

/** A step's verdict with the fields its verification result carries beyond status and reason. */
export interface StepVerdict extends VerdictOutcome {
  /** Name the recorded after-screenshot in the result. */
  withExpected: boolean
  /** The step was not run (the failure limit). */
  notRun?: true
  /** The result's `details`, when the verdict says more than its reason. */
  details?: JsonObject
}

const noVision = { skipped: false, visionVerified: false, visionMatch: false }

/**
 * The one place a step's verdict is decided, as a pure function. A step not run fails; a step that could not be
 * done fails (naming the first failure before it); an assertion passes exactly when its condition held; a click
 * judged by the next step passes; without `--verify` a step that ran passes, or is a warning when it was clicked
 * at the recorded coordinates; with it, the screenshot flow of `decideVerdict` (which asks for a vision answer
 * before it decides when the pixels fall short).
 */
export function decideStepVerdict(
  input: Exclude<StepVerdictInput, { kind: 'screenshot' }> | ({ kind: 'screenshot' } & DecidingVerdictInput),
  policy?: VerdictPolicy,
): StepVerdict
export function decideStepVerdict(input: StepVerdictInput, policy?: VerdictPolicy): StepVerdict | VerdictDecision
export function decideStepVerdict(input: StepVerdictInput, policy: VerdictPolicy = {}): StepVerdict | VerdictDecision {
  switch (input.kind) {
    case 'not-run': {
      const n = input.maxFailures
      return {
        status: 'fail',
        reason: `Not run: the replay stopped after ${n} failed step${n === 1 ? '' : 's'} (--max-failures ${n}).`,
        ...noVision,
        withExpected: true,
        notRun: true,
      }
    }
    case 'did-not-run': {
      const after =
        input.firstCause !== null
          ? input.quick
            ? ` It ran after step ${stepNumber(input.firstCause)} failed, on a page unchanged since; it was looked for once, without waiting.`
            : ` It ran after step ${stepNumber(input.firstCause)} failed.`
          : ''
      return {
        status: 'fail',
        reason: `The step did not run: ${input.error}${after}`,
        ...noVision,
        withExpected: true,
      }
    }
    case 'assert': {
      // an assertion's verdict is its condition (polled until the step timeout), never a screenshot
      const check = input.check
      const holds = input.ran && check?.holds === true
      return {
        status: holds ? 'pass' : 'fail',
        reason: check
          ? holds
            ? `Assertion held: ${check.expected} (actual ${check.actual}).`
            : `Assertion failed: expected ${check.expected}, actual ${check.actual}.`
          : `The assertion could not be checked: ${input.error}`,
        ...noVision,
        withExpected: false,
        ...(check
          ? {
              details: {
                assertion: {
                  kind: input.assertion.kind,
                  op: input.assertion.op ?? null,
                  expected: check.expected,
                  actual: check.actual,
                  holds: check.holds,
                },
              },
            }
          : {}),
      }
    }
    case 'judged-by-next':
      return {
        status: 'pass',
        reason:
          input.by === 'native-list'
            ? `The click opened the native list of ${input.target}, which screenshots do not show the same way (the browser draws it apart from the page); step ${stepNumber(input.next)}, the choice made in it, is verified instead.`
            : `The click put the caret in ${input.target}, which step ${stepNumber(input.next)} types into right after; that step, the field focused and filled, is verified instead (the person started typing while the field's focus look was still fading in).`,
        ...noVision,
        withExpected: true,
        details: { skipped: false, judged_by_action_index: input.next },
      }
    case 'not-verified':
      // a step replayed by coordinates for want of a real target is not called a pass without a screen check
      return {
        status: input.coordinateWarning ? 'warning' : 'pass',
        reason: input.coordinateWarning
          ? `The step ran, but ${input.coordinateWarning}; its screen was not compared (replay without --verify).`
          : 'The step ran; its screen was not compared (replay without --verify).',
        ...noVision,
        withExpected: false,
      }
    case 'screenshot': {
      const { kind: _, ...verdictInput } = input
      const decision = decideVerdict(verdictInput, policy)
      return decision.status === 'ask-vision' ? decision : { ...decision, withExpected: true }
    }
  }
}

/**
 * The verification result of a step decided without comparing screens (every kind but `screenshot`, whose result
 * `verifyStep` builds with its similarity and images).
 */
export function stepVerification(
  actionIndex: number,
  action: Pick<Action, 'description' | 'screenshotPath'>,
  verdict: StepVerdict,
): VerificationResult {
  const result: VerificationResult = {
    actionIndex,
    actionDescription: action.description,
    screenshotMatch: false,
    screenshotSimilarity: 0,
    visionVerified: false,
    visionMatch: false,
    finalResult: verdict.status as Verdict,
    reason: verdict.reason,
  }
  if (verdict.notRun) result.notRun = true
  if (verdict.withExpected && action.screenshotPath) result.expectedScreenshot = action.screenshotPath
  if (verdict.details) result.details = verdict.details
  return result
}
