import type { Action } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { stepLine, strategyLabel } from './step-line'

const box = { x: 0, y: 0, width: 10, height: 10 }
const click = (identity?: Action['identity'], extra: Partial<Action> = {}): Action => ({
  timestamp: 0,
  actionType: 'click',
  x: 5,
  y: 5,
  description: 'Click button "로그인"',
  ...(identity ? { identity } : {}),
  ...extra,
})

describe('strategyLabel', () => {
  it('names the first strategy replay can use, in cascade order', () => {
    expect(strategyLabel(click({ tagName: 'button', axRole: 'button', axName: '로그인', boundingBox: box }))).toBe(
      'role button "로그인"',
    )
    expect(strategyLabel(click({ tagName: 'input', ariaLabel: 'Search', name: 'q', boundingBox: box }))).toBe(
      'aria-label "Search"',
    )
    expect(strategyLabel(click({ tagName: 'input', name: 'q', boundingBox: box }))).toBe('name "q"')
    expect(strategyLabel(click({ tagName: 'div', dataTestId: 'card', boundingBox: box }))).toBe('test id "card"')
    expect(strategyLabel(click({ tagName: 'div', boundingBox: box }, { selectors: { css: '#main > div' } }))).toBe(
      'css #main > div',
    )
    expect(strategyLabel(click())).toBe('coordinates')
    expect(strategyLabel({ timestamp: 0, actionType: 'key_press', x: 0, y: 0, key: 'Enter', description: '' })).toBe('')
  })

  it('cuts a long name at 40 terminal columns, Hangul counting two', () => {
    const name = '회원 정보를 저장하고 다음 단계로 이동하기 위한 확인 버튼' // 31 characters, 55 columns
    const label = strategyLabel(click({ tagName: 'button', axRole: 'button', axName: name, boundingBox: box }))
    // 회원 정보를 저장하고 다음 단계로 이동하: 17 syllables (34 columns) and 5 spaces = 39 columns, then the 1-column ellipsis
    expect(label).toBe('role button "회원 정보를 저장하고 다음 단계로 이동하…"')
    expect(strategyLabel(click({ tagName: 'button', axRole: 'button', axName: '확인', boundingBox: box }))).toBe(
      'role button "확인"',
    )
  })
})

describe('stepLine', () => {
  it('numbers from 1 and carries the warning on its own line', () => {
    expect(stepLine(0, click(undefined, { warning: 'no element here' }))).toBe(
      '  1. Click button "로그인"   [coordinates]\n     warning: no element here',
    )
  })
})
