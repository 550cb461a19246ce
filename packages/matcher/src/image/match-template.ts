import type { BoundingBox } from '@qa/model'
import { assertRange, MatcherError } from '../errors'
import { assertFrame, type Frame } from './frame'
import { boxDownsample, greyAndIntegral, halfGrey, integralOnly, integrals, lumaAt, resize, zeroMean } from './grey'

export type { Frame } from './frame'

export interface TemplateMatch {
  /** Where the template was found, in frame pixels. */
  box: { x: number; y: number; width: number; height: number }
  /** Normalised cross-correlation at full resolution, in [-1, 1] (1 = identical up to brightness/contrast). */
  score: number
  /** Size of the found element relative to the template. */
  scale: number
  /**
   * The best match at another place (overlapping this one by less than a third), scored the same way at full
   * resolution; null when no other place came near. A runner-up within a small margin of `score` means the
   * template is ambiguous on this screen (two identical keys): see `isAmbiguousMatch`.
   */
  runnerUp?: { box: { x: number; y: number; width: number; height: number }; score: number; scale: number } | null
}

export interface MatchTemplateOptions {
  /** Smallest scale tried (default 0.5). */
  minScale?: number
  /** Largest scale tried (default 2). */
  maxScale?: number
  /** Ratio between neighbouring coarse scales (default 1.2, a lattice through 1); refinement narrows it to about 1%. */
  scaleStep?: number
  /** Matches scoring below this are no match: `null` (default 0.8). Pass 0 to always get the best. */
  threshold?: number
  /**
   * Exhaustive level: every scale is searched at every position of the pyramid level where the scaled
   * template's smaller side is about this many pixels (default 6; larger is slower and more exact).
   */
  coarseMinSize?: number
  /** Most peaks (after non-maximum suppression) refined to full resolution (default 64). */
  candidates?: number
  /** Every coarse peak within this of the best coarse peak is refined (default 0.25): none is dropped for rank. */
  candidateMargin?: number
}

const EPS = 1e-6

interface Level {
  f: number
  data: Float32Array
  width: number
  height: number
  sum: Float64Array
  sq: Float64Array
}

/** Scratch buffers reused across calls (the NCC map and the row accumulator): less garbage per search. */
const scratch = (() => {
  let map = new Float32Array(0)
  let acc = new Float64Array(0)
  return {
    map(n: number): Float32Array {
      if (map.length < n) map = new Float32Array(Math.max(n, map.length * 2))
      return map
    },
    acc(n: number): Float64Array {
      if (acc.length < n) acc = new Float64Array(Math.max(n, acc.length * 2))
      return acc
    },
  }
})()

interface Peak {
  x: number
  y: number
  score: number
}

/**
 * Dense NCC of a zero-mean template over every position of an image. The numerator is accumulated a
 * template cell at a time over a whole row of positions (long inner loops); window sums and sums of
 * squares come from integral images, so the denominator costs O(1) per position. Every position's sum is added
 * in the same order (template row by row, cell by cell), so the scores do not depend on how many cells a pass takes.
 */
