import { canonicalIconClasses } from '../text/icon-names'
import type { BoundingBox, ElementIdentity, ReplayMethod, Selectors } from '@qa/model'
import { optionAtGroupPosition } from './group-position'
import { fieldKind, landmarkOf, onlyFieldOfItsLandmark } from './landmark-field'
import { clickTargetKind, DEFAULT_MAX_AREA_GROWTH, oversizedObjection, recordedTargetObjection } from '../click-target'
import { assertRange } from '../errors'
import { type CascadeStep, type LocateResult, runCascade, type StepOutcome } from '../internal/cascade'
import { centerOf, isBox, type XY } from '../image/geometry'
import {
  createLabelCheck,
  DEFAULT_MIN_CONTEXT_SCORE,
  DEFAULT_MIN_LABEL_SCORE,
  groupedByName,
  holderAgreement,
  labelKeys,
  sharesLabelWord,
  SAME_LABEL_AGREEMENT,
  sameRoleKind,
  sameCandidate,
  sameExactLabel,
} from '../text/label-agreement'
import {
  type CandidateElement,
  DEFAULT_WEIGHTS,
  rankCandidates,
  type ScoreWeights,
  scoreCandidate,
} from '../score-candidate'

export type { LocateResult } from '../internal/cascade'

/** Attributes a source can look elements up by (exact value). */
export type LookupAttribute = 'aria-label' | 'name' | 'data-testid' | 'id' | 'placeholder'

/** A visual (template) hit of the recorded element's pixels on the current page. */
export interface VisualHit<H = unknown> {
  box: BoundingBox
  /** 0–1 (normalised cross-correlation). */
  score: number
  /** The element under the hit, when the adapter can tell. */
  element?: CandidateElement<H>
  /**
   * How many other interactive elements of the page show the same pixels (NCC ≥ `SAME_PIXELS_VISUAL_THRESHOLD`
   * at their own place), when the adapter checked: 0 makes the hit unmistakable on this page.
   */
  lookAlikes?: number
  /**
   * The adapter looked at every element under the hit's centre and none is a control a person acts on (the
   * pixels landed on text or a picture): a recorded control is not there.
   */
  nothingInteractive?: boolean
}

/**
 * The port a browser adapter implements for the web cascade. Every lookup is exact (as Playwright's
 * `exact: true`) and returns every match with its attributes and box; the engine decides what to do with
 * zero, one or many. `visual` is optional (template matching of the recorded crop on a screenshot).
 */
export interface CandidateSource<H = unknown> {
  /** Elements with this ARIA role and exactly this accessible name (`getByRole(role, { name, exact: true })`). */
  byRole(role: string, name: string): Promise<CandidateElement<H>[]>
  /** Elements whose attribute equals value, optionally only with this tag name (`input[name="q"]`). */
  byAttribute(attribute: LookupAttribute, value: string, tagName?: string): Promise<CandidateElement<H>[]>
  /** Elements matched by a stored CSS selector or XPath. */
  bySelector(selector: string, kind: 'css' | 'xpath'): Promise<CandidateElement<H>[]>
  /** Elements whose visible text is exactly this (whitespace-normalised). */
  byText(text: string): Promise<CandidateElement<H>[]>
  /** Every interactive candidate of the page, for the similarity strategy. */
  listCandidates(): Promise<CandidateElement<H>[]>
  visual?(identity: ElementIdentity): Promise<VisualHit<H> | null>
}

/**
 * NCC a visual hit needs when the element under it is known and its label agrees with the recorded one (a
 * restyled or reworded button still scores 0.75–0.85 against its recorded crop).
 */
export const DEFAULT_VISUAL_THRESHOLD = 0.75
/** NCC a visual hit needs when the adapter cannot say which element is under it. */
export const UNCHECKED_VISUAL_THRESHOLD = 0.85
/**
 * NCC (0.97) from which the pixels are the recorded element's own: a hit this exact, standing where the element
 * stood, is accepted even when the DOM no longer exposes the label the user saw (a collapsed sidebar whose
 * button text is now `display: none` to the accessibility tree but drawn the same).
 */
