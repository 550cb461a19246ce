import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { qaAsync } from '../__tests__/run-cli'

const PAGE = 'data:text/html,<button style="position:absolute;left:0;top:0;width:300px;height:200px">Save</button>'

/**
 * `--save-heals` into another folder kept the recording's screenshot paths, which no longer
 * resolved from there (`qa validate` said OK, the replay of the saved case failed). The saved case now takes
 * copies of its screenshots into its own folder.
 */
describe('qa replay --save-heals into another folder', () => {
  it('the saved case validates and replays green from where it is; the recording is untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-heals-elsewhere-'))
    const script = join(dir, 'steps.json')
    writeFileSync(script, JSON.stringify([{ type: 'click', x: 100, y: 100 }]))
    const caseFile = join(dir, 'cases', 'flow.json')
    const rec = await qaAsync(['record', 'web', PAGE, '--script', script, '--out', caseFile])
    expect(rec.code, rec.stderr).toBe(0)
    const recorded = readdirSync(join(dir, 'cases', 'flow')).sort()

    const healed = join(dir, 'elsewhere', 'flow.healed.json')
    const first = await qaAsync([
      'replay',
      caseFile,
      '--verify',
      '--save-heals',
      healed,
      '--report-dir',
      join(dir, 'r1'),
    ])
    expect(first.code, first.stderr).toBe(0)

    const validate = await qaAsync(['validate', healed])
    expect(validate.code, validate.stderr).toBe(0)
    const again = await qaAsync(['replay', healed, '--verify', '--report-dir', join(dir, 'r2')])
    expect(again.code, again.stdout + again.stderr).toBe(0)
    const saved = JSON.parse(readFileSync(healed, 'utf8')) as { actions: { screenshot_path?: string }[] }
    expect(saved.actions[0]?.screenshot_path).toMatch(/^flow\.healed\/step-000-after\.png$/)
    expect(readdirSync(join(dir, 'cases', 'flow')).sort()).toEqual(recorded)
  })
})
