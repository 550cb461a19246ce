import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { terminalSafe } from './terminal-safe'

const ESC = String.fromCharCode(0x1b)
const BEL = String.fromCharCode(0x07)

describe('terminalSafe (terminal escapes from case content)', () => {
  it('shows escapes, carriage returns, C1 controls and bidi overrides escaped; keeps Hangul, line breaks, tabs', () => {
    const hostile = `로그인 ${ESC}]0;pwned${BEL}${ESC}[2J\rX${String.fromCharCode(0x9b)}31m${String.fromCharCode(0x202e)}gpj.exe\n\tok`
    expect(terminalSafe(hostile)).toBe('로그인 \\x1b]0;pwned\\x07\\x1b[2J\\x0dX\\x9b31m\\u202egpj.exe\n\tok')
  })
  it('escapes line breaks too when a line must stay one line', () => {
    expect(terminalSafe('a\nb\tc', { keepLineBreaks: false })).toBe('a\\x0ab\tc')
  })
  test.prop([fc.string({ unit: 'binary' })])('leaves no control character but line feed and tab', (s) => {
    for (const ch of terminalSafe(s)) {
      const c = ch.codePointAt(0) as number
      const control = (c < 0x20 && c !== 0x0a && c !== 0x09) || (c >= 0x7f && c <= 0x9f)
      expect(control || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)).toBe(false)
    }
  })
  test.prop([fc.string({ unit: 'grapheme' })])('is the identity on printable text', (s) => {
    const printable = [...s].filter((ch) => terminalSafe(ch) === ch).join('')
    expect(terminalSafe(printable)).toBe(printable)
  })
})
