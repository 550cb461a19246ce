import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const bin = fileURLToPath(new URL('../../bin/qa.js', import.meta.url))
const recorded = fileURLToPath(new URL('../../../../examples/playwright-test/cases/login.json', import.meta.url))
const modelFixtures = fileURLToPath(new URL('../../../../packages/model/test/fixtures/', import.meta.url))

function qa(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}
const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
const tmp = () => mkdtempSync(join(tmpdir(), 'qa-export-playwright-'))

describe('qa export playwright', () => {
  it('writes a healing Playwright spec beside the case, importing the case relative to the spec', () => {
    const dir = tmp()
    const file = join(dir, 'login.json')
    copyFileSync(recorded, file)
    const hash = hashOf(file)
    const r = qa('export', 'playwright', file)
    expect(r.code).toBe(0)
    const spec = join(dir, 'login.spec.ts')
    expect(r.stdout).toContain(`Exported 8 steps from ${file} into ${spec}`)
    const source = readFileSync(spec, 'utf8')
    expect(source).toContain("import { expect, heal, test } from '@qa/playwright'")
    expect(source).toContain("const recorded = './login.json'")
    expect(source).toContain('await heal(page).fromCase(recorded, 4).click() // button "로그인"')
    expect(hashOf(file)).toBe(hash)
  })

  it('puts the case path relative to --out, needs --force over an existing spec, never writes over the case', () => {
    const dir = tmp()
    mkdirSync(join(dir, 'cases'))
    const file = join(dir, 'cases', 'login.json')
    copyFileSync(recorded, file)
    const out = join(dir, 'tests', 'login.spec.ts')
    expect(qa('export', 'playwright', file, '--out', out, '--json').code).toBe(0)
    expect(readFileSync(out, 'utf8')).toContain("const recorded = '../cases/login.json'")
    writeFileSync(out, 'mine')
    const again = qa('export', 'playwright', file, '--out', out)
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/--force/)
    expect(readFileSync(out, 'utf8')).toBe('mine')
    expect(qa('export', 'playwright', file, '--out', out, '--force').code).toBe(0)
    const hash = hashOf(file)
    expect(qa('export', 'playwright', file, '--out', file, '--force').code).toBe(2)
    expect(hashOf(file)).toBe(hash)
  })

  it('rejects desktop and invalid cases with exit 2 and writes nothing', () => {
    const dir = tmp()
    const desktop = qa(
      'export',
      'playwright',
      join(modelFixtures, 'v2/seed-001-example.json'),
      '--out',
      join(dir, 'a.spec.ts'),
    )
    expect(desktop.code).toBe(2)
    expect(desktop.stderr).toMatch(/is a desktop case; only web cases can be exported to Playwright/)
    const invalid = qa(
      'export',
      'playwright',
      join(modelFixtures, 'invalid/wrong-types.json'),
      '--out',
      join(dir, 'b.spec.ts'),
    )
    expect(invalid.code).toBe(2)
    expect(existsSync(join(dir, 'a.spec.ts')) || existsSync(join(dir, 'b.spec.ts'))).toBe(false)
  })
  it('a DevTools title or a page test id with a line break stays a string: the spec it writes runs no code of theirs', () => {
    const dir = tmp()
    const payload = "multi\nrequire('fs').writeFileSync('pwned.txt', 'x')\n//"
    const recording = join(dir, 'recording.json')
    writeFileSync(
      recording,
      JSON.stringify({
        title: payload,
        steps: [
          { type: 'navigate', url: 'http://127.0.0.1:9/' },
          { type: 'click', selectors: [[`[data-testid="buy${payload}"]`]], offsetX: 1, offsetY: 1 },
          { type: 'change', selectors: [['#q']], value: `x\u2028require('fs')\u2029` },
        ],
      }),
    )
    const file = join(dir, 'imported.json')
    expect(qa('import', 'devtools', recording, '--out', file).code).toBe(0)
    expect(qa('export', 'playwright', file).code).toBe(0)
    const source = readFileSync(join(dir, 'imported.spec.ts'), 'utf8')
    // every line is one the exporter writes: a comment, the import, the two constants, the test and its steps
    for (const line of source.split(/\r\n|[\n\r\u2028\u2029]/))
      expect(line).toMatch(/^(?:$|\/\/ |import \{|const |test\(| {2}await | {2}\/\/ |\}\))/)
    expect(source).not.toMatch(/^require/m)
    expect(source).toContain(`test('multi\\nrequire(\\'fs\\').writeFileSync(\\'pwned.txt\\', \\'x\\')\\n//'`)
  })
})
