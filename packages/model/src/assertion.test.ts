import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { checkAssertion, describeAssertion, normalizeAssertedText } from './assertion'
import type { ModelError } from './errors'
import { parseTestCase, serializeTestCase, validateTestCase } from './test-case'
import { arbTestCaseDocumentV30, arbText } from './testing'
import type { Assertion } from './types'

const RUNS = { numRuns: 120 }

describe('checkAssertion', () => {
  it('compares text with white space collapsed, and says expected and actual', () => {
    const a: Assertion = { kind: 'text', op: 'equals', expected: '장바구니 3개' }
    expect(checkAssertion(a, { found: true, text: '  장바구니\n\t 3개 ' })).toEqual({
      holds: true,
      expected: 'text equals "장바구니 3개"',
      actual: '"장바구니 3개"',
    })
    expect(checkAssertion(a, { found: true, text: '장바구니 2개' })).toEqual({
      holds: false,
      expected: 'text equals "장바구니 3개"',
      actual: '"장바구니 2개"',
    })
    expect(checkAssertion(a, { found: false })).toMatchObject({ holds: false, actual: 'not found' })
  })

  it('treats Hangul typed as jamo (NFD) as its syllables (NFC)', () => {
    const nfd = '로그인'.normalize('NFD')
    expect(nfd).not.toBe('로그인')
    expect(checkAssertion({ kind: 'text', expected: '로그인' }, { found: true, text: nfd }).holds).toBe(true)
    expect(
      checkAssertion({ kind: 'value', op: 'contains', expected: nfd }, { found: true, value: '로그인 성공' }).holds,
    ).toBe(true)
  })

  it('contains and matches', () => {
    const seen = { found: true, text: 'Cart: 3 items' }
    expect(checkAssertion({ kind: 'text', op: 'contains', expected: '3 items' }, seen).holds).toBe(true)
    expect(checkAssertion({ kind: 'text', op: 'contains', expected: '4 items' }, seen).holds).toBe(false)
    expect(checkAssertion({ kind: 'text', op: 'matches', expected: '^Cart: \\d+ items$' }, seen).holds).toBe(true)
    expect(checkAssertion({ kind: 'text', op: 'matches', expected: '/^cart/i' }, seen).holds).toBe(true)
    expect(checkAssertion({ kind: 'text', op: 'matches', expected: '/^cart/' }, seen).holds).toBe(false)
  })

  it('hidden holds when the target is gone or invisible, and fails while it is visible', () => {
    const hidden: Assertion = { kind: 'hidden' }
    expect(checkAssertion(hidden, { found: false })).toMatchObject({ holds: true, actual: 'gone' })
    expect(checkAssertion(hidden, { found: true, count: 0 })).toMatchObject({ holds: true })
    expect(checkAssertion(hidden, { found: true, visible: false })).toMatchObject({ holds: true })
    expect(checkAssertion(hidden, { found: true, visible: true })).toEqual({
      holds: false,
      expected: 'hidden or gone',
      actual: 'visible',
    })
  })

  it('visible fails when the target is not found or not visible', () => {
    expect(checkAssertion({ kind: 'visible' }, { found: true, visible: true }).holds).toBe(true)
    expect(checkAssertion({ kind: 'visible' }, { found: true, visible: false })).toMatchObject({
      holds: false,
      actual: 'present but not visible',
    })
    expect(checkAssertion({ kind: 'visible' }, { found: false }).holds).toBe(false)
  })

  it('count: 0 holds when the target is gone; at_least and at_most', () => {
    expect(checkAssertion({ kind: 'count', expected: 0 }, { found: false })).toMatchObject({ holds: true, actual: '0' })
    expect(checkAssertion({ kind: 'count', expected: 3 }, { found: true, count: 2 })).toEqual({
      holds: false,
      expected: 'count equals 3',
      actual: '2',
    })
    expect(checkAssertion({ kind: 'count', op: 'at_least', expected: 2 }, { found: true, count: 2 }).holds).toBe(true)
    expect(checkAssertion({ kind: 'count', op: 'at_most', expected: 1 }, { found: true, count: 2 }).holds).toBe(false)
  })

  it('checked, url and expression', () => {
    expect(checkAssertion({ kind: 'checked' }, { found: true, checked: true }).holds).toBe(true)
    expect(checkAssertion({ kind: 'checked', expected: false }, { found: true, checked: true })).toMatchObject({
      holds: false,
      expected: 'not checked',
      actual: 'checked',
    })
    const url = 'http://127.0.0.1:3000/cart?x=1'
    expect(checkAssertion({ kind: 'url', expected: url }, { found: true, url }).holds).toBe(true)
    expect(checkAssertion({ kind: 'url', expected: 'http://127.0.0.1:3000/cart' }, { found: true, url }).holds).toBe(
      false,
    )
    expect(checkAssertion({ kind: 'url', op: 'matches', expected: '/cart\\?' }, { found: true, url }).holds).toBe(true)
    expect(checkAssertion({ kind: 'expression', expected: 'x' }, { found: true, expressionValue: 0 })).toMatchObject({
      holds: false,
      actual: '0',
    })
    expect(checkAssertion({ kind: 'expression', expected: 'x' }, { found: true, expressionValue: 'ok' }).holds).toBe(
      true,
    )
    expect(
      checkAssertion({ kind: 'expression', expected: 'x' }, { found: true, error: 'ReferenceError: x' }),
    ).toMatchObject({ holds: false, actual: 'ReferenceError: x' })
  })

  test.prop([arbText(), fc.array(fc.constantFrom(' ', '\n', '\t', '\u00a0', '  '), { maxLength: 4 })], RUNS)(
    'text equals holds for the same text with any extra white space around and inside words',
    (text, spaces) => {
      const padded = `${spaces.join('')}${text.split(' ').join(` ${spaces.join('')}`)}${spaces.join('')}`
      expect(checkAssertion({ kind: 'text', expected: text }, { found: true, text: padded }).holds).toBe(true)
    },
  )

  test.prop([arbText(), arbText(), arbText()], RUNS)('contains holds for any text around the expected', (a, b, c) => {
    expect(
      checkAssertion({ kind: 'text', op: 'contains', expected: b }, { found: true, text: `${a} ${b} ${c}` }).holds,
    ).toBe(true)
  })

  test.prop([arbText({ minLength: 1 }), arbText({ minLength: 1 })], RUNS)(
    'equals fails for texts that differ after normalisation, and then actual differs from expected',
    (a, b) => {
      fc.pre(normalizeAssertedText(a) !== normalizeAssertedText(b))
      const r = checkAssertion({ kind: 'text', expected: a }, { found: true, text: b })
      expect(r.holds).toBe(false)
      expect(r.actual).toBe(JSON.stringify(normalizeAssertedText(b)))
    },
  )
})

