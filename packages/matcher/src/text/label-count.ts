import type { ElementIdentity } from '@qa/model'
import type { CandidateElement } from '../score-candidate'
import { holderAgreement, labelKeys, SAME_LABEL_AGREEMENT, sameCandidate, sameRoleKind } from './label-agreement'
import { comparisonKey } from './text-similarity'

/**
 * How many of these elements carry a label agreeing with the identity's (`holderAgreement` ≥
 * `SAME_LABEL_AGREEMENT`) and a role of the same kind (`sameRoleKind`), the element itself and hidden ones
 * excluded: what a recorder stores as `sameLabelCount`, and what the sole-holder rule counts again at replay.
 */
export function countSameLabel(
  identity: ElementIdentity,
  self: CandidateElement | null,
  elements: readonly CandidateElement[],
): number {
  if (labelKeys(identity).length === 0) return 0
  return countOthersOfItsKind(identity, self, elements, (e) => holderAgreement(identity, e) >= SAME_LABEL_AGREEMENT)
}

/**
 * How many visible elements with a role of the identity's kind pass `holds`, the element itself excluded: at its
 * XPath when only one element is there (its box may have moved a pixel since it was read: sneat's buttons lift
 * under the pointer), else at its XPath and box.
 */
function countOthersOfItsKind(
  identity: ElementIdentity,
  self: CandidateElement | null,
  elements: readonly CandidateElement[],
  holds: (e: CandidateElement) => boolean,
): number {
  const atXpath = self?.xpath ? elements.filter((e) => e.xpath === self.xpath) : []
  const isSelf = (e: CandidateElement) =>
    self !== null && (atXpath.length === 1 ? atXpath[0] === e : sameCandidate(e, self))
  let n = 0
  for (const e of elements)
    if (e.visible !== false && !isSelf(e) && sameRoleKind(identity.axRole, e.axRole) && holds(e)) n++
  return n
}

/** The whole label texts of an element as comparison keys (no parts, no words left out). */
const wholeLabelKeys = (e: CandidateElement | ElementIdentity): string[] =>
  [e.axName, e.textContent, e.ariaLabel, e.placeholder].map((v) => comparisonKey(v?.slice(0, 160))).filter(Boolean)

/**
 * Whether two elements carry the very same label: a whole label text of one (accessible name, text, aria-label,
 * placeholder) is one of the other's, case, spacing and punctuation aside. Material Dashboard's sidebar "dashboard
 * Dashboard" carries its own label exactly in releases 2 and 3; the navbar's icon link "dashboard" only agrees with it.
 */
export function sameExactLabel(a: CandidateElement | ElementIdentity, b: CandidateElement | ElementIdentity): boolean {
  const mine = wholeLabelKeys(a)
  return mine.length > 0 && wholeLabelKeys(b).some((k) => mine.includes(k))
}

/**
 * How many of these elements carry the identity's label exactly (`sameExactLabel`) on a control of its kind, the
 * element itself and hidden ones excluded: what a recorder stores as `exactLabelCount`. 0 while `sameLabelCount` is
 * higher: the other holders only agreed with the label, and one that is gone later was not the recorded one when an
 * element with the very label is still there alone.
 */
export function countExactLabel(
  identity: ElementIdentity,
  self: CandidateElement | null,
  elements: readonly CandidateElement[],
): number {
  if (wholeLabelKeys(identity).length === 0) return 0
  return countOthersOfItsKind(identity, self, elements, (e) => sameExactLabel(identity, e))
}