function denseNcc(
  img: Float32Array,
  iw: number,
  ih: number,
  sum: Float64Array,
  sq: Float64Array,
  t: Float32Array,
  tw: number,
  th: number,
  tnorm: number,
  keep: number,
  minScore: number,
): Peak[] {
  const nx = iw - tw + 1
  const ny = ih - th + 1
  if (nx <= 0 || ny <= 0) return []
  const n = tw * th
  const stride = iw + 1
  const map = scratch.map(nx * ny)
  const acc = scratch.acc(nx)
  for (let y = 0; y < ny; y++) {
    acc.fill(0, 0, nx)
    for (let r = 0; r < th; r++) {
      const rowBase = (y + r) * iw
      const tBase = r * tw
      let c = 0
      // eight template cells per pass over the row (two groups of four, added in the same order as four a pass):
      // an eighth of the accumulator traffic, and each pixel of the row read once a pass, slid along in registers
      for (; c + 7 < tw; c += 8) {
        const k = tBase + c
        const t0 = t[k] as number
        const t1 = t[k + 1] as number
        const t2 = t[k + 2] as number
        const t3 = t[k + 3] as number
        const t4 = t[k + 4] as number
        const t5 = t[k + 5] as number
        const t6 = t[k + 6] as number
        const t7 = t[k + 7] as number
        const b = rowBase + c
        let v0 = img[b] as number
        let v1 = img[b + 1] as number
        let v2 = img[b + 2] as number
        let v3 = img[b + 3] as number
        let v4 = img[b + 4] as number
        let v5 = img[b + 5] as number
        let v6 = img[b + 6] as number
        for (let x = 0; x < nx; x++) {
          const v7 = img[b + x + 7] as number
          const four = (acc[x] as number) + t0 * v0 + t1 * v1 + t2 * v2 + t3 * v3
          acc[x] = four + t4 * v4 + t5 * v5 + t6 * v6 + t7 * v7
          v0 = v1
          v1 = v2
          v2 = v3
          v3 = v4
          v4 = v5
          v5 = v6
          v6 = v7
        }
      }
      for (; c + 3 < tw; c += 4) {
        const t0 = t[tBase + c] as number
        const t1 = t[tBase + c + 1] as number
        const t2 = t[tBase + c + 2] as number
        const t3 = t[tBase + c + 3] as number
        const b = rowBase + c
        let v0 = img[b] as number
        let v1 = img[b + 1] as number
        let v2 = img[b + 2] as number
        for (let x = 0; x < nx; x++) {
          const v3 = img[b + x + 3] as number
          acc[x] = (acc[x] as number) + t0 * v0 + t1 * v1 + t2 * v2 + t3 * v3
          v0 = v1
          v1 = v2
          v2 = v3
        }
      }
      for (; c < tw; c++) {
        const tv = t[tBase + c] as number
        const b = rowBase + c
        for (let x = 0; x < nx; x++) acc[x] = (acc[x] as number) + tv * (img[b + x] as number)
      }
    }
    const r0 = y * stride
    const r1 = (y + th) * stride
    for (let x = 0; x < nx; x++) {
      const s =
        (sum[r1 + x + tw] as number) - (sum[r1 + x] as number) - (sum[r0 + x + tw] as number) + (sum[r0 + x] as number)
      const q =
        (sq[r1 + x + tw] as number) - (sq[r1 + x] as number) - (sq[r0 + x + tw] as number) + (sq[r0 + x] as number)
      const variance = q - (s * s) / n
      map[y * nx + x] = variance > EPS * n ? (acc[x] as number) / (tnorm * Math.sqrt(variance)) : 0
    }
  }
  // local maxima (3×3), best `keep`
  const peaks: Peak[] = []
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      const v = map[y * nx + x] as number
      if (v < minScore || (peaks.length === keep && v <= (peaks[keep - 1] as Peak).score)) continue
      let isMax = true
      for (let dy = -1; dy <= 1 && isMax; dy++) {
        const yy = y + dy
        if (yy < 0 || yy >= ny) continue
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx
          if ((dx === 0 && dy === 0) || xx < 0 || xx >= nx) continue
          const u = map[yy * nx + xx] as number
          if (u > v || (u === v && (dy < 0 || (dy === 0 && dx < 0)))) {
            isMax = false
            break
          }
        }
      }
      if (!isMax) continue
      let i = peaks.length
      if (peaks.length === keep) peaks.pop()
      i = peaks.length
      while (i > 0 && (peaks[i - 1] as Peak).score < v) i--
      peaks.splice(i, 0, { x, y, score: v })
    }
  }
  return peaks
}

interface TemplateSource {
  grey: Float32Array
  width: number
  height: number
  integral: Float64Array
  /** Zero-mean resized copies by size (w · 65536 + h), made once per call. */
  cache: Map<number, { data: Float32Array; norm: number }>
}

function scaledTemplate(
  tpl: TemplateSource,
  outW: number,
  outH: number,
  smooth = false,
): { data: Float32Array; norm: number } {
  const k = (outW * 65536 + outH) * 2 + (smooth ? 1 : 0)
  const hit = tpl.cache.get(k)
  if (hit) return hit
  const resized =
    outW === tpl.width && outH === tpl.height
      ? tpl.grey
      : resize({ width: tpl.width, height: tpl.height, data: tpl.grey }, tpl.integral, outW, outH)
  const out = zeroMean(smooth ? blur121(blur121(resized, outW, outH), outW, outH) : resized)
  tpl.cache.set(k, out)
  return out
}

