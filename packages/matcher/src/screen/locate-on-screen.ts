import type { BoundingBox, TargetElement } from '@qa/model'
import { assertRange } from '../errors'
import {
  decideReplayTarget,
  type FindMatchingElementOptions,
  findMatchingElement,
  type UiAnalysis,
  type UiElement,
} from './find-matching-element'
import { labelAnchorOf, placeByAnchor } from './anchor-label'
import { type CascadeStep, type LocateResult, runCascade, type StepOutcome } from '../internal/cascade'
import { centerOf, iou, isBox, type XY } from '../image/geometry'
import {
  type Frame,
  isAmbiguousMatch,
  type MatchTemplateOptions,
  matchTemplate,
  templateScoreAt,
} from '../image/match-template'
import { structureFrame } from '../image/structure-frame'
import { comparisonKey, textSimilarity } from '../text/text-similarity'

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

const contains = (b: BoundingBox, p: XY, margin: number): boolean =>
  p.x >= b.x - margin && p.x <= b.x + b.width + margin && p.y >= b.y - margin && p.y <= b.y + b.height + margin

const isInside = (b: BoundingBox, f: Frame): boolean =>
  b.x >= 0 && b.y >= 0 && b.width > 0 && b.height > 0 && b.x + b.width <= f.width && b.y + b.height <= f.height

/** The pixels of `box` (inside the frame) as a frame of their own. Pure. */
function regionOf(f: Frame, box: BoundingBox): Frame {
  const c = f.channels
  const data = new Uint8Array(box.width * box.height * c)
  for (let j = 0; j < box.height; j++) {
    const from = ((box.y + j) * f.width + box.x) * c
    data.set(f.data.subarray(from, from + box.width * c), j * box.width * c)
  }
  return { width: box.width, height: box.height, data, channels: c }
}

/** Multiply-adds `lookAlikeLevel` spends before it samples positions sparsely (4·10⁸, about half a second). */
const LOOK_ALIKE_WORK_BUDGET = 4e8

/**
 * How well the crop's best look-alike scores on the recorded screen: the best NCC (scale 1) at another place
 * near the crop (within 2 crop sizes; another place = overlapping the crop's own box by at most a third);
 * -1 when there is none. The rolodex's empty entries score 1.00 against each other's crops; a match on the
 * replay screen that does no better than its look-alikes cannot tell the recorded element from them. Pure.
 */
export function lookAlikeLevel(recorded: Frame, crop: Frame, cropBox: BoundingBox): number {
  // the crop's neighbourhood (2 crop sizes on every side), every position at full resolution, scale 1
  const w = crop.width
  const h = crop.height
  const x0 = Math.max(0, cropBox.x - 2 * w)
  const y0 = Math.max(0, cropBox.y - 2 * h)
  const x1 = Math.min(recorded.width - w, cropBox.x + 3 * w)
  const y1 = Math.min(recorded.height - h, cropBox.y + 3 * h)
  const lum = (f: Frame, i: number): number =>
    f.channels === 1
      ? (f.data[i] as number)
      : ((f.data[i * 4] as number) * 77 + (f.data[i * 4 + 1] as number) * 150 + (f.data[i * 4 + 2] as number) * 29) >> 8
  const n = w * h
  const t = new Float64Array(n)
  let mean = 0
  for (let k = 0; k < n; k++) {
    t[k] = lum(crop, k)
    mean += t[k] as number
  }
  mean /= n
  let tnorm = 0
  for (let k = 0; k < n; k++) {
    t[k] = (t[k] as number) - mean
    tnorm += (t[k] as number) ** 2
  }
  if (tnorm < 1e-6 * n) return -1
  // the region's luma once
  const rw = x1 + w - x0
  const rh = y1 + h - y0
  if (rw <= 0 || rh <= 0) return -1
  const region = new Float64Array(rw * rh)
  for (let y = 0; y < rh; y++)
    for (let x = 0; x < rw; x++) region[y * rw + x] = lum(recorded, (y0 + y) * recorded.width + x0 + x)
  const own = { x: cropBox.x, y: cropBox.y, width: w, height: h }
  // a large crop is sampled every few positions, keeping the work near LOOK_ALIKE_WORK_BUDGET multiply-adds
  const work = (x1 - x0 + 1) * (y1 - y0 + 1) * n
  const stride = Math.max(1, Math.ceil(Math.sqrt(work / LOOK_ALIKE_WORK_BUDGET)))
  let best = -1
  for (let y = y0; y <= y1; y += stride) {
    for (let x = x0; x <= x1; x += stride) {
      if (iou(own, { x, y, width: w, height: h }) > 1 / 3) continue
      let s = 0
      let sq = 0
      let cross = 0
      for (let j = 0; j < h; j++) {
        const row = (y - y0 + j) * rw + (x - x0)
        for (let i = 0; i < w; i++) {
          const v = region[row + i] as number
          s += v
          sq += v * v
          cross += v * (t[j * w + i] as number)
        }
      }
      const variance = sq - (s * s) / n
      if (variance > 1e-6 * n) best = Math.max(best, cross / Math.sqrt(tnorm * variance))
    }
  }
  return Math.min(1, best)
}

/**
 * A recorded label whose comparison key (letters and digits) is shorter than this (8) must be read exactly by
 * the OCR strategy: in "Ctrl+A", "Add" or "7" a single misread character names another element.
 */
const SHORT_LABEL = 8

/**
 * How well the structure (edges) of the recorded crop must agree with the place its label points at (0.5): an
 * empty entry restyled or in a larger font keeps its outline; a label left beside nothing, or beside another kind
 * of widget, does not.
 */
