import type { CandidateElement, Frame } from '@qa/matcher'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { countLookAlikes, decodeFrame } from './visual'

/** A 400×200 page with three 40×30 icon buttons: a bell at (20,20), another bell at (220,120), a star at (120,20). */
async function page(): Promise<Frame> {
  const bell =
    '<rect width="40" height="30" rx="6" fill="#eef"/><path d="M20 5 a8 8 0 0 1 8 8 v7 l3 4 h-22 l3 -4 v-7 a8 8 0 0 1 8 -8z" fill="#336"/>'
  const star =
    '<rect width="40" height="30" rx="6" fill="#eef"/><path d="M20 3l4 8h9l-7 6 3 9-9-6-9 6 3-9-7-6h9z" fill="#336"/>'
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><rect width="400" height="200" fill="#fff"/>
    <g transform="translate(20,20)">${bell}</g><g transform="translate(120,20)">${star}</g><g transform="translate(220,120)">${bell}</g></svg>`
  return decodeFrame(await sharp(Buffer.from(svg)).png().toBuffer())
}

function cropOf(frame: Frame, x: number, y: number, width: number, height: number): Frame {
  const data = new Uint8Array(width * height * 4)
  for (let row = 0; row < height; row++)
    data.set(
      frame.data.subarray(((y + row) * frame.width + x) * 4, ((y + row) * frame.width + x + width) * 4),
      row * width * 4,
    )
  return { width, height, data, channels: 4 }
}

const button = (x: number, y: number, tagName = 'button'): CandidateElement => ({
  tagName,
  axRole: 'button',
  boundingBox: { x, y, width: 40, height: 30 },
})

describe('countLookAlikes (other elements showing the recorded pixels)', () => {
  it('counts the other bell, not the star, not the element itself', async () => {
    const frame = await page()
    const crop = cropOf(frame, 20, 20, 40, 30)
    const self = button(20, 20)
    expect(countLookAlikes(frame, crop, self, [self, button(120, 20)])).toBe(0)
    expect(countLookAlikes(frame, crop, self, [self, button(120, 20), button(221, 119)])).toBe(1)
    // the star's crop has no look-alike on the page
    expect(
      countLookAlikes(frame, cropOf(frame, 120, 20, 40, 30), button(120, 20), [button(20, 20), button(220, 120)]),
    ).toBe(0)
  })

  it('counts an element of the same make outside the screenshot (its pixels are unknown), and not one of another size', async () => {
    const frame = await page()
    const crop = cropOf(frame, 20, 20, 40, 30)
    const self = button(20, 20)
    expect(countLookAlikes(frame, crop, self, [self, button(20, 900)])).toBe(1)
    expect(countLookAlikes(frame, crop, self, [self, button(20, 900, 'a')])).toBe(0)
    expect(
      countLookAlikes(frame, crop, self, [
        self,
        { ...button(220, 120), boundingBox: { x: 200, y: 100, width: 120, height: 60 } },
      ]),
    ).toBe(0)
  })
})
