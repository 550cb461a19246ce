import type { AssertionObservation } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { type AssertionProbe, pollAssertion } from './assert-step'

/** A page whose observations change over (fake) time, and a clock that advances only when the poll sleeps. */
function scripted(timeline: { atMs: number; seen: AssertionObservation }[]) {
  let t = 0
  const slept: number[] = []
  const probe: AssertionProbe = {
    async observe() {
      const current = timeline.filter((e) => e.atMs <= t).at(-1)
      if (!current) throw new Error('page not ready')
      return current.seen
    },
  }
  return {
    probe,
    slept,
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms)
      t += ms
    },
  }
}

describe('pollAssertion', () => {
  it('waits for a condition that becomes true before the timeout', async () => {
    const page = scripted([
      { atMs: 0, seen: { found: true, text: '장바구니 0개' } },
      { atMs: 600, seen: { found: true, text: '장바구니 1개' } },
    ])
    const r = await pollAssertion({ kind: 'text', expected: '장바구니 1개' }, page.probe, { timeoutMs: 5_000, ...page })
    expect(r.holds).toBe(true)
    expect(page.slept).toEqual([100, 250, 500])
    expect(r.looks).toBe(4)
  })

  it('gives up at the timeout with expected and actual of the last look', async () => {
    const page = scripted([{ atMs: 0, seen: { found: true, text: '장바구니 0개' } }])
    const r = await pollAssertion({ kind: 'text', expected: '장바구니 1개' }, page.probe, { timeoutMs: 2_000, ...page })
    expect(r).toMatchObject({ holds: false, expected: 'text equals "장바구니 1개"', actual: '"장바구니 0개"' })
    // never sleeps past the deadline, and looks once more at it
    expect(page.slept.reduce((a, b) => a + b, 0)).toBe(2_000)
    expect(page.slept).toEqual([100, 250, 500, 1000, 150])
  })

  it('an element that disappears makes hidden hold; one that stays fails it', async () => {
    const leaving = scripted([
      { atMs: 0, seen: { found: true, visible: true } },
      { atMs: 300, seen: { found: false } },
    ])
    expect((await pollAssertion({ kind: 'hidden' }, leaving.probe, { timeoutMs: 1_000, ...leaving })).holds).toBe(true)
    const staying = scripted([{ atMs: 0, seen: { found: true, visible: true } }])
    const r = await pollAssertion({ kind: 'hidden' }, staying.probe, { timeoutMs: 1_000, ...staying })
    expect(r).toMatchObject({ holds: false, actual: 'visible' })
  })

  it('a probe that throws is a look that failed, with the reason as actual', async () => {
    const page = scripted([])
    const r = await pollAssertion({ kind: 'visible' }, page.probe, { timeoutMs: 300, ...page })
    expect(r).toMatchObject({ holds: false, actual: 'page not ready' })
  })

  it('a timeout of 0 looks exactly once', async () => {
    const page = scripted([{ atMs: 0, seen: { found: true, count: 2 } }])
    const r = await pollAssertion({ kind: 'count', expected: 3 }, page.probe, { timeoutMs: 0, ...page })
    expect(r).toMatchObject({ holds: false, looks: 1, actual: '2' })
    expect(page.slept).toEqual([])
  })
})