const ANCHORED_STRUCTURE_AGREEMENT = 0.5

/** Sizes of the surroundings tried, in crop sizes (3×, then 5×), centred on the crop. */
const SURROUNDINGS = [3, 5]
/**
 * A match of the surroundings must score this much (0.95): the recorded layout, still there (moved or scaled as
 * a whole). A restyled or re-laid-out window scores 0.8–0.93 somewhere plausible and wrong.
 */
const SURROUNDINGS_THRESHOLD = 0.95
/** What resampling a crop to another scale costs its NCC on UI pixels (0.1). */
const RESAMPLING_LOSS = 0.1
/**
 * The crop's centre (half its width and height, where the click and so the element's label or glyph is) must
 * agree this much (0.7) at a place the surroundings found: a dialog whose "Archive" button became "Open"
 * keeps the surroundings and the button's outline (whole-crop NCC 0.81) but not the label (0.38).
 */
const CENTRE_AGREEMENT = 0.7

/**
 * A template match away from the recorded place must bring its surroundings along (0.6): the recorded screen
 * around the crop (3× its size) against the same area around the match, at the match's scale. A moved or rescaled
 * window scores 0.9 or more; a look-alike elsewhere (an empty sudoku cell beside other digits) far less.
 */
const CONTEXT_AGREEMENT = 0.6
/**
 * What a match on the screens' structure (edges) must reach (0.9, its centre 0.85): edges blur a label's strokes
 * into blobs, so a same-style button with another label ("Open" for "Archive") scores 0.93 there whole and
 * about 0.7 at its centre; the recorded element restyled keeps both well above.
 */
const EDGE_BARS = { threshold: 0.9, centre: 0.85 }
/** How much better a far match's surroundings must agree than those of the recorded place (0.05). */
const CONTEXT_MARGIN = 0.05

/**
 * How well the recorded surroundings of the crop (3× its size, clipped to both screens) agree with the same area
 * around a match at `box` and `scale` on the current screen: NCC of the luma, resampled. Pure.
 */
export function contextAgreement(
  now: Frame,
  recorded: Frame,
  cropBox: BoundingBox,
  box: BoundingBox,
  scale: number,
): number {
  const c = centerOf(cropBox)
  const x0 = Math.max(0, Math.round(c.x - cropBox.width * 1.5))
  const y0 = Math.max(0, Math.round(c.y - cropBox.height * 1.5))
  const x1 = Math.min(recorded.width, Math.round(c.x + cropBox.width * 1.5))
  const y1 = Math.min(recorded.height, Math.round(c.y + cropBox.height * 1.5))
  // the same area around the match, clipped to the current screen (then the recorded area shrinks with it)
  const mapX = (x: number) => box.x + (x - cropBox.x) * scale
  const mapY = (y: number) => box.y + (y - cropBox.y) * scale
  const nx0 = Math.max(0, mapX(x0))
  const ny0 = Math.max(0, mapY(y0))
  const nx1 = Math.min(now.width, mapX(x1))
  const ny1 = Math.min(now.height, mapY(y1))
  if (nx1 - nx0 < 2 || ny1 - ny0 < 2) return 0
  const rx0 = Math.round(cropBox.x + (nx0 - box.x) / scale)
  const ry0 = Math.round(cropBox.y + (ny0 - box.y) / scale)
  const rx1 = Math.round(cropBox.x + (nx1 - box.x) / scale)
  const ry1 = Math.round(cropBox.y + (ny1 - box.y) / scale)
  if (rx1 - rx0 < 2 || ry1 - ry0 < 2) return 0
  const around = regionOf(recorded, { x: rx0, y: ry0, width: rx1 - rx0, height: ry1 - ry0 })
  return scoreResampled(now, around, {
    x: Math.round(nx0),
    y: Math.round(ny0),
    width: Math.max(1, Math.round(nx1 - nx0)),
    height: Math.max(1, Math.round(ny1 - ny0)),
  })
}

/**
 * Whether the recorded element is still at a place found by its surroundings: the whole crop scores at least
 * the template threshold there (less the resampling loss at another scale), and its centre, where the label
 * is, agrees (`CENTRE_AGREEMENT`) unless the centre is one flat colour. Pure.
 */
export function elementStillThere(
  now: Frame,
  crop: Frame,
  box: BoundingBox,
  threshold: number,
  scale: number,
  centreBar = CENTRE_AGREEMENT,
): { ok: boolean; score: number; detail: string } {
  const whole = scoreResampled(now, crop, box)
  const bar = Math.abs(scale - 1) < 0.03 ? threshold : threshold - RESAMPLING_LOSS
  if (whole < bar) return { ok: false, score: whole, detail: `the element there scores ${fmt(whole)} < ${fmt(bar)}` }
  const inner = { x: Math.round(crop.width / 4), y: Math.round(crop.height / 4) }
  const innerSize = { width: Math.max(1, Math.round(crop.width / 2)), height: Math.max(1, Math.round(crop.height / 2)) }
  const centre = regionOf(crop, { ...inner, ...innerSize })
  const centreBox = {
    x: Math.round(box.x + inner.x * scale),
    y: Math.round(box.y + inner.y * scale),
    width: Math.max(1, Math.round(innerSize.width * scale)),
    height: Math.max(1, Math.round(innerSize.height * scale)),
  }
  // an empty cell or entry: no label to agree on (a centre of one colour, but for a faint shade or border pixel)
  const flat = lumaSpread(centre) < FLAT_SPREAD
  if (flat) return { ok: true, score: whole, detail: `the element there ${fmt(whole)} (its centre is flat)` }
  const agreement = scoreResampled(now, centre, centreBox)
  return agreement < centreBar
    ? {
        ok: false,
        score: whole,
        detail: `the element there scores ${fmt(whole)} and its centre (the label) only ${fmt(agreement)} < ${fmt(centreBar)}`,
      }
    : { ok: true, score: whole, detail: `the element there ${fmt(whole)}, its centre ${fmt(agreement)}` }
}

