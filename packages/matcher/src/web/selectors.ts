import type { CascadeStep, StepOutcome } from '../internal/cascade'
import type { CandidateElement } from '../score-candidate'
import { blank, type WebContext } from './context'

/** XPath-looking selectors in `fallbacks` ("//div", "(//a)[2]", "xpath=…"). */
function selectorKind(selector: string): { selector: string; kind: 'css' | 'xpath' } {
  const s = selector.trim()
  if (s.startsWith('xpath=')) return { selector: s.slice(6), kind: 'xpath' }
  if (s.startsWith('css=')) return { selector: s.slice(4), kind: 'css' }
  return { selector: s, kind: s.startsWith('/') || s.startsWith('(') ? 'xpath' : 'css' }
}

/**
 * The stored CSS selector, then the XPath (the step's selectors, else the identity's XPath), each followed by the
 * fallbacks of its kind: the first selector whose elements resolve to a match wins, else the most informative
 * outcome.
 */
export function selectorStrategies<H>(
  ctx: WebContext<H>,
): [CascadeStep<CandidateElement<H>>, CascadeStep<CandidateElement<H>>] {
  const { identity, source, opts, step, resolve } = ctx
  type E = CandidateElement<H>
  const css = opts.selectors?.css
  const xpath = opts.selectors?.xpath ?? identity.xpath
  const fallbacks = (opts.selectors?.fallbacks ?? []).filter((s) => !blank(s)).map(selectorKind)
  const cssList = [
    ...(blank(css) ? [] : [{ selector: css as string, kind: 'css' as const }]),
    ...fallbacks.filter((f) => f.kind === 'css'),
  ]
  const xpathList = [
    ...(blank(xpath) ? [] : [{ selector: xpath as string, kind: 'xpath' as const }]),
    ...fallbacks.filter((f) => f.kind === 'xpath'),
  ]
  /** Tries several selectors in order; the first that yields a match wins, else the most informative outcome. */
  const trySelectors = async (method: 'css' | 'xpath', list: typeof cssList): Promise<StepOutcome<E>> => {
    let last: StepOutcome<E> = { outcome: 'none', candidates: 0 }
    for (const { selector, kind } of list) {
      const out = await resolve(method, await source.bySelector(selector, kind))
      if (out.outcome === 'matched')
        return { ...out, detail: `${kind} ${selector}${out.detail ? `; ${out.detail}` : ''}` }
      if (out.outcome !== 'none' || last.outcome === 'none')
        last = { ...out, detail: `${kind} ${selector}${out.detail ? `; ${out.detail}` : ''}` }
    }
    return last
  }
  return [
    step('css', cssList.length === 0 ? 'no CSS selector recorded' : null, () => trySelectors('css', cssList)),
    step('xpath', xpathList.length === 0 ? 'no XPath recorded' : null, () => trySelectors('xpath', xpathList)),
  ]
}
