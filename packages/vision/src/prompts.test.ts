import { describe, expect, test } from 'vitest'
import { parseElementAnswer, parseScreenAnswer, parseTransitionAnswer } from './prompts'

describe('parsing model answers', () => {
  test('the older shape: {buttons: [{x, y (centre), width, height}]}, confidence in percent', () => {
    const r = parseScreenAnswer(
      {
        provider: 'p',
        text: '{"buttons": [{"text": "시작", "x": 966, "y": 279, "width": 80, "height": 40, "confidence": 95}], "state": "main_menu"}',
      },
      { width: 1920, height: 1080 },
    )
    expect(r).toEqual({
      screenState: 'main_menu',
      width: 1920,
      height: 1080,
      elements: [
        {
          type: 'button',
          text: '시작',
          boundingBox: { x: 926, y: 259, width: 80, height: 40 },
          center: { x: 966, y: 279 },
          confidence: 0.95,
        },
      ],
    })
  })

  test('boxes as x1/y1/x2/y2 are mapped with the per-axis scale; elements without a box are skipped', () => {
    const r = parseScreenAnswer(
      {
        provider: 'p',
        scales: [{ x: 2, y: 1.5 }],
        data: { elements: [{ type: 'Tab', bbox: { x1: 10, y1: 10, x2: 30, y2: 20 } }, { type: 'x' }] },
      },
      { width: 100, height: 100 },
    )
    expect(r.elements).toEqual([
      { type: 'tab', boundingBox: { x: 20, y: 15, width: 40, height: 15 }, center: { x: 40, y: 23 } },
    ])
  })

  test('JSON that is not an analysis is VISION_BAD_ANSWER', () => {
    expect(() => parseScreenAnswer({ provider: 'p', text: '"just a string"' }, { width: 1, height: 1 })).toThrow()
    expect(() => parseTransitionAnswer({ provider: 'p', text: '{"foo": 1}' })).toThrow(/not a transition/)
    expect(parseElementAnswer({ provider: 'p', text: '{"element": null}' }, { x: 0, y: 0 })).toEqual({ element: null })
  })
})
