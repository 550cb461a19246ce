import { describe, expect, it } from 'vitest'
import { resampleBilinear } from './resample'

describe('resampleBilinear', () => {
  it('keeps a frame of the asked size as it is', () => {
    const f = { width: 1, height: 1, data: new Uint8Array([1, 2, 3, 4]), channels: 4 as const }
    expect(resampleBilinear(f, 1, 1)).toBe(f)
  })

  it('blends each channel of an RGBA frame between its pixel centres', () => {
    // black and white side by side, opaque: doubled in width, the inner columns are 1/4 and 3/4 of the way
    const f = { width: 2, height: 1, data: new Uint8Array([0, 0, 0, 255, 200, 100, 40, 255]), channels: 4 as const }
    const out = resampleBilinear(f, 4, 1)
    expect(out.channels).toBe(4)
    expect(Array.from(out.data)).toEqual([0, 0, 0, 255, 50, 25, 10, 255, 150, 75, 30, 255, 200, 100, 40, 255])
  })

  it('halves a grey frame by averaging neighbouring pixel pairs', () => {
    const f = { width: 4, height: 1, data: new Uint8Array([0, 100, 200, 40]), channels: 1 as const }
    const out = resampleBilinear(f, 2, 1)
    expect(Array.from(out.data)).toEqual([50, 120])
  })
})
