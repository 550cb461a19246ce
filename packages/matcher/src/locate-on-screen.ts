import type { BoundingBox, TargetElement } from '@qa/model'
import { assertRange } from './errors'
import {
  decideReplayTarget,
  type FindMatchingElementOptions,
  findMatchingElement,
  type UiAnalysis,
  type UiElement,
} from './find-matching-element'
import { type CascadeStep, type LocateResult, runCascade } from './internal/cascade'
import { centerOf, isBox, type XY } from './internal/geometry'
import {
  type Frame,
  isAmbiguousMatch,
  type MatchTemplateOptions,
  matchTemplate,
  templateScoreAt,
} from './match-template'
import { textSimilarity } from './text-similarity'

/** A word or line found by OCR on the current screen. */
export interface OcrWord {
  text: string
  boundingBox: BoundingBox
  /** 0–1. */
  confidence?: number | null
}

/**
 * The pixel port of the desktop cascade: the current screen, and optionally a (costly) semantic analysis
 * and OCR of it. A desktop replayer implements it over screen capture, @qa/vision and tesseract.
 */
export interface ScreenSource {
  capture(): Promise<Frame>
  analyze?(frame: Frame): Promise<UiAnalysis>
  ocr?(frame: Frame): Promise<OcrWord[]>
}

/** What was recorded for one desktop step. */
export interface ScreenTarget {
  /** The recorded click point. */
  original: XY
  target?: TargetElement | null
  /** The recorded crop around the element (for the fast path and template matching). */
  crop?: Frame | null
  /** Where `crop` was taken on the recorded screen; defaults to the crop centred on `original`. */
  cropBox?: BoundingBox | null
}

export interface LocateOnScreenOptions {
  /** Fast path: the pixels at the recorded place match the crop with NCC ≥ this (default 0.95). */
  directThreshold?: number
  /** Semantic match confidence needed (default 0.7, seed 001 property 3). */
  semanticThreshold?: number
  /** Template match NCC needed (default 0.8). */
  templateThreshold?: number
  /**
   * A second place scoring within this of the best template match makes it ambiguous (default 0.03): the
   * strategy answers `ambiguous` (the cascade goes on) unless the recorded position settles it.
   */
  templateAmbiguityMargin?: number
  /** OCR text similarity needed (default 0.8). */
  ocrThreshold?: number
  /**
   * A label (the recorded target's `confidence`, an OCR word's confidence now) below this is never used alone
   * to click (default 0.6, issue 14 Build 5): the OCR strategy skips a low-confidence recorded label and passes
   * over words read with low confidence.
   */
  minLabelConfidence?: number
  /**
   * Click the recorded point when no strategy found the target (default false, as on the web: a blind click on
   * a screen that no longer shows the target is a wrong click). Meant for coordinate-only legacy cases; the
   * result then says `strategy: 'coordinate'`, `coordinateFallback: true`, confidence 0, never a located element.
   */
  allowCoordinateFallback?: boolean
  match?: FindMatchingElementOptions
  template?: Omit<MatchTemplateOptions, 'threshold'>
}

const fmt = (v: number) => v.toFixed(2)

/**
 * The recorded position prior for two look-alike template matches: the one still at the recorded crop's place
 * (its centre within a quarter of the crop's short side, at least 3 px) when the other is not; else null. Pure.
 */
export function settleByPrior<T extends { box: BoundingBox }>(
  pair: readonly [T, T],
  recorded: BoundingBox | null,
): T | null {
  if (!recorded) return null
  const c = centerOf(recorded)
  const radius = Math.max(3, Math.min(recorded.width, recorded.height) / 4)
  const at = pair.filter((m) => {
    const p = centerOf(m.box)
    return Math.hypot(p.x - c.x, p.y - c.y) <= radius
  })
  return at.length === 1 ? (at[0] as T) : null
}

/**
 * The desktop cascade (SPEC §5) on the same engine as the web one: direct (recorded pixels still there,
 * no LLM call) → semantic (analysis + `findMatchingElement`, confidence ≥ 0.7) → template (multi-scale NCC
 * of the recorded crop) → OCR text search → recorded coordinates (only with `allowCoordinateFallback`). The
 * screen is captured once.
 */
