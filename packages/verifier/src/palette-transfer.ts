import type { RgbaImage } from './expected-change'
import { maxDeltaOf, yiqDelta } from './yiq'

/** Where a recorded pixel is looked for on the current screen: the region comparison's placement. */
export interface Alignment {
  x(recordedX: number): number
  y(recordedY: number): number
}

export interface PaletteOptions {
  /** Colour threshold 0–1 (pixelmatch's YIQ distance): a mapped colour within it explains a pixel. */
  threshold: number
  /** The map is trusted when it explains at least this share of the aligned pixels (default 0.9). */
  minExplained?: number
  /**
   * …and explains at least this many pixels more than no map at all (default 64): the screens really differ in
   * colour, so the same screen is compared as it is.
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
  /** Recorded colour → current colour (0xRRGGBB), for every colour seen on the aligned pixels. */
  map: ReadonlyMap<number, number>
  /**
   * The colours covering the most pixels (a UI's own colours, not its antialiasing): a colour never seen that
   * lies between two of them is their blend, and is mapped to the same blend of their current colours.
   */
  principal: readonly number[]
}

const DEFAULT_MIN_EXPLAINED = 0.9
const DEFAULT_MIN_GAIN_PIXELS = 64
const DEFAULT_MIN_PIXELS = 256
/** A principal colour covers at least this share of the aligned pixels; at most MAX_PRINCIPAL of them. */
const PRINCIPAL_SHARE = 0.004
const MAX_PRINCIPAL = 32
/** A colour is a blend of two others when it lies this close (RGB units) to the line between them. */
const BLEND_TOLERANCE = 3
/** Pair keys: recorded colour × 2^24 + current colour (below 2^48, exact in a double). */
const COLOURS = 0x1000000

const rgbAt = (d: Uint8Array, p: number) =>
  ((d[p] as number) << 16) | ((d[p + 1] as number) << 8) | (d[p + 2] as number)

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

/**
 * Learns which colour each recorded colour has now (a theme or palette change: `-bg`, `tk_setPalette`, a dark
 * mode) from a recorded frame and the current screen of the same moment, aligned by `align`, on the recorded
 * pixels set in `area`: per recorded colour (exact RGB) the current colour most often seen at the same place.
 * The map is `applied` only when it explains the frames (a relaid-out screen is explained by no colour map) and
 * they really differ in colour. Pure.
 */
export function learnPalette(
  recorded: RgbaImage,
  current: RgbaImage,
  area: Uint8Array,
  align: Alignment,
  opts: PaletteOptions,
): PaletteTransfer {
  const W = recorded.width
  const H = recorded.height
  const R = recorded.data
  const C = current.data
  const pairs = new Map<number, number>()
  let runKey = -1
  let runLength = 0
  let pixels = 0
  for (let y = 0; y < H; y++) {
    const ay = align.y(y)
    if (ay < 0 || ay >= current.height) continue
    for (let x = 0; x < W; x++) {
      if (!area[y * W + x]) continue
      const ax = align.x(x)
      if (ax < 0 || ax >= current.width) continue
      const key = rgbAt(R, (y * W + x) * 4) * COLOURS + rgbAt(C, (ay * current.width + ax) * 4)
      pixels++
      if (key === runKey) {
        runLength++
        continue
      }
      if (runLength) pairs.set(runKey, (pairs.get(runKey) ?? 0) + runLength)
      runKey = key
      runLength = 1
    }
  }
  if (runLength) pairs.set(runKey, (pairs.get(runKey) ?? 0) + runLength)

  // per recorded colour, the current colour seen most often (the first seen on a tie)
  const best = new Map<number, { to: number; count: number }>()
  for (const [key, count] of pairs) {
    const from = Math.floor(key / COLOURS)
    const to = key - from * COLOURS
    const known = best.get(from)
    if (!known || count > known.count) best.set(from, { to, count })
  }
  const maxDelta = maxDeltaOf(opts.threshold)
  let explained = 0
  let asIs = 0
  for (const [key, count] of pairs) {
    const from = Math.floor(key / COLOURS)
    const to = key - from * COLOURS
    const mapped = (best.get(from) as { to: number }).to
    if (mapped === to || colourDelta(mapped, to) <= maxDelta) explained += count
    if (from === to || colourDelta(from, to) <= maxDelta) asIs += count
  }
  const map = new Map<number, number>()
  let colours = 0
  for (const [from, { to }] of best) {
    map.set(from, to)
    if (to !== from) colours++
  }
  const perColour = new Map<number, number>()
  for (const [key, count] of pairs) {
    const from = Math.floor(key / COLOURS)
    perColour.set(from, (perColour.get(from) ?? 0) + count)
  }
  const principal = [...perColour]
    .filter(([, n]) => n >= pixels * PRINCIPAL_SHARE)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_PRINCIPAL)
    .map(([c]) => c)
  const explainedShare = pixels ? explained / pixels : 0
  const asIsShare = pixels ? asIs / pixels : 0
  const applied =
    pixels >= (opts.minPixels ?? DEFAULT_MIN_PIXELS) &&
    explainedShare >= (opts.minExplained ?? DEFAULT_MIN_EXPLAINED) &&
    explained - asIs >= (opts.minGainPixels ?? DEFAULT_MIN_GAIN_PIXELS)
  return { applied, explained: explainedShare, asIs: asIsShare, colours, pixels, map, principal }
}

