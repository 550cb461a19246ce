import type { ElementIdentity } from '@qa/model'
import { clickTargetKind, DEFAULT_MAX_AREA_GROWTH, oversizedObjection, recordedTargetObjection } from '../click-target'
import { assertRange } from '../errors'
import { centerOf, isBox, placeDistance, type XY } from '../image/geometry'
import type { CascadeStep, StepOutcome } from '../internal/cascade'
import { type CandidateElement, DEFAULT_WEIGHTS, rankCandidates, scoreCandidate } from '../score-candidate'
import { canonicalIconClasses } from '../text/icon-names'
import {
  createLabelCheck,
  DEFAULT_MIN_CONTEXT_SCORE,
  DEFAULT_MIN_LABEL_SCORE,
  holderAgreement,
  labelKeys,
  SAME_LABEL_AGREEMENT,
  sameCandidate,
  sameRoleKind,
  sharesLabelWord,
} from '../text/label-agreement'
import { sameExactLabel } from '../text/label-count'
import { fieldKind, landmarkOf, onlyFieldOfItsLandmark } from './landmark-field'
import {
  type CandidateSource,
  DEFAULT_VISUAL_THRESHOLD,
  type LocateOptions,
  STRATEGY_BASE_CONFIDENCE,
  type WebStrategy,
} from './types'

/** Default `minExactScore`: a unique hit of an exact strategy must still look this much like the identity. */
const MIN_EXACT_SCORE = 0.45

/** A native control (button, link with href, form field) or an element with an interactive ARIA role. */
function isRecordedControl(identity: ElementIdentity): boolean {
  if (blank(identity.tagName)) return false
  const kind = clickTargetKind({
    tagName: identity.tagName,
    role: identity.axRole ?? null,
    hasHref: !blank(identity.href),
    inputType: identity.type ?? null,
    box: { x: 0, y: 0, width: 0, height: 0 },
  })
  return kind === 'native' || kind === 'role'
}

/**
 * Whether two lists of icon classes share an icon; a list that is empty or unknown says nothing against it.
 * A class renamed with a suffix (`fa-facebook` → `fa-facebook-x1`) is the same icon, and so is an icon its set
 * renamed in a later release (`canonicalIconClasses`).
 */
function sharesIcon(
  recorded: readonly string[] | null | undefined,
  live: readonly string[] | null | undefined,
): boolean {
  // the same icon under its newer name (Font Awesome 5 → 6) is the same icon; size classes name none
  const a = canonicalIconClasses(recorded)
  const b = canonicalIconClasses(live)
  if (!a.length || !b.length) return true
  return a.some((x) => b.some((y) => x === y || x.startsWith(`${y}-`) || y.startsWith(`${x}-`)))
}

/** Neighbour-word overlap that tells a twin's row: another holder at least this, and the margin above the candidate. */
const TWIN_NEIGHBOURS_AGREEMENT = 0.5
/** How much better another twin's nearest neighbour must agree for this one to be rejected. */
const TWIN_NEIGHBOURS_MARGIN = 0.3
/** How much more context (neighbours, place, id) one twin needs than every other to be told apart by it. */
const TWIN_CONTEXT_MARGIN = 0.15
/** Closeness (exp(−distance / 150 px)) a twin told by its place alone needs: within about 180 px. */
const TWIN_PLACE_NEAR = 0.3
/** Distance at which closeness has fallen to 1/e (px), as in the context score. */
const CLOSENESS_PX = 150

const isInput = (e: { tagName?: string | null }): boolean => e.tagName?.toLowerCase() === 'input'
const isPasswordField = (e: { tagName?: string | null; type?: string | null }): boolean =>
  isInput(e) && e.type?.toLowerCase() === 'password'

/** Classes a page toggles on interaction (state, not style): left out when twins are told apart by class. */
const STATE_CLASSES =
  /^(is-)?(active|show|shown|open|opened|focus|focused|hover|selected|checked|disabled|collapsed|expanded|current|pressed)$/i
const styleClasses = (list: readonly string[] | null | undefined): Set<string> =>
  new Set((list ?? []).map((c) => c.trim()).filter((c) => c !== '' && !STATE_CLASSES.test(c)))

