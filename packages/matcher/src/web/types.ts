import type { BoundingBox, ElementIdentity, ReplayMethod, Selectors } from '@qa/model'
import type { XY } from '../image/geometry'
import type { CandidateElement, ScoreWeights } from '../score-candidate'

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
