// The CI slice of bench/games: real Debian games recorded with `qa record desktop --analyze` and real
// xdotool input (the pointer rests on each menu item while it lights up, then clicks), replayed with
// `qa replay --verify` on the unchanged window and on the window moved. The bench judges every step by what the
// game itself writes (its settings file, whether it quit), never by our verdict, and each recorded click's label by
// the text of the item the harness clicked. Every game of the bench has its slice here: one recording replayed
// twice (a game's slice takes about a minute on a loaded machine); the full bench, every game and variant:
// node --import tsx bench/games/run.ts (see its README).
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../__tests__/run-cli'

const run = promisify(execFile)
// a safety net, not a speed limit: a game's slice takes about a minute on an idle machine and 6–7 minutes on the
// 2 shared cores at a load average of 35 (Iagno's slice ran past 400 s there)
const SLICE_TIMEOUT = 900_000

interface BenchRow {
  variant: string
  approach: 'ours' | 'coords' | 'template'
  outcome: 'right' | 'wrong' | 'refused'
  verdictPass?: boolean
  achieved: boolean
}
interface LabelRow {
  step: number
  expected: string
  recorded: string | null
  outcome: 'right' | 'partial' | 'wrong' | 'none'
}

/** Runs the bench as its README says, on one game's first case, ours only, unchanged and moved. */
async function benchRows(game: string): Promise<{ rows: BenchRow[]; labels: LabelRow[] }> {
  const out = join(mkdtempSync(join(tmpdir(), 'qa-games-slice-')), 'rows.json')
  const args = ['--import', 'tsx', 'bench/games/run.ts', '--only', game, '--cases', '1', '--approaches', 'ours']
  await run(process.execPath, [...args, '--variants', 'unchanged,moved', '--json', out], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  })
  return {
    rows: JSON.parse(readFileSync(out, 'utf8')) as BenchRow[],
    labels: JSON.parse(readFileSync(out.replace(/\.json$/, '.labels.json'), 'utf8')) as LabelRow[],
  }
}

describe('bench/games slice: real games unchanged and moved', () => {
  // LBreakout2 (SDL 1.2): a bitmap font on a brick texture; the item under the pointer is drawn larger and white.
  // The "Audio" click was once recorded as "Graphics", the item one line above (read more surely than the lit-up
  // item under the pointer).
  it(
    'LBreakout2: Audio, Sound, Back, Quit right on the unchanged and the moved window; labels are the clicked items',
    async () => {
      const { rows, labels } = await benchRows('sdl-lbreakout2')
      const of = (variant: string) => rows.filter((r) => r.variant === variant).map((r) => r.outcome)
      expect(of('unchanged')).toEqual(['right', 'right', 'right', 'right'])
      expect(of('moved')).toEqual(['right', 'right', 'right', 'right'])
      for (const r of rows) expect(r.verdictPass).toBe(r.achieved)
      // never another item's text as the label of a click
      expect(labels.filter((l) => l.outcome === 'wrong')).toEqual([])
      expect(labels.find((l) => l.step === 0)).toMatchObject({ expected: 'Audio', outcome: 'right' })
    },
    SLICE_TIMEOUT,
  )

  // KMines (Qt 5 / KDE Frameworks): a drop-down list whose item lights up blue under the pointer, a menu bar.
  it(
    'KMines: the difficulty list, Hard, Game, Quit right on the unchanged and the moved window',
    async () => {
      const { rows, labels } = await benchRows('qt-kmines')
      const of = (variant: string) => rows.filter((r) => r.variant === variant).map((r) => r.outcome)
      expect(of('unchanged')).toEqual(['right', 'right', 'right', 'right'])
      expect(of('moved')).toEqual(['right', 'right', 'right', 'right'])
      // never a pass for a step that did not do its job (the list's opening is sometimes judged a false alarm: the
      // recorded after-frame can catch the list before Qt finished drawing it, see bench/games/README.md)
      for (const r of rows.filter((x) => x.verdictPass)) expect(r.achieved).toBe(true)
      expect(labels.filter((l) => l.outcome === 'wrong')).toEqual([])
    },
    SLICE_TIMEOUT,
  )

  // The other four: every step right on both windows, no pass for a step that did not do its job (a false alarm
  // may happen, see each note), and never another item's text as a click's label (a piece of the item's own text,
  // OCR's "dium" of the highlighted "Medium" on a loaded machine, is counted as partial, not wrong).
  it.each([
    // LMarbles (SDL 1.2): an orange bitmap font on a marble texture; the item under the pointer turns white and fades.
    ['LMarbles: Options, Audio, Sound, Back, Back, Quit', 'sdl-lmarbles', 6],
    // GNOME Mines (GTK 3): the start screen's size buttons, the game screen's side button, the header bar's ×; the
    // truth is its GSettings keyfile, polled while it runs.
    ['GNOME Mines: 16 × 16, Change Difficulty, 30 × 16, close', 'gtk-gnome-mines', 4],
    // Iagno (GTK 3): the new-game screen's mode buttons, a popover for the difficulty, the header bar's ×.
    ['Iagno: Reverse Reversi, Difficulty, Hard, close', 'gtk-iagno', 4],
    // flsudoku (FLTK 1.3): the menu bar's Difficulty menu and its radio item; the truth is the preferences file it
    // writes when closed. Choosing a difficulty deals a new random puzzle, so the board in the recorded after-frame
    // and the replay's never agree: the verdict compares the step's change as a change ("dealt anew": a warning when
    // it changed as much, from and to the same colours), may still fail it when the game changed its board otherwise
    // (a false alarm), and never passes a wrong one.
    ['flsudoku: Difficulty, Medium', 'fltk-flsudoku', 2],
  ] as const)(
    '%s right on the unchanged and the moved window',
    async (_title, game, steps) => {
      const { rows, labels } = await benchRows(game)
      const of = (variant: string) => rows.filter((r) => r.variant === variant).map((r) => r.outcome)
      expect(of('unchanged')).toEqual(Array(steps).fill('right'))
      expect(of('moved')).toEqual(Array(steps).fill('right'))
      for (const r of rows.filter((x) => x.verdictPass)) expect(r.achieved).toBe(true)
      expect(labels.filter((l) => l.outcome === 'wrong')).toEqual([])
    },
    SLICE_TIMEOUT,
  )
})
