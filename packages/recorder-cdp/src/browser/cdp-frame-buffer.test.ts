import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { newestFrameBefore, pruneFrames } from './cdp-frame-buffer'

const frames = fc.array(fc.record({ atMs: fc.integer({ min: 0, max: 10_000 }) }), { maxLength: 30 })

describe('newestFrameBefore — the before-screenshot is the newest frame older than the pointer-down', () => {
  it('takes the frame just before, never one shown at or after the event', () => {
    const f = [{ atMs: 100 }, { atMs: 250 }, { atMs: 300 }, { atMs: 400 }]
    expect(newestFrameBefore(f, 300)).toBe(f[1])
    expect(newestFrameBefore(f, 301)).toBe(f[2])
    expect(newestFrameBefore(f, 100)).toBeNull()
    expect(newestFrameBefore([], 100)).toBeNull()
  })
  test.prop([frames, fc.integer({ min: 0, max: 10_000 })], { numRuns: 200 })(
    'is older than the event and no other older frame is newer',
    (fs, t) => {
      const got = newestFrameBefore(fs, t)
      const older = fs.filter((f) => f.atMs < t)
      if (older.length === 0) expect(got).toBeNull()
      else {
        expect(got?.atMs).toBeLessThan(t)
        expect(got?.atMs).toBe(Math.max(...older.map((f) => f.atMs)))
      }
    },
  )
})

describe('pruneFrames', () => {
  test.prop(
    [frames, fc.integer({ min: 0, max: 12_000 }), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 10 })],
    {
      numRuns: 200,
    },
  )('keeps at most maxFrames, and the answer for any event within the window is unchanged', (fs, now, keepMs, max) => {
    const kept = pruneFrames(fs, now, keepMs, max)
    expect(kept.length).toBeLessThanOrEqual(Math.max(max, 0) || 1)
    // with room for every frame of the window, an event in the window still finds the same frame
    if (fs.filter((f) => f.atMs >= now - keepMs).length + 1 <= max)
      for (const t of [now - keepMs, now - Math.floor(keepMs / 2), now, now + 1])
        expect(newestFrameBefore(kept, t)?.atMs).toBe(newestFrameBefore(fs, t)?.atMs)
  })
  test.prop(
    [
      frames,
      fc.integer({ min: 0, max: 12_000 }),
      fc.integer({ min: 1, max: 5_000 }),
      fc.integer({ min: 1, max: 10 }),
      fc.array(fc.integer({ min: 0, max: 12_000 }), { maxLength: 6 }),
    ],
    { numRuns: 200 },
  )(
    'keeps the frame before every pinned input, however old (a late step still finds its moment)',
    (fs, now, keepMs, max, pins) => {
      const kept = pruneFrames(fs, now, keepMs, max, pins)
      for (const t of pins) expect(newestFrameBefore(kept, t)?.atMs).toBe(newestFrameBefore(fs, t)?.atMs)
      expect(kept.length).toBeLessThanOrEqual(Math.max(max, 1) + pins.length)
    },
  )
})
