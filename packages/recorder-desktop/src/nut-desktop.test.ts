import { describe, expect, it } from 'vitest'
import { nutKeyName } from './nut-desktop'

describe('nutKeyName', () => {
  it('replays a recorded Enter as the main Return key, not the keypad Enter (which LBreakout2 ignores)', () => {
    // libnut names XK_Return "return" (nut-js Key.Return) and the keypad's XK_KP_Enter "enter" (Key.Enter); the hook
    // reports the main key as "enter"
    expect(nutKeyName('enter')).toBe('Return')
    expect(nutKeyName('Return')).toBe('Return')
    expect(nutKeyName('arrowdown')).toBe('Down')
    expect(nutKeyName('escape')).toBe('Escape')
  })
})
