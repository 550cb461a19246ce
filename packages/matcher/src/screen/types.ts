import type { BoundingBox, TargetElement } from '@qa/model'
import type { XY } from '../image/geometry'
import type { Frame, MatchTemplateOptions } from '../image/match-template'
import type { FindMatchingElementOptions, UiAnalysis } from './find-matching-element'

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
  /**
   * The recorded screen the crop was cut from (the step's before-frame). With it, a template match must beat
   * what the crop's look-alikes scored on that screen, and an ambiguous element is looked for again with its
   * surroundings (the neighbours' layout): see `LocateOnScreenOptions.lookAlikeMargin`.
   */
  recordedFrame?: Frame | null
  /**
   * The program's window when recorded and now (from the window system, found by its class): the last strategy
   * looks for the crop where the window puts it, moved and scaled with the window, when nothing else found it — a
   * board of look-alike cells whose window was resized keeps each cell at its place in the window.
   */
  window?: WindowPlacement | null
  /**
   * Regions of the recorded screen that changed by themselves while nothing was done (sprites, a blinking caret,
   * a clock: the step's `animated_regions`): the fast path leaves their pixels out when it compares the crop.
   */
  animated?: readonly BoundingBox[] | null
}

/** A program window's box on the recorded screen and on the current one. */
export interface WindowPlacement {
  recorded: BoundingBox
  now: BoundingBox
}

export interface LocateOnScreenOptions {
  /** Fast path: the pixels at the recorded place match the crop with NCC ≥ this (default 0.95). */
  directThreshold?: number
  /** Semantic match confidence needed (default 0.7: below it the recorded coordinates are used). */
  semanticThreshold?: number
  /** Template match NCC needed (default 0.8). */
  templateThreshold?: number
  /**
   * A second place scoring within this of the best template match makes it ambiguous (default 0.03): the
   * strategy answers `ambiguous` (the cascade goes on) unless the recorded position settles it.
   */
  templateAmbiguityMargin?: number
  /**
   * A template match must score at least this much above the best look-alike of the crop on the recorded
   * screen (another place there, scale 1) to be taken alone (default 0.1): on a screen of
   * same-style buttons every button scores about 0.8 against any other's crop, so a 0.83 match there says
   * nothing about the label. Else the element is looked for with its surroundings (the recorded screen around
   * the crop, 3× and 5× its size), and without a clear winner the strategy answers `ambiguous`. Needs
   * `ScreenTarget.recordedFrame`.
   */
  lookAlikeMargin?: number
  /** OCR text similarity needed (default 0.8); a label shorter than 8 letters and digits must be read exactly. */
  ocrThreshold?: number
  /**
   * A label (the recorded target's `confidence`, an OCR word's confidence now) below this is never used alone
   * to click (default 0.6): the OCR strategy skips a low-confidence recorded label and passes
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
