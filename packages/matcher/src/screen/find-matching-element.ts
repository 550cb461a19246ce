import type { BoundingBox, TargetElement } from '@qa/model'
import { assertRange } from '../errors'
import { areaRatio, centerOf, clamp01, isBox, type XY } from '../image/geometry'
import { normalizeText, textSimilarity } from '../text/text-similarity'

/**
 * One element of a screen analysis (vision LLM, OCR). Structural on purpose: @qa/vision declares an
 * identical type without depending on this package.
 */
export interface UiElement {
  /** button, icon, text_field, image, tab, link, checkbox, … */
  type: string
  text?: string | null
  description?: string | null
  boundingBox: BoundingBox
  /** Where to click; the box centre when absent. */
  center?: { x: number; y: number } | null
  /** 0–1, how sure the analyzer was. */
  confidence?: number | null
}

/** What an analysis of the current screen gives: the elements, and optionally the screen state and size. */
export interface UiAnalysis {
  elements: UiElement[]
  screenState?: string | null
  width?: number | null
  height?: number | null
}

/** Weights of the desktop match components (any non-negative numbers; they are normalised). */
export interface DesktopMatchWeights {
  text: number
  type: number
  description: number
  size: number
  position: number
}

/**
 * Text first (what the user reads), then type, description and position prior, size last. Components the
 * recorded target lacks drop out of the weighted mean.
 */
export const DEFAULT_DESKTOP_WEIGHTS: Readonly<DesktopMatchWeights> = Object.freeze({
  text: 0.45,
  type: 0.15,
  description: 0.15,
  position: 0.15,
  size: 0.1,
})

export interface FindMatchingElementOptions {
  weights?: Partial<DesktopMatchWeights>
  /** The screen size at record time; when it differs from the analysis size, the prior is scaled. */
  recordedScreen?: { width: number; height: number } | null
  /** Used for the position prior when the analysis has no size (default 1920×1080). */
  screen?: { width: number; height: number } | null
}

export interface DesktopMatchScores {
  text?: number
  type?: number
  description?: number
  size?: number
  position?: number
}

export interface DesktopMatch {
  element: UiElement
  center: XY
  /** Weighted mean of `scores`, in [0, 1]. */
  confidence: number
  scores: DesktopMatchScores
}

const TYPE_GROUPS: readonly (readonly string[])[] = [
  ['button', 'btn', 'menu_item', 'menuitem'],
  ['text_field', 'textfield', 'input', 'textbox', 'text_input', 'edit', 'search_box', 'searchbox'],
  ['icon', 'image', 'img', 'picture'],
  ['tab', 'tab_item'],
  ['link', 'hyperlink'],
  ['checkbox', 'check_box', 'toggle', 'switch'],
  ['label', 'text', 'static_text'],
]
const TYPE_CANON = new Map<string, string>()
for (const group of TYPE_GROUPS) for (const t of group) TYPE_CANON.set(t, group[0] as string)
const canonType = (t: string | null | undefined): string => {
  const n = normalizeText(t).replace(/ /g, '_')
  return TYPE_CANON.get(n) ?? n
}

/** 1 when two element types name the same kind (button = btn, text_field = input, …), else 0. */
export function typeSimilarity(a: string | null | undefined, b: string | null | undefined): number {
  const ca = canonType(a)
  return ca !== '' && ca === canonType(b) ? 1 : 0
}

export const elementCenter = (e: UiElement): XY =>
  e.center && Number.isFinite(e.center.x) && Number.isFinite(e.center.y)
    ? { x: e.center.x, y: e.center.y }
    : centerOf(e.boundingBox)

/**
 * `_find_matching_element`: scores every element of the current analysis against the recorded
 * target (text, type, description, size, position prior relative to the recorded box and the screen) and
 * returns the best with its confidence, or null when there is no element or nothing to compare.
 */
export function findMatchingElement(
  target: TargetElement,
  uiData: UiAnalysis,
  opts: FindMatchingElementOptions = {},
): DesktopMatch | null {
  const w = { ...DEFAULT_DESKTOP_WEIGHTS, ...opts.weights }
  const screenW = uiData.width || opts.screen?.width || 1920
  const screenH = uiData.height || opts.screen?.height || 1080
  const diagonal = Math.hypot(screenW, screenH)
  const recordedBox = isBox(target.boundingBox) ? target.boundingBox : null
  let recordedCenter = recordedBox ? centerOf(recordedBox) : null
  if (recordedCenter && opts.recordedScreen && opts.recordedScreen.width > 0 && opts.recordedScreen.height > 0) {
    recordedCenter = {
      x: (recordedCenter.x * screenW) / opts.recordedScreen.width,
      y: (recordedCenter.y * screenH) / opts.recordedScreen.height,
    }
  }
  const hasText = normalizeText(target.text) !== ''
  const hasDescription = normalizeText(target.description) !== ''
  const hasType = normalizeText(target.type) !== ''

  let best: DesktopMatch | null = null
  for (const element of uiData.elements ?? []) {
    if (!element || !isBox(element.boundingBox)) continue
    const scores: DesktopMatchScores = {}
    let sum = 0
    let total = 0
    const add = (k: keyof DesktopMatchScores, value: number) => {
      const weight = w[k]
      if (!(weight > 0)) return
      scores[k] = clamp01(value)
      sum += weight * scores[k]
      total += weight
    }
    if (hasText) add('text', textSimilarity(target.text, element.text))
    if (hasType) add('type', typeSimilarity(target.type, element.type))
    if (hasDescription && normalizeText(element.description) !== '')
      add('description', textSimilarity(target.description, element.description))
    if (recordedBox && recordedCenter) {
      add('size', Math.sqrt(areaRatio(recordedBox, element.boundingBox)))
      const c = elementCenter(element)
      add('position', Math.exp(-Math.hypot(c.x - recordedCenter.x, c.y - recordedCenter.y) / (0.25 * diagonal)))
    }
    if (total === 0) continue
    const confidence = clamp01(sum / total)
    if (!best || confidence > best.confidence) best = { element, center: elementCenter(element), confidence, scores }
  }
  return best
}

export interface ReplayTargetDecision {
  coords: XY
  useMatch: boolean
  method: 'semantic' | 'coordinate'
  confidence: number
}

/**
 * A match with confidence ≥ threshold (default 0.7) is clicked at its centre
 * (`semantic`); anything else falls back to the recorded coordinates (`coordinate`).
 */
export function decideReplayTarget(
  match: Pick<DesktopMatch, 'center' | 'confidence'> | null | undefined,
  original: XY,
  threshold = 0.7,
): ReplayTargetDecision {
  assertRange('threshold', threshold, 0, 1)
  if (match && Number.isFinite(match.confidence) && match.confidence >= threshold) {
    return {
      coords: { x: match.center.x, y: match.center.y },
      useMatch: true,
      method: 'semantic',
      confidence: match.confidence,
    }
  }
  return {
    coords: { x: original.x, y: original.y },
    useMatch: false,
    method: 'coordinate',
    confidence: match?.confidence ?? 0,
  }
}
