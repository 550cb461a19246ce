import { describe, expect, it } from 'vitest'
import { createTruthLog, inPageOrder, type TruthEvent } from './truth-log'

const event = (kind: string, truth: string, t = 0, receivedAt = 0): TruthEvent => ({
  run: 'none',
  kind,
  truth,
  chain: [truth],
  tag: 'button',
  label: '',
  url: 'http://127.0.0.1/',
  t,
  receivedAt,
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

  it("puts events in the page's order: a click whose beacon overtook the one before it goes back after it", () => {
    const log = createTruthLog()
    // the press on "Pages" at 1000 and its click; the press on "Authentication" at 1900, whose beacon came first
    log.push(event('pointerdown', 'Authentication', 1_900, 2_001))
    log.push(event('pointerdown', 'Pages', 1_000, 2_002))
    log.push(event('click', 'Pages', 1_000, 2_003))
    log.push(event('click', 'Authentication', 1_950, 2_004))
    // events of the same millisecond keep their arrival order
    expect(inPageOrder(log.events()).map((e) => `${e.kind} ${e.truth}`)).toEqual([
      'pointerdown Pages',
      'click Pages',
      'pointerdown Authentication',
      'click Authentication',
    ])
    // the log itself keeps the arrival order (readers slice it from a length they noted)
    expect(log.events().map((e) => e.truth)).toEqual(['Authentication', 'Pages', 'Pages', 'Authentication'])
  })
})
