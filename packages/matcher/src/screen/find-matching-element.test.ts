import { fc, test } from '@fast-check/vitest'
import type { TargetElement } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { decideReplayTarget, findMatchingElement, type UiAnalysis } from './find-matching-element'

const start: TargetElement = {
  type: 'button',
  text: '시작',
  description: '게임 시작 버튼',
  boundingBox: { x: 926, y: 259, width: 80, height: 40 },
  confidence: 0.95,
}

describe('decideReplayTarget', () => {
  const point = fc.record({ x: fc.integer({ min: 0, max: 4000 }), y: fc.integer({ min: 0, max: 3000 }) })
  // confidence ≥ threshold → matched coordinates, else the original ones
  test.prop([fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), point, point], {
    numRuns: 200,
  })('uses the match exactly when confidence ≥ threshold', (confidence, threshold, center, original) => {
    const d = decideReplayTarget({ center, confidence }, original, threshold)
    if (confidence >= threshold) expect(d).toMatchObject({ useMatch: true, method: 'semantic', coords: center })
    else expect(d).toMatchObject({ useMatch: false, method: 'coordinate', coords: original })
  })

  // the same with the default threshold 0.7, and no match at all
  test.prop([fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }), point], { numRuns: 100 })(
    'defaults to 0.7 and falls back without a match',
    (confidence, original) => {
      const d = decideReplayTarget(confidence === undefined ? null : { center: { x: 1, y: 2 }, confidence }, original)
      expect(d.useMatch).toBe(confidence !== undefined && confidence >= 0.7)
      if (!d.useMatch) expect(d.coords).toEqual(original)
    },
  )

  it('rejects a threshold outside [0, 1]', () => {
    expect(() => decideReplayTarget(null, { x: 0, y: 0 }, 1.5)).toThrow(
      expect.objectContaining({ code: 'MATCHER_BAD_OPTION' }),
    )
  })
})

describe('findMatchingElement', () => {
  it('finds a moved button by its text, above the 0.7 threshold', () => {
    const ui: UiAnalysis = {
      width: 1920,
      height: 1080,
      elements: [
        { type: 'button', text: '설정', boundingBox: { x: 926, y: 259, width: 80, height: 40 } },
        {
          type: 'button',
          text: '시작',
          description: '게임 시작 버튼',
          boundingBox: { x: 900, y: 700, width: 84, height: 40 },
        },
        { type: 'icon', boundingBox: { x: 10, y: 10, width: 32, height: 32 } },
      ],
    }
    const m = findMatchingElement(start, ui)
    expect(m?.element.text).toBe('시작')
    expect(m?.center).toEqual({ x: 942, y: 720 })
    expect(m?.confidence).toBeGreaterThanOrEqual(0.7)
    // the different button at the very same place is not good enough on its own
    const onlyWrong = findMatchingElement(start, { elements: [ui.elements[0] as UiAnalysis['elements'][0]] })
    expect(onlyWrong?.confidence).toBeLessThan(0.7)
    expect(decideReplayTarget(onlyWrong, { x: 966, y: 279 })).toMatchObject({
      method: 'coordinate',
      coords: { x: 966, y: 279 },
    })
  })

  it('matches a reworded Korean label (시작 → 시작하기) and uses the element centre when given', () => {
    const ui: UiAnalysis = {
      elements: [
        {
          type: 'btn',
          text: '시작하기',
          boundingBox: { x: 920, y: 255, width: 96, height: 44 },
          center: { x: 970, y: 277 },
        },
        { type: 'button', text: '종료', boundingBox: { x: 920, y: 320, width: 80, height: 40 } },
      ],
    }
    const m = findMatchingElement(start, ui)
    expect(m?.element.text).toBe('시작하기')
    expect(m?.center).toEqual({ x: 970, y: 277 })
    expect(m?.scores.type).toBe(1)
    expect(m?.confidence).toBeGreaterThanOrEqual(0.7)
  })

  it('prefers the duplicate label nearer the recorded place', () => {
    const ok = (x: number) => ({ type: 'button', text: '확인', boundingBox: { x, y: 500, width: 80, height: 40 } })
    const m = findMatchingElement(
      { ...start, text: '확인', description: null, boundingBox: { x: 1200, y: 500, width: 80, height: 40 } },
      { elements: [ok(200), ok(1180)] },
    )
    expect(m?.element.boundingBox.x).toBe(1180)
  })

  it('returns null with no elements, and scales the prior to a different screen size', () => {
    expect(findMatchingElement(start, { elements: [] })).toBeNull()
    const ui: UiAnalysis = {
      width: 3840,
      height: 2160,
      elements: [
        { type: 'button', text: '시작', boundingBox: { x: 1852, y: 518, width: 160, height: 80 } },
        { type: 'button', text: '시작', boundingBox: { x: 926, y: 259, width: 80, height: 40 } },
      ],
    }
    const m = findMatchingElement(start, ui, { recordedScreen: { width: 1920, height: 1080 } })
    expect(m?.element.boundingBox.x).toBe(1852)
  })
})