export const SAME_PIXELS_VISUAL_THRESHOLD = 0.97

/** The web strategies, in the healing cascade's order. */
export const WEB_STRATEGIES = [
  'role',
  'aria_label',
  'name',
  'test_id',
  'css',
  'xpath',
  'text',
  'similarity',
  'visual',
  'coordinate',
] as const satisfies readonly ReplayMethod[]
export type WebStrategy = (typeof WEB_STRATEGIES)[number]

/** How sure a unique hit of each strategy is before the similarity check is blended in. */
export const STRATEGY_BASE_CONFIDENCE: Readonly<Record<WebStrategy, number>> = Object.freeze({
  role: 0.98,
  test_id: 0.97,
  aria_label: 0.95,
  name: 0.93,
  css: 0.9,
  xpath: 0.85,
  text: 0.8,
  similarity: 1,
  visual: 0.9,
  coordinate: 0,
})

export interface LocateOptions {
  /** The step's stored selectors (CSS, XPath, fallbacks). `identity.xpath` is used when absent. */
  selectors?: Selectors | null
  weights?: Partial<ScoreWeights>
  /**
   * Similarity floor (default 0.7): the similarity strategy, and ambiguity resolution in any strategy,
   * answer only when the best candidate scores at least this. Below it the engine says not_found, because
   * healing to the wrong element is worse than failing.
   */
  minScore?: number
  /** A unique hit of an exact strategy must still score at least this (default 0.45), else it is rejected. */
  minExactScore?: number
  /**
   * The label check (default 0.5; 0 turns it off): every element a strategy returns (a unique CSS or XPath
   * hit, the similarity winner, any tie-break) must carry a label agreeing at least this much with the
   * recorded label, and must not be a recorded neighbour, unless data-testid, a non-generated id or the
   * form name agrees exactly (see `createLabelCheck`).
   */
  minLabelScore?: number
  /**
   * Context floor (default 0.3; 0 turns it off): every element a strategy returns must agree at least this
   * much with the recorded neighbours, place and id, unless it carries the recorded non-generated id; else
   * it is taken for another element with the same label (a second "Delete" in another row) and the
   * cascade goes on (see `LabelCheck.context`).
   */
  minContextScore?: number
  /** The best candidate must beat the runner-up by this much (default 0.05) to break a tie. */
  minMargin?: number
  /**
   * Visual hits below this NCC score are ignored (default 0.75); the element under the hit must also pass the
   * label check, and a hit with no element under it needs 0.85.
   */
  visualThreshold?: number
  /**
   * Click the recorded coordinates when every strategy failed (default false: on the web a recorded
   * identity exists, and a blind click is rarely right). The result then says `coordinateFallback: true`.
   */
  allowCoordinateFallback?: boolean
  /** The recorded click point; defaults to the identity's box centre. */
  coordinates?: XY | null
  /** Run only these strategies (still in cascade order); e.g. `['css']` for a selector-only baseline. */
  only?: readonly WebStrategy[]
  /**
   * Strategies whose element could not be acted on in an earlier try of this step (not clickable, detached, not
   * fillable), with why: each is recorded as that strategy's `error` and the cascade goes on with the next one. A
   * strategy's failure is never the step's.
   */
  failed?: ReadonlyMap<WebStrategy, string>
  /**
   * An answer covering more than this many times the recorded element's area (and more than 64×64 px) is
   * not the recorded element (default 6, see `DEFAULT_MAX_AREA_GROWTH`; 0 turns the check off).
   */
  maxAreaGrowth?: number
}

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

/** A short description of a rejected candidate for the attempt's detail. */
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

const isInput = (e: { tagName?: string | null }): boolean => e.tagName?.toLowerCase() === 'input'
const isPasswordField = (e: { tagName?: string | null; type?: string | null }): boolean =>
  isInput(e) && e.type?.toLowerCase() === 'password'

/** Classes a page toggles on interaction (state, not style): left out when twins are told apart by class. */
const STATE_CLASSES =
  /^(is-)?(active|show|shown|open|opened|focus|focused|hover|selected|checked|disabled|collapsed|expanded|current|pressed)$/i
