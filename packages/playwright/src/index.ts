import { expect as playwrightExpect, test as playwrightTest } from '@playwright/test'
import { type Healer, type HealOptions, heal as healPage } from './heal'
import { toMatchRecordedStep } from './match-recorded-step'

/** Playwright's `expect` with `toMatchRecordedStep(case, index, opts?)` added. */
export const expect = playwrightExpect.extend({ toMatchRecordedStep })

/** Playwright's `test` with a `heal` fixture: `test('…', async ({ page, heal }) => heal(page).fromCase(…))`. */
export const test = playwrightTest.extend<{
  heal: (page: Parameters<typeof healPage>[0], opts?: HealOptions) => Healer
}>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a pattern
  heal: async ({}, use) => {
    await use(healPage)
  },
})

export { PlaywrightQaError, type PlaywrightQaErrorCode } from './errors'
export {
  assertRecorded,
  type Healer,
  HealedStep,
  type HealOptions,
  type HealRecord,
  heal,
  type IdentityOptions,
  type PendingStep,
} from './heal'
export {
  configureRecordedSteps,
  type RecordedStepOptions,
  toMatchRecordedStep,
  verifyRecordedStep,
} from './match-recorded-step'
export { type CaseRef, loadRecordedCase, type RecordedCase, resolveCasePath } from './recorded-case'
export { type ReplayAttachment, type ReplayCaseOptions, replayCase } from './replay-case'
