// The scoring implementation before the speed-up, with the keySimilarity of that time: the reference the
// fast one must equal (score-candidate.test.ts) and the "before" row of bench/matcher.
import type { BoundingBox, ElementIdentity } from '@qa/model'
import { areaRatio, centerOf, clamp01, isBox } from '../image/geometry'
import { distance } from 'fastest-levenshtein'
import { comparisonKey } from '../text/text-similarity'
import { areRewordedPhrases, SYNONYM_AGREEMENT } from '../text/ui-vocabulary'

/** keySimilarity as it was before the speed-up (plain Levenshtein on the whole keys). */
function keySimilarity(a: string, b: string): number {
  if (a === b) return 1
  if (a.length === 0 || b.length === 0) return 0
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  const edit = 1 - distance(a, b) / long.length
  const contained = short.length >= 3 && long.includes(short) ? 0.6 + (0.4 * short.length) / long.length : 0
  return Math.min(1, Math.max(0, edit, contained))
}

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
  textContent?: string | null
  /** The DOM `id` attribute. */
  id?: string | null
  classNames?: readonly string[] | null
  href?: string | null
  xpath?: string | null
  neighborText?: readonly string[] | null
  /** False when the element is hidden (not actionable). Absent means visible. */
  visible?: boolean | null
  /** False when the element is disabled. Absent means enabled. */
  enabled?: boolean | null
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

/** Comparison keys of an identity or candidate, computed once. */
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
const words = (texts: readonly string[] | null | undefined): Set<string> | undefined => {
  if (!texts || texts.length === 0) return undefined
  const set = new Set<string>()
  for (const t of texts)
    for (const w of t
      .normalize('NFKC')
      .toLowerCase()
      .split(/[\p{P}\p{S}\s]+/u))
      if (w) set.add(w)
  return set.size ? set : undefined
}

function prepare(e: CandidateElement | ElementIdentity): Prepared {
  const classes = e.classNames?.map((c) => c.trim()).filter(Boolean)
  return {
    axRole: lower(e.axRole),
    axName: key(e.axName),
    tagName: lower(e.tagName),
    id: key(e.id),
    classNames: classes && classes.length > 0 ? new Set(classes) : undefined,
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
  }
}

const cache = new WeakMap<object, Prepared>()
function prepared(e: CandidateElement | ElementIdentity): Prepared {
  let p = cache.get(e)
  if (!p) {
    p = prepare(e)
    cache.set(e, p)
  }
  return p
}

function jaccard(a: Set<string>, b: Set<string> | undefined): number {
  if (!b) return 0
  let inter = 0
  for (const v of a) if (b.has(v)) inter++
  return inter / (a.size + b.size - inter)
}

const exact = (a: string, b: string | undefined): number => (a === b ? 1 : 0)
const fuzzy = (a: string, b: string | undefined): number => (b === undefined ? 0 : keySimilarity(a, b))
/** Labels: also the synonym agreement for two phrases of one action. */
const fuzzyLabel = (a: string, b: string | undefined): number =>
  b === undefined ? 0 : Math.max(keySimilarity(a, b), areRewordedPhrases(a, b) ? SYNONYM_AGREEMENT : 0)

/**
 * Similo-style similarity of a live candidate to a recorded identity, in [0, 1]: the weighted mean of
 * per-attribute similarities over the attributes the identity has (text attributes by `textSimilarity`
 * on normalised, jamo-decomposed keys; role, tag and type exactly; classes and neighbour words by Jaccard;
 * location by exp(−distance / 150 px); size by the area ratio). Comparison keys are cached per object.
 */
export function scoreCandidate(
  identity: ElementIdentity | CandidateElement,
  candidate: CandidateElement,
  weights: Readonly<ScoreWeights> = DEFAULT_WEIGHTS,
): CandidateScore {
  // an identity's unknown tag and empty box were not recorded (as in the fast scorer)
  const r = { ...prepared(identity) }
  if (r.tagName === 'unknown') r.tagName = undefined
  if (r.box && r.box.width <= 0 && r.box.height <= 0) r.box = undefined
  const c = prepared(candidate)
  const attributes: Partial<Record<ScoredAttribute, number>> = {}
  let sum = 0
  let total = 0
  const add = (attr: ScoredAttribute, similarity: number) => {
    const w = weights[attr]
    if (!(w > 0)) return
    attributes[attr] = similarity
    sum += w * similarity
    total += w
  }
  if (r.axRole) add('axRole', exact(r.axRole, c.axRole))
  if (r.axName) add('axName', fuzzyLabel(r.axName, c.axName))
  if (r.tagName) add('tagName', exact(r.tagName, c.tagName))
  if (r.id) add('id', fuzzy(r.id, c.id))
  if (r.classNames) add('classNames', jaccard(r.classNames, c.classNames))
  if (r.name) add('name', fuzzy(r.name, c.name))
  if (r.dataTestId) add('dataTestId', fuzzy(r.dataTestId, c.dataTestId))
  if (r.ariaLabel) add('ariaLabel', fuzzyLabel(r.ariaLabel, c.ariaLabel))
  if (r.placeholder) add('placeholder', fuzzy(r.placeholder, c.placeholder))
  if (r.textContent) add('textContent', fuzzyLabel(r.textContent, c.textContent))
  if (r.type) add('type', exact(r.type, c.type))
  if (r.href) add('href', fuzzy(r.href, c.href))
  if (r.xpath) add('xpath', fuzzy(r.xpath, c.xpath))
  if (r.neighborWords) add('neighborText', jaccard(r.neighborWords, c.neighborWords))
  if (r.box) {
    if (c.box) {
      const a = centerOf(r.box)
      const b = centerOf(c.box)
      add('location', Math.exp(-Math.hypot(a.x - b.x, a.y - b.y) / LOCATION_SCALE_PX))
      add('size', Math.sqrt(areaRatio(r.box, c.box)))
    } else {
      add('location', 0)
      add('size', 0)
    }
  }
  return { score: total === 0 ? 0 : clamp01(sum / total), attributes }
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
  return candidates
    .map((element) => ({ element, score: scoreCandidate(identity, element, weights).score }))
    .sort((a, b) => b.score - a.score)
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
