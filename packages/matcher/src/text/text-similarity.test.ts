import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { distance } from 'fastest-levenshtein'
import { comparisonKey, decomposeHangul, keySimilarity, normalizeText, textSimilarity } from './text-similarity'

const hangul = fc.string({ unit: fc.integer({ min: 0xac00, max: 0xd7a3 }).map((c) => String.fromCharCode(c)) })
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), hangul, fc.string({ unit: 'binary' }))

describe('textSimilarity properties', () => {
  // text similarity is symmetric (and stays in [0, 1])
  test.prop([anyText, anyText], { numRuns: 300 })('is symmetric and in [0, 1]', (a, b) => {
    const s = textSimilarity(a, b)
    expect(s).toBe(textSimilarity(b, a))
    expect(s).toBeGreaterThanOrEqual(0)
    expect(s).toBeLessThanOrEqual(1)
  })

  // identity: a label is fully similar to itself, whatever its case and spacing
  test.prop([anyText], { numRuns: 200 })('identity scores 1', (a) => {
    expect(textSimilarity(a, a)).toBe(1)
  })

  // identity after normalisation: case and surrounding spaces do not matter
  test.prop([fc.string()], { numRuns: 200 })('ASCII case/space variants score 1', (a) => {
    expect(textSimilarity(a, `  ${a.toUpperCase()} `)).toBe(1)
  })

  test.prop([fc.string({ minLength: 1 }).filter((s) => comparisonKey(s).length > 0)], { numRuns: 100 })(
    'a non-empty label is not similar to nothing',
    (a) => {
      expect(textSimilarity(a, '')).toBe(0)
    },
  )
})

describe('textSimilarity examples', () => {
  it('ignores case, punctuation, full-width forms and spacing', () => {
    expect(textSimilarity('Sign in', 'Sign In')).toBe(1)
    expect(textSimilarity('Sign-in!', 'sign in')).toBe(1)
    expect(textSimilarity('ＯＫ', 'ok')).toBe(1)
    expect(textSimilarity('시작 하기', '시작하기')).toBe(1)
  })

  it('scores a reworded short label lower but meaningfully', () => {
    const s = textSimilarity('Sign in', 'Log in')
    expect(s).toBeGreaterThan(0.3)
    expect(s).toBeLessThan(0.8)
    expect(textSimilarity('Sign in', 'Cancel')).toBeLessThan(s)
  })

  it('compares Hangul on jamo: a prefix label scores high, a different word low', () => {
    expect(textSimilarity('시작하기', '시작')).toBeGreaterThan(0.75)
    expect(textSimilarity('확인', '취소')).toBeLessThan(0.5)
    // one jamo apart (받침 differs) is closer than two different syllables
    expect(textSimilarity('설정', '설전')).toBeGreaterThan(textSimilarity('설정', '게임'))
  })

  it('normalises and decomposes as documented', () => {
    expect(normalizeText('  Hello,\tWorld! ')).toBe('hello world')
    expect(decomposeHangul('각')).toBe('\u1100\u1161\u11a8')
    expect(decomposeHangul('가a')).toBe('\u1100\u1161a')
    expect(comparisonKey('시작 하기')).toBe(comparisonKey('시작하기'))
  })

  it('drops icon-font glyphs (private-use characters) beside words, keeps them alone', () => {
    // Font Awesome's icons, as Chromium names a button from its ::before content
    expect(comparisonKey('\uf002 Search')).toBe('search')
    expect(comparisonKey('\u{F0001}검색')).toBe(comparisonKey('검색'))
    expect(comparisonKey(' \uf002 ')).toBe('\uf002')
    expect(comparisonKey('\uf0e0')).not.toBe(comparisonKey('\uf005'))
  })
})

describe('comparisonKey fast path', () => {
  // the ASCII shortcut must give exactly the general normalisation
  test.prop([fc.string({ unit: fc.constantFrom(...' \t\n!"#$%&()*+,-./09:;<=>?@AZ[\\]^_`az{|}~'.split('')) })], {
    numRuns: 200,
  })('equals NFKC + punctuation stripping for printable ASCII', (s) => {
    expect(comparisonKey(s)).toBe(normalizeText(s).replace(/ /g, ''))
  })
})

describe('keySimilarity speed-up', () => {
  // the common prefix/suffix cut before the edit distance does not change the result (symmetric, in [0, 1], 1 for identical labels)
  test.prop([fc.string({ maxLength: 50 }), fc.string({ maxLength: 50 }), fc.string({ maxLength: 10 })], {
    numRuns: 300,
  })('equals the plain Levenshtein formula', (a, b, common) => {
    const x = `${common}${a}${common}`
    const y = `${common}${b}${common}`
    const long = Math.max(x.length, y.length)
    const plain = x === y ? 1 : long === 0 || Math.min(x.length, y.length) === 0 ? 0 : 1 - distance(x, y) / long
    expect(keySimilarity(x, y)).toBeGreaterThanOrEqual(Math.max(0, plain))
    const contained = Math.min(x.length, y.length) >= 3 && (x.includes(y) || y.includes(x))
    if (!contained) expect(keySimilarity(x, y)).toBe(Math.max(0, plain))
  })
})
