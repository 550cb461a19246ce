import type { BoundingBox } from '@qa/model'
import { centerOf, iou } from '../image/geometry'
import { type Frame, isAmbiguousMatch, matchTemplate } from '../image/match-template'
import type { CascadeStep, StepOutcome } from '../internal/cascade'
import { fmt, isInside, type ScreenContext } from './context'
import type { UiElement } from './find-matching-element'
import {
  CENTRE_AGREEMENT,
  CONTEXT_AGREEMENT,
  contextAgreement,
  elementStillThere,
  matchWithSurroundings,
  refuseRelabelled,
} from './surroundings'
import { labelRows } from './language-place'

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

/** Multiply-adds `lookAlikeLevel` spends before it samples positions sparsely (4·10⁸). */
const LOOK_ALIKE_WORK_BUDGET = 4e8

/**
 * How well the crop's best look-alike scores on the recorded screen: the best NCC (scale 1) at another place
 * near the crop (within 2 crop sizes; another place = overlapping the crop's own box by at most a third);
 * -1 when there is none. The rolodex's empty entries score 1.00 against each other's crops; a match on the
 * replay screen that does no better than its look-alikes cannot tell the recorded element from them. Pure.
 *
 * Luma is a whole number, so every sum here but the crop's mean is exact whatever its order: a window's sum and sum
 * of squares come from integral images (O(1) a place), and its products with the crop are summed four crop pixels at a
 * time over a whole row of places; the covariance is then Σ v·t − mean·Σ v. (It was a third of a desktop replay's CPU, summed a pixel at a time.)
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
  for (let k = 0; k < n; k++) tnorm += ((t[k] as number) - mean) ** 2
  if (tnorm < 1e-6 * n) return -1
  // the region's luma once, and its integral images (of luma and of luma squared)
  const rw = x1 + w - x0
  const rh = y1 + h - y0
  if (rw <= 0 || rh <= 0) return -1
  const region = new Float64Array(rw * rh)
  for (let y = 0; y < rh; y++)
    for (let x = 0; x < rw; x++) region[y * rw + x] = lum(recorded, (y0 + y) * recorded.width + x0 + x)
  const iw = rw + 1
  const sumOf = new Float64Array(iw * (rh + 1))
  const sqOf = new Float64Array(iw * (rh + 1))
  for (let y = 0; y < rh; y++) {
    let rowSum = 0
    let rowSq = 0
    for (let x = 0; x < rw; x++) {
      const v = region[y * rw + x] as number
      rowSum += v
      rowSq += v * v
      sumOf[(y + 1) * iw + x + 1] = (sumOf[y * iw + x + 1] as number) + rowSum
      sqOf[(y + 1) * iw + x + 1] = (sqOf[y * iw + x + 1] as number) + rowSq
    }
  }
  const own = { x: cropBox.x, y: cropBox.y, width: w, height: h }
  // a large crop is sampled every few positions, keeping the work near LOOK_ALIKE_WORK_BUDGET multiply-adds
  const work = (x1 - x0 + 1) * (y1 - y0 + 1) * n
  const stride = Math.max(1, Math.ceil(Math.sqrt(work / LOOK_ALIKE_WORK_BUDGET)))
  const nx = Math.floor((x1 - x0) / stride) + 1
  // Σ v·t of every place of a row of places, a crop pixel at a time over the whole row (long inner loops)
  const acc = new Float64Array(Math.max(0, nx))
  let best = -1
  for (let y = y0; y <= y1; y += stride) {
    acc.fill(0)
    for (let j = 0; j < h; j++) {
      const rowBase = (y - y0 + j) * rw
      const tr = j * w
      let i = 0
      // four crop pixels a pass over the row: a quarter of the accumulator traffic
      for (; i + 3 < w; i += 4) {
        const t0 = t[tr + i] as number
        const t1 = t[tr + i + 1] as number
        const t2 = t[tr + i + 2] as number
        const t3 = t[tr + i + 3] as number
        const b = rowBase + i
        for (let k = 0, p = b; k < nx; k++, p += stride)
          acc[k] =
            (acc[k] as number) +
            t0 * (region[p] as number) +
            t1 * (region[p + 1] as number) +
            t2 * (region[p + 2] as number) +
            t3 * (region[p + 3] as number)
      }
      for (; i < w; i++) {
        const tv = t[tr + i] as number
        for (let k = 0, p = rowBase + i; k < nx; k++, p += stride)
          acc[k] = (acc[k] as number) + tv * (region[p] as number)
      }
    }
    for (let k = 0; k < nx; k++) {
      const x = x0 + k * stride
      if (iou(own, { x, y, width: w, height: h }) > 1 / 3) continue
      const a = (y - y0) * iw + (x - x0)
      const b = a + h * iw
      const s = (sumOf[b + w] as number) - (sumOf[b] as number) - (sumOf[a + w] as number) + (sumOf[a] as number)
      const sq = (sqOf[b + w] as number) - (sqOf[b] as number) - (sqOf[a + w] as number) + (sqOf[a] as number)
      const variance = sq - (s * s) / n
      if (!(variance > 1e-6 * n)) continue
      const cross = (acc[k] as number) - mean * s
      best = Math.max(best, cross / Math.sqrt(tnorm * variance))
    }
  }
  return Math.min(1, best)
}

/**
 * What a match on the screens' structure (edges) must reach (0.9, its centre 0.85): edges blur a label's strokes
 * into blobs, so a same-style button with another label ("Open" for "Archive") scores 0.93 there whole and
 * about 0.7 at its centre; the recorded element restyled keeps both well above.
 */
