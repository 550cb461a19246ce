import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scanSuites } from './suite-catalog'

describe('scanSuites (nothing is dropped silently, nothing outside the folder is served)', () => {
  it('lists unparsable JSON and cases whose screenshots leave the folder as invalid; other JSON is ignored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-catalog-'))
    const action = (extra: object) => ({ timestamp: 0, action_type: 'click', x: 1, y: 1, description: 'c', ...extra })
    const doc = (name: string, extra: object = {}) =>
      JSON.stringify({ name, version: '3.0', platform: 'web', actions: [action(extra)] })
    writeFileSync(join(dir, 'a-good.json'), doc('good', { screenshot_path: 'good/step-000-after.png' }))
    writeFileSync(join(dir, 'b-corrupt.json'), '{"name": "c", "actions": [')
    writeFileSync(join(dir, 'c-leak.json'), doc('leak', { screenshot_path: '../../etc/passwd' }))
    writeFileSync(join(dir, 'd-other.json'), JSON.stringify({ compilerOptions: {} }))
    const snap = await scanSuites(dir)
    expect(snap.suites.map((s) => s.name)).toEqual(['good'])
    expect(snap.invalid.map((i) => [i.file, i.code])).toEqual([
      ['b-corrupt.json', 'MODEL_INVALID_JSON'],
      ['c-leak.json', 'MODEL_INVALID'],
    ])
    expect(snap.invalid[1]?.message).toMatch(
      /actions\[0\]\.screenshot_path: expected a relative path inside the case's folder/,
    )
  })

  it('lists a case over 20 MiB as invalid instead of skipping it in silence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-catalog-'))
    const doc = JSON.stringify({
      name: 'small',
      version: '3.0',
      platform: 'web',
      actions: [{ timestamp: 0, action_type: 'click', x: 1, y: 1, description: 'c' }],
    })
    writeFileSync(join(dir, 'a-small.json'), doc)
    writeFileSync(join(dir, 'b-huge.json'), doc)
    truncateSync(join(dir, 'b-huge.json'), 21 * 1024 * 1024) // sparse: 21 MiB on paper, nothing written
    const snap = await scanSuites(dir)
    expect(snap.suites.map((s) => s.file)).toEqual(['a-small.json'])
    expect(snap.invalid).toEqual([
      {
        file: 'b-huge.json',
        code: 'MODEL_FILE_TOO_LARGE',
        message: 'b-huge.json is 21.0 MiB; a case file may be at most 20 MiB, so it was not read.',
      },
    ])
  })
})
