import type { Page } from 'playwright-core'

/**
 * What the replay knows about a step when it verifies it, kept by `heal(page).fromCase(…)` when it acts: the
 * screen just before the action, the located element's box now and how far it moved since recording. The
 * matcher gives the step the same context the replay gives it, so both reach one verdict.
 */
export interface ActedStep {
  caseFile: string
  actionIndex: number
  before: Uint8Array | null
  box: { x: number; y: number; width: number; height: number } | null
  displacement: { x: number; y: number }
}

const last = new WeakMap<Page, ActedStep>()

export function rememberActedStep(page: Page, step: ActedStep): void {
  last.set(page, step)
}

/** The last step acted on this page, when it is `actionIndex` of `caseFile`. */
export function actedStep(page: Page, caseFile: string, actionIndex: number): ActedStep | null {
  const step = last.get(page)
  return step && step.caseFile === caseFile && step.actionIndex === actionIndex ? step : null
}