/** A last segment a build may put on every class of a page (`btn-primary` → `btn-primary-qdfup`, CSS modules' hash). */
const CLASS_SUFFIX = /[-_][a-z0-9]+$/i
/**
 * Whether the element carries the recorded style classes: the same set, or the same set renamed as a whole — one
 * suffix put on every class (`btn btn-primary btn-lg` → `btn-qdfup btn-primary-qdfup btn-lg-qdfup`). A suffix
 * is one segment, so `btn-secondary-qdfup` is no renamed `btn`, and the renamed set must still be the recorded one
 * (`btn btn-secondary btn-lg` renamed is not `btn btn-primary btn-lg`).
 */
export function sameStyleClasses(recorded: ReadonlySet<string>, live: ReadonlySet<string>): boolean {
  if (recorded.size !== live.size) return false
  if ([...live].every((k) => recorded.has(k))) return true
  const suffixes = new Set([...live].map((k) => CLASS_SUFFIX.exec(k)?.[0]).filter((x): x is string => !!x))
  return [...suffixes].some((suffix) =>
    [...live].every((k) => k.endsWith(suffix) && recorded.has(k.slice(0, -suffix.length))),
  )
}

function describe(e: CandidateElement, reason: string | undefined): string {
  const label = e.axName || e.textContent || e.ariaLabel || e.placeholder || ''
  const tag = (e.tagName ?? 'element').toLowerCase()
  return `<${tag}${e.id ? `#${e.id}` : ''}> "${label.slice(0, 40)}" ${reason ?? ''}`.trim()
}

export const pointOf = (e: CandidateElement, fallback: XY): XY =>
  isBox(e.boundingBox) ? centerOf(e.boundingBox) : fallback
/**
 * The visible candidates a click could land on. A disabled one (`enabled: false`) is dropped when an enabled one
 * is there too: a disabled twin carrying the recorded label is never what the person clicked. When only disabled
 * ones remain they are kept, so the step waits for them to become enabled (and fails, clicking nothing, if not).
 */
export const actionable = <E extends CandidateElement>(list: readonly E[]): E[] => {
  const visible = list.filter((e) => e.visible !== false)
  const enabled = visible.filter((e) => e.enabled !== false)
  return enabled.length > 0 ? enabled : visible
}
export const fmt = (v: number) => v.toFixed(2)
export const blank = (v: string | null | undefined): boolean => !v || v.trim() === ''

/**
 * What every web strategy of one `locate` call shares: the options with their defaults, the page's candidates
 * listed once, and the precision rule (`objection`: why a candidate cannot be the element the user saw) with the
 * lookup resolution built on it (`resolve`: one, many or no elements → an outcome). `step` wraps a strategy for
 * the cascade: skipped when not selected or when the recorded target is no target, failing with an earlier try's
 * error, and noting an ambiguous outcome for the visual strategy (`sawAmbiguous`).
 */
