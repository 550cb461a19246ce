// The CI slice of bench/desktop-real: one real Debian program (xmessage, Athena widgets), its first
// case, recorded with `qa record desktop` and real xdotool input, replayed with `qa replay --verify` on the
// unchanged window, on the window moved, and on the dialog with other buttons at the same places (removal: the
// "Open" button where "Archive" was is a look-alike at NCC 0.8 that ours once clicked). The bench judges every step
// by the button xmessage itself prints, never by our verdict. The full bench: node --import tsx
// bench/desktop-real/run.ts (see its README for the variants this slice leaves out).
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

/**
 * Runs the bench as its README says, on one program's first cases and the variants given, ours and the recorded
 * coordinates (the template baseline is the full bench's: nothing here asserts on it); its judged rows.
 */
async function benchRows(program: string, cases: number, variants: string): Promise<BenchRow[]> {
  const out = join(mkdtempSync(join(tmpdir(), 'qa-desktop-real-slice-')), 'rows.json')
  const args = ['--import', 'tsx', 'bench/desktop-real/run.ts', '--only', program, '--cases', String(cases)]
  await run(process.execPath, [...args, '--variants', variants, '--approaches', 'ours,coords', '--json', out], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  })
  return JSON.parse(readFileSync(out, 'utf8')) as BenchRow[]
}

describe('bench/desktop-real slice: xmessage unchanged, moved and with its buttons replaced', () => {
  it('ours clicks every button right when it is there, refuses the look-alikes when it is not; every verdict agrees', async () => {
    const rows = await benchRows('xaw-xmessage', 1, 'unchanged,moved,removal')
    const of = (variant: string, approach: BenchRow['approach']) =>
      rows.filter((r) => r.variant === variant && r.approach === approach).map((r) => r.outcome)
    expect(of('unchanged', 'ours')).toEqual(['right'])
    expect(of('moved', 'ours')).toEqual(['right'])
    expect(of('removal', 'ours')).toEqual(['refused'])
    for (const r of rows.filter((x) => x.approach === 'ours')) expect(r.verdictPass).toBe(r.achieved)
    // the recorded-coordinates baseline ran on the same screens: once the window moved, its clicks miss
    expect(of('moved', 'coords')).not.toContain('right')
  }, 300_000)

  // FLTK's sudoku in a window 1.4× as large: every empty cell is a look-alike of the others and the board's 1–2 px
  // grid lines do not scale, so neither the crop nor its surroundings tell the cells apart; the window the click
  // was recorded in (found again by its class) puts each cell at its place. On the board where the cells are given,
  // nothing is clicked.
  it('sudoku on a larger window: every cell clicked at its place in the window; given cells refused', async () => {
    const rows = await benchRows('fltk-sudoku', 1, 'larger-font,removal')
    const ours = (variant: string) => rows.filter((r) => r.variant === variant && r.approach === 'ours')
    expect(ours('larger-font').map((r) => r.outcome)).toEqual(['right', 'right', 'right', 'right'])
    expect(ours('removal').map((r) => r.outcome)).toEqual(['refused', 'refused'])
    // never a pass for a step that did not do its job
    for (const r of rows.filter((x) => x.approach === 'ours' && x.verdictPass)) expect(r.achieved).toBe(true)
    // the recorded coordinates click the wrong cells of the larger board
    expect(
      rows.filter((r) => r.variant === 'larger-font' && r.approach === 'coords').map((r) => r.outcome),
    ).not.toContain('right')
  }, 300_000)
})
