import { describe, expect, it } from 'vitest'
import { crop, original, source, target } from '../__tests__/screen-step'
import { noiseFrame, pasteScaled } from '../internal/synthetic'
import type { UiAnalysis } from './find-matching-element'
import { locateOnScreen } from './locate-on-screen'

describe('locateOnScreen', () => {
  it('falls to template matching when the analysis is not confident, keeping the click offset', async () => {
    const moved = noiseFrame(400, 300, 13, 6, 4)
    pasteScaled(moved, crop, 40, 60, 1)
    const ui: UiAnalysis = {
      elements: [{ type: 'icon', text: '설정', boundingBox: { x: 5, y: 5, width: 20, height: 20 } }],
    }
    const r = await locateOnScreen(
      { original, target, crop, cropBox: { x: 180, y: 130, width: 48, height: 30 } },
      source(moved, ui),
    )
    expect(r.strategy).toBe('template')
    expect(r.point?.x).toBeCloseTo(64, 0)
    expect(r.point?.y).toBeCloseTo(75, 0)
    expect(r.attempts.map((a) => a.outcome)).toEqual(['below_threshold', 'below_threshold', 'matched'])
  })
})
