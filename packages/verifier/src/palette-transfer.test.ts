// Verification across a palette or theme change (the desktop bench's `colours` variant): the recorded
// frames are compared in the colours the screen before the step has now.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { decideVerdict } from './decide-verdict'
import { assessExpectedChange, type ExpectedChangeResult, type RgbaImage } from './expected-change'
import { learnPalette, recolour } from './palette-transfer'
import { verifyStep } from './verify-step'

type Rgb = [number, number, number]
/** UI colours far apart in YIQ (each pair differs at pixelmatch's threshold 0.1). */
const PALETTE: readonly Rgb[] = [
  [244, 244, 244],
  [20, 20, 20],
  [200, 40, 40],
  [40, 160, 60],
  [50, 70, 200],
  [230, 200, 40],
]
const W = 64
const H = 48
const LEGEND_Y = 40

interface Block {
  x: number
  y: number
  w: number
  h: number
  colour: number
}

function fill(img: RgbaImage, b: Block, rgb: Rgb = PALETTE[b.colour] as Rgb): void {
  for (let y = Math.max(0, b.y); y < Math.min(img.height, b.y + b.h); y++)
    for (let x = Math.max(0, b.x); x < Math.min(img.width, b.x + b.w); x++) {
      const p = (y * img.width + x) * 4
      img.data.set([...rgb, 255], p)
    }
}

/** A screen of palette colours: background, blocks above, and a legend row of 8×8 squares of every colour. */
function screen(blocks: readonly Block[]): RgbaImage {
  const img = { width: W, height: H, data: new Uint8Array(W * H * 4) }
  fill(img, { x: 0, y: 0, w: W, h: H, colour: 0 })
  for (const b of blocks) fill(img, b)
  for (let colour = 0; colour < PALETTE.length; colour++) fill(img, { x: colour * 8, y: LEGEND_Y, w: 8, h: 8, colour })
  return img
}

const withBlock = (img: RgbaImage, b: Block): RgbaImage => {
  const copy = { ...img, data: new Uint8Array(img.data) }
  fill(copy, b)
  return copy
}

/** The same screen with every palette colour k drawn as palette colour perm[k]. */
function inPalette(img: RgbaImage, perm: readonly number[]): RgbaImage {
  const data = new Uint8Array(img.data)
  for (let p = 0; p < data.length; p += 4) {
    const k = PALETTE.findIndex((c) => c[0] === data[p] && c[1] === data[p + 1] && c[2] === data[p + 2])
    if (k < 0) throw new Error('inPalette: a colour outside the palette')
    data.set(PALETTE[perm[k] as number] as Rgb, p)
  }
  return { ...img, data }
}

const box = (b: Block) => ({ x: b.x, y: b.y, width: b.w, height: b.h })

/** What the verdict is decided on. */
const verdictNumbers = (r: ExpectedChangeResult) => ({
  comparedPixels: r.comparedPixels,
  expectedChangedPixels: r.expectedChangedPixels,
  differingPixels: r.differingPixels,
  regionSimilarity: r.regionSimilarity,
  unchangedShare: r.unchangedShare,
  expectedChangeMissing: r.expectedChangeMissing,
  unexpectedPixels: r.unexpectedPixels,
  unexpectedRegions: r.unexpectedRegions,
  changedElsewhere: r.changedElsewhere,
  verdict: decideVerdict({ region: r }).status,
})

const colour = fc.integer({ min: 0, max: PALETTE.length - 1 })
const block = fc.record({
  x: fc.integer({ min: 0, max: W - 4 }),
  y: fc.integer({ min: 0, max: LEGEND_Y - 4 }),
  w: fc.integer({ min: 4, max: 24 }),
  h: fc.integer({ min: 4, max: 16 }),
  colour,
})
const clipped = (b: Block): Block => ({ ...b, w: Math.min(b.w, W - b.x), h: Math.min(b.h, LEGEND_Y - b.y) })
const permutation = fc.shuffledSubarray(
  PALETTE.map((_, k) => k),
  { minLength: PALETTE.length, maxLength: PALETTE.length },
)