/**
 * A separable [1 2 1]/4 blur (edges clamped). The exhaustive search runs on levels and templates smoothed twice
 * ([1 4 6 4 1]/16): a place that falls between a level's pixels then loses little of its score to the phase.
 */
function blur121(src: Float32Array, w: number, h: number): Float32Array {
  const tmp = new Float32Array(w * h)
  const out = new Float32Array(w * h)
  for (let y = 0; y < h; y++) {
    const r = y * w
    for (let x = 0; x < w; x++) {
      const l = src[r + (x > 0 ? x - 1 : x)] as number
      const c = src[r + x] as number
      const rr = src[r + (x < w - 1 ? x + 1 : x)] as number
      tmp[r + x] = (l + 2 * c + rr) / 4
    }
  }
  for (let y = 0; y < h; y++) {
    const up = (y > 0 ? y - 1 : y) * w
    const mid = y * w
    const dn = (y < h - 1 ? y + 1 : y) * w
    for (let x = 0; x < w; x++)
      out[mid + x] = ((tmp[up + x] as number) + 2 * (tmp[mid + x] as number) + (tmp[dn + x] as number)) / 4
  }
  return out
}

interface Image {
  width: number
  height: number
  level: (f: number) => Level
  patch: (g: number, x0: number, y0: number, w: number, h: number) => Patch | null
}

interface Patch {
  data: Float32Array
  x: number
  y: number
  width: number
  height: number
  sum: Float64Array
  sq: Float64Array
}

/**
 * The frame as a lazy pyramid. Level 2 (2×2 means) is built in one pass over the pixels; every even level
 * f is box-downsampled from level 2's integral image; level 1 is read from the raw pixels, a patch at a time.
 */
function pyramid(frame: Frame): Image {
  const half = halfGrey(frame.data, frame.width, frame.height, frame.channels)
  const halfIntegral = integralOnly(half.data, half.width, half.height)
  const levels = new Map<number, Level>()
  const levelOf = (f: number): Level => {
    let level = levels.get(f)
    if (!level) {
      let d: { data: Float32Array; width: number; height: number }
      if (f === 1) {
        const data = new Float32Array(frame.width * frame.height)
        for (let i = 0; i < data.length; i++) data[i] = lumaAt(frame.data, frame.channels, i)
        d = { data, width: frame.width, height: frame.height }
      } else if (f === 2) d = half
      else d = boxDownsample(halfIntegral, half.width, half.height, f / 2)
      if (f > 1) d = { ...d, data: blur121(blur121(d.data, d.width, d.height), d.width, d.height) }
      level = { f, ...d, ...integrals(d.data, d.width, d.height) }
      levels.set(f, level)
    }
    return level
  }
  const patch = (g: number, x0: number, y0: number, w: number, h: number): Patch | null => {
    const lw = Math.floor(frame.width / g)
    const lh = Math.floor(frame.height / g)
    const px = Math.max(0, x0)
    const py = Math.max(0, y0)
    const pw = Math.min(lw, x0 + w) - px
    const ph = Math.min(lh, y0 + h) - py
    if (pw <= 0 || ph <= 0) return null
    let data: Float32Array
    if (g === 1) {
      data = new Float32Array(pw * ph)
      for (let j = 0; j < ph; j++) {
        const src = (py + j) * frame.width + px
        for (let i = 0; i < pw; i++) data[j * pw + i] = lumaAt(frame.data, frame.channels, src + i)
      }
    } else if (g === 2) {
      data = new Float32Array(pw * ph)
      for (let j = 0; j < ph; j++)
        data.set(half.data.subarray((py + j) * half.width + px, (py + j) * half.width + px + pw), j * pw)
    } else {
      data = boxDownsample(halfIntegral, half.width, half.height, g / 2, {
        x: px,
        y: py,
        width: pw,
        height: ph,
      }).data
    }
    return { data, x: px, y: py, width: pw, height: ph, ...integrals(data, pw, ph) }
  }
  return { width: frame.width, height: frame.height, level: levelOf, patch }
}

/** Pyramid factors used: 1, 2 and even numbers, so every level comes from level 2 by whole blocks. */
const levelFactor = (f: number): number => (f < 2 ? 1 : 2 * Math.floor(f / 2))
/**
 * The next finer level during refinement: straight to level 2, then 1. (Intermediate levels of a box pyramid
 * are phase-sensitive: a candidate refined there can drift to a wrong scale and be dropped.)
 */
