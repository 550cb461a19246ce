import { type Action, type Assertion, describeAssertion, hasAssertionTarget, normalizeAssertedText } from '@qa/model'
import type { Locator, Page } from 'playwright-core'
import { type AssertPickKind, countMatches } from '@qa/matcher'
import type { CapturedElement, CdpIdentityReader } from '../browser/cdp-identity'
import { identityFromDevtoolsSelectors, parseAriaSelector } from '../devtools'
import { WebError } from '../errors'
import { playwrightCandidateSource } from '../replay/candidate-source'
import type { ScriptAssertStep } from './script'

/** A DevTools-style selector as a Playwright locator (CSS pierces open shadow roots). */
export function locatorForSelector(page: Page, selector: string): Locator {
  if (selector.startsWith('xpath/')) return page.locator(`xpath=${selector.slice(6)}`)
  if (selector.startsWith('pierce/')) return page.locator(selector.slice(7))
  if (selector.startsWith('text/')) return page.getByText(selector.slice(5), { exact: true })
  if (selector.startsWith('aria/')) {
    const { name, role } = parseAriaSelector(selector.slice(5))
    return role
      ? page.getByRole(role as Parameters<Page['getByRole']>[0], { name, exact: true })
      : page.getByLabel(name, { exact: true }).or(page.getByRole('button', { name, exact: true }))
  }
  return page.locator(selector)
}

/** The centre of the one visible element a selector names, when that point reaches the element itself. */
async function pointOfSelector(page: Page, selector: string): Promise<{ x: number; y: number } | null> {
  const all = locatorForSelector(page, selector)
  const visible: Locator[] = []
  for (const l of await all.all().catch(() => [] as Locator[]))
    if (await l.isVisible().catch(() => false)) visible.push(l)
  if (visible.length !== 1) return null
  const el = visible[0] as Locator
  const box = await el.boundingBox().catch(() => null)
  if (!box) return null
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  const reaches = await el
    .evaluate((node, p) => {
      const hit = document.elementFromPoint(p.x, p.y)
      return !!hit && (node.contains(hit) || hit.contains(node))
    }, point)
    .catch(() => false)
  const viewport = page.viewportSize()
  const inside = !viewport || (point.x >= 0 && point.y >= 0 && point.x < viewport.width && point.y < viewport.height)
  return reaches && inside ? point : null
}

/** Longest text the page description keeps (`clean` in page-scripts): a longer one is asserted by `contains`. */
const DESCRIBED_TEXT_MAX = 200

/** How an assertion's description names its target: `button "Checkout"`, `h2 "3 items"`. */
export function assertionTargetLabel(identity: Action['identity']): string | null {
  if (!identity) return null
  const name = identity.axName || identity.ariaLabel || identity.placeholder || identity.textContent || identity.name
  const role = identity.axRole || (identity.tagName !== 'unknown' ? identity.tagName : 'element')
  return name ? `${role} "${name.slice(0, 60)}"` : role
}

/** The element an assertion is about: the state of a label or of a styled checkbox is its control's. */
function assertedElement(target: CapturedElement, kind: Assertion['kind']): CapturedElement {
  return (kind === 'checked' || kind === 'value') && target.operates ? target.operates : target
}

/**
 * What the toolbar's highlight shows while an assert mode hovers: the box of the element a pick
 * at (x, y) would assert on, and the name the recorded assertion will use (`assertionTargetLabel` of the same
 * element `captureAssertion` takes). Null when there is nothing to assert on there.
 */
export async function assertPickHighlight(
  reader: CdpIdentityReader,
  kind: 'visible' | 'text' | 'value',
  x: number,
  y: number,
): Promise<AssertHighlight | null> {
  const target = await reader.assertPickAt(x, y, kind, { light: true }).catch(() => null)
  if (!target) return null
  const own = assertedElement(target, kind)
  const box = own.identity.boundingBox
  if (!box) return null
  return { box, label: assertionTargetLabel(own.identity) ?? own.identity.tagName }
}

/** A highlight's box (top-level viewport CSS pixels) and the name it shows. */
export interface AssertHighlight {
  box: { x: number; y: number; width: number; height: number }
  label: string
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
  opts: {
    /** The element at the step's point, already read (a person's pick, read when it was made). */
    picked?: Promise<CapturedElement | null>
  } = {},
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
  // a selector naming one element on the page now: its full identity, captured at its centre (count and hidden
  // keep the selector alone: they are about every element it matches, or none)
  const point =
    step.x !== undefined && step.y !== undefined
      ? { x: step.x, y: step.y }
      : step.selector && step.kind !== 'count' && step.kind !== 'hidden'
        ? await pointOfSelector(page, step.selector)
        : null
  if (point) {
    action.x = Math.round(point.x)
    action.y = Math.round(point.y)
    // the smallest meaningful element there (a heading, not its dialog), as the toolbar's highlight showed it
    target = await (opts.picked ?? reader.assertPickAt(point.x, point.y, step.kind as AssertPickKind))
    if (!target) {
      throw new WebError(
        'WEB_ELEMENT_NOT_FOUND',
        `There is no element at (${action.x}, ${action.y}) to assert on (${step.kind}).`,
        { hint: 'Give the point of the element as it is on the page now, or name it with "selector".' },
      )
    }
    const own = assertedElement(target, step.kind)
    action.identity = own.identity
    action.selectors = own.selectors
    if (step.selector && !step.selector.includes('/') && action.selectors.css !== step.selector) {
      // the script's own CSS selector is kept as the first fallback
      action.selectors = {
        ...action.selectors,
        fallbacks: [step.selector, ...(action.selectors.fallbacks ?? []).filter((f) => f !== step.selector)],
      }
    }
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
              // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees is what is asserted
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
      case 'checked': {
        // the state now, read from the control itself (a label's is its control's)
        const css = action.selectors?.css
        const state = css
          ? await page
              .locator(css)
              .first()
              .isChecked({ timeout: 2_000 })
              .catch(() => null)
          : null
        if (state !== null) assertion.expected = state
        break
      }
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
  action.description = describeAssertion(assertion, assertionTargetLabel(identity))
  return action
}
