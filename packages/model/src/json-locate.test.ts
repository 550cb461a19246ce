import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { locateJsonError } from './json-locate'

describe('locateJsonError', () => {
  test.prop([fc.jsonValue()], { numRuns: 200 })('valid JSON has no error', (v) => {
    expect(locateJsonError(JSON.stringify(v, null, 2))).toBe(-1)
  })
  test.prop([fc.jsonValue(), fc.nat()], { numRuns: 200 })('agrees with JSON.parse on truncated text', (v, cut) => {
    const text = JSON.stringify(v)
    const truncated = text.slice(0, cut % (text.length + 1))
    let valid = true
    try {
      JSON.parse(truncated)
    } catch {
      valid = false
    }
    expect(locateJsonError(truncated) === -1).toBe(valid)
  })
  it('points at the offending character', () => {
    expect(locateJsonError('{\n  "a": 1,\n  "b": }')).toBe(19)
    expect(locateJsonError('[1, 2')).toBe(5)
    expect(locateJsonError('{"a": tru}')).toBe(6)
  })
})
