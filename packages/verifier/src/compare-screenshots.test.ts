import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import pixelmatch from 'pixelmatch'
import sharp from 'sharp'
import { describe, expect } from 'vitest'
import { cloneFrame, paintRect, syntheticFrame, toPng } from './__tests__/images'
import { compareScreenshots } from './compare-screenshots'
import { decodeScreenshot } from './decode-screenshot'
import { createScreenshotCache } from './screenshot-cache'

const tmp = mkdtempSync(join(tmpdir(), 'qa-verifier-compare-'))
function fileWith(name: string, content: string): string {
  writeFileSync(join(tmp, name), content)
  return join(tmp, name)
}

const arbCase = fc.record({
  width: fc.integer({ min: 3, max: 48 }),
  height: fc.integer({ min: 3, max: 48 }),
  seed: fc.integer({ min: 1, max: 2 ** 31 }),
  edits: fc.array(
    fc.record({
      x: fc.nat(47),
      y: fc.nat(47),
      w: fc.integer({ min: 1, max: 10 }),
      h: fc.integer({ min: 1, max: 10 }),
      rgb: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)),
    }),
    { maxLength: 4 },
  ),
  threshold: fc.constantFrom(0, 0.05, 0.1, 0.3),
  includeAA: fc.boolean(),
})

