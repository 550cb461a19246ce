import type { ElementIdentity, Selectors } from '@qa/model'
import type { CandidateSource } from './web/locate'
import type { CandidateElement } from './score-candidate'

/** How many elements of the page carry a recorded identity, by which exact key, and how many are visible. */
export interface CountMatchesResult<H = unknown> {
  /** Elements found by the first key that found any (0 when no key did). */
  count: number
  /** Of those, the visible ones. */
  visible: number
  /** The key that counted: `role`, `aria_label`, `name`, `test_id`, `css`, `xpath`, `text`; null when none found any. */
  strategy: string | null
  /** Visible elements over every key (an element found by two keys counts twice): 0 means gone by every key. */
  visibleByAnyKey: number
  elements: CandidateElement<H>[]
}

const blank = (s: string | null | undefined): boolean => !s || s.trim() === ''

/**
 * The elements matching a target's identity, for `count` and `hidden` assertions: the same exact keys as the
 * locate cascade, in its order (role + name, aria-label, form name, test id, stored CSS, XPath, text), with
 * no healing — the first key that finds any element gives the count. An element is `hidden` only when no key
 * finds a visible one (a button renamed but still there, found by its test id, is not gone).
 */
export async function countMatches<H>(
  identity: ElementIdentity,
  source: CandidateSource<H>,
  opts: { selectors?: Selectors | null } = {},
): Promise<CountMatchesResult<H>> {
  const css = opts.selectors?.css
  const xpath = opts.selectors?.xpath ?? identity.xpath
  const text = identity.textContent?.replace(/\s+/g, ' ').trim()
  const keys: [string, () => Promise<CandidateElement<H>[]>][] = []
  if (!blank(identity.axRole) && !blank(identity.axName))
    keys.push(['role', () => source.byRole(identity.axRole as string, (identity.axName as string).trim())])
  if (!blank(identity.ariaLabel))
    keys.push(['aria_label', () => source.byAttribute('aria-label', identity.ariaLabel as string)])
  if (!blank(identity.name))
    keys.push(['name', () => source.byAttribute('name', identity.name as string, identity.tagName.toLowerCase())])
  if (!blank(identity.dataTestId))
    keys.push(['test_id', () => source.byAttribute('data-testid', identity.dataTestId as string)])
  if (!blank(css)) keys.push(['css', () => source.bySelector(css as string, 'css')])
  if (!blank(xpath)) keys.push(['xpath', () => source.bySelector(xpath as string, 'xpath')])
  if (!blank(text)) keys.push(['text', () => source.byText(text as string)])

  let first: { strategy: string; elements: CandidateElement<H>[] } | null = null
  let visibleByAnyKey = 0
  for (const [strategy, find] of keys) {
    const elements = await find().catch(() => [] as CandidateElement<H>[])
    const visible = elements.filter((e) => e.visible !== false).length
    visibleByAnyKey += visible
    if (!first && elements.length > 0) first = { strategy, elements }
  }
  if (!first) return { count: 0, visible: 0, strategy: null, visibleByAnyKey, elements: [] }
  return {
    count: first.elements.length,
    visible: first.elements.filter((e) => e.visible !== false).length,
    strategy: first.strategy,
    visibleByAnyKey,
    elements: first.elements,
  }
}
