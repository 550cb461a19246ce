import type { RgbaImage } from './rgba-image'
import { maxDeltaOf, yiqDelta } from './yiq'

/** Where a recorded pixel is looked for on the current screen: the region comparison's placement. */
export interface Alignment {
  x(recordedX: number): number
  y(recordedY: number): number
}

export interface PaletteOptions {
  /** Colour threshold 0–1 (pixelmatch's YIQ distance): a mapped colour within it explains a pixel. */
  threshold: number
  /** The map is trusted when it explains at least this share of the aligned pixels (default 0.9)… */
  minExplained?: number
  /**
   * …and this share of those alike only through it (default 0.8): a relaid-out screen of mostly the same colours
   * is explained at 0.95 as it is, and a map then "explains" a few misplaced edges, not the screen.
   */
  minExplainedOfChanged?: number
  /**
   * …and explains at least this many pixels more than no map at all and than one colour everywhere (default
   * 64): the screens really differ in colour (the same screen is compared as it is), and the current one is not
   * a plain area that any map into its colour would explain.
   */
  minGainPixels?: number
  /** Fewer aligned pixels than this teach nothing (default 256). */
  minPixels?: number
}

/** How a colour map learned from the two before-frames explains them. */
export interface PaletteSummary {
  /** The map is trusted: the recorded frames are compared through it. */
  applied: boolean
  /** Share of the aligned pixels whose current colour is the map of their recorded colour (within the threshold). */
  explained: number
  /** Share of the aligned pixels alike without any map. */
  asIs: number
  /** Recorded colours the map turns into another colour. */
  colours: number
  /** Pixels the map was learned on. */
  pixels: number
}

export interface PaletteTransfer extends PaletteSummary {
  /**
   * (Recorded colour, role) → current colour, for every colour seen on the aligned pixels; key: roleKey. One
   * colour may play two roles that a theme recolours apart: black text turning white while the black desktop
   * around the window stays black. The role tells them apart: inside an area of the colour, or part of a
   * structure (a glyph, a line, an edge).
   */
  map: ReadonlyMap<number, number>
  /**
   * The colours covering the most pixels (a UI's own colours, not its antialiasing): a colour never seen that
   * lies between two of them is their blend, and is mapped to the same blend of their current colours.
   */
  principal: readonly number[]
  /**
   * Principal colour → its current colour as antialiased text on a ground, read off the blends around it: the
   * digits and the grid lines of a board are both thin and black, but only the digits' edges blend into the cells,
   * so this tells what the digits turned into where the thin black pixels mostly are grid lines.
   */
  onGround: ReadonlyMap<number, number>
}

const DEFAULT_MIN_EXPLAINED = 0.9
const DEFAULT_MIN_EXPLAINED_OF_CHANGED = 0.8
const DEFAULT_MIN_GAIN_PIXELS = 64
const DEFAULT_MIN_PIXELS = 256
/** A principal colour covers at least this share of the aligned pixels; at most MAX_PRINCIPAL of them. */
const PRINCIPAL_SHARE = 0.004
const MAX_PRINCIPAL = 32
/** A colour is a blend of two others when it lies this close (RGB units) to the line between them. */
const BLEND_TOLERANCE = 3
/** The side of the squares of one colour that make a fill (see roleAt). */
const AREA_PX = 4
/** Blends this far (share) from their ground to the text colour vote for the text's current colour. */
const BLEND_VOTE_RANGE = [0.2, 0.8] as const
/** Votes for a text colour are counted in buckets of this many levels per channel; a colour needs this many. */
const TEXT_QUANTUM = 8
const MIN_TEXT_VOTES = 8
/** How far away the neighbours are whose colour is a pixel's ground (see groundAt). */
const GROUND_PX = 3
/** A pixel at least this many of whose eight neighbours share its colour is ground, not a stroke on it. */
const GROUND_MAJORITY = 5
/** The share of a colour's pixels in one role that must agree on its current colour for the role to decide. */
const ROLE_AGREEMENT = 2 / 3
/** Pair keys: role key × 2^24 + current colour (below 2^49, exact in a double). */
const COLOURS = 0x1000000

const AREA = 1
const STRUCTURE = 0
/** The key of a colour in a role (AREA or STRUCTURE). */
const roleKey = (colour: number, role: number) => colour * 2 + role