const finer = (g: number): number => (g >= 4 ? 2 : 1)

interface Candidate {
  x: number
  y: number
  w: number
  h: number
  scale: number
  score: number
  /** Level the candidate was last scored at. */
  g: number
}

/**
 * Finds a template (a recorded element crop) in a frame, at scales minScale–maxScale (default 0.5×–2×),
 * by normalised cross-correlation. Every scale is searched exhaustively — every position of the frame — on the
 * box-downsampled pyramid level (at most 6) where the scaled template is ~6 px on its short side, level and
 * template smoothed so that a place between the level's pixels keeps its score (all levels from one
 * half-resolution grey image, built once per call; window sums and squares from integral images, so the
 * denominator is O(1) per position). Every peak within `candidateMargin` (0.25) of the best is
 * then refined at level 2 (a window covering the coarse pixel) and at full resolution (±2 px), the scale
 * narrowed from ±1 coarse step to ~1%, dropping only candidates 0.2 below the stage's leader, and scored there: on a
 * keypad of look-alike keys the true key (NCC 1 on the frame the crop came from) wins even when it ranked low
 * at the coarse level. The best match at another place comes back as `runnerUp` (see `isAmbiguousMatch`).
 * Returns null when the best full-resolution score is below `threshold` (default 0.8).
 *
 * Works on UI-like content (structure visible at the coarse level); a template of pure single-pixel noise
 * may be missed because box-downsampling erases it.
 */
