import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { labelPlausibility, pickElementLabel, TRUSTED_LABEL_SCORE } from './element-label'
import type { UiElement } from './types'

const word = (text: string, x: number, y: number, confidence: number, width = 30, height = 16): UiElement => ({
  type: 'text',
  text,
  boundingBox: { x, y, width, height },
  confidence,
})

describe('labelPlausibility (character classes)', () => {
  it('real labels, keypad glyphs and Hangul look like labels', () => {
    for (const t of ['OK', 'Cancel', 'Save as…', '7', '*', '=', 'F10', '설정 열기', '로그인', 'New Game'])
      expect(labelPlausibility(t), t).toBeGreaterThanOrEqual(0.9)
  })
  it('what OCR makes of bitmap fonts and borders does not', () => {
    for (const t of ['Lolo Jefe]', '|[ ]|', 'l0l1', 'JeFe', '{~}', '"__"'])
      expect(labelPlausibility(t), t).toBeLessThan(0.6)
  })
  it('a lone letter (a grid line read as "이", "l") needs a confident read; a lone digit does not', () => {
    // read as fltk sudoku's empty cell border at confidence 0.61: no longer a label to click on alone
    expect(0.61 * labelPlausibility('이')).toBeLessThan(TRUSTED_LABEL_SCORE)
    expect(0.9 * labelPlausibility('C')).toBeGreaterThanOrEqual(TRUSTED_LABEL_SCORE)
    expect(labelPlausibility('7')).toBe(1)
  })
  test.prop([fc.string()])('always in [0, 1]', (t) => {
    const p = labelPlausibility(t)
    expect(p).toBeGreaterThanOrEqual(0)
    expect(p).toBeLessThanOrEqual(1)
  })
})

describe('pickElementLabel (words inside or overlapping the element)', () => {
  it('takes the word on the element, never a nearer-looking word of another element', () => {
    // "Cancel" is 40 px right of the click, outside the 96×40 element box; "OK" is inside it
    const words = [word('Cancel', 160, 92, 0.95), word('OK', 92, 92, 0.9, 20)]
    const got = pickElementLabel(words, 100, 100)
    expect(got?.element.text).toBe('OK')
    expect(got?.score).toBeCloseTo(0.9, 5)
  })
  it('no word overlaps the element: no label (the old rule took any word within 50 px)', () => {
    expect(pickElementLabel([word('Cancel', 160, 92, 0.95)], 100, 100)).toBeNull()
  })
  it('a label read at 41 % confidence, or garbage at 90 %, scores under the trusted level', () => {
    const low = pickElementLabel([word('Apply', 90, 92, 0.41)], 100, 100)
    expect(low?.score).toBeLessThan(TRUSTED_LABEL_SCORE)
    const garbage = pickElementLabel([word('Lolo Jefe]', 70, 92, 0.9, 60)], 100, 100)
    expect(garbage?.score).toBeLessThan(TRUSTED_LABEL_SCORE)
  })
  it('a word half outside the element counts for the half inside', () => {
    const half = pickElementLabel([word('Open', 140, 92, 1, 16)], 100, 100, {
      box: { x: 100, y: 80, width: 48, height: 40 },
    })
    expect(half?.overlap).toBeCloseTo(0.5, 5)
    expect(half?.score).toBeCloseTo(0.5, 5)
  })
})
