import { type Action, type Assertion, describeAssertion, hasAssertionTarget, normalizeAssertedText } from '@qa/model'
import type { Page } from 'playwright-core'
import { countMatches } from '@qa/matcher'
import type { CapturedElement, CdpIdentityReader } from './cdp-identity'
import { identityFromDevtoolsSelectors } from './devtools'
import { WebError } from './errors'
import { playwrightCandidateSource } from './candidate-source'
import type { ScriptAssertStep } from './script'

/** Longest text the page description keeps (`clean` in page-scripts): a longer one is asserted by `contains`. */
const DESCRIBED_TEXT_MAX = 200

function label(identity: Action['identity']): string | null {
  if (!identity) return null
  const name = identity.axName || identity.ariaLabel || identity.placeholder || identity.textContent || identity.name
  const role = identity.axRole || (identity.tagName !== 'unknown' ? identity.tagName : 'element')
  return name ? `${role} "${name.slice(0, 60)}"` : role
}

/**
 * The assert step a script asks for, captured from the page as it is now without acting on it: the target's
 * identity (under the point, as a click's; or from a DevTools-style selector), and `expected` read from the
 * page when the script gives none (the text or value shown now, the URL now, the count now).
 */
export async function captureAssertion(
  page: Page,
  reader: CdpIdentityReader,
  step: ScriptAssertStep,
): Promise<Omit<Action, 'timestamp'>> {
  const assertion: Assertion = { kind: step.kind }
  if (step.op) assertion.op = step.op
  if (step.expected !== undefined) assertion.expected = step.expected
  const action: Omit<Action, 'timestamp'> = { actionType: 'assert', x: 0, y: 0, description: '', assertion }

  if (!hasAssertionTarget(step.kind)) {
    if (step.kind === 'url' && assertion.expected === undefined) assertion.expected = page.url()
    action.description = describeAssertion(assertion)
    return action
  }

  let target: CapturedElement | null = null
  if (step.x !== undefined && step.y !== undefined) {
    action.x = Math.round(step.x)
    action.y = Math.round(step.y)
    target = await reader.assertTargetAt(step.x, step.y)
    if (!target) {
      throw new WebError(
        'WEB_ELEMENT_NOT_FOUND',
        `There is no element at (${action.x}, ${action.y}) to assert on (${step.kind}).`,
        { hint: 'Give the point of the element as it is on the page now, or name it with "selector".' },
      )
    }
    // the state of a label or of a styled checkbox is its control's
    const own = (step.kind === 'checked' || step.kind === 'value') && target.operates ? target.operates : target
    action.identity = own.identity
    action.selectors = own.selectors
  } else if (step.selector) {
    const imported = identityFromDevtoolsSelectors([step.selector])
    if (imported.empty) {
      throw new WebError(
        'WEB_BAD_SCRIPT',
        `The assert step's selector ${JSON.stringify(step.selector)} cannot be used.`,
        {
          hint: 'Use CSS (#cart, .item), aria/Name, text/Text or xpath//….',
        },
      )
    }
    action.identity = imported.identity
    action.selectors = imported.selectors
  }
  const identity = action.identity
  if (!identity) throw new WebError('WEB_BAD_SCRIPT', `The ${step.kind} assertion has no target.`)

  if (assertion.expected === undefined) {
    switch (step.kind) {
      case 'text': {
        const text = normalizeAssertedText(
          target?.identity.textContent ??
            (await page
              .locator(action.selectors?.css ?? '')
              .first()
              .innerText({ timeout: 2_000 })
              .catch(() => '')),
        )
        assertion.expected = text
        // the described text is cut at 200 characters: the part kept is asserted as contained
        if (text.length >= DESCRIBED_TEXT_MAX && !assertion.op) assertion.op = 'contains'
        break
      }
      case 'value':
        assertion.expected = target?.description.value ?? target?.operates?.description.value ?? ''
        break
      case 'count':
        assertion.expected = (
          await countMatches(identity, playwrightCandidateSource(page, { framePath: identity.framePath ?? null }), {
            selectors: action.selectors ?? null,
          })
        ).count
        break
      default:
        break
    }
  }
  action.description = describeAssertion(assertion, label(identity))
  return action
}
