// The matchTemplate of @qa/matcher before its exhaustive search (coarse-to-fine beam search, commit 30a1bc5), frozen here as
// the baseline of bench/template-match. Not used by any package.
import {
  assertRange,
  boxDownsample,
  greyAndIntegral,
  halfGrey,
  integralOnly,
  integrals,
  lumaAt,
  MatcherError,
  resize,
  zeroMean,
} from '@qa/matcher/image'

/** A raw image: RGBA (`channels: 4`) or grey (`channels: 1`), row-major, no padding. */
export interface Frame {
  width: number
  height: number
  data: Uint8Array | Uint8ClampedArray
  channels: 1 | 4
}

export interface TemplateMatch {
  /** Where the template was found, in frame pixels. */
  box: { x: number; y: number; width: number; height: number }
  /** Normalised cross-correlation at full resolution, in [-1, 1] (1 = identical up to brightness/contrast). */
  score: number
  /** Size of the found element relative to the template. */
  scale: number
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
  /** Coarse level: the scaled template's smaller side is shrunk to about this many pixels (default 4). */
  coarseMinSize?: number
  /**
   * Beam width (default 6): 4× this many coarse peaks get a first refinement, this many the next one, and
   * the best 2 are scored at full resolution.
   */
  candidates?: number
}

const EPS = 1e-6

function assertFrame(f: Frame, what: 'frame' | 'template'): void {
  const code = what === 'frame' ? 'MATCHER_BAD_FRAME' : 'MATCHER_BAD_TEMPLATE'
  const ok =
    f &&
    Number.isInteger(f.width) &&
    Number.isInteger(f.height) &&
    f.width > 0 &&
    f.height > 0 &&
    (f.channels === 1 || f.channels === 4) &&
    (f.data instanceof Uint8Array || f.data instanceof Uint8ClampedArray)
  if (!ok) {
    throw new MatcherError(
      code,
      `The ${what} is not a raw image: expected { width, height (positive integers), data: Uint8Array, channels: 1 | 4 }.`,
      {
        hint: 'Decode PNGs first (e.g. with sharp: .raw().toBuffer({ resolveWithObject: true })) and pass the raw pixels.',
      },
    )
  }
  if (f.data.length !== f.width * f.height * f.channels) {
    throw new MatcherError(
      code,
      `The ${what}'s data has ${f.data.length} bytes; ${f.width}×${f.height}×${f.channels} needs ${f.width * f.height * f.channels}.`,
      { hint: 'Check width, height and channels (4 for RGBA, 1 for grey) against the pixel buffer.' },
    )
  }
}

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
 * squares come from integral images, so the denominator costs O(1) per position.
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
      // four template cells per pass over the row: a quarter of the accumulator traffic
      for (; c + 3 < tw; c += 4) {
        const t0 = t[tBase + c] as number
        const t1 = t[tBase + c + 1] as number
        const t2 = t[tBase + c + 2] as number
        const t3 = t[tBase + c + 3] as number
        const b = rowBase + c
        for (let x = 0; x < nx; x++) {
          acc[x] =
            (acc[x] as number) +
            t0 * (img[b + x] as number) +
            t1 * (img[b + x + 1] as number) +
            t2 * (img[b + x + 2] as number) +
            t3 * (img[b + x + 3] as number)
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

function scaledTemplate(tpl: TemplateSource, outW: number, outH: number): { data: Float32Array; norm: number } {
  const k = outW * 65536 + outH
  const hit = tpl.cache.get(k)
  if (hit) return hit
  const resized =
    outW === tpl.width && outH === tpl.height
      ? tpl.grey
      : resize({ width: tpl.width, height: tpl.height, data: tpl.grey }, tpl.integral, outW, outH)
  const out = zeroMean(resized)
  tpl.cache.set(k, out)
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
/** The next finer level during refinement: 24 → 12 → 6 → 2 → 1. */
const finer = (g: number): number => (g >= 4 ? levelFactor(g / 2) : 1)

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
 * by normalised cross-correlation, coarse to fine: every scale is searched densely on a box-downsampled
 * level of the frame where the scaled template is ~4 px on its short side (all levels box-downsampled from one
 * half-resolution grey image and its integral, built once per call and shared by every scale) (window sums and squares from
 * integral images); the best peaks are refined level by level (window ±3 px, ±2 px at full resolution; scale narrowed from ±1 coarse
 * step to ~1%) as a beam that keeps the leaders, and scored at full resolution.
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
  const coarseMinSize = opts.coarseMinSize ?? 4
  const keep = opts.candidates ?? 6
  assertRange('minScale', minScale, 0.05, 20)
  assertRange('maxScale', maxScale, minScale, 20)
  assertRange('scaleStep', scaleStep, 1.01, 2)
  assertRange('threshold', threshold, -1, 1)
  assertRange('coarseMinSize', coarseMinSize, 2, 64)
  assertRange('candidates', keep, 1, 100)

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
    const f = levelFactor(Math.min(w, h) / coarseMinSize)
    const level = img.level(f)
    const cw = Math.max(1, Math.round(w / f))
    const ch = Math.max(1, Math.round(h / f))
    if (cw > level.width || ch > level.height) continue
    const t = scaledTemplate(tpl, cw, ch)
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
      6,
      0,
    )) {
      coarse.push({ x: p.x * f, y: p.y * f, w, h, scale, score: p.score, g: f })
    }
  }
  let beam = nms(coarse, keep * 4)

  // 2. refine the beam level by level down to full resolution (the full-resolution stage is the last)
  let delta = Math.log(scaleStep) / 2
  let first = true
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
      const r = refineAt(img, tpl, c, g, tries, g === 1 ? 2 : 3)
      if (r) next.push(r)
    }
    first = false
    delta /= 2
    if (next.length === 0) return null
    if (next.every((c) => c.g === 1)) {
      const lead = next.reduce((a, b) => (b.score > a.score ? b : a))
      if (lead.score < threshold) return null
      return {
        box: { x: lead.x, y: lead.y, width: lead.w, height: lead.h },
        score: Math.max(-1, Math.min(1, lead.score)),
        scale: lead.scale,
      }
    }
    // scores at level 2 are close to the final ones: only the two leaders go on to full resolution
    beam = nms(next, next.every((c) => c.g <= 2) ? 2 : keep)
  }
  return null
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
 * at the recorded place still look like the recorded crop?). Returns -1..1, or 0 when out of bounds/flat.
 */
