import type { CascadeStep } from '../internal/cascade'
import type { CandidateElement } from '../score-candidate'
import { blank, type WebContext } from './context'

/** Elements with the recorded ARIA role and exactly the recorded accessible name. */
export function roleStrategy<H>(ctx: WebContext<H>): CascadeStep<CandidateElement<H>> {
  const { identity, source, step, resolve } = ctx
  return step(
    'role',
    blank(identity.axRole) || blank(identity.axName) ? 'no role and accessible name recorded' : null,
    async () => resolve('role', await source.byRole(identity.axRole as string, (identity.axName as string).trim())),
  )
}

/** Elements whose aria-label is exactly the recorded one. */
export function ariaLabelStrategy<H>(ctx: WebContext<H>): CascadeStep<CandidateElement<H>> {
  const { identity, source, step, resolve } = ctx
  return step('aria_label', blank(identity.ariaLabel) ? 'no aria-label recorded' : null, async () =>
    resolve('aria_label', await source.byAttribute('aria-label', identity.ariaLabel as string)),
  )
}

/** Elements whose data-testid is exactly the recorded one. */
export function testIdStrategy<H>(ctx: WebContext<H>): CascadeStep<CandidateElement<H>> {
  const { identity, source, step, resolve } = ctx
  return step('test_id', blank(identity.dataTestId) ? 'no data-testid recorded' : null, async () =>
    resolve('test_id', await source.byAttribute('data-testid', identity.dataTestId as string)),
  )
}

/** Elements whose visible text is exactly the recorded text (else the accessible name), whitespace-normalised. */
export function textStrategy<H>(ctx: WebContext<H>): CascadeStep<CandidateElement<H>> {
  const { identity, source, step, resolve } = ctx
  const text = blank(identity.textContent) ? identity.axName : identity.textContent
  return step('text', blank(text) ? 'no text recorded' : null, async () =>
    resolve('text', await source.byText((text as string).replace(/\s+/g, ' ').trim())),
  )
}
