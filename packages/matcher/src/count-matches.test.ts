import { describe, expect, it } from 'vitest'
import { countMatches } from './count-matches'
import { memoryCandidateSource } from './memory-candidate-source'

const box = { x: 0, y: 0, width: 10, height: 10 }
const item = (name: string, extra: object = {}) => ({
  axRole: 'listitem',
  axName: name,
  tagName: 'li',
  classNames: ['cart-item'],
  boundingBox: box,
  textContent: name,
  ...extra,
})

describe('countMatches', () => {
  it('counts by the first key that finds any element, in the cascade order', async () => {
    const page = memoryCandidateSource([item('사과'), item('배'), item('사과', { visible: false })])
    const r = await countMatches({ axRole: 'listitem', axName: '사과', tagName: 'li', boundingBox: box }, page)
    expect(r).toMatchObject({ count: 2, visible: 1, strategy: 'role', visibleByAnyKey: 1 })
  })

  it('falls through to the stored CSS when the name is not on the page any more', async () => {
    const page = memoryCandidateSource([item('a'), item('b'), item('c')])
    const r = await countMatches({ axRole: 'listitem', axName: 'gone', tagName: 'li', boundingBox: box }, page, {
      selectors: { css: 'li.cart-item' },
    })
    expect(r).toMatchObject({ count: 3, strategy: 'css' })
    expect(page.calls).toEqual(['role:listitem:gone', 'css:li.cart-item'])
  })

  it('is 0 with no strategy when nothing carries the identity', async () => {
    const page = memoryCandidateSource([item('a')])
    const r = await countMatches({ axRole: 'button', axName: 'Save', tagName: 'button', boundingBox: box }, page)
    expect(r).toEqual({ count: 0, visible: 0, strategy: null, visibleByAnyKey: 0, elements: [] })
  })

  it('a renamed element still found by its test id is not gone', async () => {
    const renamed = { axRole: 'button', axName: 'Store', dataTestId: 'save', tagName: 'button', boundingBox: box }
    const r = await countMatches(
      { axRole: 'button', axName: 'Save', dataTestId: 'save', tagName: 'button', boundingBox: box },
      memoryCandidateSource([renamed]),
    )
    expect(r.strategy).toBe('test_id')
    expect(r.visibleByAnyKey).toBe(1)
  })
})
