import type { CascadeStep } from '../internal/cascade'
import type { CandidateElement } from '../score-candidate'
import { groupedByName } from '../text/label-agreement'
import { actionable, blank, pointOf, type WebContext } from './context'
import { optionAtGroupPosition } from './group-position'
import { STRATEGY_BASE_CONFIDENCE } from './types'

const FORM_TAGS = new Set(['input', 'select', 'textarea', 'button', 'form', 'fieldset', 'output', 'object', 'iframe'])

/**
 * Form elements of the recorded tag whose name attribute is exactly the recorded one; for a radio group (or a
 * checkbox list) sharing one name, the option at the recorded place of a group of the recorded size.
 */
export function nameStrategy<H>(ctx: WebContext<H>): CascadeStep<CandidateElement<H>> {
  const { identity, source, step, resolve, recordedPoint } = ctx
  const isForm = FORM_TAGS.has((identity.tagName ?? '').toLowerCase())
  return step(
    'name',
    blank(identity.name)
      ? 'no name attribute recorded'
      : !isForm
        ? 'not a form element'
        : groupedByName(identity) && !identity.groupPosition
          ? "a radio's name (or a checkbox list's) is its group's, not its own"
          : null,
    async () => {
      const sameName = await source.byAttribute('name', identity.name as string, identity.tagName.toLowerCase())
      if (!groupedByName(identity)) return resolve('name', sameName)
      // a group's name: the option at the recorded place of a group of the recorded size (`group-position.ts`)
      const option = optionAtGroupPosition(identity, sameName)
      if (!option.element || actionable([option.element])[0] !== option.element)
        return {
          outcome: sameName.length === 0 ? 'none' : 'below_threshold',
          candidates: sameName.length,
          confidence: 0,
          detail: option.element ? `${option.detail}, which is hidden or disabled` : option.detail,
        }
      return {
        outcome: 'matched',
        element: option.element,
        point: pointOf(option.element, recordedPoint),
        confidence: STRATEGY_BASE_CONFIDENCE.name,
        candidates: sameName.length,
        detail: option.detail,
      }
    },
  )
}