export function webContext<H = unknown>(
  identity: ElementIdentity,
  source: CandidateSource<H>,
  opts: LocateOptions = {},
) {
  const weights = { ...DEFAULT_WEIGHTS, ...opts.weights }
  const minScore = opts.minScore ?? 0.7
  const minExactScore = opts.minExactScore ?? MIN_EXACT_SCORE
  const minLabelScore = opts.minLabelScore ?? DEFAULT_MIN_LABEL_SCORE
  const minContextScore = opts.minContextScore ?? DEFAULT_MIN_CONTEXT_SCORE
  const minMargin = opts.minMargin ?? 0.05
  const visualThreshold = opts.visualThreshold ?? DEFAULT_VISUAL_THRESHOLD
  assertRange('minScore', minScore, 0, 1)
  assertRange('minExactScore', minExactScore, 0, 1)
  assertRange('minMargin', minMargin, 0, 1)
  assertRange('minLabelScore', minLabelScore, 0, 1)
  assertRange('minContextScore', minContextScore, 0, 1)
  assertRange('visualThreshold', visualThreshold, 0, 1)
  const recordedPoint: XY =
    opts.coordinates ?? (isBox(identity.boundingBox) ? centerOf(identity.boundingBox) : { x: 0, y: 0 })
  const only = opts.only ? new Set<WebStrategy>(opts.only) : null
  const maxAreaGrowth = opts.maxAreaGrowth ?? DEFAULT_MAX_AREA_GROWTH
  assertRange('maxAreaGrowth', maxAreaGrowth, 0, 1000)
  /** A recorded `body` (or an empty identity) is found by any CSS or XPath: no strategy may answer for it. */
  const notATarget = recordedTargetObjection(identity)
  /** The recorded element is a native control or has an interactive ARIA role (not a div with a listener). */
  const recordedControl = isRecordedControl(identity)

  type E = CandidateElement<H>
  const labels = createLabelCheck(identity, minLabelScore)
  /** Every visible candidate of the page, listed once per call (similarity and the sole-holder rule share it). */
  let listed: Promise<E[]> | null = null
  /** Every visible candidate, disabled ones included (what the recorder counted for `sameLabelCount`). */
  const visibleCandidates = (): Promise<E[]> => {
    listed ??= source.listCandidates().then((list) => list.filter((e) => e.visible !== false))
    return listed
  }
  let everything: Promise<E[]> | null = null
  const allCandidates = (): Promise<E[]> => {
    everything ??= visibleCandidates().then(actionable)
    return everything
  }
  const uniqueWhenRecorded = identity.sameLabelCount === 0 && labelKeys(identity).length > 0
  /** Whether a candidate carries the recorded label (as `countSameLabel` counts it) on a control of its kind. */
  const holding = new WeakMap<object, number>()
  const carriesLabel = (c: E): boolean => {
    if (!sameRoleKind(identity.axRole, c.axRole)) return false
    if (minLabelScore <= 0) return true
    let agreement = holding.get(c)
    if (agreement === undefined) {
      agreement = holderAgreement(identity, c)
      holding.set(c, agreement)
    }
    return agreement >= Math.max(minLabelScore, SAME_LABEL_AGREEMENT)
  }
  let holders: Promise<E[]> | null = null
  const labelHolders = (): Promise<E[]> => {
    holders ??= visibleCandidates()
      .then((list) => list.filter(carriesLabel))
      .catch(() => [] as E[])
    return holders
  }
  /**
   * The sole-holder rule: the recorded label was unique on its page (`sameLabelCount` 0) and this candidate
   * is the only element of the current page whose label agrees with it. Then it is the element the user
   * saw, wherever the redesign moved it and whatever now stands around it.
   */
  const soleHolder = async (e: E): Promise<boolean> => {
    if (!uniqueWhenRecorded) return false
    // enabled holders only: a disabled twin is not what the person clicks (it still counts as gone or not below)
    const list = (await allCandidates().catch(() => [] as E[])).filter(carriesLabel)
    return list.length === 1 && sameCandidate(list[0] as E, e)
  }
  /**
   * The lost-holder rule: N + 1 elements carried the recorded label when recorded (`sameLabelCount` N ≥ 1) and
   * at most N do now. One of them is gone, and nothing says it is not the recorded one: a twin that stayed
   * (the "Home" tab of the next tab set) is not taken for it. A reworded page loses holders too (sb-admin's
   * "Search for..." became "Find for...", the table's "Search..." became "Find..." and no longer agrees): when no
   * element carries the recorded label exactly any more, the count says nothing about a removal.
   */
  const othersWhenRecorded = identity.sameLabelCount ?? 0
  /** How near the candidate's centre is to the recorded one's, exp(−distance / 150 px); 0 without boxes. */
  const closeness = (e: E): number => {
    const r = identity.boundingBox
    const b = e.boundingBox
    if (!isBox(r) || !isBox(b) || !(r.width > 0) || !(b.width > 0)) return 0
    return Math.exp(-placeDistance(r, b, identity.pageScroll, e.pageScroll) / CLOSENESS_PX)
  }
  /** The recorded element says nothing in words and shows a known icon. */
  const iconIsIdentity =
    (identity.iconClasses?.length ?? 0) > 0 && labelKeys(identity).every((k) => !/[\p{L}\p{N}]/u.test(k))
  const recordedClasses = styleClasses(identity.classNames)
  const sameClasses = (c: E): boolean => sameStyleClasses(recordedClasses, styleClasses(c.classNames))
  /**
   * The candidate's own row (its nearest neighbour) is the recorded one, or nothing says otherwise: the element
   * that slid into a removed row's place stands at its XPath in another row.
   */
  const rowAgrees = (e: E): boolean => (labels.neighbours(e) ?? 1) >= 1 - TWIN_NEIGHBOURS_MARGIN
  /**
   * Twins the similarity cannot tell apart (every candidate within the margin of the best carries the same label
   * as the best): the one standing where the recorded one stood — its context (neighbours, place, id) at least the
   * floor and ahead of every other twin by `TWIN_CONTEXT_MARGIN` — is it, as a person takes the "Home" tab of the
   * tab set they used, not the one of the set further down. Below the similarity floor (a change every twin shares,
   * as a new tag and role) the twins are every candidate with the best one's label, when it is the recorded label
   * exactly. Null when the context does not settle it.
   */
  const twinByContext = (ranked: readonly { element: E; score: number }[]): E | null => {
    const first = ranked[0]
    if (!first || first.score < minExactScore) return null
    const label = labelKeys(first.element).join('\n')
    if (label === '') return null
    const sameLabel = (r: { element: E }) => labelKeys(r.element).join('\n') === label
    const close = ranked.filter((r) => first.score - r.score < minMargin)
    if (!close.every(sameLabel)) return null
    let twins = close
    if (first.score < minScore) {
      // Below the floor: every twin lost the same (sneat's tabs retagged `<button role=tab>` → `<a role=button>`
      // score 0.66 each, place apart), so the score cannot tell them apart nor vouch for the best. Taken only
      // when the twins carry the recorded label exactly, and then every twin of the page is weighed by place.
      if (labels.check(first.element).agreement < 1) return null
      twins = ranked.filter(sameLabel)
    }
    if (twins.length < 2) return null
    const byPlace = twins
      .map((r) => ({ element: r.element, context: labels.context(r.element) ?? -1 }))
      .sort((a, b) => b.context - a.context)
    const [best, next] = byPlace as [(typeof byPlace)[0], (typeof byPlace)[0]]
    if (best.context >= minContextScore && best.context - next.context >= TWIN_CONTEXT_MARGIN) return best.element
    return twinByPlaceAlone(twins.map((r) => r.element))
  }
  /**
   * Twins whose nearest neighbours agree with the recorded one equally (sneat's seven paginations, each reading
   * "1 2 3 4" beside its first-page chevron, with look-alikes' words put among them): the neighbours cannot tell
   * them apart, and the words the look-alikes add only blur the context score. Then the place alone does: the one
   * twin still near the recorded place (closeness ≥ `TWIN_PLACE_NEAR`, within about 180 px) while every other is at
   * most half as close. Items reordered in their row, a twin that slid into the place, or a page relaid out leave
   * no such twin, and nothing is taken.
   */
  const twinByPlaceAlone = (twins: readonly E[]): E | null => {
    const nearest = twins.map((t) => labels.neighbours(t))
    const first = nearest[0]
    if (first === null || first === undefined || nearest.some((n) => n === null || Math.abs(n - first) > 1e-9))
      return null
    const byCloseness = twins.map((element) => ({ element, near: closeness(element) })).sort((a, b) => b.near - a.near)
    const [best, next] = byCloseness as [(typeof byCloseness)[0], (typeof byCloseness)[0]]
    return best.near >= TWIN_PLACE_NEAR &&
      next.near <= best.near / 2 &&
      (labels.context(best.element) ?? 0) >= minContextScore
      ? best.element
      : null
  }
  /**
   * The other holders that carry the recorded label at least as well as `e` does: the twins that can stand for the
   * recorded element instead of it. "30 days" is counted as carrying the recorded "7 days" (they share a word) and
   * the sidebar's "Bootstrap" as carrying the breadcrumb's "Bootstrap Components", but neither outranks the element
   * with the recorded label itself by standing where it stood (gentelella's chart tabs and stisla's breadcrumb,
   * reordered).
   */
  const twinsOf = async (e: E): Promise<E[]> => {
    const mine = labels.check(e).agreement
    return (await labelHolders()).filter((h) => {
      if (sameCandidate(h, e)) return false
      const theirs = labels.check(h)
      return theirs.ok && theirs.agreement >= mine
    })
  }
  const sameTag = (a: { tagName?: string | null }, b: { tagName?: string | null }) =>
    (a.tagName ?? '').toLowerCase() === (b.tagName ?? '').toLowerCase()
  /**
   * The candidate is of the recorded element's kind exactly (tag, role and style classes: gentelella's
   * `h1.page-title` "Forms") and stands in the recorded row, and no other holder of the label is of that kind: the
   * holder that is gone was another kind of element (the sidebar's "Forms"), not the recorded one. Rows of twins
   * ("Delete" in each row) share their kind, and the row that stayed is another row.
   */
  const onlyHolderOfItsKind = async (e: E): Promise<boolean> => {
    if (!sameTag(e, identity) || (e.axRole ?? null) !== (identity.axRole ?? null) || recordedClasses.size === 0)
      return false
    if (!sameClasses(e) || !rowAgrees(e)) return false
    return !(await labelHolders()).some(
      (h) => !sameCandidate(h, e) && sameTag(h, e) && (h.axRole ?? null) === (e.axRole ?? null),
    )
  }
  /**
   * The recorded label was carried exactly by the recorded element alone (`exactLabelCount` 0; the other holders
   * only agreed with it: the navbar's icon link "dashboard" beside the sidebar's "dashboard Dashboard"), and `e` is
   * the only element of its kind carrying it exactly now: the holder that is gone was one of the others.
   */
  const soleExactHolder = async (e: E): Promise<boolean> => {
    if (identity.exactLabelCount !== 0 || !sameExactLabel(identity, e)) return false
    const exact = (await visibleCandidates().catch(() => [] as E[])).filter(
      (c) => sameRoleKind(identity.axRole, c.axRole) && sameExactLabel(identity, c),
    )
    return exact.length === 1 && sameCandidate(exact[0] as E, e)
  }
  const aHolderIsGone = async (): Promise<boolean> => {
    if (othersWhenRecorded < 1 || labelKeys(identity).length === 0) return false
    const now = await labelHolders()
    return now.length <= othersWhenRecorded && now.some((h) => labels.check(h).agreement === 1)
  }
  /**
   * The recorded control drawn wider, not a container around it (swagger-ui 5's schema toggle `button.model-box-control`
   * "Item" became a full-width row: 87×39 → 1178×39): the same tag, role and style classes, about the same height
   * and the recorded label exactly. A container that is far larger differs in one of these (a toolbar, a form
   * group, a card, `body`), and the click point still lands on the control itself (`ownClickPoint`).
   */
  const drawnWider = (e: E): boolean => {
    const r = identity.boundingBox
    const b = e.boundingBox
    if (!isBox(r) || !isBox(b) || !(r.height > 0)) return false
    const tall = b.height / r.height
    if (tall > 1.5 || tall < 1 / 1.5) return false
    if (!sameTag(e, identity) || (e.axRole ?? null) !== (identity.axRole ?? null) || !identity.axRole) return false
    if (recordedClasses.size === 0 || !sameClasses(e) || labelKeys(identity).length === 0) return false
    const v = labels.check(e)
    return v.ok && v.agreement === 1
  }
  /**
   * The precision rule: why a candidate cannot be the element the user saw, or null when it can. Unique
   * hits of deliberate identifiers (form name, data-testid) and candidates carrying the recorded
   * data-testid / non-generated id / name pass; every other candidate must pass the label check and stand
   * where the user saw it (context ≥ minContextScore).
   */
  const objection = async (e: E): Promise<string | null> => {
    const oversized = oversizedObjection(identity.boundingBox, e.boundingBox, maxAreaGrowth)
    if (oversized && !drawnWider(e)) return describe(e, oversized)
    // a password field is never the e-mail field next to it, nor the other way round (and typing a secret
    // into a visible field shows it)
    if (isPasswordField(identity) !== isPasswordField(e) && isInput(identity) && isInput(e) && e.type != null)
      return describe(
        e,
        isPasswordField(e)
          ? 'is a password field, the recorded one was not'
          : 'is not a password field, the recorded one was',
      )
    if (labels.idAgrees(e)) return null
    // an icon-only control is its icon: facebook's button is not github's, where the icon font did not load too
    if (iconIsIdentity && !sharesIcon(identity.iconClasses, e.iconClasses))
      return describe(
        e,
        `shows another icon (${e.iconClasses?.join(' ')}; recorded ${identity.iconClasses?.join(' ')})`,
      )
    const v = labels.check(e)
    if (!v.ok) return describe(e, v.reason)
    // A data-testid shared exactly outweighs where the element now stands (it is put there for tests). A form
    // name does not: rows of a list repeat their form names, and the row that stays after a removal has it too.
    if (labels.identifier(e) === 'data-testid') return null
    if (
      labels.identifier(e) === undefined &&
      !(identity.xpath && e.xpath === identity.xpath && rowAgrees(e)) &&
      carriesLabel(e) &&
      (await aHolderIsGone()) &&
      !(await onlyHolderOfItsKind(e)) &&
      !(await soleExactHolder(e))
    )
      return describe(
        e,
        `one of the ${othersWhenRecorded + 1} elements with the recorded label when recorded is gone (${(await labelHolders()).length} now), and it may be the recorded one`,
      )
    // Twins with the recorded label (sneat's "Button" in btn-primary and btn-secondary, swapped): the one
    // that lost the recorded classes while another kept them exactly is the other twin.
    if (othersWhenRecorded >= 1 && recordedClasses.size > 0 && !sameClasses(e)) {
      const twins = (await twinsOf(e)).filter(sameClasses)
      if (twins.length > 0)
        return describe(
          e,
          `another element with the recorded label carries the recorded classes (${[...recordedClasses].join(' ')})`,
        )
    }
    // Twins in rows (profile's "REPLY" of each conversation, rows reordered): the row is told by the words of
    // the nearest neighbour. The one standing where the recorded one stood, in another row, is not it when
    // another holder stands in the recorded row.
    // Rows that share most words ("Sophie B. Hi! I need more information.." and "Nick Daniel Hi! I need more
    // information..") are told apart by how much better the other holder agrees, not by an absolute floor.
    if (othersWhenRecorded >= 1) {
      const mine = labels.neighbours(e)
      if (mine !== null && mine < 1 - TWIN_NEIGHBOURS_MARGIN) {
        const needed = Math.max(TWIN_NEIGHBOURS_AGREEMENT, mine + TWIN_NEIGHBOURS_MARGIN)
        const better = (await twinsOf(e)).some((h) => (labels.neighbours(h) ?? 0) >= needed)
        if (better)
          return describe(
            e,
            `stands among other neighbours (${fmt(mine)}) while another element with the recorded label stands among the recorded ones`,
          )
      }
    }
    const context = labels.context(e)
    const floor = minContextScore
    if (context !== null && context < floor && !(await soleHolder(e)))
      return describe(
        e,
        `stands elsewhere: context (neighbours, place, id) ${fmt(context)} < ${fmt(floor)}, probably another element with the same label`,
      )
    return null
  }
  /**
   * The landmark rule: the recorded field was the only field of its kind in its landmark (`fieldsInLandmark` 1:
   * "the text field of the navbar", "the select of the page's main part") and exactly one field of that kind stands
   * in a landmark of that tag now (`onlyFieldOfItsLandmark`): that one is it, though its placeholder or label was
   * rewritten beyond agreement (Material Dashboard 3's navbar search, "Search..." → a floating "Type here...").
   * Not when another element carries the recorded label (the field moved, and that may be it), nor when the one
   * field is disabled or drawn far larger. A second field there, or none, and the rule says nothing.
   */
  const byLandmark = async (): Promise<StepOutcome<E> | null> => {
    if (identity.fieldsInLandmark !== 1) return null
    const e = onlyFieldOfItsLandmark(identity, await visibleCandidates().catch(() => [] as E[]))
    if (!e || e.enabled === false) return null
    if (oversizedObjection(identity.boundingBox, e.boundingBox, maxAreaGrowth)) return null
    if ((await labelHolders()).some((h) => !sameCandidate(h, e))) return null
    // what the field says must not contradict the recording: nothing, a label that passes the label check, or one
    // that keeps a word of the recorded label ("Show entries" → "entries per page"); a field that says "Archive"
    // where the recorded one said nothing or "Search..." is another field put there
    if (labelKeys(e).length > 0 && !labels.check(e).ok && !sharesLabelWord(identity, e)) return null
    const s = scoreCandidate(identity, e, weights).score
    return {
      outcome: 'matched',
      element: e,
      point: pointOf(e, recordedPoint),
      confidence: s,
      candidates: 1,
      detail: `similarity ${fmt(s)}; the only ${fieldKind(identity)} field in a ${landmarkOf(identity.xpath)?.tag} landmark, as the recorded one was in its own`,
    }
  }
  const eligible = async (list: readonly E[]): Promise<{ kept: E[]; rejected: string | null }> => {
    const kept: E[] = []
    let rejected: string | null = null
    for (const e of list) {
      const why = await objection(e)
      if (why === null) kept.push(e)
      else rejected ??= why
    }
    return { kept, rejected }
  }
  /** One, many or no elements from a lookup → an outcome. */
  const resolve = async (method: WebStrategy, found: readonly E[]): Promise<StepOutcome<E>> => {
    const visible = actionable(found)
    const base = STRATEGY_BASE_CONFIDENCE[method]
    if (visible.length === 0) return { outcome: 'none', candidates: 0 }
    const { kept: list, rejected } = await eligible(visible)
    if (list.length === 0)
      return {
        outcome: 'below_threshold',
        candidates: visible.length,
        confidence: 0,
        detail: `rejected by the precision rule: ${rejected}`,
      }
    if (list.length === 1 && visible.length === 1) {
      const element = list[0] as E
      const s = scoreCandidate(identity, element, weights).score
      if (s < minExactScore)
        return {
          outcome: 'below_threshold',
          candidates: 1,
          confidence: s,
          detail: `the only element scores ${fmt(s)} < ${fmt(minExactScore)} against the identity`,
        }
      return {
        outcome: 'matched',
        element,
        point: pointOf(element, recordedPoint),
        confidence: base * (0.7 + 0.3 * s),
        candidates: 1,
      }
    }
    const ranked = rankCandidates(identity, list, weights)
    const first = ranked[0] as (typeof ranked)[0]
    const second = ranked[1] ?? { score: 0 }
    if (first.score >= minScore && first.score - second.score >= minMargin) {
      return {
        outcome: 'matched',
        element: first.element,
        point: pointOf(first.element, recordedPoint),
        confidence: base * (0.7 + 0.3 * first.score) * (0.9 + 0.1 * Math.min(1, (first.score - second.score) / 0.2)),
        candidates: visible.length,
        detail: `${visible.length} elements${rejected ? ` (${visible.length - list.length} rejected by the precision rule)` : ''}; resolved by similarity ${fmt(first.score)} vs ${fmt(second.score)}`,
      }
    }
    const twin = twinByContext(ranked)
    if (twin)
      return {
        outcome: 'matched',
        element: twin,
        point: pointOf(twin, recordedPoint),
        confidence: base * (0.7 + 0.3 * first.score) * 0.9,
        candidates: visible.length,
        detail: `${visible.length} elements with the same label (similarity ${fmt(first.score)} vs ${fmt(second.score)}); resolved by where it stands (context ${fmt(labels.context(twin) ?? 0)})`,
      }
    return {
      outcome: list.length === 1 ? 'below_threshold' : 'ambiguous',
      candidates: visible.length,
      confidence: first.score,
      detail: `${visible.length} elements; best similarity ${fmt(first.score)} vs ${fmt(second.score)} does not settle it`,
    }
  }

  /** An earlier strategy found several elements the recorded identity fits equally well. */
  let sawAmbiguous = false
  const step = (method: WebStrategy, skip: string | null, run: () => Promise<StepOutcome<E>>): CascadeStep<E> => ({
    method,
    skip: only && !only.has(method) ? 'not selected' : method !== 'coordinate' && notATarget ? notATarget : skip,
    run: async () => {
      const failed = opts.failed?.get(method)
      if (failed !== undefined) throw new Error(failed)
      const outcome = await run()
      if (outcome.outcome === 'ambiguous') sawAmbiguous = true
      return outcome
    },
  })

  return {
    identity,
    source,
    opts,
    weights,
    minScore,
    minExactScore,
    minLabelScore,
    minContextScore,
    minMargin,
    visualThreshold,
    recordedPoint,
    maxAreaGrowth,
    recordedControl,
    labels,
    othersWhenRecorded,
    visibleCandidates,
    allCandidates,
    carriesLabel,
    labelHolders,
    soleHolder,
    twinByContext,
    objection,
    byLandmark,
    eligible,
    resolve,
    step,
    /** Whether an earlier strategy found several elements the recorded identity fits equally well. */
    sawAmbiguous: (): boolean => sawAmbiguous,
  }
}

export type WebContext<H = unknown> = ReturnType<typeof webContext<H>>
