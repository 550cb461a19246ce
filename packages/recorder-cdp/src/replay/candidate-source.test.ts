import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { wholeName } from './candidate-source'

describe('wholeName (the role lookup of a recorded accessible name)', () => {
  it('finds a name drawn with text-transform and with other runs of spaces', () => {
    expect(wholeName('sneat').test('Sneat')).toBe(true)
    expect(wholeName('Mark all as read').test('MARK ALL  AS READ')).toBe(true)
    expect(wholeName('로그인').test('로그인')).toBe(true)
  })
  it("finds a name with zero-width spaces or soft hyphens by the name Playwright's role engine matches (without them)", () => {
    // swagger-ui's arrow buttons: aria-label="get \u200b/items"; Playwright normalises the name to "get /items"
    expect(wholeName('get \u200b/items').test('get /items')).toBe(true)
    expect(wholeName('Ein\u00adstellungen').test('Einstellungen')).toBe(true)
    expect(wholeName('get \u200b/items').test('get /orders')).toBe(false)
  })
  it('is a whole-name match: a longer or shorter name is another element', () => {
    expect(wholeName('Save').test('Save changes')).toBe(false)
    expect(wholeName('Save changes').test('Save')).toBe(false)
    expect(wholeName('a.b').test('axb')).toBe(false)
    expect(wholeName('(1+2)*3').test('(1+2)*3')).toBe(true)
  })
  test.prop([fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== '')], { numRuns: 200 })(
    'matches its own name and never the name with a word added',
    (name) => {
      expect(wholeName(name).test(name)).toBe(true)
      expect(wholeName(name).test(`${name} more`)).toBe(false)
    },
  )
})
