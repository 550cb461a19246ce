import type { BoundingBox } from '@qa/model'
import type { XY } from '../image/geometry'
import type { Frame } from '../image/match-template'
import { FLAT_SPREAD, lumaSpread, regionOf, scoreResampled } from '../image/resample'
import type { CascadeStep, StepOutcome } from '../internal/cascade'
import { fmt, isInside, type ScreenContext } from './context'
import type { UiElement } from './find-matching-element'
import { labelRows, windowTextChanged } from './language-place'
import {
  CONTEXT_AGREEMENT,
  contextAgreement,
  elementStillThere,
  refuseRelabelled as refuseOnlyLabelChanged,
} from './surroundings'
import type { WindowPlacement } from './types'

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
 * The last look, when the program's window was recorded and is on the screen now: where the window puts the
 * crop (the recorded position, moved and scaled with the window), after the crop, its surroundings and its label
 * found no clear place.
 */
export function windowPlaceStrategy(ctx: ScreenContext): CascadeStep<UiElement> | null {
  const { crop, cropBox, step, source, screen, structureOf, cropFoundAt, anchorFrame } = ctx
  return crop && step.window
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
          // a same-style button relabelled at the window's place is another item (`refuseRelabelled`), unless the
          // program's whole text changed with it (another language: "Reverse Reversi" → "Umgekehrtes Reversi")
          const rows = labelRows(cropBox as BoundingBox, step.target?.boundingBox)
          const refuseRelabelled = async (found: StepOutcome<UiElement>): Promise<StepOutcome<UiElement>> => {
            const checked = refuseOnlyLabelChanged(found, now, crop, rows)
            if (checked.outcome === 'matched' || found.outcome !== 'matched' || !source.ocr || !anchorFrame)
              return checked
            const box = found.element.boundingBox
            const text = await windowTextChanged(
              source.ocr,
              anchorFrame,
              now,
              window,
              cropBox as BoundingBox,
              step.target?.boundingBox,
              box,
            )
            return text.changed
              ? { ...found, detail: `${found.detail ?? ''}; only its label changed there, and ${text.detail}` }
              : { ...checked, detail: `${checked.detail ?? ''}; ${text.detail}` }
          }
          const whole = lookWith(crop as Frame, cropBox as BoundingBox, '')
          if (whole.hit) return refuseRelabelled(cropFoundAt(whole.hit, whole.detail))
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
          return refuseRelabelled(cropFoundAt(found, part.detail))
        },
      }
    : null
}
