import { describe, expect, it } from 'vitest'
import { crop, original, recorded, source, target } from '../__tests__/screen-step'
import { noiseFrame } from '../internal/synthetic'
import { locateOnScreen } from './locate-on-screen'

describe('locateOnScreen: the fast path (direct)', () => {
  it('takes the fast path without an analysis when the pixels are unchanged', async () => {
    const s = source(recorded, { elements: [] })
    const r = await locateOnScreen({ original, target, crop, cropBox: { x: 180, y: 130, width: 48, height: 30 } }, s)
    expect(r).toMatchObject({ status: 'found', strategy: 'direct', point: original })
    expect(s.analyses).toBe(0)
  })

  it('leaves the recorded animation out of the fast path: a sprite over the item, the item unchanged', async () => {
    // a sprite (a 20×30 block of other pixels) over the left part of the item on today's screen
    const now = { ...recorded, data: new Uint8Array(recorded.data) }
    const sprite = noiseFrame(20, 30, 99, 2, 4)
    for (let j = 0; j < 30; j++)
      for (let i = 0; i < 20; i++)
        for (let c = 0; c < 4; c++)
          now.data[((130 + j) * now.width + 180 + i) * 4 + c] = sprite.data[(j * 20 + i) * 4 + c] as number
    const cropBox = { x: 180, y: 130, width: 48, height: 30 }
    const blind = await locateOnScreen({ original, target, crop, cropBox }, source(now, { elements: [] }))
    expect(blind.attempts[0]).toMatchObject({ strategy: 'direct', outcome: 'below_threshold' })
    const animated = [{ x: 176, y: 128, width: 24, height: 34 }] // where the sprite moves, in screen pixels
    const r = await locateOnScreen({ original, target, crop, cropBox, animated }, source(now, { elements: [] }))
    expect(r).toMatchObject({ status: 'found', strategy: 'direct', point: original })
  })
})
