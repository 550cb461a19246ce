import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { SampleAppError } from './errors'
import {
  mutationNames,
  mutations,
  normalizeMutations,
  parseMutationList,
  parseVersion,
  serializeMutationList,
  versionOf,
  versionPresets,
} from './mutations'

describe('mutation catalogue', () => {
  it('describes every mutation name once, in order', () => {
    expect(mutations.map((m) => m.name)).toEqual([...mutationNames])
  })

  it('never lists a strategy as both broken and surviving', () => {
    for (const m of mutations) {
      expect(
        m.breaks.filter((s) => m.survives.includes(s)),
        m.name,
      ).toEqual([])
      expect(m.breaks.length + m.survives.length, m.name).toBe(8)
    }
  })

  it('keeps v2 = every mutation except removal, v1 = none', () => {
    expect(versionPresets.v1).toEqual([])
    expect(versionPresets.v2).not.toContain('removal')
    expect(versionPresets.v2).toHaveLength(mutationNames.length - 1)
    expect(versionOf(versionPresets.v2)).toBe('v2')
    expect(versionOf([])).toBe('v1')
    expect(versionOf(['renamed-ids'])).toBeUndefined()
  })
})

describe('parseMutationList', () => {
  it('parses, trims, dedupes and orders by catalogue', () => {
    expect(parseMutationList(' decoy-siblings,renamed-ids,decoy-siblings ')).toEqual(['renamed-ids', 'decoy-siblings'])
    expect(parseMutationList('')).toEqual([])
    expect(parseMutationList('none')).toEqual([])
  })

  it('rejects unknown names with a code and a hint listing the valid ones', () => {
    try {
      parseMutationList('renamed-ids,bogus')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(SampleAppError)
      const e = error as SampleAppError
      expect(e.code).toBe('SAMPLE_APP_UNKNOWN_MUTATION')
      expect(e.message).toContain('"bogus"')
      expect(e.hint).toContain('layout-shift')
      expect(e.toJSON()).toMatchObject({ code: 'SAMPLE_APP_UNKNOWN_MUTATION' })
    }
  })

  // Own invariant (no seed property): serialize/parse round-trips any subset in canonical order.
  test.prop([fc.subarray([...mutationNames]).chain((s) => fc.shuffledSubarray(s, { minLength: s.length }))], {
    numRuns: 100,
  })('round-trips any subset', (subset) => {
    const text = serializeMutationList(subset)
    expect(parseMutationList(text)).toEqual(normalizeMutations(subset))
    expect(parseMutationList(text)).toEqual(mutationNames.filter((n) => subset.includes(n)))
  })
})

describe('parseVersion', () => {
  it('accepts v1/v2/1/2 in any case and rejects the rest', () => {
    expect(parseVersion('V2')).toBe('v2')
    expect(parseVersion('1')).toBe('v1')
    expect(() => parseVersion('v3')).toThrowError(/Unknown version "v3"/)
  })
})
