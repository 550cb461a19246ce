import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { qa } from '../__tests__/run-cli'

const dir = mkdtempSync(join(tmpdir(), 'qa-desktop-cli-'))
const desktopCase = join(dir, 'desktop.json')
writeFileSync(
  desktopCase,
  JSON.stringify({
    name: 'd',
    version: '3.0',
    platform: 'desktop',
    actions: [{ timestamp: 't', action_type: 'click', x: 1, y: 2, description: 'c' }],
  }),
)

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

describe('qa enrich', () => {
  it('enriches the seed 001 legacy fixture offline, counting the missing screenshot as skipped', () => {
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
      version: '3.0',
    })
  })
  it('refuses to write over its input', () => {
    const r = qa(['enrich', desktopCase, '--out', desktopCase], { env: { QA_VISION: 'ocr' } })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/qa never writes over its input/)
  })
})