describe('compareScreenshots', () => {
  test.prop([arbCase], { numRuns: 150 })(
    'counts exactly what plain pixelmatch counts (row-band skipping is exact)',
    async (c) => {
      const a = syntheticFrame(c.width, c.height, c.seed)
      const b = cloneFrame(a)
      for (const e of c.edits) paintRect(b, e.x, e.y, e.w, e.h, e.rgb)
      const expected = pixelmatch(a.data, b.data, undefined, c.width, c.height, {
        threshold: c.threshold,
        includeAA: c.includeAA,
      })
      const r = await compareScreenshots(a, b, { threshold: c.threshold, includeAA: c.includeAA })
      expect(r.diffPixels).toBe(expected)
      expect(r.totalPixels).toBe(c.width * c.height)
      expect(r.similarity).toBeCloseTo(1 - expected / (c.width * c.height), 12)
    },
  )

  test.prop([arbCase], { numRuns: 100 })('the diff image equals pixelmatch output pixel for pixel', async (c) => {
    const a = syntheticFrame(c.width, c.height, c.seed)
    const b = cloneFrame(a)
    for (const e of c.edits) paintRect(b, e.x, e.y, e.w, e.h, e.rgb)
    const out = new Uint8Array(c.width * c.height * 4)
    pixelmatch(a.data, b.data, out, c.width, c.height, { threshold: c.threshold, includeAA: c.includeAA, alpha: 0.1 })
    const r = await compareScreenshots(a, b, { threshold: c.threshold, includeAA: c.includeAA, diffImage: true })
    const raw = await sharp(r.diffImage as Buffer)
      .ensureAlpha()
      .raw()
      .toBuffer()
    expect(Buffer.compare(raw, Buffer.from(out))).toBe(0)
  })

  test('full HD with a local change and a shifted half agrees with pixelmatch', async () => {
    const a = syntheticFrame(1920, 1080, 7)
    const local = cloneFrame(a)
    paintRect(local, 900, 500, 120, 40, [10, 20, 30])
    const shifted = cloneFrame(a)
    shifted.data.copyWithin(540 * 1920 * 4 + 40 * 1920 * 4, 540 * 1920 * 4)
    for (const b of [local, shifted]) {
      const r = await compareScreenshots(a, b)
      expect(r.diffPixels).toBe(pixelmatch(a.data, b.data, undefined, 1920, 1080, { threshold: 0.1 }))
      expect(r.diffPixels).toBeGreaterThan(0)
    }
  })

  test.prop(
    [
      arbCase,
      fc.record({
        x: fc.nat(40),
        y: fc.nat(40),
        w: fc.integer({ min: 1, max: 30 }),
        h: fc.integer({ min: 1, max: 30 }),
      }),
      fc.integer(),
    ],
    {
      numRuns: 100,
    },
  )(
    'masked pixels are excluded: whatever is under a mask, in either image, the result is the same',
    async (c, m, noise) => {
      const a = syntheticFrame(c.width, c.height, c.seed)
      const b = cloneFrame(a)
      for (const e of c.edits) paintRect(b, e.x, e.y, e.w, e.h, e.rgb)
      const ignore = [{ x: m.x, y: m.y, width: m.w, height: m.h }]
      const base = await compareScreenshots(a, b, { ignore })
      const a2 = cloneFrame(a)
      const b2 = cloneFrame(b)
      const rgb: [number, number, number] = [noise & 255, (noise >> 8) & 255, (noise >> 16) & 255]
      paintRect(a2, m.x, m.y, m.w, m.h, rgb)
      paintRect(b2, m.x, m.y, m.w, m.h, [255 - rgb[0], rgb[2], rgb[1]])
      const changed = await compareScreenshots(a2, b2, { ignore })
      expect(changed).toEqual(base)
      const inside =
        Math.max(0, Math.min(c.width, m.x + m.w) - Math.min(c.width, m.x)) *
        Math.max(0, Math.min(c.height, m.y + m.h) - Math.min(c.height, m.y))
      expect(base.totalPixels).toBe(c.width * c.height - inside)
      expect(base.diffPixels).toBeLessThanOrEqual(base.totalPixels)
    },
  )

  test('a mask covering the only change makes the images match; a mask image works like rectangles', async () => {
    const a = syntheticFrame(64, 48, 3)
    const b = cloneFrame(a)
    paintRect(b, 10, 10, 8, 6, [0, 0, 0])
    expect((await compareScreenshots(a, b)).diffPixels).toBeGreaterThan(0)
    const byRect = await compareScreenshots(a, b, { ignore: [{ x: 8, y: 8, width: 12, height: 10 }] })
    expect(byRect.diffPixels).toBe(0)
    expect(byRect.similarity).toBe(1)
    const maskFrame = { width: 64, height: 48, channels: 4 as const, data: new Uint8Array(64 * 48 * 4) }
    paintRect(maskFrame, 8, 8, 12, 10, [255, 255, 255])
    for (let i = 3; i < maskFrame.data.length; i += 4) maskFrame.data[i] = 255
    const byImage = await compareScreenshots(a, b, { maskImage: await toPng(maskFrame) })
    expect(byImage).toEqual(byRect)
  })

  test('size mismatch fails with the documented reason, or is resized on request', async () => {
    const a = syntheticFrame(40, 30, 1)
    const b = syntheticFrame(20, 15, 1)
    const r = await compareScreenshots(a, b)
    expect(r.similarity).toBe(0)
    expect(r.sizeMismatch).toEqual({ expected: { width: 40, height: 30 }, actual: { width: 20, height: 15 } })
    expect(r.reason).toBe('Screenshot sizes differ: expected 40×30, actual 20×15.')
    const resized = await compareScreenshots(a, b, { sizeMismatch: 'resize' })
    expect(resized.sizeMismatch).toBeUndefined()
    expect(resized.width).toBe(40)
    expect(resized.totalPixels).toBe(1200)
  })

  test('region of interest compares only that rectangle', async () => {
    const a = syntheticFrame(60, 40, 9)
    const b = cloneFrame(a)
    paintRect(b, 50, 30, 5, 5, [1, 2, 3])
    const inside = await compareScreenshots(a, b, { region: { x: 0, y: 0, width: 30, height: 20 } })
    expect(inside).toMatchObject({ diffPixels: 0, totalPixels: 600, width: 30, height: 20, similarity: 1 })
    const around = await compareScreenshots(a, b, { region: { x: 45, y: 25, width: 100, height: 100 } })
    expect(around.width).toBe(15)
    expect(around.height).toBe(15)
    expect(around.diffPixels).toBeGreaterThan(0)
    await expect(compareScreenshots(a, b, { region: { x: 100, y: 100, width: 5, height: 5 } })).rejects.toMatchObject({
      code: 'VERIFIER_BAD_OPTION',
    })
  })

  test('accepts paths, PNG/JPEG/WebP bytes and RGB frames; byte-identical files skip decoding', async () => {
    const a = syntheticFrame(32, 24, 5)
    const png = await toPng(a)
    const path = join(tmp, 'a.png')
    writeFileSync(path, png)
    const copy = join(tmp, 'a-copy.png')
    writeFileSync(copy, png)
    const cache = createScreenshotCache()
    const same = await compareScreenshots(path, copy, { cache })
    expect(same).toMatchObject({ similarity: 1, diffPixels: 0, byteIdentical: true, totalPixels: 768 })
    const other = await toPng(a, 9) // same pixels, different bytes
    expect(other.equals(png)).toBe(false)
    expect(await compareScreenshots(path, other, { cache })).toMatchObject({ similarity: 1, diffPixels: 0 })
    expect((await compareScreenshots(path, other)).byteIdentical).toBeUndefined()
    const rgb = new Uint8Array(32 * 24 * 3)
    for (let i = 0; i < 32 * 24; i++) rgb.set(a.data.subarray(i * 4, i * 4 + 3), i * 3)
    expect((await compareScreenshots(png, { width: 32, height: 24, channels: 3, data: rgb })).diffPixels).toBe(0)
    const webp = await sharp(a.data, { raw: { width: 32, height: 24, channels: 4 } })
      .webp({ lossless: true })
      .toBuffer()
    expect((await compareScreenshots(png, webp)).diffPixels).toBe(0)
    const jpeg = await sharp(a.data, { raw: { width: 32, height: 24, channels: 4 } })
      .jpeg({ quality: 95 })
      .toBuffer()
    expect((await compareScreenshots(png, jpeg)).similarity).toBeGreaterThan(0.5)
    const decoded = await decodeScreenshot(path)
    expect(await compareScreenshots(decoded, copy)).toMatchObject({ byteIdentical: true })
  })

  test('diff image only on failure when asked so', async () => {
    const a = syntheticFrame(50, 50, 2)
    const small = cloneFrame(a)
    paintRect(small, 0, 0, 2, 2, [0, 0, 0])
    const big = cloneFrame(a)
    paintRect(big, 0, 0, 30, 30, [0, 0, 0])
    expect((await compareScreenshots(a, small, { diffImage: 'on-failure' })).diffImage).toBeUndefined()
    const failed = await compareScreenshots(a, big, { diffImage: 'on-failure' })
    const meta = await sharp(failed.diffImage as Buffer).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 50, 50])
  })

  describe('bad input', () => {
    const good = syntheticFrame(8, 8, 1)
    const cases: [string, () => unknown, string, RegExp][] = [
      ['missing file', () => join(tmp, 'nope.png'), 'VERIFIER_FILE_NOT_FOUND', /nope\.png: no such screenshot file/],
      ['not an image', () => fileWith('x.png', 'hello'), 'VERIFIER_NOT_AN_IMAGE', /not an image/],
      ['zero bytes', () => fileWith('z.png', ''), 'VERIFIER_EMPTY_IMAGE', /empty/],
      [
        'zero-size frame',
        () => ({ width: 0, height: 8, channels: 4, data: new Uint8Array(0) }),
        'VERIFIER_EMPTY_IMAGE',
        /positive/,
      ],
      [
        'wrong frame length',
        () => ({ width: 8, height: 8, channels: 4, data: new Uint8Array(10) }),
        'VERIFIER_BAD_FRAME',
        /expected 256 bytes/,
      ],
    ]
    for (const [name, make, code, msg] of cases) {
      test(name, async () => {
        const err = await compareScreenshots(good, make() as string).catch((e: unknown) => e)
        expect(err).toMatchObject({ code })
        expect((err as Error).message).toMatch(msg)
        expect((err as { hint?: string }).hint).toBeTruthy()
      })
    }
    test('truncated PNG', async () => {
      const png = await toPng(syntheticFrame(64, 64, 4), 0)
      const err = await compareScreenshots(good, png.subarray(0, Math.floor(png.length / 2))).catch((e: unknown) => e)
      expect(err).toMatchObject({ code: 'VERIFIER_CORRUPT_IMAGE' })
      expect((err as Error).message).toMatch(/PNG image could not be decoded/)
    })
  })
})