describe('palette transfer on the expected-change check', () => {
  test.prop(
    [
      fc.array(block, { maxLength: 5 }),
      block,
      fc.constantFrom('right', 'missing', 'elsewhere', 'other colour'),
      block,
      colour,
      permutation,
    ],
    { numRuns: 150 },
  )(
    'a recoloured screen gives the verdict numbers of the uncoloured one',
    (blocks, change, outcome, elsewhere, otherColour, perm) => {
      const recordedBefore = screen(blocks.map(clipped))
      const step = clipped(change)
      // a theme shows beside the target: the legend, which holds every colour, is more than the region's 8-px margin
      // away from it (a recolouring seen only around the target is its own hover look, see below)
      fc.pre(step.y + step.h + 8 <= LEGEND_Y)
      const recordedAfter = withBlock(recordedBefore, step)
      const actualAfter =
        outcome === 'right'
          ? recordedAfter
          : outcome === 'missing'
            ? recordedBefore
            : outcome === 'elsewhere'
              ? withBlock(recordedBefore, clipped(elsewhere))
              : withBlock(recordedBefore, { ...step, colour: otherColour })
      const common = { recordedBefore, recordedAfter, targetBox: box(step) }
      const uncoloured = assessExpectedChange({ ...common, actualBefore: recordedBefore, actualAfter })
      const coloured = assessExpectedChange({
        ...common,
        actualBefore: inPalette(recordedBefore, perm),
        actualAfter: inPalette(actualAfter, perm),
      })
      expect(verdictNumbers(coloured)).toEqual(verdictNumbers(uncoloured))
      // the same screen is compared as it is; any other permutation is a palette change the map explains
      const identity = perm.every((to, from) => to === from)
      expect(uncoloured.palette?.applied).toBe(false)
      expect(coloured.palette?.applied).toBe(!identity)
      if (!identity) expect(coloured.palette?.explained).toBe(1)
    },
  )

  // a dark theme: background and text swap, the accent turns from blue to yellow
  const DARK = [1, 0, 2, 3, 5, 4]
  const cell = { x: 8, y: 8, w: 12, h: 10, colour: 4 }
  const recordedBefore = screen([{ x: 30, y: 4, w: 20, h: 6, colour: 1 }])
  const recordedAfter = withBlock(recordedBefore, cell)

  it('a right step under the new palette passes, and says the palette was mapped', () => {
    const r = assessExpectedChange({
      recordedBefore,
      recordedAfter,
      actualBefore: inPalette(recordedBefore, DARK),
      actualAfter: inPalette(recordedAfter, DARK),
      targetBox: box(cell),
    })
    expect(r.regionSimilarity).toBe(1)
    expect(r.palette).toMatchObject({ applied: true, explained: 1, colours: 4 })
    expect(decideVerdict({ region: r }).status).toBe('pass')
  })

  it('the change drawn at another place under the new palette fails', () => {
    const r = assessExpectedChange({
      recordedBefore,
      recordedAfter,
      actualBefore: inPalette(recordedBefore, DARK),
      actualAfter: inPalette(withBlock(recordedBefore, { ...cell, x: 40, y: 20 }), DARK),
      targetBox: box(cell),
    })
    expect(r.palette?.applied).toBe(true)
    expect(r.changedElsewhere).toBe(true)
    expect(r.expectedChangeMissing).toBe(true)
    expect(decideVerdict({ region: r }).status).toBe('fail')
  })

  it('no change at all under the new palette fails: the region still looks as before, in its new colours', () => {
    const r = assessExpectedChange({
      recordedBefore,
      recordedAfter,
      actualBefore: inPalette(recordedBefore, DARK),
      actualAfter: inPalette(recordedBefore, DARK),
      targetBox: box(cell),
    })
    expect(r.unchangedShare).toBe(1)
    expect(decideVerdict({ region: r }).status).toBe('fail')
  })

  it('a colour the screen before never showed is compared as recorded, never skipped', () => {
    // the step draws a colour absent from the before-frames: its pixels are compared raw, so a recoloured
    // version of it differs and the step does not pass on pixels nobody could map
    const unseen: Rgb = [120, 0, 160]
    const before = screen([])
    const after = { ...before, data: new Uint8Array(before.data) }
    fill(after, cell, unseen)
    const actualAfter = inPalette(before, DARK)
    fill(actualAfter, cell, [160, 120, 0])
    const r = assessExpectedChange({
      recordedBefore: before,
      recordedAfter: after,
      actualBefore: inPalette(before, DARK),
      actualAfter,
      targetBox: box(cell),
    })
    expect(r.palette?.applied).toBe(true)
    expect(r.differingPixels).toBe(cell.w * cell.h)
    expect(decideVerdict({ region: r }).status).not.toBe('pass')
  })

  it('a relaid-out screen is explained by no colour map: no transfer', () => {
    // fine structure of every colour, moved by one pixel now (a larger font, another layout)
    const noisy = screen([])
    let s = 7
    for (let y = 0; y < LEGEND_Y; y++)
      for (let x = 0; x < W; x++) {
        s = (s * 1103515245 + 12345) >>> 0
        fill(noisy, { x, y, w: 1, h: 1, colour: s % PALETTE.length })
      }
    const shifted = { ...noisy, data: new Uint8Array(noisy.data) }
    shifted.data.set(noisy.data.subarray(4), 0)
    const area = new Uint8Array(W * H).fill(1)
    const identity = { x: (v: number) => v, y: (v: number) => v }
    const learned = learnPalette(noisy, inPalette(shifted, DARK), area, identity, { threshold: 0.1 })
    expect(learned.explained).toBeLessThan(0.9)
    expect(learned.applied).toBe(false)
  })

  it('a window moved off its recorded place is no palette change: the desktop left there explains nothing', () => {
    // the form drawn at (0, 0) when recorded, at (16, 8) now, on a plain desktop: where it was recorded, the
    // current screen is one colour, which a map sending every colour there would "explain"
    const desktop: Block = { x: 0, y: 0, w: 2 * W, h: 2 * H, colour: 1 }
    const place = (img: RgbaImage, dx: number, dy: number) => {
      const out = { width: 2 * W, height: 2 * H, data: new Uint8Array(4 * W * H * 4) }
      fill(out, desktop)
      for (let y = 0; y < H; y++)
        out.data.set(img.data.subarray(y * W * 4, (y + 1) * W * 4), ((y + dy) * 2 * W + dx) * 4)
      return out
    }
    const r = assessExpectedChange({
      recordedBefore: place(recordedBefore, 0, 0),
      recordedAfter: place(recordedAfter, 0, 0),
      actualBefore: place(recordedBefore, W, H),
      actualAfter: place(recordedBefore, W, H),
      displacement: { x: W, y: H },
      targetBox: box(cell),
    })
    expect(r.palette?.applied).toBe(false)
    expect(r.expectedChangeMissing).toBe(true)
    expect(decideVerdict({ region: r }).status).toBe('fail')
    // where it was recorded, everything "turned" into the desktop's colour: explained, but by one colour
    const whereRecorded = new Uint8Array(4 * W * H)
    for (let y = 0; y < H; y++) whereRecorded.fill(1, y * 2 * W, y * 2 * W + W)
    const identity = { x: (v: number) => v, y: (v: number) => v }
    const learned = learnPalette(place(recordedBefore, 0, 0), place(recordedBefore, W, H), whereRecorded, identity, {
      threshold: 0.1,
    })
    expect(learned.explained).toBe(1)
    expect(learned.applied).toBe(false)
  })

  it('a map that draws the change in one colour before and after is not used', () => {
    // the new palette draws the accent (4) and the background (0) alike: the step's change cannot be seen
    const MERGED = [0, 1, 2, 3, 0, 5]
    const r = assessExpectedChange({
      recordedBefore,
      recordedAfter,
      actualBefore: inPalette(recordedBefore, MERGED),
      actualAfter: inPalette(recordedBefore, MERGED),
      targetBox: box(cell),
    })
    expect(r.palette?.explained).toBe(1)
    expect(r.palette?.applied).toBe(false)
    expect(decideVerdict({ region: r }).status).not.toBe('pass')
  })

  it('a relaid-out screen of the same colours is not explained by a map of a few misplaced edges', () => {
    // one-pixel lines of five colours on the background, one pixel further right now: most pixels are alike as
    // they are, and a map sending each line's colour to the background "explains" where the lines were, but
    // not where they are now
    const bars = screen([])
    for (let k = 1; k < PALETTE.length; k++) fill(bars, { x: k * 10, y: 0, w: 1, h: LEGEND_Y, colour: k })
    const moved = { ...bars, data: new Uint8Array(bars.data) }
    moved.data.set(bars.data.subarray(0, bars.data.length - 4), 4)
    const everywhere = new Uint8Array(W * H).fill(1)
    const identity = { x: (v: number) => v, y: (v: number) => v }
    const learned = learnPalette(bars, moved, everywhere, identity, { threshold: 0.1 })
    expect(learned.explained).toBeGreaterThanOrEqual(0.9)
    expect((learned.explained - learned.asIs) * learned.pixels).toBeGreaterThanOrEqual(64)
    expect(learned.applied).toBe(false)
  })

  it('a blend of two colours the map knows becomes the same blend of their new colours', () => {
    const before = screen([])
    const learned = learnPalette(
      before,
      inPalette(before, DARK),
      new Uint8Array(W * H).fill(1),
      {
        x: (v: number) => v,
        y: (v: number) => v,
      },
      { threshold: 0.1 },
    )
    // antialiased text: a quarter of the way from the background (244) to the text colour (20)
    const edge = { width: 1, height: 1, data: new Uint8Array([188, 188, 188, 255]) }
    expect([...recolour(edge, learned).data]).toEqual([76, 76, 76, 255])
  })
})

