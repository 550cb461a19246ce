import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { keyStrokeOf, planTyping } from './type-plan'

/** What a US keyboard produces for a key, with and without Shift (written out by hand, not from the code). */
const US: Record<string, [string, string]> = {
  Num1: ['1', '!'],
  Num2: ['2', '@'],
  Num3: ['3', '#'],
  Num4: ['4', '$'],
  Num5: ['5', '%'],
  Num6: ['6', '^'],
  Num7: ['7', '&'],
  Num8: ['8', '*'],
  Num9: ['9', '('],
  Num0: ['0', ')'],
  Minus: ['-', '_'],
  Equal: ['=', '+'],
  LeftBracket: ['[', '{'],
  RightBracket: [']', '}'],
  Backslash: ['\\', '|'],
  Semicolon: [';', ':'],
  Quote: ["'", '"'],
  Comma: [',', '<'],
  Period: ['.', '>'],
  Slash: ['/', '?'],
  Grave: ['`', '~'],
  Space: [' ', ' '],
  Return: ['\n', '\n'],
  Tab: ['\t', '\t'],
}
const produced = (s: { key: string; shift: boolean }) =>
  /^[A-Z]$/.test(s.key) ? (s.shift ? s.key : s.key.toLowerCase()) : (US[s.key]?.[s.shift ? 1 : 0] ?? '?')

describe('planTyping', () => {
  it('keeps Shift for shifted symbols in a formula', () => {
    expect(planTyping('7*3=(1+2)')).toEqual([
      {
        kind: 'keys',
        keys: [
          { key: 'Num7', shift: false },
          { key: 'Num8', shift: true },
          { key: 'Num3', shift: false },
          { key: 'Equal', shift: false },
          { key: 'Num9', shift: true },
          { key: 'Num1', shift: false },
          { key: 'Equal', shift: true },
          { key: 'Num2', shift: false },
          { key: 'Num0', shift: true },
        ],
      },
    ])
  })

  it('types every printable ASCII character as the US key that produces it', () => {
    for (let c = 0x20; c <= 0x7e; c++) {
      const ch = String.fromCharCode(c)
      const stroke = keyStrokeOf(ch)
      expect(stroke, ch).not.toBeNull()
      expect(produced(stroke as { key: string; shift: boolean }), ch).toBe(ch)
    }
  })

  it('pastes what a US keyboard cannot type, in order, between key runs', () => {
    expect(planTyping('id: 한글 ok')).toEqual([
      { kind: 'keys', keys: ['I', 'D', 'Semicolon', 'Space'].map((k) => ({ key: k, shift: k === 'Semicolon' })) },
      { kind: 'paste', text: '한글' },
      { kind: 'keys', keys: ['Space', 'O', 'K'].map((k) => ({ key: k, shift: false })) },
    ])
  })

  test.prop([fc.string({ unit: 'grapheme' })], { numRuns: 200 })('loses and reorders nothing', (text) => {
    const back = planTyping(text)
      .map((s) => (s.kind === 'paste' ? s.text : s.keys.map(produced).join('')))
      .join('')
    expect(back).toBe(text.replace(/\r\n?/g, '\n'))
  })
})
