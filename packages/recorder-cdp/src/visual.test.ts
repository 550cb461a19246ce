import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { findCropOnScreen } from './visual'

/** A 200×120 screen, white, with a dark 40×20 "button" at (120, 60) that has a lighter stripe. */
async function screen(): Promise<Uint8Array> {
  const w = 200
  const h = 120
  const px = Buffer.alloc(w * h * 3, 255)
  for (let y = 60; y < 80; y++)
    for (let x = 120; x < 160; x++) {
      const v = y < 66 ? 40 : x < 130 ? 200 : 90
      px.set([v, v, v], (y * w + x) * 3)
    }
  return new Uint8Array(
    await sharp(px, { raw: { width: w, height: h, channels: 3 } })
      .png()
      .toBuffer(),
  )
}

describe('findCropOnScreen (the web visual strategy)', () => {
  it('answers with the interactive element under the match, and with nothing when no control is there', async () => {
    const png = await screen()
    const { data, info } = await sharp(png)
      .extract({ left: 116, top: 56, width: 48, height: 28 })
      .ensureAlpha()
      .raw()
      .toBuffer({
        resolveWithObject: true,
      })
    const crop = { width: info.width, height: info.height, data: new Uint8Array(data), channels: 4 as const }
    const button = { handle: 'b', tagName: 'button', boundingBox: { x: 120, y: 60, width: 40, height: 20 } }
    const elsewhere = { handle: 'c', tagName: 'a', boundingBox: { x: 0, y: 0, width: 30, height: 20 } }
    const hit = await findCropOnScreen(png, crop, async () => [elsewhere, button])
    expect(hit?.element?.handle).toBe('b')
    expect(hit?.score).toBeGreaterThan(0.95)
    // the same pixels with no control under them (text that looks like the removed link): no answer
    expect(await findCropOnScreen(png, crop, async () => [elsewhere])).toBeNull()
  })
})
