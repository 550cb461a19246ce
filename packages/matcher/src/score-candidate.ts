import type { BoundingBox, ElementIdentity } from '@qa/model'
import { areaRatio, clamp01, isBox, placeDistance } from './image/geometry'
import { comparisonKey, keySimilarity } from './text/text-similarity'
import { areRewordedPhrases, SYNONYM_AGREEMENT } from './text/ui-vocabulary'

/**
 * An element on the current page as a browser adapter sees it. The fields mirror `ElementIdentity` (same
 * names, same meaning), so a recorded identity and a live candidate compare field by field. `handle` is the
 * adapter's own reference (a Playwright Locator, a CDP backend node id, …); the matcher never looks inside.
 */
export interface CandidateElement<H = unknown> {
  axRole?: string | null
  axName?: string | null
  ariaLabel?: string | null
  dataTestId?: string | null
  /** The form `name` attribute. */
  name?: string | null
  tagName?: string | null
  /** The input `type` attribute. */
  type?: string | null
  placeholder?: string | null
  boundingBox?: BoundingBox | null
  /** How far the element's page was scrolled when described (`ElementIdentity.pageScroll`). */
  pageScroll?: { x: number; y: number } | null
  textContent?: string | null
  /** The DOM `id` attribute. */
  id?: string | null
  classNames?: readonly string[] | null
  iconClasses?: readonly string[] | null
  href?: string | null
  xpath?: string | null
  neighborText?: readonly string[] | null
  /** False when the element is hidden (not actionable). Absent means visible. */
  visible?: boolean | null
  /** False when the element is disabled. Absent means enabled. */
  enabled?: boolean | null
  /** A radio's (or a named checkbox's) place in its group (`ElementIdentity.groupPosition`). */
  groupPosition?: { index: number; size: number; value?: string | null } | null
  handle?: H
}

/** The attributes the similarity score compares. */
export type ScoredAttribute =
  | 'axRole'
  | 'axName'
  | 'tagName'
  | 'id'
  | 'classNames'
  | 'name'
  | 'dataTestId'
  | 'ariaLabel'
  | 'placeholder'
  | 'textContent'
  | 'type'
  | 'href'
  | 'xpath'
  | 'location'
  | 'size'
  | 'neighborText'

export type ScoreWeights = Record<ScoredAttribute, number>

/**
 * Default attribute weights, after Similo (Nass, Alégroth, Feldt: "Similarity-based web element
 * localization for robust test automation", TOSEM 2023), which weighs stable, human-facing attributes 1.5
 * and volatile structural ones 0.5:
 * - 2.0 `dataTestId`: put there for tests, the most deliberate identifier a page has;
 * - 1.5 `axRole`, `axName`, `ariaLabel`, `name`, `id`, `textContent`: what the user and assistive
 *   technology see, or ids that are rarely changed on purpose;
 * - 1.0 `tagName`, `placeholder`, `neighborText`: stable but shared by many elements;
 * - 0.5 `classNames`, `xpath`, `href`, `type`, `location`, `size`: change with every restyle, wrapper
 *   or layout shift, so they only break ties.
 * Attributes the recorded identity lacks are left out of the average, so a sparse identity is not penalised.
 * Checked on the synthetic mutation benchmark in bench/matcher (see the package README).
 */
export const DEFAULT_WEIGHTS: Readonly<ScoreWeights> = Object.freeze({
  dataTestId: 2,
  axRole: 1.5,
  axName: 1.5,
  ariaLabel: 1.5,
  name: 1.5,
  id: 1.5,
  textContent: 1.5,
  tagName: 1,
  placeholder: 1,
  neighborText: 1,
  classNames: 0.5,
  xpath: 0.5,
  href: 0.5,
  type: 0.5,
  location: 0.5,
  size: 0.5,
})

/** Distance in CSS pixels at which the location similarity has fallen to 1/e. */
const LOCATION_SCALE_PX = 150
/** Texts longer than this are compared on their first characters only (keeps scoring fast). */
const MAX_TEXT_CHARS = 160

