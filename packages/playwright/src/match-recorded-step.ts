import type { VerificationResult } from '@qa/model'
import { maskedScreenshot, pageAssertionProbe, pollAssertion, settle } from '@qa/recorder-cdp'
import {
  createReplayVerifier,
  type Rect,
  decideStepVerdict,
  stepVerification,
  type VerdictPolicy,
  type VisionReverifier,
} from '@qa/verifier'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { actedStep } from './internal/step-memory'
import { type CaseRef, loadRecordedCase, recordedAction } from './recorded-case'
import { currentTestInfo } from './test-info'

export interface RecordedStepOptions {
  /** The vision second opinion: asked when the pixels differ more than the pass threshold. */
  reverifier?: VisionReverifier | null
  /** Pass and fallback similarity (defaults 0.95 and 0.7). */
  policy?: VerdictPolicy
  /** Regions to ignore (clocks, counters), in screenshot pixels. */
  ignore?: Rect[]
  /** How long an `assert` step's condition is polled (default 5000 ms, as in the replay). */
  timeoutMs?: number
}

let defaults: RecordedStepOptions = {}

/** Options every `toMatchRecordedStep` uses unless it passes its own (e.g. a vision reverifier, set once in a fixture). */
export function configureRecordedSteps(opts: RecordedStepOptions): void {
  defaults = { ...opts }
}

/**
 * The verification of one recorded step against the page as it is now, exactly as `qa replay --verify`
 * verifies it (one verdict for one step): the page settled, then the step's expected region (what the
 * recorded step changed, and its element) compared with the recorded after-screenshot, then (when configured)
 * the vision second opinion. A step acted on with `heal(page).fromCase(…)` is compared with the context the
 * replay has too: the screen before it (a change elsewhere) and how far its element moved. Expected, actual and
 * diff are attached to the running test as `step-NNN-expected.png` / `-actual.png` / `-diff.png`.
 */
export async function verifyRecordedStep(
  page: Page,
  ref: CaseRef,
  index: number,
  opts: RecordedStepOptions = {},
): Promise<VerificationResult> {
  const o = { ...defaults, ...opts }
  const recorded = await loadRecordedCase(ref)
  const action = recordedAction(recorded, index)
  const info = currentTestInfo()
  const stem = `step-${String(index).padStart(3, '0')}`
  const artifactDir = info ? info.outputPath(`qa-${stem}`) : null
  const expected = action.screenshotPath ? resolve(recorded.dir, action.screenshotPath) : null
  const verifier = createReplayVerifier({
    testCaseName: recorded.testCase.name,
    baseDir: recorded.dir,
    testCasePath: recorded.file,
    platform: recorded.testCase.platform,
    reverifier: o.reverifier ?? null,
    ...(o.policy ? { policy: o.policy } : {}),
    ...(o.ignore ? { compare: { ignore: o.ignore } } : {}),
    artifactDir,
    keepActual: 'always',
  })
  if (action.actionType === 'assert' && action.assertion) {
    // an assertion's verdict is its condition, polled as the replay polls it, never a screenshot
    const probe = pageAssertionProbe(() => page, action)
    const checked = await pollAssertion(action.assertion, probe, { timeoutMs: o.timeoutMs ?? 5_000 })
    return stepVerification(
      index,
      action,
      decideStepVerdict({ kind: 'assert', ran: true, check: checked, error: '', assertion: action.assertion }),
    )
  }
  // the replay settles the page before it takes the screenshot it verifies
  await settle(page).catch(() => undefined)
  const acted = actedStep(page, recorded.file, index)
  const result = await verifier.verifyAction(index, action, () => maskedScreenshot(page), {
    previousAction: index > 0 ? (recorded.testCase.actions[index - 1] ?? null) : null,
    ...(acted ? { actualBefore: acted.before, displacement: acted.displacement, actualTargetBox: acted.box } : {}),
  })
  if (info) {
    if (expected) await info.attach(`${stem}-expected.png`, { path: expected, contentType: 'image/png' })
    if (result.actualScreenshot)
      await info.attach(`${stem}-actual.png`, { path: result.actualScreenshot, contentType: 'image/png' })
    if (result.diffScreenshot)
      await info.attach(`${stem}-diff.png`, { path: result.diffScreenshot, contentType: 'image/png' })
    await info.attach(`${stem}-verification`, {
      body: JSON.stringify(result, null, 2),
      contentType: 'application/json',
    })
    if (result.finalResult === 'warning')
      info.annotations.push({ type: 'qa-warning', description: `${stem}: ${result.reason ?? ''}` })
  }
  return result
}

/** `expect(page).toMatchRecordedStep(case, i)`: passes on `pass` and `warning` verdicts, fails on `fail`. */
export async function toMatchRecordedStep(
  this: { isNot: boolean },
  page: Page,
  ref: CaseRef,
  index: number,
  opts: RecordedStepOptions = {},
) {
  const result = await verifyRecordedStep(page, ref, index, opts)
  const pass = result.finalResult !== 'fail'
  const similarity = `${(result.screenshotSimilarity * 100).toFixed(2)}%`
  return {
    pass,
    name: 'toMatchRecordedStep',
    expected: 'pass',
    actual: result.finalResult,
    message: () =>
      `expect(page)${this.isNot ? '.not' : ''}.toMatchRecordedStep(${typeof ref === 'string' ? ref : ref.file}, ${index})\n\n` +
      `Verdict: ${result.finalResult} (pixel similarity ${similarity}${result.visionVerified ? `, vision ${result.visionMatch ? 'agrees' : 'disagrees'}` : ''})\n` +
      `${result.reason ?? ''}`,
  }
}