const styleClasses = (list: readonly string[] | null | undefined): Set<string> =>
  new Set((list ?? []).map((c) => c.trim()).filter((c) => c !== '' && !STATE_CLASSES.test(c)))

function describe(e: CandidateElement, reason: string | undefined): string {
  const label = e.axName || e.textContent || e.ariaLabel || e.placeholder || ''
  const tag = (e.tagName ?? 'element').toLowerCase()
  return `<${tag}${e.id ? `#${e.id}` : ''}> "${label.slice(0, 40)}" ${reason ?? ''}`.trim()
}

const FORM_TAGS = new Set(['input', 'select', 'textarea', 'button', 'form', 'fieldset', 'output', 'object', 'iframe'])

const pointOf = (e: CandidateElement, fallback: XY): XY => (isBox(e.boundingBox) ? centerOf(e.boundingBox) : fallback)
/**
 * The visible candidates a click could land on. A disabled one (`enabled: false`) is dropped when an enabled one
 * is there too: a disabled twin carrying the recorded label is never what the person clicked. When only disabled
 * ones remain they are kept, so the step waits for them to become enabled (and fails, clicking nothing, if not).
 */
const actionable = <E extends CandidateElement>(list: readonly E[]): E[] => {
  const visible = list.filter((e) => e.visible !== false)
  const enabled = visible.filter((e) => e.enabled !== false)
  return enabled.length > 0 ? enabled : visible
}
const fmt = (v: number) => v.toFixed(2)
const blank = (v: string | null | undefined): boolean => !v || v.trim() === ''

/** XPath-looking selectors in `fallbacks` ("//div", "(//a)[2]", "xpath=…"). */
function selectorKind(selector: string): { selector: string; kind: 'css' | 'xpath' } {
  const s = selector.trim()
  if (s.startsWith('xpath=')) return { selector: s.slice(6), kind: 'xpath' }
  if (s.startsWith('css=')) return { selector: s.slice(4), kind: 'css' }
  return { selector: s, kind: s.startsWith('/') || s.startsWith('(') ? 'xpath' : 'css' }
}

/**
 * The self-healing cascade for web steps: role+name → aria-label → form name → data-testid →
 * stored CSS → XPath → text → similarity → visual → coordinates. Precision rule: every element a strategy
 * returns must agree with what the user saw — its label agrees with the recorded one (≥ minLabelScore, and
 * it is not a recorded neighbour) and it stands where the user saw it (context ≥ minContextScore) — unless
 * it carries the recorded non-generated id (or, for the label only, data-testid / form name). A strategy
 * wins only with exactly one such visible element scoring at least `minExactScore`; several are resolved
 * by the similarity score (best ≥ minScore and ahead by minMargin), never by order. Never throws for a
 * failing source: the attempt is recorded as `error` and the cascade goes on.
 */
