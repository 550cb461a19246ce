import { describe, expect, it } from 'vitest'
import { historyMove } from './recorder'

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