describe('text and lines of one colour', () => {
  // a board: black grid lines that stay black, and black digits (antialiased into the grey cells) that turn
  // white, the cells turning dark
  const [Wb, Hb] = [160, 120]
  const grey: Rgb = [200, 200, 200]
  const dark: Rgb = [40, 50, 60]
  const mix = (a: Rgb, b: Rgb, t: number): Rgb =>
    [0, 1, 2].map((k) => Math.round((a[k] as number) + t * ((b[k] as number) - (a[k] as number)))) as Rgb
  function board(cell: Rgb, line: Rgb, digit: Rgb): RgbaImage {
    const img = { width: Wb, height: Hb, data: new Uint8Array(Wb * Hb * 4) }
    fill(img, { x: 0, y: 0, w: Wb, h: Hb, colour: 0 }, cell)
    for (const y of [10, 40, 70, 100]) fill(img, { x: 0, y, w: Wb, h: 1, colour: 0 }, line)
    for (let k = 0; k < 8; k++) {
      const x = 8 + k * 18
      fill(img, { x, y: 20, w: 2, h: 6, colour: 0 }, digit)
      fill(img, { x: x - 1, y: 20, w: 1, h: 6, colour: 0 }, mix(cell, digit, 0.5))
      fill(img, { x: x + 2, y: 20, w: 1, h: 6, colour: 0 }, mix(cell, digit, 0.25))
    }
    return img
  }
  const recorded = board(grey, [0, 0, 0], [0, 0, 0])
  const now = board(dark, [0, 0, 0], [255, 255, 255])
  const everywhere = new Uint8Array(Wb * Hb).fill(1)
  const identity = { x: (v: number) => v, y: (v: number) => v }

  it('learns what the digits turned into from their antialiased edges, though thin black is mostly lines', () => {
    const learned = learnPalette(recorded, now, everywhere, identity, { threshold: 0.1 })
    expect(learned.applied).toBe(true)
    // as a structure, black stayed black (the lines); as text on the cells it turned white
    expect(learned.onGround.get(0x000000)).toBe(0xffffff)
    // a digit's edge a third of the way into a cell: a third of the way from the dark cell to white
    const edge = {
      width: 3,
      height: 1,
      data: new Uint8Array([...grey, 255, ...mix(grey, [0, 0, 0], 1 / 3), 255, ...grey, 255]),
    }
    const third = mix(dark, [255, 255, 255], 1 / 3)
    const got = recolour(edge, learned).data.subarray(4, 7)
    for (const k of [0, 1, 2]) expect(Math.abs((got[k] as number) - (third[k] as number))).toBeLessThanOrEqual(1)
  })
})