const rgbAt = (d: Uint8Array, p: number) =>
  ((d[p] as number) << 16) | ((d[p + 1] as number) << 8) | (d[p + 2] as number)

/**
 * AREA when pixel (x, y) lies in a square of AREA_PX × AREA_PX pixels of its colour (a fill, up to its rim and
 * corners) or is the ground around it (the field between the glyphs of a line of text); else STRUCTURE: a
 * glyph's stroke, a caret, a thin line or ring, drawn on another colour.
 */
function roleAt(img: RgbaImage, x: number, y: number, colour: number): number {
  const { width: w, height: h, data } = img
  for (let top = Math.max(0, y - AREA_PX + 1); top <= Math.min(y, h - AREA_PX); top++)
    squares: for (let left = Math.max(0, x - AREA_PX + 1); left <= Math.min(x, w - AREA_PX); left++) {
      for (let yy = top; yy < top + AREA_PX; yy++)
        for (let xx = left; xx < left + AREA_PX; xx++) if (rgbAt(data, (yy * w + xx) * 4) !== colour) continue squares
      return AREA
    }
  return neighboursOf(img, x, y).filter((c) => c === colour).length >= GROUND_MAJORITY ? AREA : STRUCTURE
}

const scratch = new Uint8Array(8)
/** The YIQ distance of two 0xRRGGBB colours. */
function colourDelta(a: number, b: number): number {
  scratch[0] = a >> 16
  scratch[1] = (a >> 8) & 0xff
  scratch[2] = a & 0xff
  scratch[4] = b >> 16
  scratch[5] = (b >> 8) & 0xff
  scratch[6] = b & 0xff
  return yiqDelta(scratch, 0, scratch, 4)
}

/** Calls `visit` for every pixel of `area` (recorded screen) whose aligned place lies on the current screen. */
function forEachAligned(
  recorded: RgbaImage,
  current: RgbaImage,
  area: Uint8Array,
  align: Alignment,
  visit: (x: number, y: number, ax: number, ay: number) => void,
): void {
  const W = recorded.width
  for (let y = 0; y < recorded.height; y++) {
    const ay = align.y(y)
    if (ay < 0 || ay >= current.height) continue
    for (let x = 0; x < W; x++) {
      if (!area[y * W + x]) continue
      const ax = align.x(x)
      if (ax < 0 || ax >= current.width) continue
      visit(x, y, ax, ay)
    }
  }
}

/**
 * What `learnPalette` would say when no colour map learned on these pixels can be applied: fewer than
 * `minGainPixels` aligned pixels differ in colour as they are, and a map must explain that many more than no map
 * at all. Null when enough differ (then learn). A cheap pass (no roles, no map) that spares the learning on the
 * common step, whose screen before is in the recorded colours; its `explained` is the share alike as they are
 * (the map that would be learned is all but the identity) and `colours` 0. Pure.
 */
export function paletteCannotApply(
  recorded: RgbaImage,
  current: RgbaImage,
  area: Uint8Array,
  align: Alignment,
  opts: Pick<PaletteOptions, 'threshold' | 'minGainPixels'>,
): PaletteSummary | null {
  const need = opts.minGainPixels ?? DEFAULT_MIN_GAIN_PIXELS
  const maxDelta = maxDeltaOf(opts.threshold)
  const W = recorded.width
  const R = recorded.data
  const C = current.data
  let differing = 0
  let pixels = 0
  forEachAligned(recorded, current, area, align, (x, y, ax, ay) => {
    pixels++
    const from = rgbAt(R, (y * W + x) * 4)
    const to = rgbAt(C, (ay * current.width + ax) * 4)
    if (from !== to && colourDelta(from, to) > maxDelta) differing++
  })
  if (differing >= need) return null
  const asIs = pixels ? (pixels - differing) / pixels : 0
  return { applied: false, explained: asIs, asIs, colours: 0, pixels }
}

/**
 * Learns which colour each recorded colour has now (a theme or palette change: `-bg`, `tk_setPalette`, a dark
 * mode) from a recorded frame and the current screen of the same moment, aligned by `align`, on the recorded
 * pixels set in `area`: per recorded colour (exact RGB) and role (see PaletteTransfer.map) the current colour
 * most often seen at the same place. The map is `applied` only when it explains the frames (a relaid-out
 * screen is explained by no colour map) and they really differ in colour. Pure.
 */
