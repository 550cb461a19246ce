import type { ElementIdentity } from '@qa/model'
import type { CandidateElement } from '../score-candidate'

/**
 * Where a form field stands by structure alone: a page's navbar holds one search field, a data table's toolbar one
 * page-size select. A person knows it as "the text field of the navbar" whatever its placeholder says: Material
 * Dashboard 2's navbar search "Search..." is a field with a floating label "Type here..." in release 3. When the
 * recorded field was the only field of its kind in its landmark and the page has exactly one field of that kind in
 * a landmark of that tag, that one is it.
 */

/** HTML elements of the landmark roles a page is laid out in (navigation, banner, contentinfo, complementary, main). */
const LANDMARK_TAGS: ReadonlySet<string> = new Set(['nav', 'header', 'footer', 'aside', 'main'])

/** Input types a person types words into: one kind of field whatever the type says. */
const TEXT_TYPES: ReadonlySet<string> = new Set(['', 'text', 'search', 'email', 'tel', 'url'])

/** The kind of field an element is (a select, a textarea, a text input), or null for anything else. */
export function fieldKind(e: Pick<CandidateElement, 'tagName' | 'type'>): 'select' | 'textarea' | 'text' | null {
  const tag = e.tagName?.trim().toLowerCase()
  if (tag === 'select') return 'select'
  if (tag === 'textarea') return 'textarea'
  if (tag === 'input') return TEXT_TYPES.has((e.type ?? '').trim().toLowerCase()) ? 'text' : null
  return null
}

/**
 * The nearest landmark element above an element, read from its XPath (`/html/body/div/nav/div/form/input`): its tag
 * and the XPath of the landmark itself, or null when no landmark holds it.
 */
export function landmarkOf(xpath: string | null | undefined): { tag: string; path: string } | null {
  if (!xpath?.startsWith('/')) return null
  const steps = xpath.split('/')
  // the element's own step is last: a landmark above it, not itself
  for (let i = steps.length - 2; i > 0; i--) {
    const tag = (steps[i] as string).replace(/\[\d+\]$/, '').toLowerCase()
    if (LANDMARK_TAGS.has(tag)) return { tag, path: steps.slice(0, i + 1).join('/') }
  }
  return null
}

/**
 * How many visible fields of the element's kind (`fieldKind`) its nearest landmark holds, itself included, among
 * these elements of its page (what the recorder stores as `fieldsInLandmark`); null when the element is not a
 * field or no landmark holds it.
 */
export function countFieldsInLandmark(
  identity: Pick<ElementIdentity, 'tagName' | 'type' | 'xpath'>,
  elements: readonly CandidateElement[],
): number | null {
  const kind = fieldKind(identity)
  const landmark = landmarkOf(identity.xpath)
  if (!kind || !landmark) return null
  const inside = `${landmark.path}/`
  let n = 0
  for (const e of elements)
    if (e.visible !== false && fieldKind(e) === kind && (e.xpath === identity.xpath || e.xpath?.startsWith(inside))) n++
  return Math.max(n, 1)
}

/**
 * The field standing where the recorded one stood by structure: the recorded field was the only field of its kind
 * in its landmark (`fieldsInLandmark` 1), and exactly one visible field of that kind stands in a landmark of the same
 * tag on this page (in any of them: release 3 may wrap the navbar in another `nav`). Null otherwise: two or more
 * (which one is not told by structure), none (the field is gone), or a recording without the count.
 */
export function onlyFieldOfItsLandmark<E extends CandidateElement>(
  identity: Pick<ElementIdentity, 'tagName' | 'type' | 'xpath' | 'fieldsInLandmark'>,
  elements: readonly E[],
): E | null {
  if (identity.fieldsInLandmark !== 1) return null
  const kind = fieldKind(identity)
  const landmark = landmarkOf(identity.xpath)
  if (!kind || !landmark) return null
  const there = elements.filter(
    (e) => e.visible !== false && fieldKind(e) === kind && landmarkOf(e.xpath)?.tag === landmark.tag,
  )
  return there.length === 1 ? (there[0] as E) : null
}
