import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeDesktopClickCase } from '../__tests__/desktop-key-case'
import { qa } from '../__tests__/run-cli'

const dir = mkdtempSync(join(tmpdir(), 'qa-desktop-cli-'))
const desktopCase = writeDesktopClickCase(dir)

/** Without an X display the desktop commands exit 2 with how to get one, never a native crash. */
describe.each([
  [
    'record desktop, DISPLAY unset',
    ['record', 'desktop', '--out', join(dir, 'o.json')],
    { DISPLAY: '' },
    /No display is available/,
  ],
  ['replay desktop, DISPLAY unset', ['replay', desktopCase], { DISPLAY: '' }, /No display is available/],
  [
    'record desktop, no server on the display',
    ['record', 'desktop', '--out', join(dir, 'o.json')],
    { DISPLAY: ':4711' },
    /No X server is running on display :4711/,
  ],
])('%s', (_name, args, env, message) => {
  it('exits 2 with a hint to use xvfb-run', () => {
    const r = qa(args, { env })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toMatch(/hint: .*xvfb-run -a qa .*apt-get install xvfb/)
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/)
  })
})

/** Outputs and unsupported flags are refused before the display is even looked at. */
describe('qa record desktop / qa replay <desktop case>: refusals before any work', () => {
  it('record desktop --out <existing case> refuses before recording (not "no display")', () => {
    const out = join(dir, 'existing.json')
    writeFileSync(out, '{"keep": true}')
    const r = qa(['record', 'desktop', '--out', out], { env: { DISPLAY: '' } })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--out .*existing\.json already exists; nothing was recorded/)
    expect(r.stderr).not.toMatch(/No display/)
    expect(readFileSync(out, 'utf8')).toBe('{"keep": true}')
  })

  it('record desktop refuses a non-empty screenshot folder of --out before recording', () => {
    mkdirSync(join(dir, 'taken_screenshots'), { recursive: true })
    writeFileSync(join(dir, 'taken_screenshots', 'step-001-before.png'), 'x')
    const r = qa(['record', 'desktop', '--out', join(dir, 'taken.json')], { env: { DISPLAY: '' } })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/taken_screenshots\/ \(the screenshot folder of --out\) already exists/)
    expect(readFileSync(join(dir, 'taken_screenshots', 'step-001-before.png'), 'utf8')).toBe('x')
  })

  it('replay --save-heals of a desktop case refuses an existing folder for the new crops, before the display is opened', () => {
    const healed = join(dir, 'healed.json')
    mkdirSync(join(dir, 'healed_heals'), { recursive: true })
    writeFileSync(join(dir, 'healed_heals', 'action_0000_crop.png'), 'x')
    const r = qa(['replay', desktopCase, '--verify', '--save-heals', healed], { env: { DISPLAY: '' } })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/healed_heals\/ .*already exists/)
    expect(r.stderr).not.toMatch(/No display/)
    expect(existsSync(healed)).toBe(false)
    expect(readFileSync(join(dir, 'healed_heals', 'action_0000_crop.png'), 'utf8')).toBe('x')
  })
})

describe('qa enrich', () => {
  it('enriches the legacy desktop fixture offline, counting the missing screenshot as skipped', () => {
    const out = join(dir, 'enriched.json')
    const r = qa(
      [
        'enrich',
        join(__dirname, '../../../../packages/model/test/fixtures/v1/coordinate-only.json'),
        '--out',
        out,
        '--json',
      ],
      {
        env: { QA_VISION: 'ocr' },
      },
    )
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({
      total_actions: 4,
      enriched_count: 0,
      skipped_count: 1,
      failed_count: 0,
      version: '3.2',
    })
  })
  it('refuses to write over its input', () => {
    const r = qa(['enrich', desktopCase, '--out', desktopCase], { env: { QA_VISION: 'ocr' } })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/qa never writes over its input/)
  })
})