export function templateScoreAt(frame: Frame, template: Frame, x: number, y: number): number {
  assertFrame(frame, 'frame')
  assertFrame(template, 'template')
  const tx = Math.round(x)
  const ty = Math.round(y)
  if (tx < 0 || ty < 0 || tx + template.width > frame.width || ty + template.height > frame.height) return 0
  const lum = (f: Frame, i: number): number =>
    f.channels === 1
      ? (f.data[i] as number)
      : ((f.data[i * 4] as number) * 77 + (f.data[i * 4 + 1] as number) * 150 + (f.data[i * 4 + 2] as number) * 29) >> 8
  const n = template.width * template.height
  let st = 0
  let sf = 0
  let stt = 0
  let sff = 0
  let stf = 0
  for (let j = 0; j < template.height; j++) {
    for (let i = 0; i < template.width; i++) {
      const t = lum(template, j * template.width + i)
      const v = lum(frame, (ty + j) * frame.width + tx + i)
      st += t
      sf += v
      stt += t * t
      sff += v * v
      stf += t * v
    }
  }
  const vt = stt - (st * st) / n
  const vf = sff - (sf * sf) / n
  if (vt <= EPS * n || vf <= EPS * n) return 0
  return Math.max(-1, Math.min(1, (stf - (st * sf) / n) / Math.sqrt(vt * vf)))
}