export interface CandidateScore {
  /** Weighted mean of the per-attribute similarities, in [0, 1]. */
  score: number
  /** Per-attribute similarity in [0, 1], for the attributes the identity has. */
  attributes: Partial<Record<ScoredAttribute, number>>
}

/** Comparison keys of a recorded identity, computed once per scorer. */
interface Prepared {
  axRole?: string
  axName?: string
  tagName?: string
  id?: string
  classNames?: Set<string>
  name?: string
  dataTestId?: string
  ariaLabel?: string
  placeholder?: string
  textContent?: string
  type?: string
  href?: string
  xpath?: string
  neighborWords?: Set<string>
  box?: BoundingBox
  scroll?: { x: number; y: number }
}

const lower = (v: string | null | undefined): string | undefined => {
  const t = v?.trim().toLowerCase()
  return t ? t : undefined
}
const key = (v: string | null | undefined): string | undefined => {
  if (!v) return undefined
  const k = comparisonKey(v.length > MAX_TEXT_CHARS ? v.slice(0, MAX_TEXT_CHARS) : v)
  return k ? k : undefined
}
const WORD_SPLIT = /[\p{P}\p{S}\s]+/u
const words = (texts: readonly string[] | null | undefined): Set<string> | undefined => {
  if (!texts || texts.length === 0) return undefined
  const set = new Set<string>()
  for (const t of texts) for (const w of t.normalize('NFKC').toLowerCase().split(WORD_SPLIT)) if (w) set.add(w)
  return set.size ? set : undefined
}
const classSet = (list: readonly string[] | null | undefined): Set<string> | undefined => {
  const classes = list?.map((c) => c.trim()).filter(Boolean)
  return classes && classes.length > 0 ? new Set(classes) : undefined
}

function prepare(e: CandidateElement | ElementIdentity): Prepared {
  return {
    axRole: lower(e.axRole),
    axName: key(e.axName),
    tagName: lower(e.tagName),
    id: key(e.id),
    classNames: classSet(e.classNames),
    name: key(e.name),
    dataTestId: key(e.dataTestId),
    ariaLabel: key(e.ariaLabel),
    placeholder: key(e.placeholder),
    textContent: key(e.textContent),
    type: lower(e.type),
    href: lower(e.href),
    xpath: lower(e.xpath),
    neighborWords: words(e.neighborText),
    box: isBox(e.boundingBox) ? e.boundingBox : undefined,
    scroll: e.pageScroll ?? undefined,
  }
}

function jaccard(a: Set<string>, b: Set<string> | undefined): number {
  if (!b) return 0
  let inter = 0
  for (const v of a) if (b.has(v)) inter++
  return inter / (a.size + b.size - inter)
}

type Memo = Map<string, number>
/** Similarity of a candidate's raw string to a recorded key, memoised on the raw string. */
function memoised(memo: Memo, raw: string | null | undefined, compute: (raw: string) => number): number {
  if (!raw) return 0
  let v = memo.get(raw)
  if (v === undefined) {
    v = compute(raw)
    memo.set(raw, v)
  }
  return v
}

/** Scores candidates against one identity with one set of weights; see `scoreCandidate`. */
type Scorer = (c: CandidateElement, attributes: Partial<Record<ScoredAttribute, number>> | null) => number

/**
 * Builds the scorer: the identity's keys are computed once, and every per-attribute similarity is memoised
 * on the candidate's raw value (pages repeat labels, classes and neighbour texts), so a candidate costs a
 * few map lookups unless it brings a string not seen before.
 */
