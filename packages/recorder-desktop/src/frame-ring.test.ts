import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import type { RgbaFrame } from './frame'
import { createFrameRing, ringCapacityFor } from './frame-ring'

const frame = (v: number): RgbaFrame => ({ width: 1, height: 1, data: new Uint8Array([v, v, v, 255]), channels: 4 })

describe('createFrameRing', () => {
  it('keeps at most `capacity` frames, dropping the oldest', () => {
    const ring = createFrameRing({ capacity: 3 })
    for (let i = 0; i < 5; i++) ring.push(frame(i), i * 100)
    expect(ring.size).toBe(3)
    expect(ring.frames().map((f) => f.timeMs)).toEqual([200, 300, 400])
  })

  it('gives the newest frame older than a click, never one taken at or after it', () => {
    const ring = createFrameRing({ capacity: 10 })
    for (let i = 0; i < 5; i++) ring.push(frame(i), i * 100)
    expect(ring.newestBefore(250)?.timeMs).toBe(200)
    expect(ring.newestBefore(300)?.timeMs).toBe(200)
    expect(ring.newestBefore(0)).toBeNull()
    expect(ring.firstAtOrAfter(250)?.timeMs).toBe(300)
    expect(ring.firstAtOrAfter(401)).toBeNull()
  })

  it('sizes the ring from the window and interval', () => {
    expect(ringCapacityFor(2000, 100)).toBe(21)
    expect(() => ringCapacityFor(2000, 0)).toThrow(/positive/)
    expect(() => createFrameRing({ capacity: 0 })).toThrow(/capacity/)
  })

  // the "before" screenshot is the newest frame older than the click.
  test.prop(
    [
      fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 80 }),
      fc.integer({ min: 1, max: 30 }),
      fc.integer({ min: 0, max: 3000 }),
    ],
    {
      numRuns: 200,
    },
  )('newestBefore(t) is the latest kept frame with time < t', (gaps, capacity, click) => {
    const ring = createFrameRing({ capacity })
    let t = 0
    const all: number[] = []
    for (const g of gaps) {
      t += g
      ring.push(frame(0), t)
      all.push(t)
    }
    const kept = all.slice(-capacity)
    const expected = [...kept].reverse().find((x) => x < click) ?? null
    expect(ring.newestBefore(click)?.timeMs ?? null).toBe(expected)
    expect(ring.size).toBe(Math.min(capacity, gaps.length))
  })
})
