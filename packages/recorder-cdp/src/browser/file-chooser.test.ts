import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { filesForStep } from './file-chooser'

describe('filesForStep', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'qa-files-'))
    await writeFile(join(dir, 'report.pdf'), 'pdf')
    await writeFile(join(dir, '보고서.txt'), '한글')
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('gives the paths of the recorded names in the folder, in order (Hangul names too)', async () => {
    expect(await filesForStep(['보고서.txt', 'report.pdf'], dir)).toEqual([
      join(dir, '보고서.txt'),
      join(dir, 'report.pdf'),
    ])
  })

  it('fails naming the missing file, the folder and the flag that names another folder', async () => {
    const error = await filesForStep(['report.pdf', 'photo.png'], dir).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'WEB_FILE_MISSING' })
    expect(String((error as Error).message)).toContain(`The file "photo.png" the step chooses is not in ${dir}`)
    expect(String((error as Error).message)).toContain('--files-dir')
  })
})
