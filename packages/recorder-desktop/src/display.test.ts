import { describe, expect, it } from 'vitest'
import { assertDisplay, parseDisplay } from './display'

describe('display check', () => {
  it('parses display names', () => {
    expect(parseDisplay(':0')).toEqual({ host: null, number: 0 })
    expect(parseDisplay(':99.0')).toEqual({ host: null, number: 99 })
    expect(parseDisplay('localhost:10')).toEqual({ host: 'localhost', number: 10 })
    expect(parseDisplay('nonsense')).toBeNull()
  })
  it('refuses a missing DISPLAY with a hint naming xvfb-run', async () => {
    await expect(assertDisplay({})).rejects.toMatchObject({
      code: 'DESKTOP_NO_DISPLAY',
      hint: expect.stringContaining('xvfb-run -a'),
    })
  })
  it('refuses a display with no server behind it', async () => {
    await expect(assertDisplay({ DISPLAY: ':987' })).rejects.toMatchObject({
      code: 'DESKTOP_NO_DISPLAY',
      message: expect.stringContaining(':987'),
    })
    await expect(assertDisplay({ DISPLAY: 'bogus' })).rejects.toMatchObject({ code: 'DESKTOP_NO_DISPLAY' })
  })
})
