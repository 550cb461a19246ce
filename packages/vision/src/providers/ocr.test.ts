import { describe, expect, test } from 'vitest'
import { groupWords, sameWords } from './ocr'

type Word = Parameters<typeof groupWords>[0][number][number]
const word = (text: string, x0: number, x1: number, y0 = 10, y1 = 21, confidence = 90): Word => ({
  text,
  confidence,
  bbox: { x0, y0, x1, y1 },
})

describe('groupWords', () => {
  test('the words of a sentence stay one label', () => {
    const line = [word('Choose', 10, 56), word('what', 62, 93), word('happens', 98, 152)]
    expect(groupWords([line], 40).map((e) => e.text)).toEqual(['Choose what happens'])
  })

  test('a border token between two words ends a label, however close they are ("Ctrl+A | Search")', () => {
    const line = [word('Ctrl+A', 257, 302), word('|', 305, 307, 2, 28), word('Search', 312, 360)]
    const labels = groupWords([line], 40)
    expect(labels.map((e) => e.text)).toEqual(['Ctrl+A', 'Search'])
    expect(labels[1]?.boundingBox).toEqual({ x: 312, y: 10, width: 48, height: 11 })
  })

  test('a word made taller by a border fragment does not widen the gap allowed to its neighbour', () => {
    // "Add" is 11 px tall, the next word 19 px (a piece of the button's border): an 18 px gap splits them
    const line = [word('Add', 212, 239, 279, 290), word('Ctrl+A', 257, 317, 271, 290)]
    expect(groupWords([line], 40).map((e) => e.text)).toEqual(['Add', 'Ctrl+A'])
  })

  test('low-confidence words and tokens without a letter or digit are dropped', () => {
    const line = [word('Keep', 10, 40), word('~', 44, 48), word('xq', 52, 60, 10, 21, 20)]
    expect(groupWords([line], 40).map((e) => e.text)).toEqual(['Keep'])
  })
})

describe('sameWords (the OCR comparison of two regions cut through a relaid-out window)', () => {
  test('finds the recorded words among fragments and in another order', () => {
    const w = sameWords(
      'ss: Seoul e e Add cri+A Search ctri+s Delete... Ct',
      'ime: ess: Seoul one: one: Fax: Ctrl+A Add Search Delete... C',
    )
    expect(w.of).toBeGreaterThanOrEqual(4)
    expect(w.found / w.of).toBeGreaterThanOrEqual(0.8)
  })
  test('digits and fragments are no words; other words are not found', () => {
    expect(sameWords('60', '13')).toEqual({ found: 0, of: 0 })
    expect(sameWords('Archive Delete', 'Open Print')).toEqual({ found: 0, of: 2 })
  })
})
