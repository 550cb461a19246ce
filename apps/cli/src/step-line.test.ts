import type { Action } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { firstCauseLine, replayStepLine, stepLine, strategyLabel } from './step-line'

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

describe('replayStepLine (numbers from 1, a reason for every failure, the first cause)', () => {
  const ok = { success: true, method: 'role' as const, matchConfidence: 0.97, errorMessage: '' }
  const notFound = {
    success: false,
    method: 'failed' as const,
    matchConfidence: 0,
    errorMessage: 'Element not found: button "로그인" (tried role: none (0)).',
  }
  it('a passed step: its number from 1, the strategy; a heal names recorded → found', () => {
    expect(
      replayStepLine({
        index: 0,
        total: 3,
        description: 'Click "A"',
        result: ok,
        verification: { finalResult: 'pass' },
        firstCause: null,
      }),
    ).toBe('  [1/3] PASS    Click "A" — role 97.0%')
    expect(
      replayStepLine({
        index: 1,
        total: 3,
        description: 'Click button "Login"',
        result: { ...ok, method: 'css', matchConfidence: 0.86, recordedName: 'Login', foundName: 'Sign in' },
        verification: { finalResult: 'warning', reason: 'region 80%' },
        firstCause: null,
      }),
    ).toBe('  [2/3] WARNING Click button "Login" — css 86.0% ("Login" → "Sign in")')
  })

  it('the first failure is the first cause; a later one names it; a screen that did not match says why', () => {
    const first = replayStepLine({
      index: 2,
      total: 5,
      description: 'Click button "로그인"',
      result: notFound,
      verification: { finalResult: 'fail', reason: `The step did not run: ${notFound.errorMessage}` },
      firstCause: 2,
    })
    expect(first).toBe(
      '  [3/5] FAIL    Click button "로그인" — not found — The step did not run: Element not found: button "로그인" (tried role: none (0)). [first cause]',
    )
    const screen = replayStepLine({
      index: 3,
      total: 5,
      description: 'Click "B"',
      result: ok,
      verification: { finalResult: 'fail', reason: 'Region similarity 40.00% < 95.00%.' },
      firstCause: 2,
    })
    expect(screen).toBe(
      '  [4/5] FAIL    Click "B" — role 97.0% — Region similarity 40.00% < 95.00%. [after step 3 failed]',
    )
  })

  it('a step not run says so and is not marked as after the first cause', () => {
    expect(
      replayStepLine({
        index: 4,
        total: 5,
        description: 'Click "C"',
        result: { success: false, method: 'none', matchConfidence: 0, errorMessage: 'Not run: …' },
        verification: {
          finalResult: 'fail',
          reason: 'Not run: the replay stopped after 1 failed step (--max-failures 1).',
          notRun: true,
        },
        firstCause: 2,
      }),
    ).toBe('  [5/5] NOT RUN Click "C" — not run — Not run: the replay stopped after 1 failed step (--max-failures 1).')
  })

  it('firstCauseLine: the first cause and how many failures came after it', () => {
    expect(firstCauseLine({ failedCount: 0 })).toBeNull()
    expect(
      firstCauseLine({
        failedCount: 4,
        notRunCount: 1,
        firstCause: { step: 3, actionIndex: 2, description: 'Click "로그인"', reason: 'Element not found.' },
      }),
    ).toBe(
      'First cause: step 3 Click "로그인" — Element not found. (2 later failure(s) came after it; 1 step(s) not run (--max-failures))',
    )
  })
})
