import { describe, expect, it } from 'vitest'
import { crop, original, source, target } from '../__tests__/screen-step'
import { noiseFrame } from '../internal/synthetic'
import type { UiAnalysis } from './find-matching-element'
import { locateOnScreen } from './locate-on-screen'

describe('locateOnScreen: the semantic match', () => {
  it('uses the semantic match when the element moved and the analysis finds it', async () => {
    const moved = noiseFrame(400, 300, 12, 6, 4)
    const ui: UiAnalysis = {
      width: 400,
      height: 300,
      elements: [{ type: 'button', text: '입장', boundingBox: { x: 300, y: 200, width: 48, height: 30 } }],
    }
    const r = await locateOnScreen({ original, target, crop }, source(moved, ui))
    expect(r.strategy).toBe('semantic')
    expect(r.point).toEqual({ x: 324, y: 215 })
    expect(r.attempts[0]).toMatchObject({ strategy: 'direct', outcome: 'below_threshold' })
  })
})