/** Below this standard deviation of its luma (3 of 255), an element's centre carries no label. */
const FLAT_SPREAD = 3

/** The standard deviation of a frame's luma. Pure. */
function lumaSpread(f: Frame): number {
  const n = f.width * f.height
  let sum = 0
  let sq = 0
  for (let i = 0; i < n; i++) {
    const v =
      f.channels === 1
        ? (f.data[i] as number)
        : 0.299 * (f.data[i * 4] as number) +
          0.587 * (f.data[i * 4 + 1] as number) +
          0.114 * (f.data[i * 4 + 2] as number)
    sum += v
    sq += v * v
  }
  const mean = sum / n
  return Math.sqrt(Math.max(0, sq / n - mean * mean))
}

/**
 * NCC of the template against the frame's `box` resampled (bilinear, luma) to the template's size: the element
 * at a place and scale found by other means. 0 when the box leaves the frame or either side is flat. Pure.
 */
export function scoreResampled(frame: Frame, template: Frame, box: BoundingBox): number {
  if (box.x < 0 || box.y < 0 || box.x + box.width > frame.width || box.y + box.height > frame.height) return 0
  const lum = (f: Frame, x: number, y: number): number => {
    const i = y * f.width + x
    return f.channels === 1
      ? (f.data[i] as number)
      : 0.299 * (f.data[i * 4] as number) +
          0.587 * (f.data[i * 4 + 1] as number) +
          0.114 * (f.data[i * 4 + 2] as number)
  }
  const sx = box.width / template.width
  const sy = box.height / template.height
  const n = template.width * template.height
  const a = new Float64Array(n)
  const b = new Float64Array(n)
  for (let j = 0; j < template.height; j++) {
    const fy = Math.min(frame.height - 1, Math.max(0, box.y + (j + 0.5) * sy - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(frame.height - 1, y0 + 1)
    const wy = fy - y0
    for (let i = 0; i < template.width; i++) {
      const fx = Math.min(frame.width - 1, Math.max(0, box.x + (i + 0.5) * sx - 0.5))
      const x0 = Math.floor(fx)
      const x1 = Math.min(frame.width - 1, x0 + 1)
      const wx = fx - x0
      const top = lum(frame, x0, y0) * (1 - wx) + lum(frame, x1, y0) * wx
      const bottom = lum(frame, x0, y1) * (1 - wx) + lum(frame, x1, y1) * wx
      a[j * template.width + i] = lum(template, i, j)
      b[j * template.width + i] = top * (1 - wy) + bottom * wy
    }
  }
  let ma = 0
  let mb = 0
  for (let k = 0; k < n; k++) {
    ma += a[k] as number
    mb += b[k] as number
  }
  ma /= n
  mb /= n
  let ab = 0
  let aa = 0
  let bb = 0
  for (let k = 0; k < n; k++) {
    const x = (a[k] as number) - ma
    const y = (b[k] as number) - mb
    ab += x * y
    aa += x * x
    bb += y * y
  }
  return aa < 1e-6 * n || bb < 1e-6 * n ? 0 : Math.max(-1, Math.min(1, ab / Math.sqrt(aa * bb)))
}

/** A shifted place scoring within this (0.02) of the best one makes the best one a point on a ridge. */
const RIDGE_MARGIN = 0.02

/**
 * Whether `template` fits `box` on `now` about as well (within `RIDGE_MARGIN`) shifted by `step` along either axis:
 * then the match is a ridge, not a peak. The shift that does, in words, or null. Pure.
 */
function ridgeShift(now: Frame, template: Frame, box: BoundingBox, step: { x: number; y: number }): string | null {
  const score = scoreResampled(now, template, box)
  for (const [dx, dy] of [
    [step.x, 0],
    [-step.x, 0],
    [0, step.y],
    [0, -step.y],
  ] as const) {
    const shifted = { ...box, x: box.x + dx, y: box.y + dy }
    if (scoreResampled(now, template, shifted) >= score - RIDGE_MARGIN)
      return dx !== 0
        ? `${Math.abs(dx)} px ${dx > 0 ? 'right' : 'left'}`
        : `${Math.abs(dy)} px ${dy > 0 ? 'down' : 'up'}`
  }
  return null
}

/**
 * Looks for the recorded element with its surroundings (when the crop alone is ambiguous, the neighbours'
 * layout settles it): the recorded screen around the crop, 3× then 5× the crop's size (clipped to the screen), is matched on
 * the current screen; the first that matches above `threshold`, unambiguously, and clear of its own
 * look-alikes on the recorded screen by `lookAlikeMargin` places the element. Pure.
 */
export function matchWithSurroundings(
  now: Frame,
  recorded: Frame,
  cropBox: BoundingBox,
  opts: {
    template?: Omit<MatchTemplateOptions, 'threshold'> | undefined
    threshold: number
    ambiguityMargin: number
    lookAlikeMargin: number
    /** What the element's centre must agree at the place found (default `CENTRE_AGREEMENT`). */
    centreAgreement?: number
  },
): { match: { box: BoundingBox; scale: number; score: number; context: BoundingBox } | null; detail: string } {
  const tried: string[] = []
  let previous = ''
  for (const k of SURROUNDINGS) {
    const c = centerOf(cropBox)
    const x0 = Math.max(0, Math.round(c.x - (cropBox.width * k) / 2))
    const y0 = Math.max(0, Math.round(c.y - (cropBox.height * k) / 2))
    const x1 = Math.min(recorded.width, Math.round(c.x + (cropBox.width * k) / 2))
    const y1 = Math.min(recorded.height, Math.round(c.y + (cropBox.height * k) / 2))
    const context = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
    const key = JSON.stringify(context)
    if (key === previous || context.width > now.width || context.height > now.height) continue
    previous = key
    const template = regionOf(recorded, context)
    let m: ReturnType<typeof matchTemplate>
    try {
      m = matchTemplate(now, template, { ...opts.template, threshold: -1 })
    } catch {
      tried.push(`${k}× flat`)
      continue
    }
    const size = `${context.width}×${context.height}`
    if (!m) {
      tried.push(`${size} no place matches`)
      continue
    }
    // resampled to another scale, the same layout loses some of its NCC (a 1.4× board: 0.94)
    const bar = Math.abs(m.scale - 1) < 0.03 ? SURROUNDINGS_THRESHOLD : SURROUNDINGS_THRESHOLD - RESAMPLING_LOSS / 2
    if (m.score < bar) {
      tried.push(`${size} best NCC ${fmt(m.score)} < ${fmt(bar)}`)
      continue
    }
    if (isAmbiguousMatch(m, opts.ambiguityMargin)) {
      tried.push(`${size} two places score alike (${fmt(m.score)})`)
      continue
    }
    // surroundings inside a wide uniform element (an entry's middle, rows of entries above and below) fit as well
    // a quarter crop to the side: the place along that ridge is arbitrary, and so is the click's offset
    const ridge = ridgeShift(now, template, m.box, {
      x: Math.max(4, Math.round((cropBox.width * m.scale) / 4)),
      y: Math.max(4, Math.round((cropBox.height * m.scale) / 4)),
    })
    if (ridge) {
      tried.push(`${size} NCC ${fmt(m.score)} fits as well ${ridge} (a uniform stretch: no place along it)`)
      continue
    }
    // the surroundings say where; the element itself must still be there (a dialog whose buttons were
    // replaced keeps its surroundings): at the recorded size as clear of its look-alikes as a match alone
    // must be (at most 0.95), at another size above the template threshold less the resampling's loss
    const box = {
      x: Math.round(m.box.x + (cropBox.x - context.x) * m.scale),
      y: Math.round(m.box.y + (cropBox.y - context.y) * m.scale),
      width: Math.round(cropBox.width * m.scale),
      height: Math.round(cropBox.height * m.scale),
    }
    const check = elementStillThere(
      now,
      regionOf(recorded, cropBox),
      box,
      opts.threshold,
      m.scale,
      opts.centreAgreement ?? CENTRE_AGREEMENT,
    )
    if (!check.ok) {
      tried.push(`${size} NCC ${fmt(m.score)} places it at (${box.x}, ${box.y}), but ${check.detail}`)
      continue
    }
    return {
      match: { box: m.box, scale: m.scale, score: Math.min(m.score, check.score), context },
      detail: `${size} NCC ${fmt(m.score)}; ${check.detail}`,
    }
  }
  return { match: null, detail: tried.join(', ') || 'nothing to try' }
}

/** A window whose width and height grew by ratios further apart than this (5 %) was relaid out, not scaled. */
const WINDOW_UNEVEN = 0.05
/**
 * What the crop must score where its window puts it: pixels 0.85 (at any scale), the centre 0.8; edges (colours
 * ignored) 0.9 and 0.85. Stricter than a template match's bars for the centre: the window says where, so the
 * label there must be the recorded one (a dialog with other buttons keeps its class and size).
 */
const WINDOW_BARS = { pixels: { threshold: 0.85, centre: 0.8 }, edges: { threshold: 0.9, centre: 0.85 } }

/**
 * The crop where the program's window puts it now (when all else is equal, the recorded position settles it): the
 * recorded box mapped from the recorded window to the current one (moved, scaled), searched a few pixels around
 * (a menu bar that keeps its height shifts a scaled board a little), on `now` as given (luma or structure). The
 * element must still be there (whole crop and centre above `bars`; an element with an empty centre, such as an
 * empty cell, must still show an empty centre), and, when the window moved or was resized, the recorded
 * surroundings must agree there (`CONTEXT_AGREEMENT`). Null with the reason otherwise. Pure.
 */
export function matchAtWindowPlace(
  now: Frame,
  crop: Frame,
  cropBox: BoundingBox,
  recorded: Frame | null,
  window: WindowPlacement,
  bars: { threshold: number; centre: number },
): { match: { box: BoundingBox; scale: number; score: number } | null; detail: string } {
  const { recorded: was, now: is } = window
  if (!(was.width > 0 && was.height > 0 && is.width > 0 && is.height > 0))
    return { match: null, detail: 'the window has no size' }
  const sx = is.width / was.width
  const sy = is.height / was.height
  const sizes = `${was.width}×${was.height} → ${is.width}×${is.height}`
  if (Math.abs(sx - sy) > WINDOW_UNEVEN * Math.max(sx, sy))
    return {
      match: null,
      detail: `the window was resized unevenly (${sizes}): its content was relaid out, not scaled`,
    }
  const scale = Math.round(((sx + sy) / 2) * 100) / 100
  const width = Math.max(1, Math.round(cropBox.width * scale))
  const height = Math.max(1, Math.round(cropBox.height * scale))
  const mapped = { x: is.x + (cropBox.x - was.x) * sx, y: is.y + (cropBox.y - was.y) * sy }
  const radius = Math.max(3, Math.round(0.2 * Math.min(width, height)))
  let best = { score: -2, box: { x: 0, y: 0, width, height } }
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      const box = { x: Math.round(mapped.x + dx), y: Math.round(mapped.y + dy), width, height }
      const score = scoreResampled(now, crop, box)
      if (score > best.score) best = { score, box }
    }
  }
  const { box, score } = best
  const where = `at (${box.x}, ${box.y}), where the window (${sizes}, scale ${scale.toFixed(2)}) puts it`
  if (score < bars.threshold)
    return { match: null, detail: `${where}: the element scores ${fmt(score)} < ${fmt(bars.threshold)}` }
  const check = elementStillThere(now, crop, box, -1, scale, bars.centre)
  if (!check.ok) return { match: null, detail: `${where}: ${check.detail}` }
  const centreOf = (f: Frame, b: BoundingBox) =>
    regionOf(f, {
      x: b.x + Math.round(b.width / 4),
      y: b.y + Math.round(b.height / 4),
      width: Math.max(1, Math.round(b.width / 2)),
      height: Math.max(1, Math.round(b.height / 2)),
    })
  const recordedCentre = lumaSpread(centreOf(crop, { x: 0, y: 0, width: crop.width, height: crop.height }))
  if (recordedCentre < FLAT_SPREAD) {
    // an empty cell or entry: one that shows something now (a digit given, a label) is not the one recorded
    const nowCentre = lumaSpread(centreOf(now, box))
    if (nowCentre >= 2 * FLAT_SPREAD)
      return {
        match: null,
        detail: `${where}: its centre was empty and now shows something (luma spread ${nowCentre.toFixed(1)})`,
      }
  }
  const stayed = sx === 1 && sy === 1 && is.x === was.x && is.y === was.y
  if (!stayed && recorded) {
    const context = contextAgreement(now, recorded, cropBox, box, scale)
    if (context < CONTEXT_AGREEMENT)
      return {
        match: null,
        detail: `${where}: its surroundings there agree only ${fmt(context)} < ${fmt(CONTEXT_AGREEMENT)}`,
      }
  }
  return { match: { box, scale, score }, detail: `${where}: the element scores ${fmt(score)}; ${check.detail}` }
}

