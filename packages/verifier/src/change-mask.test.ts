import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { changedRegions, changeMask, forEachSet } from './change-mask'

/** A mask of `n` bytes with the given indexes set, as a view starting `offset` bytes into its buffer. */
function maskAt(n: number, set: readonly number[], offset: number): Uint8Array {
  const mask = new Uint8Array(new ArrayBuffer(n + offset), offset, n)
  for (const i of set) mask[i] = 1
  return mask
}

describe('forEachSet (the set pixels of a mask, its zero runs skipped a word at a time)', () => {
  test.prop(
    [
      fc
        .integer({ min: 0, max: 70 })
        .chain((n) => fc.tuple(fc.constant(n), fc.uniqueArray(fc.nat({ max: Math.max(0, n - 1) }), { maxLength: n }))),
      fc.integer({ min: 0, max: 3 }),
    ],
    { numRuns: 200 },
  )('visits exactly the set indexes, in order, whatever the length and the byte offset', ([n, set], offset) => {
    const mask = maskAt(n, n === 0 ? [] : set, offset)
    const seen: number[] = []
    forEachSet(mask, (i) => seen.push(i))
    expect(seen).toEqual([...(n === 0 ? [] : set)].sort((a, b) => a - b))
  })

  it('lets the visitor clear the index it is given', () => {
    const mask = maskAt(9, [0, 4, 8], 0)
    forEachSet(mask, (i) => {
      mask[i] = 0
    })
    expect([...mask]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0])
  })
})

describe('changeMask', () => {
  it('marks the pixels whose colour differs, whether the pixel data starts on a word boundary or not', () => {
    // 3×1: black, white, black; then the middle one turned black, and the alpha of the last one changed alone
    const a = [0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255]
    const b = [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 128]
    for (const offset of [0, 1]) {
      const bytes = (px: number[]) => {
        const out = new Uint8Array(new ArrayBuffer(px.length + offset), offset, px.length)
        out.set(px)
        return out
      }
      const mask = changeMask({ width: 3, height: 1, data: bytes(a) }, { width: 3, height: 1, data: bytes(b) })
      expect([...mask]).toEqual([0, 1, 0])
    }
  })

  it('groups the changed pixels of an odd-sized mask into their boxes', () => {
    // 13×5: two pixels near the top-left corner, one at the bottom-right corner (far apart: two regions)
    const mask = new Uint8Array(13 * 5)
    mask[0] = 1
    mask[14] = 1
    mask[13 * 5 - 1] = 1
    const boxes = changedRegions(mask, 13, 5, { cellSize: 2, gapCells: 0 })
      .map(({ x, y, width, height, pixels }) => ({ x, y, width, height, pixels }))
      .sort((p, q) => p.x - q.x)
    expect(boxes).toEqual([
      { x: 0, y: 0, width: 2, height: 2, pixels: 2 },
      { x: 12, y: 4, width: 1, height: 1, pixels: 1 },
    ])
  })
})
