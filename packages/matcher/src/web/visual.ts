import type { CascadeStep } from '../internal/cascade'
import { oversizedObjection } from '../click-target'
import { centerOf, isBox } from '../image/geometry'
import type { CandidateElement } from '../score-candidate'
import { labelKeys, sameRoleKind } from '../text/label-agreement'
import { fmt, type WebContext } from './context'
import { SAME_PIXELS_VISUAL_THRESHOLD, STRATEGY_BASE_CONFIDENCE, UNCHECKED_VISUAL_THRESHOLD } from './types'

/**
 * The recorded element's pixels found on the page (`CandidateSource.visual`): above the NCC bar, and the element
 * under them passing the precision rule, unless the pixels are the recorded element's own and tell it from every
 * other element of the page.
 */
export function visualStrategy<H>(ctx: WebContext<H>): CascadeStep<CandidateElement<H>> {
  const {
    identity,
    source,
    visualThreshold,
    recordedControl,
    maxAreaGrowth,
    minContextScore,
    labels,
    othersWhenRecorded,
    step,
    objection,
    sawAmbiguous,
  } = ctx
  type E = CandidateElement<H>
  return step('visual', source.visual ? null : 'the source has no visual search', async () => {
    const hit = await source.visual?.(identity)
    if (!hit) return { outcome: 'none', candidates: 0 }
    if (!hit.element && hit.nothingInteractive && recordedControl)
      return {
        outcome: 'below_threshold',
        candidates: 1,
        confidence: hit.score,
        detail: `NCC ${fmt(hit.score)}, but nothing a person can act on is under it (the recorded element is a control)`,
      }
    // Pixels alone (no element under the hit to check) must be a near-exact match.
    const needed = hit.element ? visualThreshold : Math.max(visualThreshold, UNCHECKED_VISUAL_THRESHOLD)
    if (!(hit.score >= needed))
      return {
        outcome: 'below_threshold',
        candidates: 1,
        confidence: hit.score,
        detail: `NCC ${fmt(hit.score)} < ${fmt(needed)}`,
      }
    // The page's elements fit the recorded one equally well and others show the same pixels: the best peak
    // among identical pixels is one of them by chance (sneat's seven "first page" chevrons, reordered).
    if (sawAmbiguous() && hit.lookAlikes !== 0)
      return {
        outcome: 'ambiguous',
        candidates: 1 + (hit.lookAlikes ?? 0),
        confidence: hit.score,
        detail: `NCC ${fmt(hit.score)}, but ${hit.lookAlikes === undefined ? 'other elements may show' : `${hit.lookAlikes} other element(s) show`} the same pixels, and the earlier strategies found several elements alike`,
      }
    if (hit.element) {
      // The element under the pixels must pass the precision rule like any other answer: carry what the user
      // saw (a look-alike without the label is not it) and stand where it stood (the same "View details" of
      // another card looks the same).
      const el = hit.element as E
      const why = await objection(el)
      const inScale = !oversizedObjection(identity.boundingBox, el.boundingBox, maxAreaGrowth)
      // a crop the size of a bare glyph (a checkbox, a radio, an icon) looks like every other one
      const rb = identity.boundingBox
      const telling = isBox(rb) && rb.width >= 60 && rb.height >= 20
      const samePixelsUnlabelled =
        why !== null &&
        telling &&
        hit.score >= SAME_PIXELS_VISUAL_THRESHOLD &&
        labelKeys(el).length === 0 &&
        inScale &&
        (labels.context(el) ?? 0) >= minContextScore
      // The pixels and a deliberate identifier (data-testid, a non-generated id, a lone control's form name)
      // agreeing exactly outweigh a changed place: the redesign moved the very control the user saw.
      const identified = why !== null && inScale && labels.check(el).ok && labels.identifier(el) !== undefined
      // The recorded pixels, on one element of the page only (the adapter found no other showing them), of
      // the same kind of control, saying nothing that contradicts the recorded label: the control moved
      // (a banner pushed it down, a menu grew), so its place counts for half — and not at all when the
      // element says exactly the recorded label (a look-alike put before sneat's search field pushed it
      // aside and took its neighbours).
      // Not when another element carried the recorded label at recording: that one may be what the pixels
      // show (gentelella's breadcrumb "Home" removed, the header's "Home" looks the same). Fewer holders than at
      // recording does not veto the pixels: reworded labels (swagger-ui's operations) lose holders too.
      const sameLabel = labelKeys(el).length > 0 && labels.check(el).agreement === 1 && othersWhenRecorded === 0
      const unmistakable =
        why !== null &&
        inScale &&
        hit.score >= SAME_PIXELS_VISUAL_THRESHOLD &&
        hit.lookAlikes === 0 &&
        sameRoleKind(identity.axRole, el.axRole) &&
        (labels.check(el).ok || labelKeys(el).length === 0) &&
        (sameLabel || (labels.context(el) ?? 0) >= minContextScore / 2)
      if (why && !samePixelsUnlabelled && !identified && !unmistakable)
        return {
          outcome: 'below_threshold',
          candidates: 1,
          confidence: hit.score,
          detail: `NCC ${fmt(hit.score)}, but ${why}`,
        }
    }
    const element: E = hit.element ?? { boundingBox: hit.box }
    return {
      outcome: 'matched',
      element,
      point: centerOf(hit.box),
      confidence: STRATEGY_BASE_CONFIDENCE.visual * hit.score,
      candidates: 1,
    }
  })
}