export function learnPalette(
  recorded: RgbaImage,
  current: RgbaImage,
  area: Uint8Array,
  align: Alignment,
  opts: PaletteOptions,
): PaletteTransfer {
  const W = recorded.width
  const R = recorded.data
  const C = current.data
  // (colour in its role) × 2^24 + current colour → pixels
  const pairs = new Map<number, number>()
  let runKey = -1
  let runLength = 0
  let pixels = 0
  forEachAligned(recorded, current, area, align, (x, y, ax, ay) => {
    const from = rgbAt(R, (y * W + x) * 4)
    const key = roleKey(from, roleAt(recorded, x, y, from)) * COLOURS + rgbAt(C, (ay * current.width + ax) * 4)
    pixels++
    if (key === runKey) {
      runLength++
      return
    }
    if (runLength) pairs.set(runKey, (pairs.get(runKey) ?? 0) + runLength)
    runKey = key
    runLength = 1
  })
  if (runLength) pairs.set(runKey, (pairs.get(runKey) ?? 0) + runLength)

  // per recorded colour, and per colour in its role, the current colour seen most often (the first on a tie)
  const inRole = new Map<number, Map<number, number>>()
  const pooled = new Map<number, Map<number, number>>()
  for (const [key, count] of pairs) {
    const from = Math.floor(key / COLOURS)
    const to = key - from * COLOURS
    for (const [table, k] of [
      [inRole, from],
      [pooled, Math.floor(from / 2)],
    ] as const) {
      const counts = table.get(k) ?? new Map<number, number>()
      table.set(k, counts)
      counts.set(to, (counts.get(to) ?? 0) + count)
    }
  }
  const mostSeen = (counts: Map<number, number>) => {
    let to = -1
    let most = 0
    let total = 0
    for (const [c, n] of counts) {
      total += n
      if (n > most) [to, most] = [c, n]
    }
    return { to, most, total }
  }
  // a colour's role decides only when its pixels in that role agree clearly; else its pixels of both roles do
  const best = new Map<number, { to: number }>()
  const perColour = new Map<number, number>()
  for (const [from, counts] of inRole) {
    const role = mostSeen(counts)
    const colour = Math.floor(from / 2)
    best.set(
      from,
      role.most >= role.total * ROLE_AGREEMENT ? role : mostSeen(pooled.get(colour) as Map<number, number>),
    )
    perColour.set(colour, (perColour.get(colour) ?? 0) + role.total)
  }
  const maxDelta = maxDeltaOf(opts.threshold)
  let explained = 0
  let asIs = 0
  for (const [key, count] of pairs) {
    const from = Math.floor(key / COLOURS)
    const to = key - from * COLOURS
    const mapped = (best.get(from) as { to: number }).to
    if (mapped === to || colourDelta(mapped, to) <= maxDelta) explained += count
    const colour = Math.floor(from / 2)
    if (colour === to || colourDelta(colour, to) <= maxDelta) asIs += count
  }
  const map = new Map<number, number>()
  const recoloured = new Set<number>()
  for (const [from, { to }] of best) {
    map.set(from, to)
    if (to !== Math.floor(from / 2)) recoloured.add(Math.floor(from / 2))
  }
  const principal = [...perColour]
    .filter(([, n]) => n >= pixels * PRINCIPAL_SHARE)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_PRINCIPAL)
    .map(([c]) => c)
  // one current colour everywhere (a desktop where the window is no more) explains every map: the baseline
  const perCurrent = new Map<number, number>()
  for (const [key, count] of pairs) {
    const to = key % COLOURS
    perCurrent.set(to, (perCurrent.get(to) ?? 0) + count)
  }
  let oneColour = 0
  for (const n of perCurrent.values()) oneColour = Math.max(oneColour, n)
  const explainedShare = pixels ? explained / pixels : 0
  const asIsShare = pixels ? asIs / pixels : 0
  const applied =
    pixels >= (opts.minPixels ?? DEFAULT_MIN_PIXELS) &&
    explainedShare >= (opts.minExplained ?? DEFAULT_MIN_EXPLAINED) &&
    explained - asIs >= (pixels - asIs) * (opts.minExplainedOfChanged ?? DEFAULT_MIN_EXPLAINED_OF_CHANGED) &&
    explained - Math.max(asIs, oneColour) >= (opts.minGainPixels ?? DEFAULT_MIN_GAIN_PIXELS)
  const onGround = applied ? textOnGround(recorded, current, area, align, { map, principal }) : new Map()
  return {
    applied,
    explained: explainedShare,
    asIs: asIsShare,
    colours: recoloured.size,
    pixels,
    map,
    principal,
    onGround,
  }
}

