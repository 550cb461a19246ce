import { fc, test } from '@fast-check/vitest'
import sharp from 'sharp'
import { describe, expect } from 'vitest'
import { averageHash, differenceHash, hammingDistance } from './hashes'
import { renderBoxesPng } from './testing/render-text'

const hex16 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((n) => n.toString(16).padStart(16, '0'))

describe('perceptual hashes', () => {
  test('64-bit hex; identical screens give distance 0, a new scene a large one', async () => {
    const menu = await renderBoxesPng([{ x: 20, y: 20, width: 120, height: 60, color: '#000000' }])
    const same = await renderBoxesPng([{ x: 20, y: 20, width: 120, height: 60, color: '#000000' }])
    const other = await renderBoxesPng([{ x: 160, y: 120, width: 150, height: 110, color: '#000000' }])
    const [a, b, c] = await Promise.all([averageHash(menu), averageHash(same), averageHash(other)])
    expect(a).toMatch(/^[0-9a-f]{16}$/)
    expect(hammingDistance(a, b)).toBe(0)
    expect(hammingDistance(a, c)).toBeGreaterThanOrEqual(10)
    const [d1, d2] = await Promise.all([differenceHash(menu), differenceHash(other)])
    expect(d1).toMatch(/^[0-9a-f]{16}$/)
    expect(hammingDistance(d1, d2)).toBeGreaterThan(0)
  })

  test('a raw RGBA frame hashes like its PNG', async () => {
    const png = await renderBoxesPng([{ x: 40, y: 30, width: 100, height: 90, color: '#ff0000' }])
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    const raw = { width: info.width, height: info.height, channels: 4 as const, data: new Uint8Array(data) }
    expect(await averageHash(raw)).toBe(await averageHash(png))
    expect(await differenceHash(raw)).toBe(await differenceHash(png))
  })

  // transitions are told apart by hash distance: Hamming distance is a metric on 64-bit hashes
  test.prop([hex16, hex16, hex16], { numRuns: 100 })('Hamming distance is a metric in [0, 64]', (a, b, c) => {
    const ab = hammingDistance(a, b)
    expect(ab).toBe(hammingDistance(b, a))
    expect(ab === 0).toBe(a === b)
    expect(ab).toBeLessThanOrEqual(64)
    expect(hammingDistance(a, c)).toBeLessThanOrEqual(ab + hammingDistance(b, c))
  })

  test('hashes of different lengths cannot be compared', () => {
    expect(() => hammingDistance('ff', 'fff')).toThrow(/same length/)
  })
})
