// The real X11 programs of bench/desktop-real: Debian's own programs, started unchanged, with each variant applied
// through the program's documented options (geometry, colours, font), and a way to read what the program itself
// saw (which widget got each mouse press, what a field holds, which button it reports) — the ground truth the
// replayers under test never see.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { nutScreen } from '@qa/recorder-desktop'

const run = promisify(execFile)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export const VARIANTS = ['unchanged', 'moved', 'larger-font', 'colours', 'removal'] as const
export type Variant = (typeof VARIANTS)[number]

/** One step of a case: click a target by the program's name for it, or type text into the focused field. */
export type Step = { click: string } | { type: string; into: string }

export interface BenchCase {
  id: string
  steps: Step[]
}

/** What the program reported after a run: the targets that got a mouse press, in order, and the fields' values. */
export interface Truth {
  presses: string[]
  /** Every value each field held, in order (a later action of the program may clear it). */
  fields: Map<string, string[]>
  /**
   * The target that got step `index`'s press, for a program that tells which step a press belongs to (a board game
   * by the digit typed after the click); without it, the k-th press belongs to the k-th step that clicked.
   */
  pressOfStep?: (steps: Step[], index: number) => string | undefined
}

export interface Running {
  /** Screen centre of every target the harness may click, by the program's name for it. */
  targets: Map<string, { x: number; y: number }>
  /** Stops the program (if it is still running) and returns what it reported. */
  finish(): Promise<Truth>
}

export interface Program {
  id: string
  toolkit: string
  /** The Debian package and program, for the README. */
  source: string
  cases: BenchCase[]
  launch(variant: Variant, display: string, workDir: string): Promise<Running>
}

const TK_DEMOS = '/usr/share/doc/tk8.6-doc/demos'
const TK_TRUTH = join(import.meta.dirname, 'tk-truth.tcl')
const RECORDED_PLACE = '+60+50'
const MOVED_PLACE = '+420+260'

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const gone = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await Promise.race([gone, sleep(2000)])
}

function waitFor(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${timeoutMs} ms: ${out}`)), timeoutMs)
    child.once('error', reject)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${what} exited (${code}) before it was ready: ${out}`))
    })
    child.stdout?.on('data', (d) => {
      out += d
      if (pattern.test(out)) {
        clearTimeout(timer)
        resolve(out)
      }
    })
  })
}

/**
 * A Tk demo program shipped by Debian (tk8.6-doc), run through tk-truth.tcl: the demo's code is unchanged; the
 * wrapper sets the variant through Tk's option database and logs presses and entry values.
 */
