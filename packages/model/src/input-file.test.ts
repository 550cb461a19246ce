import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkInputFile, readInputFile } from './input-file'

/** One rule for every file an input names (case, screenshot, report, config): regular, bounded, rooted. */
describe('readInputFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-input-'))
  const rule = { what: 'screenshot file', maxBytes: 1024 }

  it('reads a regular file within the limit', async () => {
    writeFileSync(join(dir, 'a.png'), 'abc')
    expect((await readInputFile(join(dir, 'a.png'), rule)).toString()).toBe('abc')
    expect(await checkInputFile(join(dir, 'a.png'), rule)).toBe(3)
  })

  it('refuses a device, a pipe, a folder and a missing file, naming the file and what was expected', async () => {
    await expect(readInputFile('/dev/zero', rule)).rejects.toMatchObject({
      code: 'MODEL_FILE_UNREADABLE',
      message: '/dev/zero is not a regular file; a screenshot file was expected.',
    })
    const fifo = join(dir, 'pipe.png')
    execFileSync('mkfifo', [fifo])
    await expect(readInputFile(fifo, rule)).rejects.toMatchObject({ code: 'MODEL_FILE_UNREADABLE' })
    await expect(checkInputFile(dir, rule)).rejects.toMatchObject({
      code: 'MODEL_FILE_UNREADABLE',
      message: `${dir} is a folder, not a screenshot file.`,
    })
    await expect(readInputFile(join(dir, 'nope.png'), rule)).rejects.toMatchObject({
      code: 'MODEL_FILE_NOT_FOUND',
      message: `${join(dir, 'nope.png')}: no such screenshot file.`,
    })
  })

  it('refuses a file over the limit before reading it, with the limit the caller gave', async () => {
    const big = join(dir, 'big.json')
    writeFileSync(big, '')
    truncateSync(big, 600 * 1024 * 1024) // sparse
    await expect(readInputFile(big, { what: 'test case file', maxBytes: 20 * 1024 * 1024 })).rejects.toMatchObject({
      code: 'MODEL_FILE_TOO_LARGE',
      message: `${big} is 600.0 MiB; a test case file may be at most 20 MiB, so it was not read.`,
    })
  })

  it('with a root, refuses ../, absolute paths and symlinks that lead out of it', async () => {
    const root = join(dir, 'report')
    mkdirSync(join(root, 'artifacts'), { recursive: true })
    writeFileSync(join(root, 'artifacts', 'in.png'), 'in')
    writeFileSync(join(dir, 'secret.png'), 'secret')
    symlinkSync(join(dir, 'secret.png'), join(root, 'artifacts', 'link.png'))
    const rooted = { ...rule, root, rootLabel: "the report's folder" }
    expect((await readInputFile(join(root, 'artifacts', 'in.png'), rooted)).toString()).toBe('in')
    for (const path of [join(root, '..', 'secret.png'), join(dir, 'secret.png'), join(root, 'artifacts', 'link.png')])
      await expect(readInputFile(path, rooted)).rejects.toMatchObject({
        code: 'MODEL_FILE_OUTSIDE_ROOT',
        message: `${path} is outside the report's folder (${root}); only a screenshot file inside it is read.`,
      })
  })
})