export async function locateOnScreen(
  step: ScreenTarget,
  source: ScreenSource,
  opts: LocateOnScreenOptions = {},
): Promise<LocateResult<UiElement>> {
  const directThreshold = opts.directThreshold ?? 0.95
  const semanticThreshold = opts.semanticThreshold ?? 0.7
  const templateThreshold = opts.templateThreshold ?? 0.8
  const ocrThreshold = opts.ocrThreshold ?? 0.8
  const minLabelConfidence = opts.minLabelConfidence ?? 0.6
  const templateAmbiguityMargin = opts.templateAmbiguityMargin ?? 0.03
  for (const [k, v] of Object.entries({
    directThreshold,
    semanticThreshold,
    templateThreshold,
    ocrThreshold,
    minLabelConfidence,
    templateAmbiguityMargin,
  }))
    assertRange(k, v, 0, 1)
  const crop = step.crop ?? null
  const cropBox: BoundingBox | null = crop
    ? isBox(step.cropBox)
      ? step.cropBox
      : {
          x: Math.round(step.original.x - crop.width / 2),
          y: Math.round(step.original.y - crop.height / 2),
          width: crop.width,
          height: crop.height,
        }
    : null
  const text = step.target?.text?.trim() ?? ''
  const labelConfidence = typeof step.target?.confidence === 'number' ? step.target.confidence : 1
  let frame: Frame | null = null
  const screen = async (): Promise<Frame> => {
    frame ??= await source.capture()
    return frame
  }
  /** The click point inside a found box, keeping the recorded offset within the crop. */
  const pointIn = (box: BoundingBox, scale: number): XY =>
    cropBox
      ? { x: box.x + (step.original.x - cropBox.x) * scale, y: box.y + (step.original.y - cropBox.y) * scale }
      : centerOf(box)

  const steps: CascadeStep<UiElement>[] = [
    {
      method: 'direct',
      skip: crop && cropBox ? null : 'no recorded crop',
      run: async () => {
        const score = templateScoreAt(
          await screen(),
          crop as Frame,
          (cropBox as BoundingBox).x,
          (cropBox as BoundingBox).y,
        )
        if (score < directThreshold)
          return {
            outcome: 'below_threshold',
            candidates: 1,
            confidence: Math.max(0, score),
            detail: `NCC at the recorded place ${fmt(score)} < ${fmt(directThreshold)}`,
          }
        return {
          outcome: 'matched',
          element: {
            type: step.target?.type ?? 'unknown',
            text: step.target?.text ?? null,
            boundingBox: cropBox as BoundingBox,
          },
          point: { x: step.original.x, y: step.original.y },
          confidence: score,
          candidates: 1,
        }
      },
    },
    {
      method: 'semantic',
      skip: !step.target ? 'no target_element recorded' : !source.analyze ? 'the source has no screen analysis' : null,
      run: async () => {
        const analysis = await (source.analyze as NonNullable<ScreenSource['analyze']>)(await screen())
        const match = findMatchingElement(step.target as TargetElement, analysis, opts.match)
        const decision = decideReplayTarget(match, step.original, semanticThreshold)
        if (!match) return { outcome: 'none', candidates: analysis.elements?.length ?? 0 }
        if (!decision.useMatch)
          return {
            outcome: 'below_threshold',
            candidates: analysis.elements.length,
            confidence: match.confidence,
            detail: `best element confidence ${fmt(match.confidence)} < ${fmt(semanticThreshold)}`,
          }
        return {
          outcome: 'matched',
          element: match.element,
          point: decision.coords,
          confidence: match.confidence,
          candidates: analysis.elements.length,
        }
      },
    },
    {
      method: 'template',
      skip: crop ? null : 'no recorded crop',
      run: async () => {
        const found = matchTemplate(await screen(), crop as Frame, { ...opts.template, threshold: -1 })
        if (!found) return { outcome: 'none', candidates: 0 }
        if (found.score < templateThreshold)
          return {
            outcome: 'below_threshold',
            candidates: 1,
            confidence: Math.max(0, found.score),
            detail: `best NCC ${fmt(found.score)} < ${fmt(templateThreshold)}`,
          }
        let hit: { box: BoundingBox; score: number; scale: number } = found
        let settled = ''
        if (isAmbiguousMatch(found, templateAmbiguityMargin) && found.runnerUp) {
          const second = found.runnerUp
          const choice = settleByPrior([found, second], cropBox)
          const where = (b: BoundingBox) => `(${b.x}, ${b.y})`
          if (!choice)
            return {
              outcome: 'ambiguous',
              candidates: 2,
              confidence: Math.max(0, found.score),
              detail: `two places score alike: ${where(found.box)} ${fmt(found.score)} and ${where(second.box)} ${fmt(second.score)}; the recorded position settles neither`,
            }
          hit = choice
          settled = `; ${where(found.box)} and ${where(second.box)} score alike, the one at the recorded place was taken`
        }
        return {
          outcome: 'matched',
          element: {
            type: step.target?.type ?? 'unknown',
            text: step.target?.text ?? null,
            boundingBox: hit.box,
            confidence: hit.score,
          },
          point: pointIn(hit.box, hit.scale),
          confidence: hit.score,
          candidates: 1,
          detail: `scale ${hit.scale.toFixed(2)}${settled}`,
        }
      },
    },
    {
      method: 'ocr',
      skip: !text
        ? 'no target text recorded'
        : labelConfidence < minLabelConfidence
          ? `the recorded label "${text.slice(0, 40)}" is low-confidence (${fmt(labelConfidence)} < ${fmt(minLabelConfidence)}): never used alone to click`
          : !source.ocr
            ? 'the source has no OCR'
            : null,
      run: async () => {
        const words = await (source.ocr as NonNullable<ScreenSource['ocr']>)(await screen())
        const all = words
          .filter((w) => isBox(w.boundingBox))
          .map((w) => ({ w, s: textSimilarity(text, w.text) }))
          .sort((a, b) => b.s - a.s)
        // a word read with low confidence is no place to click, however well its text agrees
        const ranked = all.filter((r) => (r.w.confidence ?? 1) >= minLabelConfidence)
        const [first, second] = ranked
        const unsure = all[0]
        if (!first && unsure && unsure.s >= ocrThreshold)
          return {
            outcome: 'below_threshold',
            candidates: all.length,
            confidence: unsure.s * (unsure.w.confidence ?? 0),
            detail: `"${unsure.w.text}" was read with confidence ${fmt(unsure.w.confidence ?? 0)} < ${fmt(minLabelConfidence)}`,
          }
        if (!first) return { outcome: 'none', candidates: 0 }
        if (first.s < ocrThreshold)
          return {
            outcome: 'below_threshold',
            candidates: ranked.length,
            confidence: first.s,
            detail: `best text "${first.w.text}" ${fmt(first.s)}`,
          }
        if (second && second.s >= first.s - 0.02) {
          // the same label twice: take the one nearer the recorded point, but only when clearly nearer
          const d = (w: OcrWord) =>
            Math.hypot(centerOf(w.boundingBox).x - step.original.x, centerOf(w.boundingBox).y - step.original.y)
          const [a, b] = [first, second].sort((p, q) => d(p.w) - d(q.w)) as [typeof first, typeof first]
          if (d(b.w) < 1.5 * d(a.w) + 1)
            return {
              outcome: 'ambiguous',
              candidates: ranked.length,
              confidence: first.s,
              detail: `"${first.w.text}" appears more than once`,
            }
          ranked[0] = a
        }
        const best = ranked[0] as typeof first
        return {
          outcome: 'matched',
          element: {
            type: step.target?.type ?? 'text',
            text: best.w.text,
            boundingBox: best.w.boundingBox,
            confidence: best.w.confidence ?? null,
          },
          point: centerOf(best.w.boundingBox),
          confidence: best.s * (best.w.confidence ?? 1),
          candidates: ranked.length,
        }
      },
    },
    {
      method: 'coordinate',
      skip: opts.allowCoordinateFallback
        ? null
        : 'coordinate fallback not allowed (allowCoordinateFallback; `qa replay --allow-coordinates`)',
      run: async () => ({
        outcome: 'matched',
        element: {
          type: step.target?.type ?? 'unknown',
          text: step.target?.text ?? null,
          boundingBox: isBox(step.target?.boundingBox)
            ? (step.target?.boundingBox as BoundingBox)
            : { x: step.original.x, y: step.original.y, width: 0, height: 0 },
        },
        point: { x: step.original.x, y: step.original.y },
        confidence: 0,
        detail: 'recorded coordinates',
      }),
    },
  ]
  return runCascade(steps)
}