export function matchTemplate(frame: Frame, template: Frame, opts: MatchTemplateOptions = {}): TemplateMatch | null {
  assertFrame(frame, 'frame')
  assertFrame(template, 'template')
  const minScale = opts.minScale ?? 0.5
  const maxScale = opts.maxScale ?? 2
  const scaleStep = opts.scaleStep ?? 1.2
  const threshold = opts.threshold ?? 0.8
  const coarseMinSize = opts.coarseMinSize ?? 6
  const keep = opts.candidates ?? 64
  const candidateMargin = opts.candidateMargin ?? 0.25
  assertRange('minScale', minScale, 0.05, 20)
  assertRange('maxScale', maxScale, minScale, 20)
  assertRange('scaleStep', scaleStep, 1.01, 2)
  assertRange('threshold', threshold, -1, 1)
  assertRange('coarseMinSize', coarseMinSize, 2, 64)
  assertRange('candidates', keep, 1, 1000)
  assertRange('candidateMargin', candidateMargin, 0, 2)

  const tg = greyAndIntegral(template.data, template.width, template.height, template.channels)
  const tpl: TemplateSource = {
    grey: Float32Array.from(tg.grey),
    width: template.width,
    height: template.height,
    integral: Float64Array.from(tg.integral),
    cache: new Map(),
  }
  if (zeroMean(tpl.grey).norm < 1e-3) {
    throw new MatcherError(
      'MATCHER_FLAT_TEMPLATE',
      'The template is a single flat colour, so correlation cannot place it.',
      {
        hint: 'Record a crop with some contrast (include the element border or label), or locate by text or OCR instead.',
      },
    )
  }
  const img = pyramid(frame)

  // 1. coarse: every scale, densely, on its own level
  // a lattice through 1 (an unscaled element is the common case), plus both ends
  const scales: number[] = [minScale]
  const logStep = Math.log(scaleStep)
  for (let k = Math.ceil(Math.log(minScale) / logStep); k <= Math.floor(Math.log(maxScale) / logStep); k++) {
    const s = scaleStep ** k
    if (s / (scales[scales.length - 1] as number) > 1.03) scales.push(s)
  }
  if (maxScale / (scales[scales.length - 1] as number) > 1.03) scales.push(maxScale)
  const coarse: Candidate[] = []
  for (const scale of scales) {
    const w = Math.round(template.width * scale)
    const h = Math.round(template.height * scale)
    if (w > frame.width || h > frame.height || Math.min(w, h) < 2) continue
    let f = Math.min(MAX_EXHAUSTIVE_LEVEL, levelFactor(Math.min(w, h) / coarseMinSize))
    // a small template in a small frame is searched finer while that stays cheap: a 10×6 px coarse template
    // has too few pixels to stand out from look-alike texture, and the true place can miss the kept peaks
    const work = (g: number): number => (frame.width * frame.height * w * h) / g ** 4
    while (f > 1 && work(finer(f)) <= EXHAUSTIVE_WORK_BUDGET) f = finer(f)
    const level = img.level(f)
    const cw = Math.max(1, Math.round(w / f))
    const ch = Math.max(1, Math.round(h / f))
    if (cw > level.width || ch > level.height) continue
    const t = scaledTemplate(tpl, cw, ch, f > 1)
    if (t.norm < 1e-3) continue
    for (const p of denseNcc(
      level.data,
      level.width,
      level.height,
      level.sum,
      level.sq,
      t.data,
      cw,
      ch,
      t.norm,
      PEAKS_PER_SCALE,
      0,
    )) {
      coarse.push({ x: p.x * f, y: p.y * f, w, h, scale, score: p.score, g: f })
    }
  }
  // every peak within the margin of the best goes on (a keypad's keys all score alike at the coarse level,
  // and the true one may rank low there: its position falls between the level's pixels)
  const coarseBest = coarse.reduce((m, c) => Math.max(m, c.score), -2)
  let beam = nms(
    coarse.filter((c) => c.score >= coarseBest - candidateMargin),
    keep,
  )

  // 2. refine the beam level by level down to full resolution (the full-resolution stage is the last)
  let delta = Math.log(scaleStep) / 2
  let first = true
  let stages = 0
  const lo = minScale / scaleStep
  const hi = maxScale * scaleStep
  while (beam.length > 0) {
    const next: Candidate[] = []
    for (const c of beam) {
      const g = c.g === 1 && !first ? 1 : c.g === 1 ? 1 : finer(c.g)
      // every stage spans ±2 of its (halving) scale steps: the first ±1 coarse step, later ones undo drift
      // (near a frame corner a clipped window can pull an early stage one step off)
      const offsets = delta >= 0.005 ? [-2, -1, 0, 1, 2] : [0]
      const tries = offsets.map((o) => c.scale * Math.exp(o * delta)).filter((v) => v >= lo && v <= hi)
      // the window covers the coarser level's pixel (c.g / g of this level's pixels) and some drift
      const r = refineAt(img, tpl, c, g, tries, g === 1 ? 2 : Math.ceil(c.g / g) + 2)
      if (r) next.push(r)
    }
    first = false
    stages++
    delta /= 2
    if (next.length === 0) return null
    // at least two stages, so the scale is refined to a quarter coarse step even when the search began fine
    if (stages >= 2 && next.every((c) => c.g === 1)) {
      const ranked = [...next].sort((a, b) => b.score - a.score)
      const lead = ranked[0] as Candidate
      if (lead.score < threshold) return null
      const other = ranked.find((c) => overlap(c, lead) < 1 / 3)
      const clamp = (v: number) => Math.max(-1, Math.min(1, v))
      return {
        box: { x: lead.x, y: lead.y, width: lead.w, height: lead.h },
        score: clamp(lead.score),
        scale: lead.scale,
        runnerUp: other
          ? {
              box: { x: other.x, y: other.y, width: other.w, height: other.h },
              score: clamp(other.score),
              scale: other.scale,
            }
          : null,
      }
    }
    // drop only what cannot come near the leader any more (scores firm up level by level)
    const leader = next.reduce((m, c) => Math.max(m, c.score), -2)
    beam = nms(
      next.filter((c) => c.score >= leader - REFINE_MARGIN),
      keep,
    )
  }
  return null
}

/**
 * The exhaustive search never runs coarser than level 6: at level f a place falls up to f/2 px between the
 * level's pixels, and the phase then costs the true place part of its score (the smoothing keeps it within
 * `candidateMargin` of look-alikes up to there).
 */
const MAX_EXHAUSTIVE_LEVEL = 6
/**
 * Multiply-adds per scale the exhaustive search may spend on a finer level than the size rule asks for
 * (a 320×200 frame with a 20×12 template at full resolution is ~1.5·10⁷; a 1920×1080 screen never qualifies).
 */
const EXHAUSTIVE_WORK_BUDGET = 2e7
/** Local maxima kept per scale at the exhaustive level. */
const PEAKS_PER_SCALE = 48
/** A refined candidate further than this below the stage's leader is dropped. */
const REFINE_MARGIN = 0.2

