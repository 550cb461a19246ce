import { afterAll, describe, expect, test } from 'vitest'
import type { ScreenCapture } from '../ports'

/** A screen under test and the way to show one colour over all of it. */
export interface ScreenUnderTest {
  screen: ScreenCapture
  /** Shows this colour over the whole screen. */
  fill(rgb: readonly [number, number, number]): Promise<void>
  close?(): Promise<void>
}

export interface ScreenCaptureContractOptions {
  /** The screen's size, as the caller made it. */
  width: number
  height: number
}

/**
 * The contract every ScreenCapture keeps (the memory fake, nut-js on a real X server): `info` tells the screen's size
 * at scale 1, `capture` gives that many RGBA pixels (4 channels, opaque), what the screen shows now and not an
 * earlier grab, the same bytes twice when nothing changed. `make` is called once.
 */
export function describeScreenCapture(
  label: string,
  make: () => Promise<ScreenUnderTest>,
  opts: ScreenCaptureContractOptions,
): void {
  describe(`ScreenCapture contract: ${label}`, () => {
    let made: ScreenUnderTest | undefined
    const get = async () => {
      made ??= await make()
      return made
    }
    afterAll(async () => {
      await made?.close?.()
    })

    /** How many pixels of the frame are exactly this opaque colour. */
    const countOf = (data: Uint8Array, [r, g, b]: readonly [number, number, number]) => {
      let n = 0
      for (let i = 0; i < data.length; i += 4)
        if (data[i] === r && data[i + 1] === g && data[i + 2] === b && data[i + 3] === 255) n++
      return n
    }

    test('info tells the size at scale 1', async () => {
      expect(await (await get()).screen.info()).toEqual({ width: opts.width, height: opts.height, scale: 1 })
    })

    test('a capture is the whole screen in opaque RGBA, showing the colour on it now', async () => {
      const s = await get()
      await s.fill([255, 128, 0])
      const frame = await s.screen.capture()
      expect([frame.width, frame.height, frame.channels]).toEqual([opts.width, opts.height, 4])
      expect(frame.data.length).toBe(opts.width * opts.height * 4)
      expect(countOf(frame.data, [255, 128, 0])).toBe(opts.width * opts.height)
      await s.fill([0, 64, 200])
      const next = await s.screen.capture()
      expect(countOf(next.data, [0, 64, 200])).toBe(opts.width * opts.height)
      expect(countOf(frame.data, [255, 128, 0])).toBe(opts.width * opts.height) // the first grab is not overwritten
    })

    test('two captures of an unchanged screen hold the same bytes', async () => {
      const s = await get()
      await s.fill([12, 34, 56])
      const a = await s.screen.capture()
      const b = await s.screen.capture()
      expect(Buffer.from(b.data).equals(Buffer.from(a.data))).toBe(true)
      expect(countOf(a.data, [12, 34, 56])).toBe(opts.width * opts.height)
    })
  })
}
