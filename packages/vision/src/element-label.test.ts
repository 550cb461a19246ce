import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { labelPlausibility, lineNearness, pickElementLabel, TRUSTED_LABEL_SCORE } from './element-label'
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
  // the words Tesseract read on LBreakout2's main menu (SDL 1.2, bitmap font on bricks) with the pointer resting on
  // "Audio": drawn larger and white, it is read at 0.82 while "Graphics" above it, 21 px higher, reads at 0.95 and
  // overlaps the 40 px element box by 10 of its 11 px; the old score took "Graphics"
  const menu = [
    word('Controls', 211, 384, 0.84, 62, 9),
    word('Graphics', 211, 401, 0.95, 62, 11),
    word('Audio', 217, 416, 0.82, 49, 11),
    word('Advanced', 179, 435, 0.93, 62, 9),
  ]
  it('a menu item under the point wins over its better-read neighbour one line above', () => {
    const got = pickElementLabel(menu, 241, 422)
    expect(got?.element.text).toBe('Audio')
    expect(got?.score).toBeGreaterThanOrEqual(TRUSTED_LABEL_SCORE)
  })
  it('the item under the point unread: the neighbour is at most a low-confidence label, never a trusted one', () => {
    const got = pickElementLabel(
      menu.filter((w) => w.text !== 'Audio'),
      241,
      422,
    )
    expect(got === null || got.score < TRUSTED_LABEL_SCORE).toBe(true)
  })
  it('a click between two words of one line, or a pixel off the text, keeps the full score', () => {
    expect(lineNearness({ x: 0, y: 100, width: 40, height: 12 }, 106)).toBe(1)
    expect(lineNearness({ x: 0, y: 100, width: 40, height: 12 }, 113)).toBe(1)
    expect(lineNearness({ x: 0, y: 100, width: 40, height: 12 }, 124)).toBeLessThan(0.6)
  })
  it('a word half outside the element counts for the half inside', () => {
    const half = pickElementLabel([word('Open', 140, 92, 1, 16)], 100, 100, {
      box: { x: 100, y: 80, width: 48, height: 40 },
    })
    expect(half?.overlap).toBeCloseTo(0.5, 5)
    expect(half?.score).toBeCloseTo(0.5, 5)
  })
})
