import { execFileSync } from 'node:child_process'
import { mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodeScreenshot, readImageFile } from './decode-screenshot'

/** A screenshot that is a device grew memory without limit in replay --verify and qa report. */
describe('reading a screenshot file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-shots-'))

  it('refuses a device, a pipe or a link to a device before reading it', async () => {
    await expect(readImageFile('/dev/zero')).rejects.toMatchObject({
      code: 'VERIFIER_FILE_UNREADABLE',
      message: '/dev/zero is not a regular file; a screenshot file was expected.',
    })
    const link = join(dir, 'step-000-after.png')
    symlinkSync('/dev/zero', link)
    await expect(decodeScreenshot(link)).rejects.toMatchObject({ code: 'VERIFIER_FILE_UNREADABLE' })
    const fifo = join(dir, 'fifo.png')
    execFileSync('mkfifo', [fifo])
    await expect(readImageFile(fifo)).rejects.toMatchObject({ code: 'VERIFIER_FILE_UNREADABLE' })
  })

  it('refuses a file over 100 MiB, naming its size', async () => {
    const huge = join(dir, 'huge.png')
    writeFileSync(huge, '')
    truncateSync(huge, 150 * 1024 * 1024) // sparse
    await expect(readImageFile(huge)).rejects.toMatchObject({
      message: `${huge} is 150.0 MiB; a screenshot file may be at most 100 MiB, so it was not read.`,
    })
  })
})

/** A PNG whose header says width×height, with one row of real pixels: a few bytes claiming a huge image. */
function claimedPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4)
    head.writeUInt32BE(data.length)
    const tail = Buffer.alloc(4)
    tail.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])))
    return Buffer.concat([head, Buffer.from(type), data, tail])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(width * 3 + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

describe('an image with too many pixels (a 20000×20000 PNG)', () => {
  it('is refused from its header, before decoding, naming its size and the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-shots-'))
    const file = join(dir, 'huge.png')
    writeFileSync(file, claimedPng(20_000, 20_000))
    await expect(decodeScreenshot(file)).rejects.toMatchObject({
      code: 'VERIFIER_IMAGE_TOO_LARGE',
      message: `${file} is a 20000×20000 PNG (400.0 megapixels); a screenshot may have at most 100 megapixels, so it was not decoded.`,
    })
  })
})
