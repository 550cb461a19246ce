import { describe, expect, it } from 'vitest'
import { canonicalIconClasses } from './icon-names'

describe('canonicalIconClasses', () => {
  it('names a Font Awesome 5 icon by its Font Awesome 6 name, so an upgraded page shows the same icon', () => {
    // SB Admin 6 (FA5 SVG) draws the navbar search as `fa-search fa-w-16`, SB Admin 7 (FA6) as `fa-magnifying-glass`
    expect(canonicalIconClasses(['fa-search', 'fa-w-16'])).toEqual(['fa-magnifying-glass'])
    expect(canonicalIconClasses(['fa-magnifying-glass'])).toEqual(['fa-magnifying-glass'])
    expect(canonicalIconClasses(['fa-cog', 'fa-fw'])).toEqual(['fa-gear'])
  })

  it('keeps other icons apart and leaves other icon sets alone', () => {
    expect(canonicalIconClasses(['fa-search'])).not.toEqual(canonicalIconClasses(['fa-trash-can']))
    expect(canonicalIconClasses(['fa-trash-alt'])).toEqual(['fa-trash-can'])
    expect(canonicalIconClasses(['bx-search', 'bi-gear'])).toEqual(['bx-search', 'bi-gear'])
  })

  it('a list of only size and animation classes names no icon', () => {
    expect(canonicalIconClasses(['fa-w-16', 'fa-lg', 'fa-spin'])).toEqual([])
    expect(canonicalIconClasses(null)).toEqual([])
  })
})
