import { describe, expect, it } from 'vitest'
import { versionPresets } from './mutations'
import { resolveVariant } from './resolve-variant'

const q = (s: string) => new URLSearchParams(s)

describe('resolveVariant', () => {
  it('uses the server setting when nothing is asked', () => {
    expect(resolveVariant(q(''), undefined, ['layout-shift'])).toEqual({ mutations: ['layout-shift'] })
  })

  it('pins ?v=2 in a cookie', () => {
    const r = resolveVariant(q('v=2'), undefined, [])
    expect(r.mutations).toEqual(versionPresets.v2)
    expect(r.cookie).toBe(versionPresets.v2.join(','))
  })

  it('lets ?m= add to ?v= and beat the cookie', () => {
    expect(resolveVariant(q('v=1&m=removal'), 'renamed-ids', []).mutations).toEqual(['removal'])
    expect(resolveVariant(q('m=none'), 'renamed-ids', ['layout-shift'])).toEqual({ mutations: [], cookie: 'none' })
  })

  it('uses the cookie over the server setting', () => {
    expect(resolveVariant(q(''), 'decoy-siblings', ['layout-shift'])).toEqual({ mutations: ['decoy-siblings'] })
  })

  it('clears the cookie with ?v=default and ignores a corrupt cookie', () => {
    expect(resolveVariant(q('v=default'), 'renamed-ids', ['layout-shift'])).toEqual({
      mutations: ['layout-shift'],
      cookie: null,
    })
    expect(resolveVariant(q(''), 'garbage', [])).toEqual({ mutations: [], cookie: null })
  })

  it('throws on unknown query values', () => {
    expect(() => resolveVariant(q('m=nope'), undefined, [])).toThrowError(/Unknown mutation/)
    expect(() => resolveVariant(q('v=9'), undefined, [])).toThrowError(/Unknown version/)
  })
})