/** Pixels of a window's edge left out with what lies outside it: its border and shadow are drawn by the theme. */
const WINDOW_EDGE = 4

/**
 * The part of a recorded crop that lies inside the program's recorded window (less its edge, `WINDOW_EDGE`), when
 * the crop reaches past it: a button in a window's corner (a header bar's ×) is cut with the desktop or another
 * program beside it, which are not the program's and change with the theme's border against the desktop (a dark
 * theme's window on a black desktop has no outline where a light one had a strong one). Null when the crop lies
 * inside the window, or when too little of it does (under half its area, or under 8 px a side). `offset`: where
 * the part starts in the crop. Pure.
 */
export function cropInsideWindow(
  crop: Frame,
  cropBox: BoundingBox,
  window: BoundingBox,
): { crop: Frame; cropBox: BoundingBox; offset: XY } | null {
  const x0 = Math.max(cropBox.x, window.x + WINDOW_EDGE)
  const y0 = Math.max(cropBox.y, window.y + WINDOW_EDGE)
  const x1 = Math.min(cropBox.x + cropBox.width, window.x + window.width - WINDOW_EDGE)
  const y1 = Math.min(cropBox.y + cropBox.height, window.y + window.height - WINDOW_EDGE)
  const width = x1 - x0
  const height = y1 - y0
  if (width === cropBox.width && height === cropBox.height) return null
  if (width < 8 || height < 8 || width * height < (cropBox.width * cropBox.height) / 2) return null
  if (crop.width !== cropBox.width || crop.height !== cropBox.height) return null
  const offset = { x: x0 - cropBox.x, y: y0 - cropBox.y }
  return {
    crop: regionOf(crop, { ...offset, width, height }),
    cropBox: { x: x0, y: y0, width, height },
    offset,
  }
}

