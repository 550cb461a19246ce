import type { BoundingBox } from '@qa/model'
import { centerOf } from '../image/geometry'
import { type Frame, isAmbiguousMatch, type MatchTemplateOptions, matchTemplate } from '../image/match-template'
import { FLAT_SPREAD, lumaSpread, regionOf, scoreResampled } from '../image/resample'
import type { StepOutcome } from '../internal/cascade'
import { fmt } from './context'
import type { UiElement } from './find-matching-element'

/** Sizes of the surroundings tried, in crop sizes (3×, then 5×), centred on the crop. */
const SURROUNDINGS = [3, 5]
/**
 * A match of the surroundings must score this much (0.95): the recorded layout, still there (moved or scaled as
 * a whole). A restyled or re-laid-out window scores 0.8–0.93 somewhere plausible and wrong.
 */
const SURROUNDINGS_THRESHOLD = 0.95
/** What resampling a crop to another scale costs its NCC on UI pixels (0.1). */
export const RESAMPLING_LOSS = 0.1
/**
 * The crop's centre (half its width and height, where the click and so the element's label or glyph is) must
 * agree this much (0.7) at a place the surroundings found: a dialog whose "Archive" button became "Open"
 * keeps the surroundings and the button's outline (whole-crop NCC 0.81) but not the label (0.38).
 */
export const CENTRE_AGREEMENT = 0.7

/**
 * A template match away from the recorded place must bring its surroundings along (0.6): the recorded screen
 * around the crop (3× its size) against the same area around the match, at the match's scale. A moved or rescaled
 * window scores 0.9 or more; a look-alike elsewhere (an empty sudoku cell beside other digits) far less.
 */
export const CONTEXT_AGREEMENT = 0.6

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

/** Mean luma difference (0–255) below which the crop's rows outside its label are the recorded pixels. */
const SHAPE_UNCHANGED = 2
/** Mean luma difference in the label's rows above which the label's pixels changed. */
const LABEL_CHANGED = 6
/** Pixel NCC of the label's rows below which the glyphs are others (a glyph recolour under the pointer keeps ~0.9). */
const SAME_GLYPHS = 0.75

const lumaAt = (f: Frame, x: number, y: number): number => {
  const i = (y * f.width + x) * f.channels
  return f.channels === 1
    ? (f.data[i] as number)
    : 0.299 * (f.data[i] as number) + 0.587 * (f.data[i + 1] as number) + 0.114 * (f.data[i + 2] as number)
}

/**
 * Whether only the label changed where a crop matched at scale 1: the crop's rows outside its label's rows
 * (`rows`: the button's outline, fill and surroundings) are the recorded pixels (mean luma difference <
 * `SHAPE_UNCHANGED`) while its label — the label's rows in the crop's middle half across, where the click is — is
 * not (> `LABEL_CHANGED`) and its pixels do not correlate (NCC < `SAME_GLYPHS`): a same-style button relabelled at the same place ("Medium" → "Custom", "Easy" → "Hard"),
 * whose blurred edges agree as well as the recorded label's. A theme repaints the rows outside the label too, and
 * a highlight under the pointer recolours the fill or keeps the glyphs' places. Pure.
 */
export function onlyLabelChanged(
  now: Frame,
  crop: Frame,
  at: { x: number; y: number },
  rows: { top: number; bottom: number },
): { changed: boolean; detail: string } {
  if (at.x < 0 || at.y < 0 || at.x + crop.width > now.width || at.y + crop.height > now.height)
    return { changed: false, detail: 'off the screen' }
  let outDiff = 0
  let outN = 0
  let inDiff = 0
  let n = 0
  let sa = 0
  let sb = 0
  let saa = 0
  let sbb = 0
  let sab = 0
  const [left, right] = [Math.round(crop.width / 4), Math.round((3 * crop.width) / 4)]
  for (let j = 0; j < crop.height; j++) {
    const inLabel = j >= rows.top && j < rows.bottom
    for (let i = 0; i < crop.width; i++) {
      const a = lumaAt(crop, i, j)
      const b = lumaAt(now, at.x + i, at.y + j)
      if (!inLabel) {
        outDiff += Math.abs(a - b)
        outN++
        continue
      }
      if (i < left || i >= right) continue
      inDiff += Math.abs(a - b)
      n++
      sa += a
      sb += b
      saa += a * a
      sbb += b * b
      sab += a * b
    }
  }
  if (outN === 0 || n === 0) return { changed: false, detail: 'no rows outside the label' }
  const shape = outDiff / outN
  const label = inDiff / n
  const va = saa / n - (sa / n) ** 2
  const vb = sbb / n - (sb / n) ** 2
  const ncc = va > 1e-9 && vb > 1e-9 ? (sab / n - (sa / n) * (sb / n)) / Math.sqrt(va * vb) : 0
  const detail = `outside its label the pixels differ by ${shape.toFixed(1)}, in its label's rows by ${label.toFixed(1)} (NCC ${fmt(ncc)})`
  return { changed: shape < SHAPE_UNCHANGED && label > LABEL_CHANGED && ncc < SAME_GLYPHS, detail }
}

/**
 * A matched outcome of a pixel strategy (template, window place) refused when, at scale 1, only the label changed
 * where it matched (`onlyLabelChanged`): a relabelled button at the same place is another item, however well its
 * outline and its label's blurred edges agree. Other outcomes pass through.
 */
export function refuseRelabelled(
  outcome: StepOutcome<UiElement>,
  now: Frame,
  crop: Frame | null,
  rows: { top: number; bottom: number },
): StepOutcome<UiElement> {
  if (outcome.outcome !== 'matched' || !crop || !outcome.element) return outcome
  if (Math.abs((outcome.scale ?? 1) - 1) >= 0.03) return outcome
  const box = outcome.element.boundingBox
  const check = onlyLabelChanged(now, crop, { x: Math.round(box.x), y: Math.round(box.y) }, rows)
  if (!check.changed) return outcome
  return {
    outcome: 'none',
    candidates: 1,
    detail: `${outcome.detail ?? ''}; but only its label changed there (${check.detail}): another item at its place, not clicked`,
  }
}
