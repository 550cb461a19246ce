import { execFileSync } from 'node:child_process'
import { mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeScreenshot, readImageFile } from './decode-screenshot'

/** Issue 29, finding 5: a screenshot that is a device grew memory without limit in replay --verify and qa report. */
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
