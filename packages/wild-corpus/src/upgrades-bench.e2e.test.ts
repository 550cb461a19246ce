// The CI slice of bench/upgrades: two pages of real release pairs from npm, recorded with
// `qa record web --script` on release N and replayed with `qa replay --url` on release N+1, judged by the N+1
// page's own listeners against the counterpart a person wrote down (bench/upgrades/truth.ts):
// - SB Admin 6.0.2 → 7.0.7 (Bootstrap 4 → 5, Font Awesome 5 → 6) dashboard: a renamed user-dropdown toggle, a
//   reworded search field, a navbar search button whose icon Font Awesome 6 renamed (fa-search →
//   fa-magnifying-glass), the data table rebuilt on another library;
// - Material Dashboard 2.1.0 → 3.1.0 (a redesign) profile: the edit form is gone, so those steps must be refused;
//   the navbar search field lost its placeholder for a floating label and is found as the navbar's only text field.
// The full bench, with the baselines: node --import tsx bench/upgrades/run.ts (see its README).
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

interface Row {
  pair: string
  page: string
  approach: string
  step: number
  label: string
  gone: boolean
  outcome: 'right' | 'wrong' | 'nothing'
  got?: string
  method?: string
  passed?: boolean
}

describe('bench/upgrades slice: record on release N, replay on release N+1', () => {
  it('mapped steps reach their counterparts, every gone control is refused, nothing wrong is clicked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-upgrades-slice-'))
    const rowsFile = join(dir, 'rows.json')
    const only = 'sb-admin-6-7/dist/index.html,material-dashboard-2-3/examples/user.html'
    const out = await run(
      process.execPath,
      // the first 7 steps of each page: SB Admin's search field, search button, user menu, sidebar groups; the
      // whole Material Dashboard profile page (5 of its 7 controls are gone in release 3)
      [
        '--import',
        'tsx',
        'bench/upgrades/run.ts',
        '--only',
        only,
        '--approaches',
        'ours',
        '--max-steps',
        '7',
        '--json',
        rowsFile,
      ],
      { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
    )
    const rows = JSON.parse(readFileSync(rowsFile, 'utf8')) as Row[]
    const show = rows
      .map(
        (r) =>
          `${r.pair} ${r.page} ${r.step} ${r.gone ? 'gone' : 'mapped'} ${r.label}: ${r.outcome} ${r.got ?? ''} [${r.method}]`,
      )
      .join('\n')
    // both pages were judged (a harness error or an unjudged step would leave rows out)
    expect(new Set(rows.map((r) => r.page)), out.stdout).toEqual(new Set(['dist/index.html', 'examples/user.html']))
    const mapped = rows.filter((r) => !r.gone)
    const gone = rows.filter((r) => r.gone)
    expect(mapped.length, out.stdout).toBeGreaterThanOrEqual(9)
    expect(gone.length, out.stdout).toBeGreaterThanOrEqual(5)
    // no wrong click; every mapped step right, Material Dashboard 3's navbar search field among them (its placeholder
    // "Search..." became a floating "Type here...": found as the only text field of the navbar, the landmark rule)
    expect(
      mapped.filter((r) => r.outcome === 'wrong'),
      show,
    ).toEqual([])
    expect(
      mapped.filter((r) => r.outcome !== 'right'),
      show,
    ).toEqual([])
    expect(
      gone.filter((r) => r.outcome !== 'nothing'),
      show,
    ).toEqual([])
    expect(
      rows.find((r) => r.page === 'examples/user.html' && r.label.includes('navbar-form input'))?.outcome,
      show,
    ).toBe('right')
    // the navbar search button whose icon Font Awesome 6 renamed
    expect(rows.find((r) => r.label.includes('button.btn-primary') && r.page === 'dist/index.html')?.outcome).toBe(
      'right',
    )
  }, 300_000)
})