function createScorer(identity: ElementIdentity | CandidateElement, weights: Readonly<ScoreWeights>): Scorer {
  const r = prepare(identity)
  // What was not recorded says nothing: an identity built from selectors alone (a DevTools import) has the tag
  // "unknown" and an empty box, and an exact id match must not be outvoted by them.
  if (r.tagName === 'unknown') r.tagName = undefined
  if (r.box && r.box.width <= 0 && r.box.height <= 0) r.box = undefined
  const w = (attr: ScoredAttribute): number => Math.max(weights[attr], 0)
  const on = (attr: ScoredAttribute, present: unknown): boolean => present !== undefined && weights[attr] > 0
  const m = () => new Map<string, number>()
  const memo = {
    axRole: m(),
    axName: m(),
    tagName: m(),
    id: m(),
    classNames: m(),
    name: m(),
    dataTestId: m(),
    ariaLabel: m(),
    placeholder: m(),
    textContent: m(),
    type: m(),
    href: m(),
    xpath: m(),
    neighborText: m(),
  }
  const exactOf = (rk: string) => (raw: string) => (lower(raw) === rk ? 1 : 0)
  const fuzzyKey = (rk: string) => (raw: string) => {
    const k = key(raw)
    return k === undefined ? 0 : keySimilarity(rk, k)
  }
  /** A human label: also `SYNONYM_AGREEMENT` for another phrase of the same action ('전송' / '보내기'). */
  const fuzzyLabel = (rk: string) => (raw: string) => {
    const k = key(raw)
    return k === undefined ? 0 : Math.max(keySimilarity(rk, k), areRewordedPhrases(rk, k) ? SYNONYM_AGREEMENT : 0)
  }
  const fuzzyLower = (rk: string) => (raw: string) => {
    const k = lower(raw)
    return k === undefined ? 0 : keySimilarity(rk, k)
  }
  const use = {
    axRole: on('axRole', r.axRole),
    axName: on('axName', r.axName),
    tagName: on('tagName', r.tagName),
    id: on('id', r.id),
    classNames: on('classNames', r.classNames),
    name: on('name', r.name),
    dataTestId: on('dataTestId', r.dataTestId),
    ariaLabel: on('ariaLabel', r.ariaLabel),
    placeholder: on('placeholder', r.placeholder),
    textContent: on('textContent', r.textContent),
    type: on('type', r.type),
    href: on('href', r.href),
    xpath: on('xpath', r.xpath),
    neighborText: on('neighborText', r.neighborWords),
    location: on('location', r.box),
    size: on('size', r.box),
  }
  const f = {
    axRole: r.axRole === undefined ? null : exactOf(r.axRole),
    axName: r.axName === undefined ? null : fuzzyLabel(r.axName),
    tagName: r.tagName === undefined ? null : exactOf(r.tagName),
    id: r.id === undefined ? null : fuzzyKey(r.id),
    name: r.name === undefined ? null : fuzzyKey(r.name),
    dataTestId: r.dataTestId === undefined ? null : fuzzyKey(r.dataTestId),
    ariaLabel: r.ariaLabel === undefined ? null : fuzzyLabel(r.ariaLabel),
    placeholder: r.placeholder === undefined ? null : fuzzyKey(r.placeholder),
    textContent: r.textContent === undefined ? null : fuzzyLabel(r.textContent),
    type: r.type === undefined ? null : exactOf(r.type),
    href: r.href === undefined ? null : fuzzyLower(r.href),
    xpath: r.xpath === undefined ? null : fuzzyLower(r.xpath),
  }
  const rClasses = r.classNames
  const rWords = r.neighborWords
  const rBox = r.box
  const noop = () => 0
  const fAxRole = f.axRole ?? noop
  const fAxName = f.axName ?? noop
  const fTag = f.tagName ?? noop
  const fId = f.id ?? noop
  const fName = f.name ?? noop
  const fTestId = f.dataTestId ?? noop
  const fAria = f.ariaLabel ?? noop
  const fPlaceholder = f.placeholder ?? noop
  const fText = f.textContent ?? noop
  const fType = f.type ?? noop
  const fHref = f.href ?? noop
  const fXpath = f.xpath ?? noop
  const rawRole = identity.axRole ?? null
  const rawTag = identity.tagName ?? null
  const classesOf = (list: readonly string[]) => jaccard(rClasses as Set<string>, classSet(list))
  const wordsOf = (list: readonly string[]) => jaccard(rWords as Set<string>, words(list))
  const W = (a: ScoredAttribute) => w(a)
  const wRole = W('axRole')
  const wName = W('axName')
  const wTag = W('tagName')
  const wId = W('id')
  const wClasses = W('classNames')
  const wFormName = W('name')
  const wTestId = W('dataTestId')
  const wAria = W('ariaLabel')
  const wPlaceholder = W('placeholder')
  const wText = W('textContent')
  const wType = W('type')
  const wHref = W('href')
  const wXpath = W('xpath')
  const wNeighbours = W('neighborText')
  const wLoc = W('location')
  const wSize = W('size')

  // Straight-line code in the fixed attribute order of the weighted sum (scores reproducible to the last
  // bit); label-like values are memoised on the raw string, ids, XPaths and hrefs (mostly unique) are not.
  return (c, attributes) => {
    let sum = 0
    let total = 0
    let sim: number
    if (use.axRole) {
      const raw = c.axRole
      sim = !raw ? 0 : raw === rawRole && raw === r.axRole ? 1 : memoised(memo.axRole, raw, fAxRole)
      if (attributes) attributes.axRole = sim
      sum += wRole * sim
      total += wRole
    }
    if (use.axName) {
      sim = memoised(memo.axName, c.axName, fAxName)
      if (attributes) attributes.axName = sim
      sum += wName * sim
      total += wName
    }
    if (use.tagName) {
      const raw = c.tagName
      sim = !raw ? 0 : raw === rawTag && raw === r.tagName ? 1 : memoised(memo.tagName, raw, fTag)
      if (attributes) attributes.tagName = sim
      sum += wTag * sim
      total += wTag
    }
    if (use.id) {
      sim = c.id ? fId(c.id) : 0
      if (attributes) attributes.id = sim
      sum += wId * sim
      total += wId
    }
    if (use.classNames) {
      const list = c.classNames
      if (!list || list.length === 0) sim = 0
      else {
        const k = list.length === 1 ? (list[0] as string) : list.join('\u0000')
        const hit = memo.classNames.get(k)
        sim = hit ?? classesOf(list)
        if (hit === undefined) memo.classNames.set(k, sim)
      }
      if (attributes) attributes.classNames = sim
      sum += wClasses * sim
      total += wClasses
    }
    if (use.name) {
      sim = memoised(memo.name, c.name, fName)
      if (attributes) attributes.name = sim
      sum += wFormName * sim
      total += wFormName
    }
    if (use.dataTestId) {
      sim = memoised(memo.dataTestId, c.dataTestId, fTestId)
      if (attributes) attributes.dataTestId = sim
      sum += wTestId * sim
      total += wTestId
    }
    if (use.ariaLabel) {
      sim = memoised(memo.ariaLabel, c.ariaLabel, fAria)
      if (attributes) attributes.ariaLabel = sim
      sum += wAria * sim
      total += wAria
    }
    if (use.placeholder) {
      sim = memoised(memo.placeholder, c.placeholder, fPlaceholder)
      if (attributes) attributes.placeholder = sim
      sum += wPlaceholder * sim
      total += wPlaceholder
    }
    if (use.textContent) {
      sim = memoised(memo.textContent, c.textContent, fText)
      if (attributes) attributes.textContent = sim
      sum += wText * sim
      total += wText
    }
    if (use.type) {
      sim = memoised(memo.type, c.type, fType)
      if (attributes) attributes.type = sim
      sum += wType * sim
      total += wType
    }
    if (use.href) {
      sim = c.href ? fHref(c.href) : 0
      if (attributes) attributes.href = sim
      sum += wHref * sim
      total += wHref
    }
    if (use.xpath) {
      sim = c.xpath ? fXpath(c.xpath) : 0
      if (attributes) attributes.xpath = sim
      sum += wXpath * sim
      total += wXpath
    }
    if (use.neighborText) {
      const list = c.neighborText
      if (!list || list.length === 0) sim = 0
      else {
        const k = list.length === 1 ? (list[0] as string) : list.join('\u0001')
        const hit = memo.neighborText.get(k)
        sim = hit ?? wordsOf(list)
        if (hit === undefined) memo.neighborText.set(k, sim)
      }
      if (attributes) attributes.neighborText = sim
      sum += wNeighbours * sim
      total += wNeighbours
    }
    if (use.location || use.size) {
      const b = c.boundingBox
      let loc = 0
      let size = 0
      if (isBox(b)) {
        // location and size are scored only when the recording has a box (`use`)
        loc = Math.exp(-placeDistance(rBox as BoundingBox, b, r.scroll, c.pageScroll) / LOCATION_SCALE_PX)
        size = Math.sqrt(areaRatio(rBox as BoundingBox, b))
      }
      if (use.location) {
        if (attributes) attributes.location = loc
        sum += wLoc * loc
        total += wLoc
      }
      if (use.size) {
        if (attributes) attributes.size = size
        sum += wSize * size
        total += wSize
      }
    }
    return total === 0 ? 0 : clamp01(sum / total)
  }
}

