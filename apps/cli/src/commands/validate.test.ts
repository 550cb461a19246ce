import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const bin = fileURLToPath(new URL('../../bin/qa.js', import.meta.url))
const fixtures = fileURLToPath(new URL('../../../../packages/model/test/fixtures/', import.meta.url))

function qa(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** A copy of a fixture in a temp folder, with its hash, to prove the CLI never changes its input. */
function copy(rel: string) {
  const dir = mkdtempSync(join(tmpdir(), 'qa-validate-'))
  const file = join(dir, rel.replace('/', '-'))
  copyFileSync(join(fixtures, rel), file)
  return { file, hash: createHash('sha256').update(readFileSync(file)).digest('hex') }
}
/** A fixture copied into a temp folder with every screenshot it names (a case is valid only with them). */
function withScreenshots(rel: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'qa-validate-'))
  const file = join(dir, rel.split('/').pop() as string)
  const text = readFileSync(join(fixtures, rel), 'utf8')
  writeFileSync(file, text)
  for (const [, path] of text.matchAll(/"(?:screenshot_before_path|screenshot_path|element_crop_path)": "([^"]+)"/g)) {
    mkdirSync(dirname(join(dir, path as string)), { recursive: true })
    writeFileSync(join(dir, path as string), 'png')
  }
  return file
}
const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

describe('qa validate', () => {
  it('accepts every version and says what migration a file gets', () => {
    const r = qa(
      'validate',
      withScreenshots('v1/coordinate-only.json'),
      withScreenshots('v2/seed-001-example.json'),
      withScreenshots('v3/web-login.json'),
    )
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/OK .*coordinate-only\.json: 4 actions, desktop \(version 1\.0; loads as 3\.2/)
    expect(r.stdout).toMatch(/OK .*web-login\.json: 5 actions, web \(version 3\.0; loads as 3\.2: 3\.0 → 3\.1/)
  })

  it.each([
    ['invalid/truncated.json', /truncated\.json is not valid JSON \(the file ends too early/],
    ['invalid/wrong-types.json', /wrong-types\.json: actions\[3\]\.x: expected integer, got "12"/],
    ['invalid/future-version.json', /future-version\.json has format version 4\.0/],
  ])('rejects %s with exit 2, names file and path, and leaves it untouched', (rel, message) => {
    const { file, hash } = copy(rel)
    const r = qa('validate', file)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toContain(file)
    expect(r.stderr).not.toMatch(/\n\s+at .*\.js:\d+/) // no stack trace
    expect(hashOf(file)).toBe(hash)
  })

  it('lists every problem of a file, not only the first', () => {
    const r = qa('validate', join(fixtures, 'invalid/wrong-types.json'))
    expect(r.stderr.match(/actions\[\d\]\./g)).toHaveLength(5)
  })

  it('shows control characters of file names escaped (raw terminal escapes)', () => {
    const file = withScreenshots('v3/web-login.json')
    const named = join(
      dirname(file),
      `x${String.fromCharCode(0x1b)}[2J${String.fromCharCode(0x1b)}]0;pwned${String.fromCharCode(0x07)}.json`,
    )
    copyFileSync(file, named)
    const r = qa('validate', named)
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain(String.fromCharCode(0x1b))
    expect(r.stdout).toContain('x\\x1b[2J\\x1b]0;pwned\\x07.json')
    writeFileSync(named, '{"name": 1}')
    const bad = qa('validate', named)
    expect(bad.code).toBe(2)
    expect(bad.stderr).not.toContain(String.fromCharCode(0x1b))
    expect(bad.stderr).toContain('INVALID ')
  })

  it('prints only JSON with --json', () => {
    const r = qa('validate', '--json', withScreenshots('v3/web-login.json'), '/missing.json')
    expect(r.code).toBe(2)
    const out = JSON.parse(r.stdout)
    expect(out.valid).toBe(false)
    expect(out.files.map((f: { valid: boolean }) => f.valid)).toEqual([true, false])
    expect(out.files[1].error.code).toBe('MODEL_FILE_NOT_FOUND')
  })

  it('a screenshot the case names that is missing or a device is invalid, naming the field', () => {
    const file = withScreenshots('v3/web-login.json')
    const dir = dirname(file)
    const text = readFileSync(file, 'utf8')
    const [before, after] = [...text.matchAll(/"screenshot_(?:before_)?path": "([^"]+)"/g)].map((m) => m[1] as string)
    const hash = hashOf(file)
    // the after-screenshot is gone; the before-screenshot is a link to /dev/zero (inside the folder by its path)
    rmSync(join(dir, after as string))
    rmSync(join(dir, before as string))
    symlinkSync('/dev/zero', join(dir, before as string))
    const r = qa('validate', file)
    expect(r.code).toBe(2)
    expect(r.stdout).not.toMatch(/^OK/)
    expect(r.stderr).toContain(
      `${file}: actions[0].screenshot_before_path "${before}": ${join(dir, before as string)} is not a regular file; a screenshot file was expected.`,
    )
    expect(r.stderr).toContain(
      `${file}: actions[0].screenshot_path "${after}": ${join(dir, after as string)}: no such screenshot file.`,
    )
    expect(hashOf(file)).toBe(hash)
  })

  it('fails with usage help and exit 2 when no file is given or a flag is unknown', () => {
    expect(qa('validate').code).toBe(2)
    const r = qa('validate', '--frobnicate', 'x.json')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/qa --help/)
  })
})

describe('qa', () => {
  it('prints help and version', () => {
    const help = qa('--help')
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('qa validate')
    expect(qa('--version').stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it('exits 2 on an unknown command', () => {
    const r = qa('frobnicate')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/Command not found|frobnicate/)
  })
})
