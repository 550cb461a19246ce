import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import type { Frame } from './frame'
import { labelInkBox, labelReadImage, labelReadOf } from './label-read'

/** A light grey frame with dark vertical bars (glyph stems, borders) where given. */
function frameWith(width: number, height: number, bars: { x: number; y: number; height: number }[]): Frame {
  const data = new Uint8Array(width * height * 4).fill(220)
  for (const b of bars)
    for (let y = b.y; y < b.y + b.height; y++) data.fill(20, (y * width + b.x) * 4, (y * width + b.x) * 4 + 3)
  return { width, height, data, channels: 4 }
}

/** Glyph stems every 3 px from `from` to `to` on rows 10–21. */
const stems = (from: number, to: number) =>
  Array.from({ length: Math.floor((to - from) / 3) + 1 }, (_, i) => ({ x: from + 3 * i, y: 10, height: 12 }))

describe('labelInkBox (the text a read found, widened over its own glyphs)', () => {
  // one word from x 20 to 59, the next a menu item's gap away (x 80), a frame's border (a line, rows 0–39) at x 12
  const frame = frameWith(120, 40, [...stems(20, 59), ...stems(80, 110), { x: 12, y: 0, height: 40 }])
  // a stem's stroke is the step between its neighbours: the word's box reaches one pixel past its outer stems
  const isTheWord = (box: { x: number; y: number; width: number; height: number }) => {
    expect(box.x).toBe(19)
    expect(box.x + box.width - 1).toBe(60)
    expect(box.y).toBe(10)
    expect(box.height).toBe(12)
  }

  it('a read cut short at the left gets its word back, and not the next word nor the border', () => {
    isTheWord(labelInkBox(frame, { x: 35, y: 10, width: 25, height: 12 }))
  })

  // a read's box covers most of its word: each end within twice the text's height (24 px) of the word's
  test.prop([fc.integer({ min: 20, max: 35 }), fc.integer({ min: 36, max: 59 })], { numRuns: 100 })(
    'from any read of most of the word, the same word',
    (x, end) => {
      isTheWord(labelInkBox(frame, { x, y: 10, width: end - x + 1, height: 12 }))
    },
  )

  it('a box holding a field’s frame (KMines’ status bar on the Windows style): the glyph rows, up to the frame', () => {
    // "00:00" (x 20–44) | the drop-down's frame (x 50 and 52, rows 4–27) | "Easy" (x 56–80), its read box the
    // frame's rows: the word's own rows, and the widening stops at the frame instead of gluing "00:00 Easy"
    const f = frameWith(100, 32, [
      ...stems(20, 44).map((s) => ({ ...s, y: 8 })),
      { x: 50, y: 4, height: 24 },
      { x: 52, y: 4, height: 24 },
      ...stems(56, 80).map((s) => ({ ...s, y: 8 })),
    ])
    const box = labelInkBox(f, { x: 60, y: 4, width: 21, height: 24 })
    expect(box.y).toBe(8)
    expect(box.height).toBe(12)
    expect(box.x).toBeGreaterThan(52)
    expect(box.x).toBeLessThanOrEqual(56)
    expect(box.x + box.width - 1).toBeGreaterThanOrEqual(80)
  })
})

describe('labelReadImage and labelReadOf (the label alone, enlarged, and its words mapped back)', () => {
  it('a 12 px label is enlarged 3×, stretched to black on white, in a margin of its own background', () => {
    // mid-grey text (100) on a darker grey (60): after stretching, the ground is 0 and the text 255
    const data = new Uint8Array(40 * 20 * 4).fill(60)
    for (let y = 4; y < 16; y++) for (let x = 10; x < 30; x += 4) data.fill(100, (y * 40 + x) * 4, (y * 40 + x) * 4 + 3)
    const read = labelReadImage({ width: 40, height: 20, data, channels: 4 }, { x: 10, y: 4, width: 20, height: 12 })
    expect(read.scale).toBe(3)
    const px = (x: number, y: number) => read.image.data[(y * read.image.width + x) * 4]
    expect(px(0, 0)).toBe(0)
    expect(px(read.pad + 1 * read.scale, read.pad + 4 * read.scale)).toBe(255)
  })

  test.prop(
    [
      fc.integer({ min: 0, max: 200 }),
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 8, max: 60 }),
      fc.integer({ min: 6, max: 30 }),
    ],
    { numRuns: 100 },
  )('a word read where the label is drawn maps back onto the label’s box', (x, y, width, height) => {
    const frame = frameWith(320, 160, [])
    const label = { x, y, width, height }
    const read = labelReadImage(frame, label)
    // the word as OCR would box it on the enlarged image: exactly over the label's pixels
    const word = {
      text: 'Easy',
      confidence: 0.9,
      boundingBox: {
        x: read.pad + (x - read.region.x) * read.scale,
        y: read.pad + (y - read.region.y) * read.scale,
        width: width * read.scale,
        height: height * read.scale,
      },
    }
    const got = labelReadOf([word], read, label)
    expect(got?.boundingBox).toEqual(label)
    expect(got?.text).toBe('Easy')
    // a word off the label's rows (a neighbouring line cut into by the margin) is not the label's
    const above = { ...word, text: 'Medium', boundingBox: { ...word.boundingBox, y: 0, height: read.pad } }
    expect(labelReadOf([above, word], read, label)?.text).toBe('Easy')
  })
})
