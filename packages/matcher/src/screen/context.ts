import type { BoundingBox } from '@qa/model'
import { assertRange } from '../errors'
import { centerOf, isBox, type XY } from '../image/geometry'
import type { Frame } from '../image/match-template'
import { structureFrame } from '../image/structure-frame'
import type { StepOutcome } from '../internal/cascade'
import type { UiElement } from './find-matching-element'
import type { LocateOnScreenOptions, ScreenSource, ScreenTarget } from './types'

export const fmt = (v: number) => v.toFixed(2)

export const isInside = (b: BoundingBox, f: Frame): boolean =>
  b.x >= 0 && b.y >= 0 && b.width > 0 && b.height > 0 && b.x + b.width <= f.width && b.y + b.height <= f.height

/**
 * What every desktop strategy of one `locateOnScreen` call shares: the step, the source, the options with their
 * defaults, the recorded crop and its box, the screen captured once, and the structure (edges) of each frame
 * computed once.
 */
export interface ScreenContext {
  step: ScreenTarget
  source: ScreenSource
  opts: LocateOnScreenOptions
  directThreshold: number
  semanticThreshold: number
  templateThreshold: number
  /** The `ocrThreshold` option (a short label is read exactly whatever it says). */
  ocrThreshold: number
  minLabelConfidence: number
  templateAmbiguityMargin: number
  lookAlikeMargin: number
  crop: Frame | null
  /** Where the crop was taken on the recorded screen (the crop centred on the recorded point when not given). */
  cropBox: BoundingBox | null
  /** The recorded target's text, trimmed ('' when none). */
  text: string
  /** The recorded label's confidence (1 when not recorded). */
  labelConfidence: number
  /** The element's own recorded label, when it can be clicked on alone. */
  ownLabel: string | null
  /** The recorded screen, when the crop lies inside it (for the label anchor, the look-alikes and surroundings). */
  anchorFrame: Frame | null
  /** The current screen, captured on first use and then kept. */
  screen(): Promise<Frame>
  /** The structure (edges) of a frame, computed once per frame. */
  structureOf(f: Frame): Frame
  /** Whether a found box is where the crop was recorded (its centre within a quarter of the crop's short side). */
  atRecordedPlace(box: BoundingBox): boolean
  /** The click point inside a found box, keeping the recorded offset within the crop. */
  pointIn(box: BoundingBox, scale: number): XY
  /** The recorded crop found at `box` and `scale`: the element there, clicked at the recorded offset. */
  cropFoundAt(hit: { box: BoundingBox; scale: number; score: number }, detail: string): StepOutcome<UiElement>
}

/** The options with their defaults (each checked to lie in 0–1) and the recorded step's derived values. */
export function screenContext(
  step: ScreenTarget,
  source: ScreenSource,
  opts: LocateOnScreenOptions = {},
): ScreenContext {
  const directThreshold = opts.directThreshold ?? 0.95
  const semanticThreshold = opts.semanticThreshold ?? 0.7
  const templateThreshold = opts.templateThreshold ?? 0.8
  const ocrThresholdOption = opts.ocrThreshold ?? 0.8
  const minLabelConfidence = opts.minLabelConfidence ?? 0.6
  const templateAmbiguityMargin = opts.templateAmbiguityMargin ?? 0.03
  const lookAlikeMargin = opts.lookAlikeMargin ?? 0.1
  for (const [k, v] of Object.entries({
    lookAlikeMargin,
    directThreshold,
    semanticThreshold,
    templateThreshold,
    ocrThreshold: ocrThresholdOption,
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
  const atRecordedPlace = (box: BoundingBox): boolean => {
    if (!cropBox) return false
    const a = centerOf(box)
    const b = centerOf(cropBox)
    return Math.hypot(a.x - b.x, a.y - b.y) <= Math.max(3, Math.min(cropBox.width, cropBox.height) / 4)
  }
  const pointIn = (box: BoundingBox, scale: number): XY =>
    cropBox
      ? { x: box.x + (step.original.x - cropBox.x) * scale, y: box.y + (step.original.y - cropBox.y) * scale }
      : centerOf(box)
  const cropFoundAt = (
    hit: { box: BoundingBox; scale: number; score: number },
    detail: string,
  ): StepOutcome<UiElement> => ({
    outcome: 'matched',
    element: {
      type: step.target?.type ?? 'unknown',
      text: step.target?.text ?? null,
      boundingBox: hit.box,
      confidence: hit.score,
    },
    point: pointIn(hit.box, hit.scale),
    scale: hit.scale,
    confidence: hit.score,
    candidates: 1,
    detail,
  })
  const structures = new WeakMap<Frame, Frame>()
  const structureOf = (f: Frame): Frame => {
    let out = structures.get(f)
    if (!out) {
      out = structureFrame(f)
      structures.set(f, out)
    }
    return out
  }
  return {
    step,
    source,
    opts,
    directThreshold,
    semanticThreshold,
    templateThreshold,
    ocrThreshold: ocrThresholdOption,
    minLabelConfidence,
    templateAmbiguityMargin,
    lookAlikeMargin,
    crop,
    cropBox,
    text,
    labelConfidence,
    ownLabel: text && labelConfidence >= minLabelConfidence ? text : null,
    anchorFrame: step.recordedFrame && cropBox && isInside(cropBox, step.recordedFrame) ? step.recordedFrame : null,
    screen,
    structureOf,
    atRecordedPlace,
    pointIn,
    cropFoundAt,
  }
}
