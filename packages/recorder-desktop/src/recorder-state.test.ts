import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { acceptsInput, assertRecorderTransition, nextRecorderState, type RecorderEvent } from './recorder-state'

describe('recorder state machine', () => {
  it('runs idle → recording → stopping → stopped', () => {
    expect(nextRecorderState('idle', 'start')).toBe('recording')
    expect(nextRecorderState('recording', 'stop')).toBe('stopping')
    expect(nextRecorderState('stopping', 'drained')).toBe('stopped')
  })
  it('refuses to start twice or to stop before starting', () => {
    expect(() => assertRecorderTransition('recording', 'start')).toThrow(/cannot "start" while recording/)
    expect(nextRecorderState('idle', 'stop')).toBeNull()
  })
  test.prop([fc.array(fc.constantFrom<RecorderEvent>('start', 'stop', 'drained', 'fail'), { maxLength: 20 })], {
    numRuns: 100,
  })('input is accepted only while recording, and stopped/failed are final', (events) => {
    let s: ReturnType<typeof nextRecorderState> = 'idle'
    let ended = false
    for (const e of events) {
      const n = nextRecorderState(s ?? 'idle', e)
      if (n === null) continue
      if (ended) expect(n).toBe(s)
      s = n
      if (s === 'stopped' || s === 'failed') ended = true
      expect(acceptsInput(s)).toBe(s === 'recording')
    }
  })
})
