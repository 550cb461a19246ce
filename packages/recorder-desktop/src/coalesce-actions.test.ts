import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { createActionCoalescer } from './coalesce-actions'
import type { InputEvent } from './input-event'

const click = (x: number, y: number, t: number, button: 'left' | 'right' = 'left'): InputEvent[] => [
  { kind: 'mousedown', timeMs: t, x, y, button },
  { kind: 'mouseup', timeMs: t + 30, x, y, button },
]
const key = (k: string, t: number, char?: string, mods: { ctrl?: boolean } = {}): InputEvent => ({
  kind: 'keydown',
  timeMs: t,
  key: k,
  char: char ?? null,
  ...mods,
})
const run = (events: InputEvent[]) => {
  const c = createActionCoalescer()
  const ops = events.flatMap((e) => c.push(e))
  return { actions: c.actions, ops }
}

describe('createActionCoalescer', () => {
  it('turns down/up into clicks with the press time and place', () => {
    const { actions } = run([...click(10, 20, 1000), ...click(300, 40, 2000, 'right')])
    expect(actions.map((a) => [a.actionType, a.x, a.y, a.timeMs, a.button])).toEqual([
      ['click', 10, 20, 1000, 'left'],
      ['right_click', 300, 40, 2000, 'right'],
    ])
  })

  it('upgrades two quick clicks at one place into a double click, but not slow or distant ones', () => {
    expect(run([...click(10, 10, 0), ...click(11, 10, 200)]).actions.map((a) => a.actionType)).toEqual(['double_click'])
    expect(run([...click(10, 10, 0), ...click(10, 10, 900)]).actions.map((a) => a.actionType)).toEqual([
      'click',
      'click',
    ])
    expect(run([...click(10, 10, 0), ...click(80, 10, 100)]).actions.map((a) => a.actionType)).toEqual([
      'click',
      'click',
    ])
  })

  it('records a drag when the mouse travels between down and up', () => {
    const { actions } = run([
      { kind: 'mousedown', timeMs: 0, x: 10, y: 10, button: 'left' },
      { kind: 'mousemove', timeMs: 50, x: 60, y: 10 },
      { kind: 'mouseup', timeMs: 100, x: 110, y: 15, button: 'left' },
    ])
    expect(actions).toMatchObject([{ actionType: 'drag', x: 10, y: 10, endX: 110, endY: 15, durationMs: 100 }])
  })

  it('sums wheel ticks at one place into one scroll', () => {
    const { actions } = run([
      { kind: 'wheel', timeMs: 0, x: 5, y: 5, dx: 0, dy: 3 },
      { kind: 'wheel', timeMs: 100, x: 5, y: 5, dx: 0, dy: 3 },
      { kind: 'wheel', timeMs: 1000, x: 5, y: 5, dx: 0, dy: -3 },
    ])
    expect(actions.map((a) => a.scrollDy)).toEqual([6, -3])
  })

  it('coalesces typing, applies Backspace, and ends it at Enter (recorded as a key press)', () => {
    const { actions } = run([
      key('h', 0, 'h'),
      key('i', 50, 'i'),
      key('x', 90, 'x'),
      key('backspace', 120),
      key('shift', 130),
      key('1', 150, '!', {}),
      key('enter', 200),
      key('s', 300, 's', { ctrl: true }),
    ])
    expect(actions.map((a) => [a.actionType, a.text ?? a.key])).toEqual([
      ['type', 'hi!'],
      ['key_press', 'enter'],
      ['key_press', 'ctrl+s'],
    ])
  })

  it('stops at the stop hotkey and ignores everything after it', () => {
    const c = createActionCoalescer({ stopKey: 'F10' })
    c.push(click(1, 1, 0)[0] as InputEvent)
    c.push(click(1, 1, 0)[1] as InputEvent)
    expect(c.push(key('f10', 100))).toEqual([{ op: 'stop', timeMs: 100 }])
    expect(c.push(click(5, 5, 200)[0] as InputEvent)).toEqual([])
    expect(c.actions).toHaveLength(1)
  })

  it('rejects negative options', () => {
    expect(() => createActionCoalescer({ doubleClickMs: -1 })).toThrow(/doubleClickMs/)
  })

  // No input event is lost: every click at a distinct place becomes exactly one action, in order.
  test.prop(
    [
      fc.array(
        fc.tuple(
          fc.integer({ min: 0, max: 1900 }),
          fc.integer({ min: 0, max: 1000 }),
          fc.integer({ min: 20, max: 500 }),
        ),
        { maxLength: 60 },
      ),
    ],
    { numRuns: 100 },
  )('n clicks at places ≥ 10 px apart give n click actions in order', (clicks) => {
    const events: InputEvent[] = []
    let t = 0
    const points: [number, number][] = []
    for (const [i, [x, y, gap]] of clicks.entries()) {
      const px = (x + i * 17) % 1900 // shift so that consecutive clicks are never at the same place
      const prev = points[points.length - 1]
      const p: [number, number] = prev && Math.hypot(prev[0] - px, prev[1] - y) < 10 ? [(px + 50) % 1900, y] : [px, y]
      points.push(p)
      events.push(...click(p[0], p[1], t))
      t += gap
    }
    const { actions } = run(events)
    expect(actions.map((a) => [a.x, a.y])).toEqual(points)
    expect(actions.every((a) => a.actionType === 'click')).toBe(true)
  })
})
