import { type LocateOptions, type LocateResult, locate } from '@qa/matcher'
import type { ElementIdentity, Selectors } from '@qa/model'
import type { Locator, Page } from 'playwright-core'
import { type PlaywrightCandidate, playwrightCandidateSource } from './candidate-source'
import { WebError } from '../errors'

export interface HealingLocatorResult {
  locator: Locator
  /** How it was found, with every strategy tried (for your own logs or a `healing_history`). */
  result: LocateResult<PlaywrightCandidate>
}

/**
 * Our self-healing for your own Playwright tests: finds the element an identity describes on the current page
 * (role+name → aria-label → name → test id → CSS/XPath → text → similarity) and returns a Playwright locator
 * for exactly that element. Throws WEB_ELEMENT_NOT_FOUND, listing the strategies tried, when nothing agrees.
 *
 * ```ts
 * const { locator } = await healingLocator(page, { axRole: 'button', axName: '로그인', tagName: 'button',
 *   boundingBox: { x: 590, y: 404, width: 100, height: 36 } })
 * await locator.click()
 * ```
 */
export async function healingLocator(
  page: Page,
  identity: ElementIdentity,
  opts: LocateOptions & { selectors?: Selectors | null } = {},
): Promise<HealingLocatorResult> {
  const source = playwrightCandidateSource(page, { framePath: identity.framePath ?? null })
  const result = await locate(identity, source, opts)
  const locator = result.element?.handle
  if (result.status !== 'found' || !locator) {
    const tried = result.attempts
      .filter((a) => a.outcome !== 'skipped')
      .map((a) => `${a.strategy}: ${a.outcome}`)
      .join(', ')
    throw new WebError(
      'WEB_ELEMENT_NOT_FOUND',
      `No element matches ${identity.axRole ?? identity.tagName} "${identity.axName ?? identity.textContent ?? ''}" (tried ${tried}).`,
      {
        hint: 'The element may be gone; update the identity, or record the step again.',
      },
    )
  }
  return { locator, result }
}