/**
 * What each principal colour turned into as text on a ground, voted by the blends that show it: a recorded
 * pixel a share `t` of the way from its ground g to colour a, shown now as c', says a is now
 * g' + (c' − g') / t (g' the ground's current colour). Only clear blends vote (t in BLEND_VOTE_RANGE); the
 * most voted colour (to TEXT_QUANTUM) wins when MIN_TEXT_VOTES agree.
 */
function textOnGround(
  recorded: RgbaImage,
  current: RgbaImage,
  area: Uint8Array,
  align: Alignment,
  learnedSoFar: Pick<PaletteTransfer, 'map' | 'principal'>,
): Map<number, number> {
  const principal = new Set(learnedSoFar.principal)
  const transfer = { ...learnedSoFar, onGround: new Map<number, number>() }
  const votes = new Map<number, Map<number, { n: number; sum: [number, number, number] }>>()
  const W = recorded.width
  forEachAligned(recorded, current, area, align, (x, y, ax, ay) => {
    const colour = rgbAt(recorded.data, (y * W + x) * 4)
    if (principal.has(colour)) return
    const ground = groundAt(recorded, x, y)
    if (!principal.has(ground)) return
    const line = blendLine(colour, ground, learnedSoFar.principal)
    if (!line || line.from !== ground || line.t < BLEND_VOTE_RANGE[0] || line.t > BLEND_VOTE_RANGE[1]) return
    const g = channels(learned(ground, AREA, transfer) as number)
    const now = channels(rgbAt(current.data, (ay * current.width + ax) * 4))
    const implied = [0, 1, 2].map((k) => (g[k] as number) + ((now[k] as number) - (g[k] as number)) / line.t)
    if (implied.some((v) => v < -TEXT_QUANTUM || v > 255 + TEXT_QUANTUM)) return
    const bucket = implied.reduce((key, v) => key * 64 + Math.round(Math.min(255, Math.max(0, v)) / TEXT_QUANTUM), 0)
    const forColour = votes.get(line.to) ?? new Map()
    votes.set(line.to, forColour)
    const vote = forColour.get(bucket) ?? { n: 0, sum: [0, 0, 0] }
    forColour.set(bucket, vote)
    vote.n++
    for (const k of [0, 1, 2] as const) vote.sum[k] += Math.min(255, Math.max(0, implied[k] as number))
  })
  const onGround = new Map<number, number>()
  for (const [colour, buckets] of votes) {
    let top: { n: number; sum: [number, number, number] } | null = null
    for (const vote of buckets.values()) if (!top || vote.n > top.n) top = vote
    if (!top || top.n < MIN_TEXT_VOTES) continue
    const [r, g, b] = top.sum.map((v) => Math.round(v / (top as { n: number }).n)) as [number, number, number]
    onGround.set(colour, (r << 16) | (g << 8) | b)
  }
  return onGround
}

const channels = (c: number): [number, number, number] => [c >> 16, (c >> 8) & 0xff, c & 0xff]

type Transfer = Pick<PaletteTransfer, 'map' | 'principal' | 'onGround'>

/** The current colour of a learned colour: as learned in this role, else as learned in the other. */
const learned = (colour: number, role: number, t: Transfer) =>
  t.map.get(roleKey(colour, role)) ?? t.map.get(roleKey(colour, 1 - role))

/** The colours of the eight neighbours GROUND_PX away from pixel (x, y) (clamped to the image). */
function neighboursOf(img: RgbaImage, x: number, y: number): number[] {
  const { width: w, height: h, data } = img
  const x0 = Math.max(0, x - GROUND_PX)
  const x1 = Math.min(w - 1, x + GROUND_PX)
  const y0 = Math.max(0, y - GROUND_PX) * w
  const y1 = Math.min(h - 1, y + GROUND_PX) * w
  const row = y * w
  return [y0 + x0, y0 + x, y0 + x1, row + x0, row + x1, y1 + x0, y1 + x, y1 + x1].map((i) => rgbAt(data, i * 4))
}

