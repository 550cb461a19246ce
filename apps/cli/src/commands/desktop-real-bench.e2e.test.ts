// The CI slice of bench/desktop-real (issue 14, item 8): one real Debian program (xmessage, Athena widgets), two of
// its cases, recorded with `qa record desktop` and real xdotool input, replayed with `qa replay --verify` on the
// window moved and on a window whose buttons are all other ones (the targets removed). The bench judges every step
// by the button xmessage itself prints, never by our verdict. The full bench: node --import tsx bench/desktop-real/run.ts
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../__tests__/run-cli'

const run = promisify(execFile)

interface BenchRow {
  variant: string
  approach: 'ours' | 'coords' | 'template'
  outcome: 'right' | 'wrong' | 'missed' | 'refused'
  verdictPass?: boolean
  achieved: boolean
}

describe('bench/desktop-real slice: xmessage moved and with its targets removed', () => {
  it('ours clicks every moved button right and refuses every removed one; the verdict agrees with the program', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'qa-desktop-real-slice-')), 'rows.json')
    const args = ['--import', 'tsx', 'bench/desktop-real/run.ts', '--only', 'xaw-xmessage', '--cases', '2']
    await run(process.execPath, [...args, '--variants', 'moved,removal', '--json', out], {
      cwd: repoRoot,
      maxBuffer: 16 * 1024 * 1024,
    })
    const rows: BenchRow[] = JSON.parse(readFileSync(out, 'utf8'))
    const of = (variant: string, approach: BenchRow['approach']) =>
      rows.filter((r) => r.variant === variant && r.approach === approach).map((r) => r.outcome)
    expect(of('moved', 'ours')).toEqual(['right', 'right'])
    expect(of('removal', 'ours')).toEqual(['refused', 'refused'])
    for (const r of rows.filter((x) => x.approach === 'ours')) expect(r.verdictPass).toBe(r.achieved)
    // the recorded-coordinates baseline ran on the same screens: once the window moved, its clicks miss
    expect(of('moved', 'coords')).not.toContain('right')
  }, 170_000)
})