export async function locate<H = unknown>(
  identity: ElementIdentity,
  source: CandidateSource<H>,
  opts: LocateOptions = {},
): Promise<LocateResult<CandidateElement<H>>> {
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
  /** The recorded element says nothing in words and shows a known icon. */
  const iconIsIdentity =
    (identity.iconClasses?.length ?? 0) > 0 && labelKeys(identity).every((k) => !/[\p{L}\p{N}]/u.test(k))
  const recordedClasses = styleClasses(identity.classNames)
  const sameClasses = (c: E): boolean => {
    const mine = styleClasses(c.classNames)
    return mine.size === recordedClasses.size && [...mine].every((k) => recordedClasses.has(k))
  }
  /**
   * The candidate's own row (its nearest neighbour) is the recorded one, or nothing says otherwise: the element
   * that slid into a removed row's place stands at its XPath in another row.
   */
  const rowAgrees = (e: E): boolean => (labels.neighbours(e) ?? 1) >= 1 - TWIN_NEIGHBOURS_MARGIN
  /**
   * Twins the similarity cannot tell apart (every candidate within the margin of the best carries the same label
   * as the best): the one standing where the recorded one stood — its context (neighbours, place, id) at least the
   * floor and ahead of every other twin by `TWIN_CONTEXT_MARGIN` — is it, as a person takes the "Home" tab of the
   * tab set they used, not the one of the set further down. Null when the context does not settle it.
   */
  const twinByContext = (ranked: readonly { element: E; score: number }[]): E | null => {
    const first = ranked[0]
    if (!first || first.score < minScore) return null
    const close = ranked.filter((r) => first.score - r.score < minMargin)
    if (close.length < 2) return null
    const label = labelKeys(first.element).join('\n')
    if (label === '' || close.some((r) => labelKeys(r.element).join('\n') !== label)) return null
    const byPlace = close
      .map((r) => ({ element: r.element, context: labels.context(r.element) ?? -1 }))
      .sort((a, b) => b.context - a.context)
    const [best, next] = byPlace as [(typeof byPlace)[0], (typeof byPlace)[0]]
    return best.context >= minContextScore && best.context - next.context >= TWIN_CONTEXT_MARGIN ? best.element : null
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
  const text = blank(identity.textContent) ? identity.axName : identity.textContent
  const isForm = FORM_TAGS.has((identity.tagName ?? '').toLowerCase())

  const steps: CascadeStep<E>[] = [
    step(
      'role',
      blank(identity.axRole) || blank(identity.axName) ? 'no role and accessible name recorded' : null,
      async () => resolve('role', await source.byRole(identity.axRole as string, (identity.axName as string).trim())),
    ),
    step('aria_label', blank(identity.ariaLabel) ? 'no aria-label recorded' : null, async () =>
      resolve('aria_label', await source.byAttribute('aria-label', identity.ariaLabel as string)),
    ),
    step(
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
    ),
    step('test_id', blank(identity.dataTestId) ? 'no data-testid recorded' : null, async () =>
      resolve('test_id', await source.byAttribute('data-testid', identity.dataTestId as string)),
    ),
    step('css', cssList.length === 0 ? 'no CSS selector recorded' : null, () => trySelectors('css', cssList)),
    step('xpath', xpathList.length === 0 ? 'no XPath recorded' : null, () => trySelectors('xpath', xpathList)),
    step('text', blank(text) ? 'no text recorded' : null, async () =>
      resolve('text', await source.byText((text as string).replace(/\s+/g, ' ').trim())),
    ),
    step('similarity', null, async () => {
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
      // set aside is still there; the sidebar's "Bootstrap" only shares a word with it).
      if (
        first.score < minScore &&
        list.length === 1 &&
        first.score >= minExactScore &&
        labelKeys(identity).length > 0 &&
        carriesLabel(first.element) &&
        !(await labelHolders()).some(
          (h) => !sameCandidate(h, first.element) && labels.check(h).agreement > labels.check(first.element).agreement,
        )
      )
        return taken('the only element that carries the recorded label and stands among the recorded neighbours')
      if (first.score < minScore)
        return (
          (await byLandmark()) ?? {
            outcome: 'below_threshold',
            candidates: list.length,
            confidence: first.score,
            detail: `best similarity ${fmt(first.score)} < floor ${fmt(minScore)}`,
          }
        )
      const twin = margin < minMargin ? twinByContext(ranked) : null
      if (twin)
        return {
          outcome: 'matched',
          element: twin,
          point: pointOf(twin, recordedPoint),
          confidence: first.score * 0.9,
          candidates: list.length,
          detail: `similarity ${fmt(first.score)} shared by elements with the same label; resolved by where it stands (context ${fmt(labels.context(twin) ?? 0)})`,
        }
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
    }),
    step('visual', source.visual ? null : 'the source has no visual search', async () => {
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
      if (sawAmbiguous && hit.lookAlikes !== 0)
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
    }),
    step(
      'coordinate',
      opts.allowCoordinateFallback ? null : 'coordinate fallback not allowed (allowCoordinateFallback)',
      async () => ({
        outcome: 'matched',
        element: { boundingBox: isBox(identity.boundingBox) ? identity.boundingBox : null },
        point: { x: recordedPoint.x, y: recordedPoint.y },
        confidence: 0,
        detail: 'recorded coordinates',
      }),
    ),
  ]
  return runCascade(steps)
}
