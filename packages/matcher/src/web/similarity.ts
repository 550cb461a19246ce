import type { CascadeStep, StepOutcome } from '../internal/cascade'
import { type CandidateElement, rankCandidates } from '../score-candidate'
import { labelKeys, sameCandidate } from '../text/label-agreement'
import { fmt, pointOf, type WebContext } from './context'

/** No address of another page: none, a fragment (`#`, `#services`) or `javascript:` (a control drawn as a link). */
const leadsNowhere = (href: string | null | undefined): boolean => {
  const h = href?.trim().toLowerCase() ?? ''
  return h === '' || h.startsWith('#') || h.startsWith('javascript:')
}

/**
 * Every candidate of the page that passes the precision rule, ranked by similarity to the recorded identity: the
 * best at the floor (`minScore`) and ahead by the margin wins; below them, the sole holder of a label unique when
 * recorded, the only element carrying the recorded label among its neighbours, twins told apart by where they
 * stand, and the landmark rule.
 */
export function similarityStrategy<H>(ctx: WebContext<H>): CascadeStep<CandidateElement<H>> {
  const {
    identity,
    weights,
    recordedPoint,
    minScore,
    minMargin,
    minExactScore,
    labels,
    step,
    allCandidates,
    eligible,
    byLandmark,
    soleHolder,
    carriesLabel,
    labelHolders,
    twinByContext,
  } = ctx
  type E = CandidateElement<H>
  return step('similarity', null, async () => {
    const visible = await allCandidates()
    if (visible.length === 0) return { outcome: 'none', candidates: 0 }
    const { kept: list, rejected } = await eligible(visible)
    if (list.length === 0)
      return (
        (await byLandmark()) ?? {
          outcome: 'below_threshold',
          candidates: visible.length,
          confidence: 0,
          detail: `no candidate passes the precision rule (e.g. ${rejected})`,
        }
      )
    const ranked = rankCandidates(identity, list, weights)
    const first = ranked[0] as (typeof ranked)[0]
    const second = ranked[1]
    const margin = second ? first.score - second.score : 1
    /** The best candidate, taken below the floor or the margin for the reason given. */
    const taken = (why: string): StepOutcome<E> => ({
      outcome: 'matched',
      element: first.element,
      point: pointOf(first.element, recordedPoint),
      confidence: first.score,
      candidates: list.length,
      detail: `similarity ${fmt(first.score)}; ${why}`,
    })
    if (
      (first.score < minScore || margin < minMargin) &&
      first.score >= minExactScore &&
      (await soleHolder(first.element))
    )
      return taken('the only element whose label agrees with the recorded one, which was unique on its page')
    // The only element of the page that passes the precision rule — it carries the recorded label (reworded at
    // most: agreement ≥ SAME_LABEL_AGREEMENT) and stands among the recorded neighbours — is the element the user
    // saw, though a redesign changed enough of the rest (classes, place, structure) to score it below the floor —
    // unless another element carries the recorded label better (the breadcrumb "Bootstrap Components" the rules
    // set aside is still there; the sidebar's "Bootstrap" only shares a word with it). A link to another page
    // is no such element when the recorded one led nowhere: gentelella's breadcrumb "Forms" (form.html) cannot be
    // the sidebar's "Forms" toggle the user pressed, now retagged and reading "Forms Hot".
    if (
      first.score < minScore &&
      list.length === 1 &&
      first.score >= minExactScore &&
      labelKeys(identity).length > 0 &&
      carriesLabel(first.element) &&
      !(await labelHolders()).some(
        (h) =>
          !sameCandidate(h, first.element) &&
          !(leadsNowhere(identity.href) && !leadsNowhere(h.href)) &&
          labels.check(h).agreement > labels.check(first.element).agreement,
      )
    )
      return taken('the only element that carries the recorded label and stands among the recorded neighbours')
    const twin = first.score < minScore || margin < minMargin ? twinByContext(ranked) : null
    if (twin)
      return {
        outcome: 'matched',
        element: twin,
        point: pointOf(twin, recordedPoint),
        confidence: first.score * 0.9,
        candidates: list.length,
        detail: `similarity ${fmt(first.score)} shared by elements with the same label; resolved by where it stands (context ${fmt(labels.context(twin) ?? 0)})`,
      }
    if (first.score < minScore)
      return (
        (await byLandmark()) ?? {
          outcome: 'below_threshold',
          candidates: list.length,
          confidence: first.score,
          detail: `best similarity ${fmt(first.score)} < floor ${fmt(minScore)}`,
        }
      )
    if (margin < minMargin)
      return {
        outcome: 'ambiguous',
        candidates: list.length,
        confidence: first.score,
        detail: `best similarity ${fmt(first.score)} is within ${fmt(minMargin)} of the runner-up`,
      }
    return {
      outcome: 'matched',
      element: first.element,
      point: pointOf(first.element, recordedPoint),
      confidence: first.score,
      candidates: list.length,
      detail: `similarity ${fmt(first.score)}${second ? ` vs ${fmt(second.score)}` : ''}`,
    }
  })
}