describe('describeAssertion', () => {
  it('reads as a step description', () => {
    expect(describeAssertion({ kind: 'text', op: 'contains', expected: '3개' }, 'status "장바구니"')).toBe(
      'Assert text of status "장바구니" contains "3개"',
    )
    expect(describeAssertion({ kind: 'hidden' }, 'dialog "Saved"')).toBe('Assert dialog "Saved" is hidden or gone')
    expect(describeAssertion({ kind: 'url', op: 'matches', expected: '/cart$' })).toBe('Assert URL matches "/cart$"')
    expect(describeAssertion({ kind: 'count', op: 'at_least', expected: 2 }, 'listitem')).toBe(
      'Assert count of listitem at least 2',
    )
  })
})

describe('assert actions in files', () => {
  const base = { name: 'a', version: '3.1', platform: 'web' }
  const assertStep = (assertion: unknown) => ({
    timestamp: 1,
    action_type: 'assert',
    x: 0,
    y: 0,
    description: 'Assert',
    ...(assertion === undefined ? {} : { assertion }),
  })

  it('needs an assertion of the right shape, and says what is wrong where', () => {
    const doc = {
      ...base,
      actions: [
        assertStep(undefined),
        assertStep({ kind: 'text' }),
        assertStep({ kind: 'count', op: 'contains', expected: 1.5 }),
        assertStep({ kind: 'url', op: 'matches', expected: '(' }),
        assertStep({ kind: 'visible', expected: 'x' }),
        assertStep({ kind: 'smell' }),
      ],
    }
    const issues = validateTestCase(doc)
    expect(issues.map((i) => i.path)).toEqual([
      'actions[5].assertion.kind',
      'actions[0].assertion',
      'actions[1].assertion.expected',
      'actions[2].assertion.op',
      'actions[2].assertion.expected',
      'actions[3].assertion.expected',
      'actions[4].assertion.expected',
    ])
    expect(issues.find((i) => i.path === 'actions[3].assertion.expected')?.expected).toBe('a regular expression')
    expect(issues.find((i) => i.path === 'actions[2].assertion.op')?.expected).toBe(
      'one of "equals", "at_least", "at_most" for a count assertion',
    )
  })

  it('a 3.0 file loads as 3.2 with nothing else changed, and the document given is not modified', () => {
    fc.assert(
      fc.property(arbTestCaseDocumentV30(), (doc) => {
        const before = structuredClone(doc)
        expect(validateTestCase(doc)).toEqual([])
        const parsed = parseTestCase(doc)
        expect(parsed.migrated).toBe(true)
        expect(parsed.sourceVersion).toBe('3.0')
        expect(parsed.migrationNotes).toEqual([
          '3.0 → 3.1: adds the assert action type; nothing else changes',
          '3.1 → 3.2: adds hover steps, file choices, drop targets, held keys and side buttons; nothing else changes',
        ])
        expect(serializeTestCase(parsed.testCase)).toEqual({ ...doc, version: '3.2' })
        expect(doc).toEqual(before)
      }),
      RUNS,
    )
  })

  it('a newer minor version that uses something unknown says to upgrade qa', () => {
    const doc = { ...base, version: '3.3', actions: [assertStep({ kind: 'screenshot_matches' })] }
    try {
      parseTestCase(doc, { file: 'newer.json' })
      expect.unreachable()
    } catch (e) {
      const err = e as ModelError
      expect(err.code).toBe('MODEL_INVALID')
      expect(err.message).toContain('actions[0].assertion.kind')
      expect(err.hint).toContain('format 3.3, newer than this qa')
    }
  })
})
