import { averageHash, hammingDistance } from '@qa/vision'
import { describe, expect, it } from 'vitest'
import { buttonScreen, type TestButton } from './__tests__/screens'
import { regionalTransition, screenTransitionOf } from './regional-transition'

// a full-HD program window with a menu bar of buttons; clicking "File" opens a 160×120 menu under it
const bar: TestButton[] = [0, 1, 2, 3, 4].map((i) => ({
  x: 20 + i * 130,
  y: 10,
  width: 120,
  height: 32,
  rgb: [60, 60, 70] as [number, number, number],
  label: i + 1,
}))
const closed = buttonScreen(1920, 1080, bar)
const open = buttonScreen(1920, 1080, [
  ...bar,
  { x: 20, y: 44, width: 160, height: 120, rgb: [250, 250, 210], label: 9 },
])

describe('regionalTransition', () => {
  it('sees a menu opening that the whole-screen hash reads as "no change"', async () => {
    // the old rule: the whole screen's 8×8 average hash, changed at 5 bits
    const whole = hammingDistance(await averageHash(closed), await averageHash(open))
    expect(whole).toBeLessThan(5)
    const r = regionalTransition(closed, open)
    expect(r.changed).toBe(true)
    expect(r.transitionType).toBe('partial_change')
    expect(r.changedTiles).toEqual([0]) // the top-left tile of the 4×4 grid, where the menu opened
    expect(screenTransitionOf(closed, open, whole)).toMatchObject({ changed: true, transitionType: 'partial_change' })
  })

  it('reads identical frames as no change, and a new screen as a scene change', () => {
    expect(regionalTransition(closed, closed)).toEqual({
      changed: false,
      transitionType: 'none',
      changedTiles: [],
      maxTileDistance: 0,
    })
    const inverted = { ...closed, data: closed.data.map((v, i) => (i % 4 === 3 ? v : 255 - v)) }
    const gridShifted = buttonScreen(
      1920,
      1080,
      Array.from({ length: 16 }, (_, i) => ({
        x: (i % 4) * 480 + 100,
        y: Math.floor(i / 4) * 270 + 60,
        width: 200,
        height: 120,
        rgb: [200, 40, 40] as [number, number, number],
        label: i,
      })),
    )
    expect(regionalTransition(closed, gridShifted).transitionType).toBe('scene_change')
    expect(regionalTransition(closed, inverted).changed).toBe(true)
  })
})
