import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const bin = fileURLToPath(new URL('../../bin/qa.js', import.meta.url))
const fixtures = fileURLToPath(new URL('../../../../packages/recorder-cdp/test/fixtures/devtools/', import.meta.url))

function qa(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}
const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
function copy(name: string) {
  const dir = mkdtempSync(join(tmpdir(), 'qa-import-devtools-'))
  const file = join(dir, name)
  copyFileSync(join(fixtures, name), file)
  return { dir, file, hash: hashOf(file) }
}

describe('qa import devtools', () => {
  it('imports a recording into a valid case beside it, with warnings on stderr', () => {
    const { dir, file, hash } = copy('login-korean.json')
    const r = qa('import', 'devtools', file)
    expect(r.code).toBe(0)
    const out = join(dir, 'login-korean.case.json')
    expect(r.stdout).toContain(`Imported 15 actions from ${file} into ${out}`)
    expect(r.stdout).toContain('Click button "로그인"')
    // the login click's asserted navigation and the waitForElement are assertions now
    expect(r.stdout).toContain('Assert URL equals "http://127.0.0.1:4173/list"')
    expect(r.stdout).toContain('Hover over button "로그인"') // replayed, not skipped
    expect(r.stderr).toMatch(/^warning: steps\[5\] \(change\): looks like a password field/m)
    const doc = JSON.parse(readFileSync(out, 'utf8'))
    expect(doc).toMatchObject({ version: '3.2', platform: 'web', start_url: 'http://127.0.0.1:4173/login' })
    expect(doc.actions[0].identity).toMatchObject({ ax_name: '아이디', ax_role: 'textbox' })
    expect(readFileSync(out, 'utf8')).not.toContain('s3cret')
    expect(qa('validate', out).code).toBe(0)
    expect(hashOf(file)).toBe(hash)
  })

  it('--url sets the start URL exactly as given; --base-url moves every URL on the recording origin', () => {
    const { dir, file } = copy('login-korean.json')
    const exact = join(dir, 'exact.json')
    const r = qa('import', 'devtools', file, '--out', exact, '--url', 'http://10.0.0.5:8080/auth/login?build=2#top')
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(readFileSync(exact, 'utf8')).start_url).toBe('http://10.0.0.5:8080/auth/login?build=2#top')

    const based = join(dir, 'based.json')
    expect(qa('import', 'devtools', file, '--out', based, '--base-url', 'http://staging.local:9000/app/').code).toBe(0)
    const doc = JSON.parse(readFileSync(based, 'utf8'))
    expect(doc.start_url).toBe('http://staging.local:9000/app/login')
    for (const a of doc.actions.filter((x: { action_type: string }) => x.action_type === 'navigate'))
      expect(a.url).toMatch(/^http:\/\/staging\.local:9000\/app\//)

    const bad = qa('import', 'devtools', file, '--out', join(dir, 'bad.json'), '--base-url', 'staging.local')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--base-url: expected an http(s) URL like http://127.0.0.1:3000/, got "staging.local"')
  })

  it('prints only JSON on stdout with --json and honours --out, refusing to overwrite without --force', () => {
    const { dir, file } = copy('shadow-iframe.json')
    const out = join(dir, 'cases', 'shop.json')
    const r = qa('import', 'devtools', file, '--out', out, '--json')
    expect(r.code).toBe(0)
    const summary = JSON.parse(r.stdout)
    // 8 + an asserted navigation + a JavaScript condition + the custom step (fails on replay) + the close
    expect(summary).toMatchObject({ file: out, name: 'Shadow DOM search and payment iframe', actions: 12 })
    expect(summary.warnings).toEqual([expect.stringMatching(/^steps\[14\] \(customStep\): .*fails on replay/)])
    const again = qa('import', 'devtools', file, '--out', out)
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/already exists; nothing was imported/)
    expect(qa('import', 'devtools', file, '--out', out, '--force').code).toBe(0)
  })

  it.each([
    [
      '{"title":"x","steps":[{"type":"click","selectors":"x"}]}',
      /bad\.json: steps\[0\]\.selectors: expected array of arrays of strings, got "x"/,
    ],
    ['{"title":"x"}', /bad\.json: steps: expected array of steps, got nothing/],
    ['{"title":"x","steps":[', /bad\.json is not valid JSON/],
    ['[1,2]', /bad\.json: \(root\): expected an object/],
  ])('rejects bad input %s with exit 2, no stack trace, input untouched and nothing written', (text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-import-devtools-'))
    const file = join(dir, 'bad.json')
    writeFileSync(file, text)
    const hash = hashOf(file)
    const r = qa('import', 'devtools', file)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toMatch(/^hint: /m)
    expect(r.stderr).not.toMatch(/\n\s+at .*\.js:\d+/)
    expect(hashOf(file)).toBe(hash)
    expect(existsSync(join(dir, 'bad.case.json'))).toBe(false)
  })

  it('refuses a missing file and writing over its own input', () => {
    expect(qa('import', 'devtools', '/nonexistent/rec.json').stderr).toMatch(/no such recording file/)
    const { file, hash } = copy('no-start.json')
    const r = qa('import', 'devtools', file, '--out', file, '--force')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/is the recording; qa never writes over its input/)
    expect(hashOf(file)).toBe(hash)
  })
})
