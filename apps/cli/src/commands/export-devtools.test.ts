import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const bin = fileURLToPath(new URL('../../bin/qa.js', import.meta.url))
const devtoolsFixtures = fileURLToPath(
  new URL('../../../../packages/recorder-cdp/test/fixtures/devtools/', import.meta.url),
)
const modelFixtures = fileURLToPath(new URL('../../../../packages/model/test/fixtures/', import.meta.url))
const example = fileURLToPath(new URL('../../../../examples/web-login.json', import.meta.url))

function qa(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}
const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
const tmp = () => mkdtempSync(join(tmpdir(), 'qa-export-devtools-'))

describe('qa export devtools', () => {
  it('exports a recorded case: selectors most stable first, no secret, warnings on stderr', () => {
    const dir = tmp()
    const file = join(dir, 'web-login.json')
    copyFileSync(example, file)
    const hash = hashOf(file)
    const r = qa('export', 'devtools', file)
    expect(r.code).toBe(0)
    const out = join(dir, 'web-login.devtools.json')
    expect(r.stdout).toContain(`into ${out}`)
    const rec = JSON.parse(readFileSync(out, 'utf8'))
    expect(rec.title).toBe('로그인 후 검색')
    expect(rec.steps.map((s: { type: string }) => s.type)).toEqual([
      'setViewport',
      'navigate',
      'click',
      'change',
      'click',
      'navigate',
    ])
    expect(rec.steps[2].selectors[0]).toEqual(['aria/아이디[role="textbox"]'])
    expect(readFileSync(out, 'utf8')).not.toContain('********')
    expect(r.stderr).toMatch(/^warning: actions\[2\] \(type\): has no element identity or selector/m)
    expect(hashOf(file)).toBe(hash)
  })

  it('round-trips a DevTools recording through import and export', () => {
    const dir = tmp()
    const rec = join(dir, 'shop.json')
    copyFileSync(join(devtoolsFixtures, 'shadow-iframe.json'), rec)
    expect(qa('import', 'devtools', rec, '--out', join(dir, 'case.json')).code).toBe(0)
    const r = qa('export', 'devtools', join(dir, 'case.json'), '--out', join(dir, 'back.json'), '--json')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ file: join(dir, 'back.json'), steps: 17, warnings: [] })
    const original = JSON.parse(readFileSync(rec, 'utf8'))
    const back = JSON.parse(readFileSync(join(dir, 'back.json'), 'utf8'))
    expect(back.steps.map((s: { type: string }) => s.type)).toEqual(original.steps.map((s: { type: string }) => s.type))
    expect(qa('export', 'devtools', join(dir, 'case.json'), '--out', join(dir, 'back.json')).code).toBe(2)
    expect(qa('export', 'devtools', join(dir, 'case.json'), '--out', join(dir, 'back.json'), '--force').code).toBe(0)
  })

  it('rejects desktop cases and invalid cases with exit 2', () => {
    const dir = tmp()
    const desktop = qa(
      'export',
      'devtools',
      join(modelFixtures, 'v2/seed-001-example.json'),
      '--out',
      join(dir, 'x.json'),
    )
    expect(desktop.code).toBe(2)
    expect(desktop.stderr).toMatch(/is a desktop case; only web cases can be exported/)
    const invalid = qa(
      'export',
      'devtools',
      join(modelFixtures, 'invalid/wrong-types.json'),
      '--out',
      join(dir, 'y.json'),
    )
    expect(invalid.code).toBe(2)
    expect(invalid.stderr).toMatch(/actions\[3\]\.x: expected integer, got "12"/)
  })
})
