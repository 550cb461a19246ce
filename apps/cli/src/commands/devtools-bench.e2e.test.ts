// The CI slice of bench/devtools: real Chrome DevTools Recorder exports (the recorder's own e2e fixtures,
// kept in bench/devtools/recordings under their licence) replayed by @puppeteer/replay and by `qa import devtools` +
// `qa replay` side by side on pages built from their selectors, judged by a truth log in each page's closure: a
// selector path into a shadow root, a shadow input typed into, a recording that only navigates, a waitForElement;
// the asserted element removed must fail in both; each imported case exported back
// must pass the reference's parse() and hit the same elements there. The full bench: node --import tsx
// bench/devtools/run.ts (see its README).
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, repoRoot } from '../__tests__/run-cli'

const run = promisify(execFile)

interface Row {
  id: string
  referencePassed: boolean
  oursPassed: boolean
  importOk: boolean
  rows: { step: number; verdict: string; wrongPass: boolean }[]
  variants: { name: string; referenceFailed: boolean; oursFailed: boolean }[]
  roundTrip: { parsed: boolean; sameHits: boolean | null } | null
}

const SLICE = [
  'dtf-create-an-aria-selector-even-if-the-el',
  'dtf-work-with-shadow-inputs',
  'dtf-capture-the-initial-page-as-the-url-of',
  'dtf-add-an-assertion-through-the-button',
]

describe('bench/devtools slice: DevTools exports step for step with @puppeteer/replay', () => {
  beforeAll(() => ensureBuilt(), 600_000)
  it('same element at every step both run, every recording the reference replays passes, variants fail in both, exports round-trip', async () => {
    const rowsFile = join(mkdtempSync(join(tmpdir(), 'qa-devtools-slice-')), 'rows.json')
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'bench/devtools/run.ts', '--only', SLICE.join(','), '--json', rowsFile],
      { cwd: repoRoot, maxBuffer: 1 << 24 },
    )
    const rows = JSON.parse(readFileSync(rowsFile, 'utf8')) as Row[]
    expect(rows.length, stdout).toBe(SLICE.length)
    for (const id of SLICE)
      expect(
        rows.some((r) => r.id.startsWith(id)),
        `${id}\n${stdout}`,
      ).toBe(true)
    for (const r of rows) {
      expect(r.importOk, `${r.id}: import\n${stdout}`).toBe(true)
      // every recording the reference replays, qa replays too
      if (r.referencePassed) expect(r.oursPassed, `${r.id}\n${stdout}`).toBe(true)
      for (const s of r.rows) {
        expect(s.wrongPass, `${r.id} step ${s.step}\n${stdout}`).toBe(false)
        if (s.verdict !== 'reference failed' && s.verdict !== 'both failed')
          expect(s.verdict, `${r.id} step ${s.step}\n${stdout}`).toBe('same element')
      }
      for (const v of r.variants) expect([v.referenceFailed, v.oursFailed], `${r.id} ${v.name}`).toEqual([true, true])
      expect(r.roundTrip, r.id).toMatchObject({ parsed: true, sameHits: true })
    }
    // the slice holds what it is for: steps judged, a variant run, a navigate-only recording passing in both
    expect(rows.flatMap((r) => r.rows).filter((s) => s.verdict === 'same element').length).toBeGreaterThanOrEqual(3)
    expect(rows.flatMap((r) => r.variants).length).toBeGreaterThanOrEqual(1)
    const navOnly = rows.find((r) => r.id.startsWith('dtf-capture-the-initial-page'))
    expect([navOnly?.referencePassed, navOnly?.oursPassed]).toEqual([true, true])
  }, 240_000)
})
