import { describe, expect, it } from 'vitest'
import { changedTiles, createAnimationLearner, tilesToBoxes } from './animated-regions'
import { solidFrame } from './memory-screen'

const W = 160
const H = 96
const plain = solidFrame(W, H, [30, 42, 68])
/** The plain screen with a 10×6 blob at (x, y) in `rgb` (a sprite's frame, a caret). */
const blob = (x: number, y: number, rgb: [number, number, number] = [250, 250, 250]) =>
  solidFrame(W, H, [30, 42, 68], [{ x, y, width: 10, height: 6, rgb }])

describe('changedTiles', () => {
  it('names the 16 px tiles any differing pixel falls in, row-major', () => {
    // a blob at (20, 20)–(29, 25) lies in tile column 1, row 1; 160 px = 10 columns
    expect(changedTiles(plain, blob(20, 20))).toEqual([11])
    // across a tile border: columns 0 and 1 of row 0
    expect(changedTiles(plain, blob(10, 2))).toEqual([0, 1])
    expect(changedTiles(plain, plain)).toEqual([])
  })
})

describe('tilesToBoxes', () => {
  it('joins touching tiles into one box and clips it to the frame', () => {
    // 10 columns × 6 rows; tiles 8, 9 (row 0, last two columns) and 19 (row 1, last column) touch; 40 stands alone
    expect(tilesToBoxes([8, 9, 19, 40], 150, H)).toEqual([
      { x: 128, y: 0, width: 22, height: 32 },
      { x: 0, y: 64, width: 16, height: 16 },
    ])
  })
})

describe('createAnimationLearner', () => {
  it('a blink seen in quiet frame pairs over more than 1.5 s is animated; the same changes with input are not', () => {
    const quiet = createAnimationLearner()
    const busy = createAnimationLearner()
    const frames = [plain, blob(20, 20), plain, blob(20, 20), plain, blob(20, 20)]
    for (let i = 1; i < frames.length; i++) {
      quiet.observe(frames[i - 1] as typeof plain, frames[i] as typeof plain, i * 400, true)
      busy.observe(frames[i - 1] as typeof plain, frames[i] as typeof plain, i * 400, false)
    }
    expect(quiet.regionsBetween(0, 3000)).toEqual([{ x: 16, y: 16, width: 16, height: 16 }])
    expect(busy.regionsBetween(0, 3000)).toEqual([])
    // a part of the time: too few changes, too short a span
    expect(quiet.regionsBetween(1000, 3000)).toEqual([])
  })

  it('late drawing (a screen drawn in two goes) and a fade (six changes in 900 ms) are not animation', () => {
    const late = createAnimationLearner()
    late.observe(plain, blob(20, 20), 100, true)
    late.observe(blob(20, 20), blob(20, 20, [200, 60, 60]), 800, true)
    expect(late.regionsBetween(0, 2000)).toEqual([])
    const fade = createAnimationLearner()
    const steps: [number, number, number][] = [50, 90, 130, 170, 210, 250].map((v) => [v, v, v])
    let prev = plain
    steps.forEach((rgb, i) => {
      const next = blob(20, 20, rgb)
      fade.observe(prev, next, 100 + i * 180, true)
      prev = next
    })
    expect(fade.regionsBetween(0, 2000)).toEqual([])
  })
})