/**
 * Two places match about equally well (keypads and boards of identical keys or cells): the runner-up at another place
 * scores within `margin` (default 0.03) of the best. Pure.
 */
export function isAmbiguousMatch(match: TemplateMatch, margin = 0.03): boolean {
  return !!match.runnerUp && match.runnerUp.score >= match.score - margin
}

function nms(list: Candidate[], keep: number): Candidate[] {
  const sorted = [...list].sort((a, b) => b.score - a.score)
  const out: Candidate[] = []
  for (const c of sorted) {
    if (out.length >= keep) break
    if (out.some((o) => overlap(o, c) > 0.5)) continue
    out.push(c)
  }
  return out
}

function overlap(a: Candidate, b: Candidate): number {
  const ix = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x))
  const iy = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y))
  const inter = ix * iy
  return inter / (a.w * a.h + b.w * b.h - inter)
}

/** Best position and scale near a candidate at level g, searching ±radius level pixels around it. */
function refineAt(
  img: Image,
  tpl: TemplateSource,
  c: Candidate,
  g: number,
  scales: number[],
  radius: number,
): Candidate | null {
  const cx = c.x + c.w / 2
  const cy = c.y + c.h / 2
  let best: Candidate | null = null
  for (const s of scales) {
    const w = Math.round(tpl.width * s)
    const h = Math.round(tpl.height * s)
    if (w > img.width || h > img.height) continue
    const gw = Math.max(1, Math.round(w / g))
    const gh = Math.max(1, Math.round(h / g))
    const x0 = Math.round((cx - w / 2) / g) - radius
    const y0 = Math.round((cy - h / 2) / g) - radius
    const patch = img.patch(g, x0, y0, gw + 2 * radius, gh + 2 * radius)
    if (!patch || patch.width < gw || patch.height < gh) continue
    const t = scaledTemplate(tpl, gw, gh)
    if (t.norm < 1e-3) continue
    const [p] = denseNcc(patch.data, patch.width, patch.height, patch.sum, patch.sq, t.data, gw, gh, t.norm, 1, -2)
    if (p && (!best || p.score > best.score))
      best = { x: (patch.x + p.x) * g, y: (patch.y + p.y) * g, w, h, scale: s, score: p.score, g }
  }
  return best
}

/**
 * NCC of the template against the frame at one position and scale 1 (the desktop fast path: do the pixels
 * at the recorded place still look like the recorded crop?), leaving out the pixels of `ignore` (boxes in
 * template pixels: animation that changes by itself). Returns -1..1, or 0 when out of bounds, flat or all ignored.
 */
export function templateScoreAt(
  frame: Frame,
  template: Frame,
  x: number,
  y: number,
  ignore: readonly BoundingBox[] = [],
): number {
  assertFrame(frame, 'frame')
  assertFrame(template, 'template')
  const tx = Math.round(x)
  const ty = Math.round(y)
  if (tx < 0 || ty < 0 || tx + template.width > frame.width || ty + template.height > frame.height) return 0
  const lum = (f: Frame, i: number): number =>
    f.channels === 1
      ? (f.data[i] as number)
      : ((f.data[i * 4] as number) * 77 + (f.data[i * 4 + 1] as number) * 150 + (f.data[i * 4 + 2] as number) * 29) >> 8
  const ignored = (i: number, j: number) =>
    ignore.some((b) => i >= b.x && i < b.x + b.width && j >= b.y && j < b.y + b.height)
  let n = 0
  let st = 0
  let sf = 0
  let stt = 0
  let sff = 0
  let stf = 0
  for (let j = 0; j < template.height; j++) {
    for (let i = 0; i < template.width; i++) {
      if (ignore.length > 0 && ignored(i, j)) continue
      n++
      const t = lum(template, j * template.width + i)
      const v = lum(frame, (ty + j) * frame.width + tx + i)
      st += t
      sf += v
      stt += t * t
      sff += v * v
      stf += t * v
    }
  }
  if (n === 0) return 0
  const vt = stt - (st * st) / n
  const vf = sff - (sf * sf) / n
  if (vt <= EPS * n || vf <= EPS * n) return 0
  return Math.max(-1, Math.min(1, (stf - (st * sf) / n) / Math.sqrt(vt * vf)))
}
