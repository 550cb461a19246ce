import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { parseScript, validateScript } from './script'

describe('recording scripts', () => {
  it('accepts every step type, as an array or under "steps"', () => {
    const steps = [
      { type: 'click', x: 10, y: 20 },
      { type: 'click', x: 10, y: 20, button: 'right', clickCount: 2 },
      { type: 'type', text: '안녕하세요' },
      { type: 'press', key: 'Enter' },
      { type: 'scroll', dy: 300 },
      { type: 'wait', ms: 250 },
      { type: 'navigate', url: '/settings' },
      { type: 'select', x: 1, y: 2, value: 'English' },
    ]
    expect(validateScript(steps)).toEqual([])
    expect(parseScript(JSON.stringify({ steps }))).toEqual(steps)
  })

  it('lists every problem with its path', () => {
    expect(
      validateScript([{ type: 'click', x: '10' }, { type: 'hover' }, { text: 'x' }, { type: 'wait', ms: -1 }]),
    ).toEqual([
      { path: '[0].x', expected: 'number ≥ 0', got: '"10"' },
      { path: '[0].y', expected: 'number ≥ 0', got: 'missing' },
      { path: '[1].type', expected: expect.stringContaining('one of "click"'), got: '"hover"' },
      { path: '[2].type', expected: expect.stringContaining('one of "click"'), got: 'missing' },
      { path: '[3].ms', expected: 'number in [0, 600000]', got: '-1' },
    ])
    expect(validateScript({ steps: 'no' })[0]).toMatchObject({ path: '$' })
  })

  it('throws WEB_BAD_SCRIPT naming the file', () => {
    expect(() => parseScript('[{"type":"press"}]', 'flow.json')).toThrow(
      expect.objectContaining({
        code: 'WEB_BAD_SCRIPT',
        message: expect.stringContaining('flow.json: [0].key: expected non-empty string, got missing'),
      }),
    )
    expect(() => parseScript('[{"type":', 'flow.json')).toThrow(expect.objectContaining({ code: 'MODEL_INVALID_JSON' }))
  })

  test.prop([fc.array(fc.record({ type: fc.constant('click'), x: fc.nat(5000), y: fc.nat(5000) }))], { numRuns: 100 })(
    'any list of in-viewport clicks is a valid script',
    (steps) => {
      expect(validateScript(steps)).toEqual([])
    },
  )
})

describe('assert steps in scripts', () => {
  it('accepts assertions with a point, a selector, or no target for url and expression', () => {
    expect(
      validateScript([
        { type: 'assert', kind: 'text', x: 10, y: 20, expected: '장바구니 3개' },
        { type: 'assert', kind: 'text', x: 10, y: 20 },
        { type: 'assert', kind: 'count', selector: '.cart-item', op: 'at_least', expected: 2 },
        { type: 'assert', kind: 'hidden', selector: '#toast' },
        { type: 'assert', kind: 'url', op: 'matches', expected: '/cart$' },
        { type: 'assert', kind: 'url' },
        { type: 'assert', kind: 'expression', expected: 'document.title === "Shop"' },
      ]),
    ).toEqual([])
  })

  it('says what an assert step lacks, by path', () => {
    const issues = validateScript([
      { type: 'assert', kind: 'visible' },
      { type: 'assert', kind: 'count', selector: '.a', op: 'contains', expected: 2 },
      { type: 'assert', kind: 'text', x: 1, y: 2, op: 'matches', expected: '(' },
      { type: 'assert', kind: 'expression' },
      { type: 'assert', kind: 'colour', x: 1, y: 1 },
    ])
    expect(issues.map((i) => i.path)).toEqual(['[0]', '[1].op', '[2].expected', '[3].expected', '[4].kind'])
  })
})
