import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { parseRunRequest } from './parse-run-request'
import type { SuiteInfo } from '@qa/runner'

const suitesOf = (names: string[]): SuiteInfo[] =>
  names.map((name, index) => ({
    index,
    name,
    file: `${index}.json`,
    path: `/x/${index}.json`,
    platform: 'web',
    tags: [],
    steps: [],
  }))

const names = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 8 })

describe('parseRunRequest', () => {
  // runByName matches exactly.
  test.prop([names, fc.nat()], { numRuns: 100 })('a listed name selects exactly that suite', (list, k) => {
    const suites = suitesOf(list)
    const target = list[k % list.length] as string
    const { request, suites: picked } = parseRunRequest({ name: target }, suites)
    expect(request).toEqual({ name: target })
    expect(picked.map((s) => s.name)).toEqual([target])
  })

  // an unknown name (any near miss) is rejected with the list of names.
  test.prop([names, fc.string({ minLength: 1, maxLength: 20 })], { numRuns: 100 })(
    'an unlisted name is SUITE_NOT_FOUND with the names',
    (list, other) => {
      fc.pre(!list.includes(other))
      try {
        parseRunRequest({ name: other }, suitesOf(list))
        expect.unreachable()
      } catch (error) {
        const e = error as { code: string; details: { names: string[] } }
        expect(e.code).toBe('SERVER_SUITE_NOT_FOUND')
        expect(e.details.names).toEqual(list)
      }
    },
  )

  test.prop([names, fc.integer({ min: -5, max: 20 })], { numRuns: 100 })(
    'index is in range or rejected',
    (list, index) => {
      const suites = suitesOf(list)
      if (index >= 0 && index < list.length) expect(parseRunRequest({ index }, suites).suites[0]?.index).toBe(index)
      else expect(() => parseRunRequest({ index }, suites)).toThrow(index < 0 ? /integer/ : /No suite has index/)
    },
  )

  test.prop([fc.anything()], { numRuns: 200 })('anything else is a clear 400, never a crash', (body) => {
    const suites = suitesOf(['a'])
    try {
      parseRunRequest(body, suites)
    } catch (error) {
      expect((error as { code: string }).code).toMatch(/^SERVER_(BAD_REQUEST|SUITE_NOT_FOUND)$/)
    }
  })
})
