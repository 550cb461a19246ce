import { describe, expect, it } from 'vitest'
import { nativeListArea } from './step-pairs'

describe('nativeListArea — where a native drop-down list is drawn', () => {
  it('below the select, at least as wide, where there is room', () => {
    const area = nativeListArea({ x: 293, y: 334, width: 296, height: 36 }, 720)
    expect(area.y).toBe(370)
    expect(area.x).toBeLessThanOrEqual(293)
    expect(area.x + area.width).toBeGreaterThanOrEqual(293 + 296)
    expect(area.height).toBeGreaterThan(0)
  })
  it('above the select when the viewport ends before the list would', () => {
    const area = nativeListArea({ x: 20, y: 650, width: 200, height: 30 }, 720)
    expect(area.y + area.height).toBe(650)
  })
})
