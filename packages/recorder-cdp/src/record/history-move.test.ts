import { describe, expect, it } from 'vitest'
import { activationMove, historyMove } from './history-move'

describe('historyMove — back and forward are told from the session history', () => {
  it('back: an entry the history had, at a lower index; forward: at a higher one', () => {
    expect(historyMove({ index: 1, ids: [1, 2] }, { index: 0, ids: [1, 2] })).toBe('back')
    expect(historyMove({ index: 0, ids: [1, 2] }, { index: 1, ids: [1, 2] })).toBe('forward')
  })
  it('a new navigation (a new entry) and a reload (same index) are neither', () => {
    expect(historyMove({ index: 0, ids: [1] }, { index: 1, ids: [1, 3] })).toBeNull()
    expect(historyMove({ index: 0, ids: [1, 2] }, { index: 1, ids: [1, 4] })).toBeNull()
    expect(historyMove({ index: 1, ids: [1, 2] }, { index: 1, ids: [1, 2] })).toBeNull()
  })
})

describe('activationMove — a document tells how it was reached', () => {
  it('a traverse to a lower index is back, to a higher one forward', () => {
    expect(activationMove({ type: 'traverse', fromIndex: 2, toIndex: 1 })).toBe('back')
    expect(activationMove({ type: 'traverse', fromIndex: 0, toIndex: 1 })).toBe('forward')
  })
  it('a traverse from another site cannot say its direction', () => {
    expect(activationMove({ type: 'traverse', fromIndex: null, toIndex: 0 })).toBe('unknown')
  })
  it('a new page, a reload and a replaced entry are no move', () => {
    for (const type of ['push', 'reload', 'replace'])
      expect(activationMove({ type, fromIndex: 0, toIndex: 1 })).toBeNull()
  })
})
