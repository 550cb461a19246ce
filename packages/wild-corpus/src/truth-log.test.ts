import { describe, expect, it } from 'vitest'
import { createTruthLog, type TruthEvent } from './truth-log'

const event = (kind: string, truth: string): TruthEvent => ({
  run: 'none',
  kind,
  truth,
  chain: [truth],
  tag: 'button',
  label: '',
  url: 'http://127.0.0.1/',
  t: 0,
  receivedAt: 0,
})

describe('createTruthLog', () => {
  it('answers waitFor with a logged event, an arriving one, or undefined after the timeout', async () => {
    const log = createTruthLog()
    log.push(event('pointerdown', 'a'))
    expect((await log.waitFor((e) => e.kind === 'pointerdown', 10))?.truth).toBe('a')
    const later = log.waitFor((e) => e.kind === 'click', 1000)
    log.push(event('click', 'b'))
    expect((await later)?.truth).toBe('b')
    expect(await log.waitFor((e) => e.kind === 'change', 20)).toBeUndefined()
    log.clear()
    expect(log.events()).toEqual([])
  })
})