describe('verifyStep under a palette change', () => {
  it("names the palette change in the verdict's reason", async () => {
    const DARK = [1, 0, 2, 3, 5, 4]
    const cell = { x: 8, y: 8, w: 12, h: 10, colour: 4 }
    const before = screen([])
    const after = withBlock(before, cell)
    const frame = (img: RgbaImage) => ({ ...img, channels: 4 as const })
    const result = await verifyStep({
      actionIndex: 0,
      description: 'Click the cell',
      expected: frame(after),
      recordedBefore: frame(before),
      actualBefore: frame(inPalette(before, DARK)),
      actual: frame(inPalette(after, DARK)),
      targetBox: box(cell),
    })
    expect(result.finalResult).toBe('pass')
    expect(result.reason).toMatch(
      /Compared after the palette change \(4 colours mapped, the screen before explained at 100 %\)/,
    )
    expect(result.details?.region).toMatchObject({ palette: { applied: true, explained: 1, colours: 4 } })
  })
})

describe('the target lit by the pointer before the step (daily-loop bench, stisla dropdown toggle)', () => {
  it("a person's pointer resting on the target when recorded, none on replay: no palette change, the step passes", () => {
    // the recorded before-frame shows the button in its hover colour (the person's pointer on it), the replay's in
    // its own (the pointer has not reached it yet); after the click both show the menu, the button lit
    const hovered: Rgb = [60, 60, 60]
    const target = { x: 8, y: 4, w: 16, h: 8, colour: 2 }
    const menu = { x: 8, y: 16, w: 40, h: 16, colour: 5 }
    const lit = (img: RgbaImage) => {
      fill(img, target, hovered)
      return img
    }
    const recordedBefore = lit(screen([]))
    const actualBefore = screen([target])
    const recordedAfter = lit(screen([menu]))
    const actualAfter = lit(screen([menu]))
    const r = assessExpectedChange({
      recordedBefore,
      recordedAfter,
      actualBefore,
      actualAfter,
      targetBox: { x: target.x, y: target.y, width: target.w, height: target.h },
    })
    expect(r.palette?.applied).toBe(false)
    expect(r.regionSimilarity).toBe(1)
    expect(decideVerdict({ region: r }).status).toBe('pass')
  })
})