const EDGE_BARS = { threshold: 0.9, centre: 0.85 }
/** How much better a far match's surroundings must agree than those of the recorded place (0.05). */
const CONTEXT_MARGIN = 0.05

/**
 * The template strategy on one rendering of the screens (luma, or their structure): the crop alone (clear of its
 * look-alikes, its label still there, its surroundings along when it moved), else the crop with its surroundings.
 */
function templateOn(
  ctx: ScreenContext,
  now: Frame,
  crop: Frame,
  recorded: Frame | null,
  bars: { threshold: number; centre: number },
): StepOutcome<UiElement> {
  const { step, opts, cropBox, templateAmbiguityMargin, lookAlikeMargin, atRecordedPlace, pointIn, cropFoundAt } = ctx
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
 * The template strategy: the recorded crop searched on the current screen (multi-scale NCC), on its pixels and then
 * on the screens' structure (edges), each look checked against the crop's look-alikes and its surroundings.
 */
export function templateStrategy(ctx: ScreenContext): CascadeStep<UiElement> {
  const { crop, cropBox, step, templateThreshold, screen, structureOf } = ctx
  return {
    method: 'template',
    skip: crop ? null : 'no recorded crop',
    run: async () => {
      const now = await screen()
      const recorded =
        step.recordedFrame && cropBox && isInside(cropBox, step.recordedFrame) ? step.recordedFrame : null
      // a same-style button relabelled at the same place matches its outline and its label's blurred strokes
      const rows = labelRows(cropBox as BoundingBox, step.target?.boundingBox)
      const onPixels = refuseRelabelled(
        templateOn(ctx, now, crop as Frame, recorded, { threshold: templateThreshold, centre: CENTRE_AGREEMENT }),
        now,
        crop,
        rows,
      )
      if (onPixels.outcome === 'matched') return onPixels
      // a theme or palette change repaints every pixel and keeps the edges: the same search on the screens'
      // structure, with every check as before (the label's strokes, the look-alikes, the surroundings)
      const onEdges = refuseRelabelled(
        templateOn(
          ctx,
          structureOf(now),
          structureOf(crop as Frame),
          recorded ? structureOf(recorded) : null,
          EDGE_BARS,
        ),
        now,
        crop,
        rows,
      )
      if (onEdges.outcome === 'matched')
        return { ...onEdges, detail: `on edges (colours ignored): ${onEdges.detail ?? ''}` }
      return { ...onPixels, detail: `${onPixels.detail ?? ''}; on edges (colours ignored): ${onEdges.detail ?? ''}` }
    },
  }
}