const channels = (c: number): [number, number, number] => [c >> 16, (c >> 8) & 0xff, c & 0xff]

/**
 * The current colour of a recorded colour the map never saw, when it is a blend of two principal colours
 * (antialiased text or edges between them): the same blend of their current colours. Undefined otherwise.
 */
function blendOf(colour: number, transfer: Pick<PaletteTransfer, 'map' | 'principal'>): number | undefined {
  const c = channels(colour)
  let bestResidual = BLEND_TOLERANCE * BLEND_TOLERANCE
  let found: number | undefined
  const { principal, map } = transfer
  for (let i = 0; i < principal.length; i++) {
    const a = channels(principal[i] as number)
    for (let j = i + 1; j < principal.length; j++) {
      const b = channels(principal[j] as number)
      // c ≈ b + t (a − b), 0 < t < 1
      const [abR, abG, abB] = [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
      const [cbR, cbG, cbB] = [c[0] - b[0], c[1] - b[1], c[2] - b[2]]
      const len2 = abR * abR + abG * abG + abB * abB
      if (len2 === 0) continue
      const t = (cbR * abR + cbG * abG + cbB * abB) / len2
      if (t <= 0 || t >= 1) continue
      const residual = (cbR - t * abR) ** 2 + (cbG - t * abG) ** 2 + (cbB - t * abB) ** 2
      if (residual > bestResidual) continue
      const ma = channels(map.get(principal[i] as number) as number)
      const mb = channels(map.get(principal[j] as number) as number)
      const mix = (k: 0 | 1 | 2) => Math.round(mb[k] + t * (ma[k] - mb[k]))
      bestResidual = residual
      found = (mix(0) << 16) | (mix(1) << 8) | mix(2)
    }
  }
  return found
}

/**
 * A copy of `image` in the current colours: every colour the map knows, or a blend of two principal colours,
 * replaced by its current colour; any other colour as it is (compared as recorded). Pure.
 */
export function recolour(image: RgbaImage, transfer: Pick<PaletteTransfer, 'map' | 'principal'>): RgbaImage {
  const data = new Uint8Array(image.data)
  const blends = new Map<number, number | undefined>()
  let lastFrom = -1
  let lastTo: number | undefined
  for (let p = 0; p < data.length; p += 4) {
    const from = rgbAt(data, p)
    if (from !== lastFrom) {
      lastFrom = from
      lastTo = transfer.map.get(from)
      if (lastTo === undefined) {
        if (!blends.has(from)) blends.set(from, blendOf(from, transfer))
        lastTo = blends.get(from)
      }
    }
    if (lastTo === undefined) continue
    data[p] = lastTo >> 16
    data[p + 1] = (lastTo >> 8) & 0xff
    data[p + 2] = lastTo & 0xff
  }
  return { width: image.width, height: image.height, data }
}
