import { describe, expect, it } from 'vitest'
import type { Frame } from '../image/match-template'
import { elementStillThere, matchWithSurroundings } from './surroundings'

describe('elementStillThere: an empty cell has no label to agree on', () => {
  it('a centre of one colour but for a faint pixel counts as flat (a sudoku cell scaled 1.38×)', () => {
    // a 40×20 crop: a dark border, a white inside with one faint grey pixel in the middle
    const crop = { width: 40, height: 20, data: new Uint8Array(40 * 20 * 4).fill(255), channels: 4 as const }
    for (let x = 0; x < 40; x++) for (const y of [0, 19]) crop.data.fill(60, (y * 40 + x) * 4, (y * 40 + x) * 4 + 3)
    crop.data.fill(240, (10 * 40 + 20) * 4, (10 * 40 + 20) * 4 + 3)
    // the same cell on the screen without the faint pixel
    const now = { width: 100, height: 60, data: new Uint8Array(100 * 60 * 4).fill(255), channels: 4 as const }
    for (let x = 30; x < 70; x++) for (const y of [20, 39]) now.data.fill(60, (y * 100 + x) * 4, (y * 100 + x) * 4 + 3)
    const r = elementStillThere(now, crop, { x: 30, y: 20, width: 40, height: 20 }, 0.8, 1)
    expect(r).toMatchObject({ ok: true, detail: expect.stringMatching(/centre is flat/) })
  })
})

// Tk's rolodex on a larger font: the surroundings of a click in the middle of a wide entry (rows of
// entries above and below, no label in them) fit as well anywhere along the row, and the found offset sent the
// typing's expected region 83 px off the text
describe('matchWithSurroundings: a place along a uniform stretch is no place', () => {
  /** A grey window with rows of wide white entries (1 px dark border) at (x, y). */
  function entries(x: number, y: number): Frame {
    const W = 1100
    const H = 500
    const data = new Uint8Array(W * H * 4).fill(217)
    for (let i = 3; i < data.length; i += 4) data[i] = 255
    for (let row = 0; row < 6; row++) {
      const top = y + row * 27
      for (let yy = top; yy < top + 23; yy++)
        for (let xx = x; xx < x + 900; xx++) {
          const edge = yy === top || yy === top + 22 || xx === x || xx === x + 899
          const v = edge ? 90 : 255
          data.set([v, v, v], (yy * W + xx) * 4)
        }
    }
    return { width: W, height: H, channels: 4, data }
  }
  it('refuses surroundings that fit as well a quarter crop to the side', () => {
    const recorded = entries(100, 60)
    const cropBox = { x: 502, y: 104, width: 96, height: 40 }
    const r = matchWithSurroundings(entries(150, 90), recorded, cropBox, {
      threshold: 0.8,
      ambiguityMargin: 0.03,
      lookAlikeMargin: 0.1,
    })
    expect(r.match).toBeNull()
    expect(r.detail).toMatch(/fits as well \d+ px (left|right) \(a uniform stretch: no place along it\)/)
  })
})
