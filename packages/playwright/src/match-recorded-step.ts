import type { VerificationResult } from '@qa/model'
import { maskedScreenshot } from '@qa/recorder-cdp'
import { type Rect, type VerdictPolicy, type VisionReverifier, verifyStep } from '@qa/verifier'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { type CaseRef, loadRecordedCase, recordedAction } from './recorded-case'
import { currentTestInfo } from './test-info'

export interface RecordedStepOptions {
  /** The vision second opinion (SPEC §6): asked when the pixels differ more than the pass threshold. */
  reverifier?: VisionReverifier | null
  /** Pass and fallback similarity (defaults 0.95 and 0.7). */
  policy?: VerdictPolicy
  /** Regions to ignore (clocks, counters), in screenshot pixels. */
  ignore?: Rect[]
}

let defaults: RecordedStepOptions = {}

/** Options every `toMatchRecordedStep` uses unless it passes its own (e.g. a vision reverifier, set once in a fixture). */
export function configureRecordedSteps(opts: RecordedStepOptions): void {
  defaults = { ...opts }
}

/**
 * The seed 000 verification of one recorded step against the page as it is now: pixel similarity with the
 * recorded after-screenshot, then (when configured) the vision second opinion. Expected, actual and diff are
 * attached to the running test as `step-NNN-expected.png` / `-actual.png` / `-diff.png`.
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
  const s = action.semanticInfo
  const intent = [s?.intent, s?.targetElement?.description ?? s?.targetElement?.text, action.description]
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
    .join(' — ')
  const expected = action.screenshotPath ? resolve(recorded.dir, action.screenshotPath) : null
  const result = await verifyStep(
    {
      actionIndex: index,
      description: action.description,
      expected,
      actual: () => maskedScreenshot(page),
      intent: intent || action.description,
      expectedPath: action.screenshotPath ?? null,
    },
    {
      reverifier: o.reverifier ?? null,
      ...(o.policy ? { policy: o.policy } : {}),
      ...(o.ignore ? { compare: { ignore: o.ignore } } : {}),
      artifactDir,
      keepActual: 'always',
    },
  )
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