/** The colour most of the eight neighbours GROUND_PX away from pixel (x, y) have: the ground it is drawn on. */
function groundAt(img: RgbaImage, x: number, y: number): number {
  const seen = neighboursOf(img, x, y)
  let ground = seen[0] as number
  let most = 0
  for (const c of seen) {
    let n = 0
    for (const d of seen) if (d === c) n++
    if (n > most) [ground, most] = [c, n]
  }
  return ground
}

/**
 * The line between two principal colours that `colour` lies on, a blend `t` of the way from `ground` (when that
 * is principal, else from any of them) to the other: c ≈ ground + t (other − ground), 0 < t < 1. Of the lines it
 * lies on, the longest: text on its ground rather than a shade between two greys. Null for no blend.
 */
function blendLine(
  colour: number,
  ground: number,
  principal: readonly number[],
): { from: number; to: number; t: number } | null {
  const c = channels(colour)
  const firsts = principal.includes(ground) ? [ground] : principal
  let longest = 0
  let found: { from: number; to: number; t: number } | null = null
  for (const first of firsts) {
    const b = channels(first)
    for (const second of principal) {
      if (second === first) continue
      const a = channels(second)
      const [abR, abG, abB] = [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
      const [cbR, cbG, cbB] = [c[0] - b[0], c[1] - b[1], c[2] - b[2]]
      const len2 = abR * abR + abG * abG + abB * abB
      if (len2 <= longest) continue
      const t = (cbR * abR + cbG * abG + cbB * abB) / len2
      if (t <= 0 || t >= 1) continue
      const residual = (cbR - t * abR) ** 2 + (cbG - t * abG) ** 2 + (cbB - t * abB) ** 2
      if (residual > BLEND_TOLERANCE * BLEND_TOLERANCE) continue
      longest = len2
      found = { from: first, to: second, t }
    }
  }
  return found ?? (firsts.length < principal.length ? blendLine(colour, -1, principal) : null)
}

/**
 * The current colour of a recorded colour that is a blend of two principal colours (antialiased text or an
 * edge): the same blend of their current colours, the ground it is drawn on as a fill and the other colour as
 * text on a ground (else as structure). Undefined for no blend.
 */
function blendOf(colour: number, ground: number, transfer: Transfer): number | undefined {
  const line = blendLine(colour, ground, transfer.principal)
  if (!line) return undefined
  const now = (k: number) =>
    channels(
      (k === ground
        ? learned(k, AREA, transfer)
        : (transfer.onGround.get(k) ?? learned(k, STRUCTURE, transfer))) as number,
    )
  const [ma, mb] = [now(line.to), now(line.from)]
  const mix = (k: 0 | 1 | 2) => Math.round(mb[k] + line.t * (ma[k] - mb[k]))
  return (mix(0) << 16) | (mix(1) << 8) | mix(2)
}

/**
 * A copy of `image` in the current colours: a principal colour as learned in its role (else in the other);
 * any other colour as the blend of two principal colours it is, else as learned; a colour never seen and no
 * blend stays as it is (compared as recorded). A pixel `before` shows alike has the role and ground it has
 * there (the ground around newly typed text stays ground). With `only`, just the pixels set in it. Pure.
 */
export function recolour(
  image: RgbaImage,
  transfer: Transfer,
  opts: { before?: RgbaImage | null; only?: Uint8Array } = {},
): RgbaImage {
  const data = new Uint8Array(image.data)
  const known = new Map<number, number | undefined>()
  const principal = new Set(transfer.principal)
  const { before, only } = opts
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (only && !only[y * image.width + x]) continue
      const p = (y * image.width + x) * 4
      const from = rgbAt(image.data, p)
      const source = before && rgbAt(before.data, p) === from ? before : image
      const role = roleAt(source, x, y, from)
      const ground = principal.has(from) ? -1 : groundAt(source, x, y)
      // antialiasing repeats its colours on every ground: a blend is taken apart before a colour seen elsewhere
      const key = roleKey(from, role) * COLOURS * 2 + (ground + 1)
      let to = known.get(key)
      if (to === undefined && !known.has(key)) {
        to =
          ground < 0
            ? learned(from, role, transfer)
            : (blendOf(from, ground, transfer) ?? learned(from, role, transfer))
        known.set(key, to)
      }
      if (to === undefined) continue
      data[p] = to >> 16
      data[p + 1] = (to >> 8) & 0xff
      data[p + 2] = to & 0xff
    }
  }
  return { width: image.width, height: image.height, data }
}