function tkDemo(demo: string, removalDemo: string): Program['launch'] {
  return async (variant, display, workDir) => {
    const truthFile = join(workDir, `tk-truth-${Date.now()}-${Math.random().toString(36).slice(2)}.log`)
    const geometry = variant === 'moved' ? MOVED_PLACE : RECORDED_PLACE
    const palette = variant === 'colours' ? '#30475e' : ''
    const font = variant === 'larger-font' ? '{Helvetica 14}' : ''
    const script = join(TK_DEMOS, variant === 'removal' ? removalDemo : demo)
    const child = spawn('wish', [TK_TRUTH, script, truthFile, geometry, palette, font], {
      env: { ...process.env, DISPLAY: display },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const out = await waitFor(child, /^ready$/m, `wish ${script}`)
    const targets = new Map<string, { x: number; y: number }>()
    for (const m of out.matchAll(/^widget (\S+) (-?\d+) (-?\d+)$/gm)) {
      targets.set(m[1] as string, { x: Number(m[2]), y: Number(m[3]) })
    }
    return {
      targets,
      async finish() {
        await sleep(300)
        await stopChild(child)
        const presses: string[] = []
        const fields = new Map<string, string[]>()
        for (const line of readFileSync(truthFile, 'utf8').split('\n')) {
          const press = /^press (\S+)$/.exec(line)
          if (press) presses.push(press[1] as string)
          const entry = /^entry (\S+) ?(.*)$/.exec(line)
          if (entry) fields.set(entry[1] as string, [...(fields.get(entry[1] as string) ?? []), entry[2] as string])
        }
        return { presses, fields }
      },
    }
  }
}

/**
 * xmessage (x11-utils, Athena widgets): a message with a row of buttons; `-print` makes it write the label of the
 * button it got the click on. Every Xt widget is an X window, so the buttons' places come from the window tree.
 */
function xmessage(labels: string[], removalLabels: string[]): Program['launch'] {
  return async (variant, display) => {
    const shown = variant === 'removal' ? removalLabels : labels
    const args = [
      '-print',
      '-geometry',
      variant === 'moved' ? MOVED_PLACE : RECORDED_PLACE,
      '-buttons',
      shown.join(','),
    ]
    if (variant === 'colours') args.push('-bg', '#30475e', '-fg', '#f0f0f0', '-xrm', '*Command.background: #4a6d8c')
    if (variant === 'larger-font') args.push('-xrm', '*font: 10x20')
    args.push('Choose what happens to the 3 selected files.')
    const child = spawn('xmessage', args, {
      env: { ...process.env, DISPLAY: display },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout?.on('data', (d) => {
      stdout += d
    })
    const env = { ...process.env, DISPLAY: display }
    // the buttons: the deepest windows of the xmessage tree that share one row, left to right
    let buttons: { x: number; y: number; w: number; h: number }[] = []
    for (let attempt = 0; attempt < 50 && buttons.length !== shown.length; attempt++) {
      await sleep(200)
      const { stdout: tree } = await run('xwininfo', ['-root', '-tree'], { env }).catch(() => ({ stdout: '' }))
      const rows = [
        ...tree.matchAll(/^\s+0x[0-9a-f]+ \(has no name\): \(\)\s+(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)$/gm),
      ]
        .map((m) => ({ w: Number(m[1]), h: Number(m[2]), x: Number(m[3]), y: Number(m[4]) }))
        .filter((b) => b.w > 20)
      const byRow = new Map<number, typeof rows>()
      for (const b of rows) byRow.set(b.y, [...(byRow.get(b.y) ?? []), b])
      buttons = [...byRow.values()].find((r) => r.length === shown.length) ?? []
    }
    if (buttons.length !== shown.length)
      throw new Error(`xmessage: found ${buttons.length} buttons, not ${shown.length}`)
    buttons.sort((a, b) => a.x - b.x)
    const targets = new Map<string, { x: number; y: number }>()
    shown.forEach((label, i) => {
      const b = buttons[i] as { x: number; y: number; w: number; h: number }
      targets.set(label, { x: b.x + Math.floor(b.w / 2), y: b.y + Math.floor(b.h / 2) })
    })
    return {
      targets,
      async finish() {
        await sleep(300)
        await stopChild(child)
        const label = stdout.trim()
        return { presses: label ? [label] : [], fields: new Map() }
      },
    }
  }
}

/** The top-level window named `title` (xwininfo), or null. */
async function windowNamed(display: string, title: string) {
  const { stdout } = await run('xwininfo', ['-root', '-tree'], { env: { ...process.env, DISPLAY: display } }).catch(
    () => ({
      stdout: '',
    }),
  )
  const m = new RegExp(
    `^\\s+(0x[0-9a-f]+) "${title}": .*?(\\d+)x(\\d+)\\+-?\\d+\\+-?\\d+\\s+\\+(-?\\d+)\\+(-?\\d+)$`,
    'm',
  ).exec(stdout)
  return m ? { id: m[1] as string, w: Number(m[2]), h: Number(m[3]), x: Number(m[4]), y: Number(m[5]) } : null
}

/**
 * The push buttons of a GTK or Qt dialog's bottom row, left to right, found on the screen: these toolkits draw
 * their widgets themselves (no X window each), so the harness looks for the buttons' vertical border lines (runs of at least 20 pixels
 * darker than the dialog's background) in the bottom 60 pixels of the window.
 */
async function dialogButtonRow(win: { x: number; y: number; w: number; h: number }) {
  const frame = await nutScreen().capture()
  const luma = (x: number, y: number) => {
    const i = (y * frame.width + x) * 4
    return (
      0.299 * (frame.data[i] as number) + 0.587 * (frame.data[i + 1] as number) + 0.114 * (frame.data[i + 2] as number)
    )
  }
  const background = luma(win.x + 3, win.y + win.h - 3)
  const top = win.y + win.h - 60
  const edges: { x: number; y0: number; y1: number }[] = []
  for (let x = win.x + 1; x < win.x + win.w - 1; x++) {
    let run = 0
    for (let y = top; y < win.y + win.h - 1; y++) {
      run = luma(x, y) < background - 25 ? run + 1 : 0
      if (run >= 20) {
        edges.push({ x, y0: y - run + 1, y1: y })
        break
      }
    }
  }
  // neighbouring border columns (a 1–2 px line) count once; buttons are the spans between a left and a right edge
  const lines = edges.filter((e, i) => i === 0 || e.x - (edges[i - 1] as { x: number }).x > 2)
  const buttons: { x: number; y: number }[] = []
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const l = lines[i] as { x: number; y0: number }
    const r = lines[i + 1] as { x: number }
    buttons.push({ x: Math.round((l.x + r.x) / 2), y: l.y0 + 14 })
  }
  return buttons
}

/** How a dialog program is started and how it reports the button it got the click on. */
interface DialogSpec {
  name: string
  /** Buttons as the dialog shows them, left to right, for the recorded program and for the removal variant. */
  labels: string[]
  removalLabels: string[]
  command(shown: string[], title: string): { file: string; args: string[] }
  variantEnv(variant: Variant): NodeJS.ProcessEnv
  /** The label of the button the dialog says it got, from its exit code and stdout. */
  pressed(code: number | null, stdout: string, shown: string[]): string
  /** The dialog's window title, as the window manager-less X server lists it. */
  windowTitle(title: string): string
}

/**
 * A toolkit dialog with a row of push buttons (GTK's zenity, Qt's kdialog): the toolkit draws its widgets itself,
 * so the buttons' places are found on the screen (dialogButtonRow); the program reports the button it got.
 */
function buttonDialog(spec: DialogSpec): Program['launch'] {
  return async (variant, display) => {
    const shown = variant === 'removal' ? spec.removalLabels : spec.labels
    const title = `Files ${Math.random().toString(36).slice(2, 8)}`
    const { file, args } = spec.command(shown, title)
    const childEnv: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display, ...spec.variantEnv(variant) }
    const child = spawn(file, args, {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout?.on('data', (d) => {
      stdout += d
    })
    let stoppedByUs = false
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    let win: Awaited<ReturnType<typeof windowNamed>> = null
    for (let attempt = 0; attempt < 150 && !win; attempt++) {
      await sleep(200)
      win = await windowNamed(display, spec.windowTitle(title))
    }
    if (!win) throw new Error(`${spec.name}: its window did not appear`)
    if (variant === 'moved') {
      await run('xdotool', ['windowmove', win.id, '120', '90'], { env: { ...process.env, DISPLAY: display } })
      await sleep(300)
      win = { ...win, x: 120, y: 90 }
    }
    await sleep(1000) // the toolkit draws after mapping
    const found = await dialogButtonRow(win)
    const targets = new Map<string, { x: number; y: number }>()
    if (found.length === shown.length) {
      for (const [i, label] of shown.entries()) targets.set(label, found[i] as { x: number; y: number })
    }
    return {
      targets,
      async finish() {
        await sleep(300)
        if (child.exitCode === null && child.signalCode === null) stoppedByUs = true
        await stopChild(child)
        const code = await exited
        const pressed = stoppedByUs ? stdout.trim() : spec.pressed(code, stdout, shown)
        return { presses: pressed ? [pressed] : [], fields: new Map() }
      },
    }
  }
}

const QUESTION = 'Choose what happens to the 3 selected files.'

/** zenity (GTK 3): prints the label of an extra button and exits 1; OK exits 0; Cancel exits 1 printing nothing. */
const zenity = (labels: string[], removalLabels: string[]): DialogSpec => ({
  name: 'zenity',
  labels,
  removalLabels,
  command(shown, title) {
    const [ok, cancel, ...extra] = [...shown].reverse()
    const args = ['--question', '--title', title, '--text', QUESTION, '--ok-label', ok as string]
    args.push('--cancel-label', cancel as string)
    for (const e of extra.reverse()) args.push('--extra-button', e)
    return { file: 'zenity', args }
  },
  variantEnv: (variant) => ({
    GDK_BACKEND: 'x11',
    NO_AT_BRIDGE: '1',
    ...(variant === 'colours' ? { GTK_THEME: 'Adwaita:dark' } : {}),
    ...(variant === 'larger-font' ? { GDK_DPI_SCALE: '1.4' } : {}),
  }),
  pressed(code, stdout, shown) {
    if (stdout.trim()) return stdout.trim()
    return code === 0 ? (shown.at(-1) as string) : code === 1 ? (shown.at(-2) as string) : ''
  },
  windowTitle: (title) => title,
})

/** kdialog (Qt 5): --yesnocancel exits 0, 1 or 2 for its three buttons. */
const kdialog = (labels: string[], removalLabels: string[]): DialogSpec => ({
  name: 'kdialog',
  labels,
  removalLabels,
  command(shown, title) {
    const [yes, no, cancel] = shown as [string, string, string]
    const args = ['--title', title, '--yesnocancel', QUESTION, '--yes-label', yes, '--no-label', no]
    return { file: 'kdialog', args: [...args, '--cancel-label', cancel] }
  },
  variantEnv: (variant) => ({
    QT_QPA_PLATFORM: 'xcb',
    QT_ACCESSIBILITY: '0',
    ...(variant === 'larger-font' ? { QT_SCALE_FACTOR: '1.4' } : {}),
    // kdialog's own command line refuses Qt's -stylesheet, so the theme changes through Qt's style override
    ...(variant === 'colours' ? { QT_STYLE_OVERRIDE: 'Windows' } : {}),
  }),
  pressed: (code, _stdout, shown) => (code !== null && code >= 0 && code <= 2 ? (shown[code] as string) : ''),
  windowTitle: (title) => `${title} — KDialog`,
})

/**
 * FLTK's sudoku game (fltk1.3-games' flsudoku, FLTK 1.3). It keeps its game in FLTK's user preferences
 * ($HOME/.fltk/fltk.org/sudoku.prefs): every cell's solution (`valueR.C`), what it shows (`stateR.C`) and whether it
 * is a given (`readonlyR.C`); it loads them at start and saves them when the window is closed. Each launch gets a
 * fresh HOME holding the board below, so every run starts from the same game; the truth is the game it saves when
 * closed with Escape, as a person would.
 */
const SUDOKU_SOLUTION = [
  '934517628',
  '218693754',
  '657428319',
  '325861497',
  '891742536',
  '746359182',
  '482175963',
  '573986241',
  '169234875',
]
/** The givens of the recorded board ('.' an empty cell): a game flsudoku generated itself (Easy) and saved. */
const SUDOKU_GIVENS = [
  '934.1.628',
  '2.8..3754',
  '6..4283.9',
  '32586..9.',
  '.9174..36',
  '..6.59182',
  '.82175.6.',
  '573...2.1',
  '1.9234.75',
]
/** flsudoku's layout at its default size (test/sudoku.cxx): a 25 px menu bar, 3×3 groups of 160 px, cells of 50. */
const SUDOKU_MENU = 25
const SUDOKU_BOARD = 480
const SUDOKU_CELL = 50
/** A cell's distance from its group's edge, and the space the 3 cells leave in a group. */
const SUDOKU_CELL_OFFSET = 5
const SUDOKU_GROUP_GAP = 160 - 3 * SUDOKU_CELL
const sudokuCellName = (row: number, col: number) => `r${row + 1}c${col + 1}`

/** A cell's centre on the screen, for the game's window at `win` (the board scales with the window). */
function sudokuCellCentre(row: number, col: number, win: { x: number; y: number; w: number; h: number }) {
  const at = (i: number) =>
    i * SUDOKU_CELL + SUDOKU_CELL_OFFSET + Math.floor(i / 3) * SUDOKU_GROUP_GAP + SUDOKU_CELL / 2
  return {
    x: win.x + Math.round((at(col) * win.w) / SUDOKU_BOARD),
    y: win.y + SUDOKU_MENU + Math.round((at(row) * (win.h - SUDOKU_MENU)) / SUDOKU_BOARD),
  }
}

function sudokuPrefs(givens: string[]): string {
  const lines = ['; FLTK preferences file format 1.0', '; vendor: fltk.org', '; application: sudoku', '', '[.]', '']
  // Easy, and muted as its Game menu would leave it (Xvfb has no sound card)
  lines.push('mute_sound:1', 'difficulty:0')
  for (let row = 0; row < 9; row++) {
    for (let col = 0; col < 9; col++) {
      const given = (givens[row] as string)[col] !== '.'
      lines.push(`value${row}.${col}:${(SUDOKU_SOLUTION[row] as string)[col]}`)
      lines.push(`state${row}.${col}:${given ? (SUDOKU_SOLUTION[row] as string)[col] : 0}`)
      lines.push(`readonly${row}.${col}:${given ? 1 : 0}`)
    }
  }
  return `${lines.join('\n')}\n`
}

/**
 * flsudoku with the variant through FLTK's standard options (`-g`, `-bg`, `-fg`, `-bg2`); removal: a board on which
 * the cases' cells are givens (the empty look-alikes around them stay).
 */
function flSudoku(removedCells: string[]): Program['launch'] {
  return async (variant, display, workDir) => {
    const givens = SUDOKU_GIVENS.map((line, row) =>
      [...line]
        .map((g, col) =>
          variant === 'removal' && removedCells.includes(sudokuCellName(row, col))
            ? (SUDOKU_SOLUTION[row] as string)[col]
            : g,
        )
        .join(''),
    )
    const home = mkdtempSync(join(workDir, 'fltk-home-'))
    const prefsFile = join(home, '.fltk/fltk.org/sudoku.prefs')
    mkdirSync(dirname(prefsFile), { recursive: true })
    writeFileSync(prefsFile, sudokuPrefs(givens))
    const larger = Math.round(SUDOKU_BOARD * 1.4)
    const size = variant === 'larger-font' ? `${larger}x${larger + SUDOKU_MENU}` : ''
    const args = ['-g', `${size}${variant === 'moved' ? MOVED_PLACE : RECORDED_PLACE}`]
    if (variant === 'colours') args.push('-bg', '#30475e', '-bg2', '#1f2f3f', '-fg', '#f0f0f0')
    const env = { ...process.env, DISPLAY: display, HOME: home }
    const child = spawn('/usr/games/flsudoku', args, { env, stdio: 'ignore' })
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    let win: Awaited<ReturnType<typeof windowNamed>> = null
    for (let attempt = 0; attempt < 100 && !win; attempt++) {
      await sleep(200)
      win = await windowNamed(display, 'Sudoku - Easy')
    }
    if (!win) throw new Error('flsudoku: its window did not appear')
    await sleep(500)
    const shown = win
    const targets = new Map<string, { x: number; y: number }>()
    for (let row = 0; row < 9; row++) {
      for (let col = 0; col < 9; col++) targets.set(sudokuCellName(row, col), sudokuCellCentre(row, col, shown))
    }
    return {
      targets,
      async finish() {
        await sleep(300)
        // close the game as a person does (Escape; a second one if a menu was open): it saves the game on close
        const xdo = (...a: string[]) => run('xdotool', a, { env })
        await xdo('mousemove', String(shown.x + shown.w / 2), String(shown.y + SUDOKU_MENU + 10))
        for (let attempt = 0; attempt < 3 && child.exitCode === null; attempt++) {
          await xdo('key', 'Escape')
          await Promise.race([exited, sleep(3000)])
        }
        if (child.exitCode === null) {
          await stopChild(child)
          throw new Error('flsudoku did not close on Escape: its saved game is not there to read')
        }
        const saved = readFileSync(prefsFile, 'utf8')
        const fields = new Map<string, string[]>()
        for (let row = 0; row < 9; row++) {
          for (let col = 0; col < 9; col++) {
            const value = new RegExp(`^state${row}\\.${col}:(\\d)$`, 'm').exec(saved)?.[1]
            if ((givens[row] as string)[col] === '.' && value && value !== '0')
              fields.set(sudokuCellName(row, col), [value])
          }
        }
        return {
          presses: [],
          fields,
          // a click's press went to the cell that holds the digit typed right after it
          pressOfStep(steps, index) {
            const typed = steps[index + 1]
            if (!typed || !('type' in typed)) return undefined
            return [...fields].find(([, values]) => values.includes(typed.type))?.[0]
          },
        }
      },
    }
  }
}

/** A case on the sudoku board: click an empty cell, type its digit, click another, type its digit. */
const sudokuCase = (id: string, first: [string, string], second: [string, string]): BenchCase => ({
  id,
  steps: [
    { click: first[0] },
    { type: first[1], into: first[0] },
    { click: second[0] },
    { type: second[1], into: second[0] },
  ],
})
const SUDOKU_CASES = [
  sudokuCase('r3c3-then-r7c9', ['r3c3', '7'], ['r7c9', '3']),
  sudokuCase('r5c1-then-r8c6', ['r5c1', '8'], ['r8c6', '6']),
  sudokuCase('r2c5-then-r6c2', ['r2c5', '9'], ['r6c2', '4']),
]

export const PROGRAMS: Program[] = [
  {
    id: 'tk-rolodex',
    toolkit: 'Tk 8.6',
    source: 'tk8.6-doc: /usr/share/doc/tk8.6-doc/demos/rolodex (removal: demos/hello)',
    cases: [
      {
        id: 'add-card',
        steps: [
          { click: '.frame.entry1' },
          { type: 'Ada Lovelace', into: '.frame.entry1' },
          { click: '.frame.entry6' },
          { type: '555 0199', into: '.frame.entry6' },
          { click: '.buttons.add' },
        ],
      },
      {
        id: 'fields-and-clear',
        steps: [
          { click: '.frame.entry2' },
          { type: 'Seoul', into: '.frame.entry2' },
          { click: '.frame.entry7' },
          { type: '42', into: '.frame.entry7' },
          { click: '.buttons.search' },
        ],
      },
    ],
    launch: tkDemo('rolodex', 'hello'),
  },
  {
    id: 'xaw-xmessage',
    toolkit: 'Athena (Xaw)',
    source: 'x11-utils: xmessage -print -buttons … (removal: other buttons)',
    cases: ['Archive', 'Delete', 'Keep', 'Cancel'].map((label) => ({
      id: `click-${label.toLowerCase()}`,
      steps: [{ click: label }],
    })),
    launch: xmessage(['Archive', 'Delete', 'Keep', 'Cancel'], ['Open', 'Print', 'Rename']),
  },
  {
    id: 'gtk3-zenity',
    toolkit: 'GTK 3',
    source: 'zenity: zenity --question --extra-button … (removal: other buttons)',
    cases: ['Archive', 'Delete', 'Cancel', 'Keep'].map((label) => ({
      id: `click-${label.toLowerCase()}`,
      steps: [{ click: label }],
    })),
    launch: buttonDialog(zenity(['Archive', 'Delete', 'Cancel', 'Keep'], ['Open', 'Print', 'Close', 'Rename'])),
  },
  {
    id: 'qt5-kdialog',
    toolkit: 'Qt 5',
    source: 'kdialog: kdialog --yesnocancel --yes-label … (removal: other buttons)',
    cases: ['Archive', 'Delete', 'Cancel'].map((label) => ({
      id: `click-${label.toLowerCase()}`,
      steps: [{ click: label }],
    })),
    launch: buttonDialog(kdialog(['Archive', 'Delete', 'Cancel'], ['Open', 'Print', 'Close'])),
  },
  {
    id: 'fltk-sudoku',
    toolkit: 'FLTK 1.3',
    source: "fltk1.3-games: /usr/games/flsudoku on a fixed board (removal: the cases' cells are givens)",
    cases: SUDOKU_CASES,
    launch: flSudoku(SUDOKU_CASES.flatMap((c) => c.steps.flatMap((s) => ('click' in s ? [s.click] : [])))),
  },
]