/** Scorers per identity object and weights object (a `locate` call makes its weights once). */
const scorers = new WeakMap<object, WeakMap<object, Scorer>>()
function scorerFor(identity: ElementIdentity | CandidateElement, weights: Readonly<ScoreWeights>): Scorer {
  let byWeights = scorers.get(identity)
  if (!byWeights) {
    byWeights = new WeakMap()
    scorers.set(identity, byWeights)
  }
  let scorer = byWeights.get(weights)
  if (!scorer) {
    scorer = createScorer(identity, weights)
    byWeights.set(weights, scorer)
  }
  return scorer
}

/**
 * Similo-style similarity of a live candidate to a recorded identity, in [0, 1]: the weighted mean of
 * per-attribute similarities over the attributes the identity has (text attributes by `textSimilarity`
 * on normalised, jamo-decomposed keys; role, tag and type exactly; classes and neighbour words by Jaccard;
 * location by exp(−distance / 150 px); size by the area ratio). The identity's keys are computed once per
 * (identity, weights) pair and candidate similarities are memoised on their raw values.
 */
export function scoreCandidate(
  identity: ElementIdentity | CandidateElement,
  candidate: CandidateElement,
  weights: Readonly<ScoreWeights> = DEFAULT_WEIGHTS,
): CandidateScore {
  const attributes: Partial<Record<ScoredAttribute, number>> = {}
  const score = scorerFor(identity, weights)(candidate, attributes)
  return { score, attributes }
}

/** A candidate with its score, best first. */
export interface RankedCandidate<E extends CandidateElement = CandidateElement> {
  element: E
  score: number
}

/** Scores every candidate and sorts them best first (stable for equal scores). */
export function rankCandidates<E extends CandidateElement>(
  identity: ElementIdentity | CandidateElement,
  candidates: readonly E[],
  weights: Readonly<ScoreWeights> = DEFAULT_WEIGHTS,
): RankedCandidate<E>[] {
  const score = scorerFor(identity, weights)
  const out: RankedCandidate<E>[] = new Array(candidates.length)
  for (let i = 0; i < candidates.length; i++) {
    const element = candidates[i] as E
    out[i] = { element, score: score(element, null) }
  }
  return out.sort((a, b) => b.score - a.score)
}

/** The candidate view of a recorded identity (e.g. to feed a memory source or to compare two identities). */
export function identityToCandidate(identity: ElementIdentity): CandidateElement {
  const {
    extra: _extra,
    capturedAt: _c,
    backendNodeId: _b,
    visualHash: _v,
    framePath: _f,
    shadowPath: _s,
    ...rest
  } = identity
  return rest
}
