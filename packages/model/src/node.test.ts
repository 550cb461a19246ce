import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixturePath } from './__tests__/fixtures'
import { loadTestCase, saveTestCase, saveTestCaseCopy, writeFileAtomic } from './node'

const sha = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex')

describe('file IO', () => {
  it('loads a case and resolves asset paths relative to the case file', async () => {
    const loaded = await loadTestCase(fixturePath('v2/seed-001-example.json'))
    expect(loaded.resolveAsset('screenshots/action_0000.png')).toBe(fixturePath('v2/screenshots/action_0000.png'))
    expect(loaded.resolveAsset('/abs/x.png')).toBe('/abs/x.png')
    expect(loaded.migrated).toBe(true)
  })

  it('names a missing file', async () => {
    await expect(loadTestCase('/nope/case.json')).rejects.toMatchObject({
      code: 'MODEL_FILE_NOT_FOUND',
      file: '/nope/case.json',
    })
  })

  it('refuses a device, a pipe or a file over 20 MiB before reading it', async () => {
    await expect(loadTestCase('/dev/zero')).rejects.toMatchObject({
      code: 'MODEL_FILE_UNREADABLE',
      message: '/dev/zero is not a regular file; a test case file was expected.',
    })
    const dir = await mkdtemp(join(tmpdir(), 'qa-model-'))
    const fifo = join(dir, 'pipe.json')
    execFileSync('mkfifo', [fifo])
    await expect(loadTestCase(fifo)).rejects.toMatchObject({ code: 'MODEL_FILE_UNREADABLE' })
    const huge = join(dir, 'huge.json')
    await writeFile(huge, '{}')
    await truncate(huge, 600 * 1024 * 1024) // sparse: 600 MiB on paper
    await expect(loadTestCase(huge)).rejects.toMatchObject({
      code: 'MODEL_FILE_TOO_LARGE',
      message: `${huge} is 600.0 MiB; a test case file may be at most 20 MiB, so it was not read.`,
    })
  })

  it('saves atomically, refuses to overwrite unless asked, and leaves no temp files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-model-'))
    const { testCase } = await loadTestCase(fixturePath('v3/web-login.json'))
    const out = join(dir, 'nested', 'case.json')
    await saveTestCase(out, testCase)
    const first = await sha(out)
    await expect(saveTestCase(out, { ...testCase, name: 'changed' })).rejects.toMatchObject({
      code: 'MODEL_WOULD_OVERWRITE',
    })
    expect(await sha(out)).toBe(first)
    await saveTestCase(out, { ...testCase, name: 'changed' }, { overwrite: true })
    expect((await loadTestCase(out)).testCase.name).toBe('changed')
    expect(await readdir(join(dir, 'nested'))).toEqual(['case.json'])
  })

  it('keeps the old file when a write fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-model-'))
    const file = join(dir, 'a.json')
    await writeFile(file, 'old')
    // A folder where the temp file's parent should be makes the write fail after the check.
    await expect(writeFileAtomic(join(file, 'inner.json'), 'x', { overwrite: true })).rejects.toMatchObject({
      code: 'MODEL_WRITE_FAILED',
    })
    expect(await readFile(file, 'utf8')).toBe('old')
    expect(await readdir(dir)).toEqual(['a.json'])
  })
})

describe('text encoding', () => {
  it('a case that is not valid UTF-8 is an error naming the file and the byte, never replaced by U+FFFD', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-model-'))
    const file = join(dir, 'latin1.json')
    const bytes = Buffer.concat([
      Buffer.from('{"name":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('","version":"3.0","platform":"web","actions":[]}'),
    ])
    await writeFile(file, bytes)
    await expect(loadTestCase(file)).rejects.toMatchObject({
      code: 'MODEL_INVALID_ENCODING',
      message: expect.stringMatching(/latin1\.json is not UTF-8 text: byte 0xE9 at line 1, column 13/),
    })
    expect(Buffer.compare(await readFile(file), bytes)).toBe(0)
  })
})

describe('saving never writes a case that would not load', () => {
  it('a case whose screenshot path leaves its folder is refused, naming the field, and nothing is written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-model-'))
    const { testCase } = await loadTestCase(fixturePath('v3/web-login.json'))
    const bad = structuredClone(testCase)
    bad.actions[0]!.screenshotPath = '/home/u/secret.png'
    await expect(saveTestCase(join(dir, 'out.json'), bad)).rejects.toMatchObject({
      code: 'MODEL_INVALID',
      message: expect.stringMatching(/out\.json: actions\[0\]\.screenshot_path: expected a relative path inside/),
    })
    expect(await readdir(dir)).toEqual([])
  })
})

describe('saveTestCaseCopy: a case saved in another folder still resolves its screenshots', () => {
  it("copies every screenshot into the new case's folder and rewrites the paths; the same folder keeps them", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-model-'))
    const from = join(dir, 'cases')
    const { testCase } = await loadTestCase(fixturePath('v3/web-login.json'))
    const paths = testCase.actions.flatMap((a) => [a.screenshotBeforePath, a.screenshotPath].filter((p) => !!p))
    await mkdir(join(from, 'login'), { recursive: true })
    for (const p of paths) await writeFile(join(from, p as string), `png of ${p}`)
    const out = join(dir, 'healed', 'login.healed.json')
    await saveTestCaseCopy(out, testCase, { fromDir: from })
    const saved = await loadTestCase(out)
    const savedPaths = saved.testCase.actions.flatMap((a) =>
      [a.screenshotBeforePath, a.screenshotPath].filter((p) => !!p),
    )
    expect(savedPaths).toEqual(paths.map((p) => (p as string).replace(/^login\//, 'login.healed/')))
    for (const [i, p] of savedPaths.entries())
      expect(await readFile(saved.resolveAsset(p as string), 'utf8')).toBe(`png of ${paths[i]}`)
    const same = join(from, 'other.json')
    await saveTestCaseCopy(same, testCase, { fromDir: from })
    expect((await loadTestCase(same)).testCase.actions[0]?.screenshotPath).toBe(testCase.actions[0]?.screenshotPath)
  })

  it('a screenshot that is missing is named and nothing is written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-model-'))
    const { testCase } = await loadTestCase(fixturePath('v3/web-login.json'))
    await expect(
      saveTestCaseCopy(join(dir, 'out', 'x.json'), testCase, { fromDir: join(dir, 'cases') }),
    ).rejects.toMatchObject({
      code: 'MODEL_FILE_NOT_FOUND',
      message: expect.stringMatching(/login\/step-000-before\.png: no such screenshot file\./),
    })
    expect(await readdir(dir)).toEqual([])
  })
})