/**
 * How much larger a label is drawn now (its width now over its recorded width), when it was read exactly and its
 * recorded box is known: the scale a step's expected region is mapped with (a larger font). Null otherwise. Pure.
 */
export function textScale(recorded: BoundingBox | null | undefined, found: OcrWord, similarity: number): number | null {
  if (similarity < 1 || !isBox(recorded) || !(recorded.width > 0) || !(found.boundingBox.width > 0)) return null
  const scale = found.boundingBox.width / recorded.width
  return scale >= 0.5 && scale <= 2.5 ? Math.round(scale * 100) / 100 : null
}

/**
 * The desktop healing cascade on the same engine as the web one: direct (recorded pixels still there,
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
  /** Whether a found box is where the crop was recorded (its centre within a quarter of the crop's short side). */
  const atRecordedPlace = (box: BoundingBox): boolean => {
    if (!cropBox) return false
    const a = centerOf(box)
    const b = centerOf(cropBox)
    return Math.hypot(a.x - b.x, a.y - b.y) <= Math.max(3, Math.min(cropBox.width, cropBox.height) / 4)
  }
  /** The click point inside a found box, keeping the recorded offset within the crop. */
  const pointIn = (box: BoundingBox, scale: number): XY =>
    cropBox
      ? { x: box.x + (step.original.x - cropBox.x) * scale, y: box.y + (step.original.y - cropBox.y) * scale }
      : centerOf(box)

  /** The recorded crop found at `box` and `scale`: the element there, clicked at the recorded offset. */
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

  /** The element's own recorded label, when it can be clicked on alone. */
  const ownLabel = text && labelConfidence >= minLabelConfidence ? text : null
  const anchorFrame = step.recordedFrame && cropBox && isInside(cropBox, step.recordedFrame) ? step.recordedFrame : null
  const canAnchor = anchorFrame !== null && crop !== null
  /** The structure (edges) of each frame once: shared by the template strategy's second look and the label anchor's check. */
  const structures = new WeakMap<Frame, Frame>()
  const structureOf = (f: Frame): Frame => {
    let out = structures.get(f)
    if (!out) {
      out = structureFrame(f)
      structures.set(f, out)
    }
    return out
  }

  /**
   * A text-less element (an empty entry, an icon) by the label beside or above it on the recorded screen (see
   * `labelAnchorOf`): found again by OCR now, the element is at the recorded offset from it, scaled as the
   * label's text was. The element itself must still be there: its structure (edges, whatever the colours) at that
   * place agrees with the crop's (`ANCHORED_STRUCTURE_AGREEMENT`).
   */
  const locateByAnchor = async (): Promise<StepOutcome<UiElement>> => {
    const ocr = source.ocr as NonNullable<ScreenSource['ocr']>
    const recordedWords = await ocr(anchorFrame as Frame)
    // an element with text of its own, read too poorly to trust, is not named by its neighbour: in its place
    // another button beside the same neighbour would pass for it
    const own = recordedWords.find((w) => isBox(w.boundingBox) && contains(w.boundingBox, step.original, 2))
    if (own)
      return {
        outcome: 'none',
        candidates: 0,
        detail: `its own text on the recorded screen ("${own.text.slice(0, 40)}") is not a label to click on alone`,
      }
    const anchor = labelAnchorOf(recordedWords, step.original, cropBox as BoundingBox)
    if (!anchor)
      return { outcome: 'none', candidates: 0, detail: 'no target text recorded, and no label beside or above it' }
    const wordsNow = await ocr(await screen())
    const placed = placeByAnchor(anchor, step.original, wordsNow, ocrThresholdOption)
    if (placed.point === null)
      return { outcome: 'none', candidates: 0, detail: `no target text recorded; ${placed.reason}` }
    const { point, scale } = placed
    // the same text in another font is not wider by the font's ratio alone: the crop is compared at the width
    // ratio, the height ratio and 1, a few pixels up or down (the label and the element share a row, not a baseline)
    const heightRatio = placed.word.boundingBox.height / anchor.box.height
    const nowStructure = structureOf(await screen())
    const cropStructure = structureOf(crop as Frame)
    let best = { agreement: -1, box: { x: 0, y: 0, width: 0, height: 0 }, dy: 0 }
    for (const s of new Set([scale, heightRatio, 1].map((v) => Math.round(v * 100) / 100))) {
      for (let dy = -4; dy <= 4; dy++) {
        const box = {
          x: Math.round(point.x - (step.original.x - (cropBox as BoundingBox).x) * s),
          y: Math.round(point.y + dy - (step.original.y - (cropBox as BoundingBox).y) * s),
          width: Math.round((crop as Frame).width * s),
          height: Math.round((crop as Frame).height * s),
        }
        const agreement = scoreResampled(nowStructure, cropStructure, box)
        if (agreement > best.agreement) best = { agreement, box, dy }
      }
    }
    const { agreement, box } = best
    // the element had no text of its own; one that shows text now is not it (an empty cell filled in)
    const shown = wordsNow.find(
      (w) => isBox(w.boundingBox) && contains(w.boundingBox, { x: point.x, y: point.y + best.dy }, 2),
    )
    if (shown)
      return {
        outcome: 'none',
        candidates: 1,
        detail: `beside its label "${anchor.text}", the place now shows text ("${shown.text.slice(0, 40)}"), which the recorded element had none of`,
      }
    const where = `beside its label "${anchor.text}" (${anchor.side}, scale ${scale.toFixed(2)})`
    if (agreement < ANCHORED_STRUCTURE_AGREEMENT)
      return {
        outcome: 'below_threshold',
        candidates: 1,
        confidence: Math.max(0, agreement),
        detail: `${where}: the element's structure there agrees only ${fmt(agreement)} < ${fmt(ANCHORED_STRUCTURE_AGREEMENT)}`,
      }
    return {
      outcome: 'matched',
      element: { type: step.target?.type ?? 'unknown', text: null, boundingBox: box, confidence: agreement },
      point: { x: point.x, y: point.y + best.dy },
      scale,
      confidence: agreement,
      candidates: 1,
      detail: `${where}; its structure there ${fmt(agreement)}`,
    }
  }

  /**
   * The template strategy on one rendering of the screens (luma, or their structure): the crop alone (clear of its
   * look-alikes, its label still there, its surroundings along when it moved), else the crop with its surroundings.
   */
  const templateOn = (
    now: Frame,
    crop: Frame,
    recorded: Frame | null,
    bars: { threshold: number; centre: number },
  ): StepOutcome<UiElement> => {
    const found = matchTemplate(now, crop, { ...opts.template, threshold: -1 })
    const where = (b: BoundingBox) => `(${b.x}, ${b.y})`
    /** Why the crop alone does not settle the place (then its surroundings are tried). */
    let unsettled: string
    let outcome: 'none' | 'below_threshold' | 'ambiguous' = 'ambiguous'
    let level: number | null = null
    const elementLevel = (): number => {
      level ??= recorded ? lookAlikeLevel(recorded, crop, cropBox as BoundingBox) : -1
      return level
    }
    if (!found) {
      unsettled = 'no place matches'
      outcome = 'none'
    } else if (found.score < bars.threshold) {
      unsettled = `best NCC ${fmt(found.score)} < ${fmt(bars.threshold)}`
      outcome = 'below_threshold'
    } else {
      let hit: { box: BoundingBox; score: number; scale: number } | null = found
      let settled = ''
      unsettled = ''
      if (isAmbiguousMatch(found, templateAmbiguityMargin) && found.runnerUp) {
        const second = found.runnerUp
        hit = settleByPrior([found, second], cropBox)
        if (hit)
          settled = `; ${where(found.box)} and ${where(second.box)} score alike, the one at the recorded place was taken`
        else
          unsettled = `two places score alike: ${where(found.box)} ${fmt(found.score)} and ${where(second.box)} ${fmt(second.score)}; the recorded position settles neither`
      }
      if (hit) {
        // the outline of a same-style button at the same place scores 0.8 whatever its label says
        const check = elementStillThere(now, crop, hit.box, bars.threshold, hit.scale, bars.centre)
        if (!check.ok) {
          unsettled = `best NCC ${fmt(hit.score)} at ${where(hit.box)}, but ${check.detail}`
          hit = null
        }
      }
      if (hit && recorded) {
        const lookAlike = elementLevel()
        if (hit.score < lookAlike + lookAlikeMargin) {
          unsettled = `best NCC ${fmt(hit.score)} at ${where(hit.box)} is not clear of the crop's look-alikes on the recorded screen (${fmt(lookAlike)} + ${fmt(lookAlikeMargin)})`
          hit = null
        }
      }
      if (hit && recorded && !atRecordedPlace(hit.box)) {
        // away from its recorded place, the element took its neighbourhood with it (a moved or rescaled
        // window) or it is another element that looks the same (a board's cell whose neighbours read the
        // same digits): the recorded surroundings must agree there too
        const context = contextAgreement(now, recorded, cropBox as BoundingBox, hit.box, hit.scale)
        // and the recorded place must not have kept its surroundings better: there the screen is as it was,
        // so what changed is the element itself (a cell filled in), and a look-alike elsewhere is not it
        const stayed = contextAgreement(now, recorded, cropBox as BoundingBox, cropBox as BoundingBox, 1)
        if (context < CONTEXT_AGREEMENT) {
          unsettled = `best NCC ${fmt(hit.score)} at ${where(hit.box)}, away from its recorded place, but its surroundings there agree only ${fmt(context)} < ${fmt(CONTEXT_AGREEMENT)}`
          hit = null
        } else if (stayed >= context - CONTEXT_MARGIN) {
          unsettled = `best NCC ${fmt(hit.score)} at ${where(hit.box)}, away from its recorded place, whose surroundings are still there (${fmt(stayed)}, there ${fmt(context)}): the element at the recorded place changed, a look-alike elsewhere is not it`
          hit = null
        }
      }
      if (hit) return cropFoundAt(hit, `scale ${hit.scale.toFixed(2)}${settled}`)
    }
    // the crop alone does not settle it: the neighbours' layout may (the recorded screen around the crop)
    if (recorded) {
      const ctx = matchWithSurroundings(now, recorded, cropBox as BoundingBox, {
        template: opts.template,
        threshold: bars.threshold,
        centreAgreement: bars.centre,
        ambiguityMargin: templateAmbiguityMargin,
        lookAlikeMargin,
      })
      if (ctx.match) {
        const { box, scale, score, context } = ctx.match
        return {
          outcome: 'matched',
          element: {
            type: step.target?.type ?? 'unknown',
            text: step.target?.text ?? null,
            boundingBox: {
              x: Math.round(box.x + ((cropBox as BoundingBox).x - context.x) * scale),
              y: Math.round(box.y + ((cropBox as BoundingBox).y - context.y) * scale),
              width: Math.round((cropBox as BoundingBox).width * scale),
              height: Math.round((cropBox as BoundingBox).height * scale),
            },
            confidence: score,
          },
          point: {
            x: box.x + (step.original.x - context.x) * scale,
            y: box.y + (step.original.y - context.y) * scale,
          },
          scale,
          confidence: score,
          candidates: 1,
          detail: `${unsettled}; with its surroundings (${context.width}×${context.height} of the recorded screen): NCC ${fmt(score)} at scale ${scale.toFixed(2)}`,
        }
      }
      unsettled = `${unsettled}; with its surroundings: ${ctx.detail}`
    }
    return {
      outcome,
      candidates: found ? (outcome === 'ambiguous' && found.runnerUp ? 2 : 1) : 0,
      confidence: Math.max(0, found?.score ?? 0),
      detail: unsettled,
      ...(found ? { near: pointIn(found.box, found.scale) } : {}),
    }
  }
  /**
   * The last look, when the program's window was recorded and is on the screen now: where the window puts the
   * crop (the recorded position, moved and scaled with the window), after the crop, its surroundings and its label
   * found no clear place.
   */
  const atWindowPlace: CascadeStep<UiElement> | null =
    crop && step.window
      ? {
          method: 'template',
          run: async () => {
            const now = await screen()
            const window = step.window as WindowPlacement
            const recorded =
              step.recordedFrame && cropBox && isInside(cropBox, step.recordedFrame) ? step.recordedFrame : null
            const lookWith = (part: Frame, partBox: BoundingBox, clipped: string) => {
              const onPixels = matchAtWindowPlace(now, part, partBox, recorded, window, WINDOW_BARS.pixels)
              const onEdges = onPixels.match
                ? null
                : matchAtWindowPlace(
                    structureOf(now),
                    structureOf(part),
                    partBox,
                    recorded ? structureOf(recorded) : null,
                    window,
                    WINDOW_BARS.edges,
                  )
              return {
                hit: onPixels.match ?? onEdges?.match ?? null,
                detail: onPixels.match
                  ? `at the window's place${clipped}: ${onPixels.detail}`
                  : `at the window's place${clipped}: ${onPixels.detail}; on edges (colours ignored): ${onEdges?.detail ?? ''}`,
              }
            }
            const whole = lookWith(crop as Frame, cropBox as BoundingBox, '')
            if (whole.hit) return cropFoundAt(whole.hit, whole.detail)
            // then only what the window holds: the desktop beside a corner button is not the program's
            const inside = cropInsideWindow(crop as Frame, cropBox as BoundingBox, window.recorded)
            if (!inside) return { outcome: 'none', candidates: 0, detail: whole.detail }
            const part = lookWith(
              inside.crop,
              inside.cropBox,
              ` (the crop's ${inside.cropBox.width}×${inside.cropBox.height} inside the window)`,
            )
            const detail = `${whole.detail}; ${part.detail}`
            if (!part.hit) return { outcome: 'none', candidates: 0, detail }
            // the whole crop's box, from its part's
            const { hit } = part
            const found = {
              ...hit,
              box: {
                x: Math.round(hit.box.x - inside.offset.x * hit.scale),
                y: Math.round(hit.box.y - inside.offset.y * hit.scale),
                width: Math.round((cropBox as BoundingBox).width * hit.scale),
                height: Math.round((cropBox as BoundingBox).height * hit.scale),
              },
            }
            return cropFoundAt(found, part.detail)
          },
        }
      : null
  const steps: CascadeStep<UiElement>[] = [
    {
      method: 'direct',
      skip: crop && cropBox ? null : 'no recorded crop',
      run: async () => {
        const box = cropBox as BoundingBox
        // the animation inside the crop, in crop pixels: not evidence either way
        const animated = (step.animated ?? []).map((a) => ({
          x: a.x - box.x,
          y: a.y - box.y,
          width: a.width,
          height: a.height,
        }))
        const score = templateScoreAt(await screen(), crop as Frame, box.x, box.y, animated)
        if (score < directThreshold)
          return {
            outcome: 'below_threshold',
            candidates: 1,
            confidence: Math.max(0, score),
            detail: `NCC at the recorded place ${fmt(score)} < ${fmt(directThreshold)}`,
            near: { x: step.original.x, y: step.original.y },
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
        const now = await screen()
        const recorded =
          step.recordedFrame && cropBox && isInside(cropBox, step.recordedFrame) ? step.recordedFrame : null
        const onPixels = templateOn(now, crop as Frame, recorded, {
          threshold: templateThreshold,
          centre: CENTRE_AGREEMENT,
        })
        if (onPixels.outcome === 'matched') return onPixels
        // a theme or palette change repaints every pixel and keeps the edges: the same search on the screens'
        // structure, with every check as before (the label's strokes, the look-alikes, the surroundings)
        const onEdges = templateOn(
          structureOf(now),
          structureOf(crop as Frame),
          recorded ? structureOf(recorded) : null,
          EDGE_BARS,
        )
        if (onEdges.outcome === 'matched')
          return { ...onEdges, detail: `on edges (colours ignored): ${onEdges.detail ?? ''}` }
        return { ...onPixels, detail: `${onPixels.detail ?? ''}; on edges (colours ignored): ${onEdges.detail ?? ''}` }
      },
    },
    {
      method: 'ocr',
      skip: !source.ocr
        ? 'the source has no OCR'
        : ownLabel === null && !canAnchor
          ? !text
            ? 'no target text recorded'
            : `the recorded label "${text.slice(0, 40)}" is low-confidence (${fmt(labelConfidence)} < ${fmt(minLabelConfidence)}): never used alone to click`
          : null,
      run: async () => {
        if (ownLabel === null) return locateByAnchor()
        // one character more or less in a short label is another label ("Ctrl+A" / "Ctrl+C", "7" / "1")
        const short = Array.from(comparisonKey(text)).length < SHORT_LABEL
        const ocrThreshold = short ? 1 : ocrThresholdOption
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
        const scale = textScale(step.target?.boundingBox, best.w, best.s)
        return {
          outcome: 'matched',
          element: {
            type: step.target?.type ?? 'text',
            text: best.w.text,
            boundingBox: best.w.boundingBox,
            confidence: best.w.confidence ?? null,
          },
          point: centerOf(best.w.boundingBox),
          ...(scale !== null ? { scale } : {}),
          confidence: best.s * (best.w.confidence ?? 1),
          candidates: ranked.length,
          ...(scale !== null && Math.abs(scale - 1) >= 0.03
            ? { detail: `the label is drawn ${scale.toFixed(2)}× as wide as recorded` }
            : {}),
        }
      },
    },
    ...(atWindowPlace ? [atWindowPlace] : []),
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
