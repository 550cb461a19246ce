import type { ElementIdentity } from '@qa/model'
import { groupedByName, labelKeys } from '../text/label-agreement'
import type { CandidateElement } from '../score-candidate'
import { comparisonKey } from '../text/text-similarity'

/** The answer of `optionAtGroupPosition`: the option, or why there is none. */
export type GroupOption<E> = { element: E; detail: string } | { element: null; detail: string }

/**
 * The recorded radio button (or option of a named checkbox list) found by its place in its group: the inputs of
 * its type sharing its form `name`. A group of the recorded size is the recorded group, and its option at the
 * recorded place is the recorded option, whatever it is called now (an option reworded by a release: "Team" →
 * "People"). Refused when the group changed size (an option removed or added), when the place is not one option
 * (two forms with the group), when the option there submits another value than the recorded one did (another
 * option, not the recorded one reworded), when another option of the group carries the recorded label (the options
 * were reordered), or when the option there is labelled as one of the recorded option's neighbours was.
 *
 * `sameName` are the page's inputs with the recorded `name`.
 */
export function optionAtGroupPosition<E extends CandidateElement>(
  identity: ElementIdentity,
  sameName: readonly E[],
): GroupOption<E> {
  const recorded = identity.groupPosition
  const type = identity.type?.trim().toLowerCase()
  if (!recorded || !type || !identity.name || !groupedByName(identity))
    return { element: null, detail: 'no place in a group recorded' }
  const group = sameName.filter((c) => c.type?.trim().toLowerCase() === type && c.groupPosition)
  const of = `the "${identity.name}" group`
  if (group.length === 0) return { element: null, detail: `no ${type} of ${of} now` }
  const resized = group.find((c) => c.groupPosition?.size !== recorded.size)
  if (resized)
    return {
      element: null,
      detail: `${of} has ${resized.groupPosition?.size} options now, ${recorded.size} when recorded`,
    }
  const there = group.filter((c) => c.groupPosition?.index === recorded.index)
  const place = `option ${recorded.index + 1} of ${recorded.size} of ${of}`
  if (there.length !== 1) return { element: null, detail: `${there.length} inputs stand as ${place}` }
  const element = there[0] as E
  const value = recorded.value ?? null
  if (value !== null && (element.groupPosition?.value ?? null) !== value)
    return {
      element: null,
      detail: `${place} submits "${element.groupPosition?.value ?? 'on'}" now, "${value}" when recorded`,
    }
  const recordedLabels = new Set(labelKeys(identity))
  if (group.some((c) => c !== element && labelKeys(c).some((k) => recordedLabels.has(k))))
    return { element: null, detail: `another option of ${of} carries the recorded label now` }
  const neighbours = new Set(
    (identity.neighborText ?? []).map(comparisonKey).filter((k) => k !== '' && !recordedLabels.has(k)),
  )
  const now = labelKeys(element)
  if (now.some((k) => neighbours.has(k)))
    return { element: null, detail: `${place} is labelled as a neighbour of the recorded option was` }
  const reworded = now.length > 0 && !now.some((k) => recordedLabels.has(k))
  return { element, detail: `${place}${reworded ? `, labelled "${element.axName ?? element.textContent}" now` : ''}` }
}
