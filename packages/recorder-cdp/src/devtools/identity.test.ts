import { describe, expect, it } from 'vitest'
import { identityFromDevtoolsSelectors } from './index'

describe('identityFromDevtoolsSelectors', () => {
  it('reads aria, css attributes, xpath and text, and falls back to "unknown" for the tag', () => {
    const t = identityFromDevtoolsSelectors([
      ['aria/게임 입장'],
      ['div.menu > [name="enter"][aria-label="입장"]'],
      ['xpath//html/body/div/*[3]'],
      ['text/게임 입장'],
    ])
    expect(t.identity).toMatchObject({
      axName: '게임 입장',
      name: 'enter',
      ariaLabel: '입장',
      tagName: 'unknown',
      textContent: '게임 입장',
    })
    expect(t.identity.axRole).toBeUndefined()
    expect(t.empty).toBe(false)
    expect(identityFromDevtoolsSelectors([]).empty).toBe(true)
  })

  it('unescapes CSS ids and keeps extra paths and xpaths as fallbacks', () => {
    const t = identityFromDevtoolsSelectors([['#a\\:b'], ['#other'], ['xpath///x'], ['xpath/id("y")']])
    expect(t.identity.id).toBe('a:b')
    expect(t.selectors).toEqual({ css: '#a\\:b', xpath: '//x', fallbacks: ['#other', 'xpath=id("y")'] })
  })
})
