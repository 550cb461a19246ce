// The real games of bench/games: Debian's own games in four toolkits (SDL 1.2, GTK 3, Qt 5 / KDE
// Frameworks, FLTK 1.3), each started with a fresh HOME, its window put at a fixed place, each variant applied
// through what the game or its toolkit offers (window place and size, GTK theme, Qt style, gettext language), and a
// way to read what the game itself wrote (its settings file, polled while it runs and read after it quit) — the
// ground truth the replayers under test never see.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export const VARIANTS = ['unchanged', 'moved', 'size', 'theme', 'language', 'removal'] as const
export type Variant = (typeof VARIANTS)[number]

/** Where the window is put: the recorded place, and the moved one. */
export const RECORDED_PLACE = { x: 60, y: 50 }
export const MOVED_PLACE = { x: 420, y: 200 }

/**
 * A step of a case: click a target by the harness's name for it. `effect` is what the game writes when the step
 * did its job: a setting reaching a value, or the game quitting by itself; a step without one (opening a menu or a
 * submenu) is proven by the next step's effect, which only its screen offers.
 */
export interface Step {
  /** The target clicked, by the harness's name for it ('' for a key step). */
  click: string
  /** A key pressed instead of a click (xdotool's name: Down, Return, Escape), with the game's window focused. */
  key?: string
  effect?: { key: string; value: string } | 'quit'
  /** The text the clicked item shows, when it differs from `click` ('' for an icon: no text to record). */
  label?: string
}

export interface GameCase {
  id: string
  steps: Step[]
  /** The variants this case runs on, when fewer than the game's (a keyboard case has nothing to refuse). */
  variants?: Variant[]
  /** The window title to give the keyboard focus to after launch (a keyboard case; a window manager would). */
  focusTitle?: string
}

/** What the game wrote: its settings as they changed while it ran (in order), and whether it quit by itself. */
export interface GameTruth {
  trail: Record<string, string>[]
  quitByItself: boolean
}

export interface Running {
  /** Screen centre of every target the harness may click (the recorded window only). */
  targets: Map<string, { x: number; y: number }>
  finish(): Promise<GameTruth>
}

export interface Game {
  id: string
  toolkit: string
  source: string
  /** Variants the game can show (unchanged, moved and removal are always there). */
  variants: Variant[]
  cases: GameCase[]
  /** Targets also shown by the removal's game: not judged on the removal. */
  removalKeeps: string[]
  launch(variant: Variant, display: string, workDir: string): Promise<Running>
}

interface Box {
  id: string
  x: number
  y: number
  w: number
  h: number
}

/** The game's top-level window: the largest one whose name matches (GTK also maps a 10×10 leader window). */
async function findWindow(display: string, title: RegExp): Promise<Box | null> {
  const { stdout } = await run('xwininfo', ['-root', '-tree'], { env: { ...process.env, DISPLAY: display } }).catch(
    () => ({ stdout: '' }),
  )
  let best: Box | null = null
  for (const m of stdout.matchAll(
    /^\s+(0x[0-9a-f]+) "([^"]*)": .*?(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)$/gm,
  )) {
    if (!title.test(m[2] as string)) continue
    const b = { id: m[1] as string, w: Number(m[3]), h: Number(m[4]), x: Number(m[5]), y: Number(m[6]) }
    if (b.w < 100 || b.h < 100) continue
    if (!best || b.w * b.h > best.w * best.h) best = b
  }
  return best
}

/**
 * Stops a game and everything it started: the game runs in a process group of its own (spawned detached), and the
 * whole group is signalled. `dbus-run-session` leaves KMines running when only it is stopped, and a KMines left on
 * the screen lies under the next launches (two windows of the same title, the clicks landing on the old one).
 */
async function stopChild(child: ChildProcess): Promise<void> {
  const group = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal)
    } catch {
      // the group is gone already
    }
  }
  if (child.exitCode !== null || child.signalCode !== null) {
    // the launcher itself ended (the game quit by itself); what it started may still run
    group('SIGKILL')
    return
  }
  const gone = new Promise((r) => child.once('exit', r))
  group('SIGTERM')
  await Promise.race([gone, sleep(3000)])
  group('SIGKILL')
}

/** How one game is started, where its targets are, what it writes. */
interface GameDef {
  id: string
  toolkit: string
  source: string
  title: RegExp
  variants: Variant[]
  cases: GameCase[]
  /**
   * The game run instead for the removal variant, chosen so that the cases' targets are not on its screens (another
   * game of another toolkit: LBreakout2 and LMarbles share items, Iagno shows "Easy" and "Hard" like KMines).
   */
  removal: () => GameDef
  /** Targets that the removal's game shows too (its own "Quit"): their steps are not judged on the removal. */
  removalKeeps?: string[]
  command(variant: Variant): { file: string; args: string[]; env: NodeJS.ProcessEnv }
  /** Window-relative centre of each target, as the game shows them at its own size. */
  targets: Record<string, [number, number]>
  /** The settings the game wrote, read from its fresh HOME ({} when it wrote none yet). */
  settings(home: string): Record<string, string>
  /** The window size of the `size` variant (set with xdotool after it is mapped), when the game takes one. */
  size?: { w: number; h: number }
  /** How the harness ends a game whose flow does not quit it (as a person would), so that it saves. */
  close?: (xdo: (...a: string[]) => Promise<unknown>, win: Box) => Promise<void>
}

const GTK_ENV = { GDK_BACKEND: 'x11', NO_AT_BRIDGE: '1', GSETTINGS_BACKEND: 'keyfile', LANG: 'C.UTF-8' }
const QT_ENV = { QT_QPA_PLATFORM: 'xcb', QT_ACCESSIBILITY: '0', LANG: 'C.UTF-8' }
/** gettext picks LANGUAGE's catalogues when LANG is not plain C. */
const GERMAN = { LANGUAGE: 'de' }

/** GSettings' keyfile backend: `[org/gnome/Mines]` then `mode=1`; strings keep their quotes stripped. */
function gsettingsKeyfile(home: string): Record<string, string> {
  const file = join(home, '.config/glib-2.0/settings/keyfile')
  if (!existsSync(file)) return {}
  const out: Record<string, string> = {}
  for (const m of readFileSync(file, 'utf8').matchAll(/^([\w-]+)=(.*)$/gm))
    out[m[1] as string] = (m[2] as string).replace(/^'(.*)'$/, '$1')
  return out
}

/** An INI-style file (KConfig, FLTK preferences): `key=value` or `key:value` lines. */
function iniFile(file: string, sep: '=' | ':'): Record<string, string> {
  if (!existsSync(file)) return {}
  const out: Record<string, string> = {}
  const re = sep === '=' ? /^([\w .-]+)=(.*)$/gm : /^([\w.]+):(.*)$/gm
  for (const m of readFileSync(file, 'utf8').matchAll(re)) out[m[1] as string] = m[2] as string
  return out
}

/**
 * LBreakout2 (SDL 1.2): a bitmap-font menu on a brick texture; items light up under the pointer. It writes
 * ~/.lgames/lbreakout2.conf when it quits: one `key<byte>value` per line.
 */
const lbreakout2: GameDef = {
  id: 'sdl-lbreakout2',
  toolkit: 'SDL 1.2',
  source: 'lbreakout2: /usr/games/lbreakout2 (640×480 window)',
  title: /^LBreakout2$/,
  variants: ['unchanged', 'moved', 'removal'],
  removal: () => gnomeMines,
  command: () => ({ file: '/usr/games/lbreakout2', args: [], env: { SDL_AUDIODRIVER: 'dummy' } }),
  targets: {
    Audio: [181, 372],
    Graphics: [181, 355],
    'Sound:': [93, 329],
    'Speech:': [96, 346],
    /** The value "On" of the Speech row: clicking it toggles the row, and the text clicked is what changes. */
    'Speech value': [285, 346],
    Back: [181, 397],
    Quit: [181, 457],
  },
  settings(home) {
    const file = join(home, '.lgames/lbreakout2.conf')
    if (!existsSync(file)) return {}
    const out: Record<string, string> = {}
    for (const m of readFileSync(file, 'latin1').matchAll(/^(\w+)[^\w\n](.*)$/gm)) out[m[1] as string] = m[2] as string
    return out
  },
  cases: [
    {
      id: 'audio-sound-off',
      steps: [
        { click: 'Audio' },
        { click: 'Sound:', effect: { key: 'sound', value: '0' } },
        { click: 'Back' },
        { click: 'Quit', effect: 'quit' },
      ],
    },
    {
      id: 'audio-speech-off',
      steps: [
        { click: 'Audio' },
        // clicked on the value, as a person often does: the recorded label must be the row's ("Speech:"), not
        // the value the click changes ("On")
        { click: 'Speech value', effect: { key: 'speech', value: '0' }, label: 'Speech:' },
        { click: 'Back' },
        { click: 'Quit', effect: 'quit' },
      ],
    },
    {
      // keyboard-driven menus: the same menus driven by the keyboard (arrows move the lit item, Return opens or toggles
      // it, Escape goes back, and quits from the main menu)
      id: 'keys-audio-sound-off',
      variants: ['unchanged', 'moved'],
      focusTitle: '^LBreakout2$',
      steps: [
        ...['Local Game', 'Network Game', 'Quick Help', 'Controls', 'Graphics', 'Audio'].map(() => ({
          click: '',
          key: 'Down',
        })),
        { click: '', key: 'Return' },
        { click: '', key: 'Down' },
        { click: '', key: 'Return', effect: { key: 'sound', value: '0' } },
        { click: '', key: 'Escape' },
        { click: '', key: 'Escape', effect: 'quit' as const },
      ],
    },
  ],
}

/**
 * LMarbles (SDL 1.2): an orange bitmap font on a marble texture; the item under the pointer turns white. It writes
 * ~/.lgames/lmarbles.conf when it quits: `ascii;<profile>;…` fields separated by `;` (the 5th is sound on/off).
 */
const lmarbles: GameDef = {
  id: 'sdl-lmarbles',
  toolkit: 'SDL 1.2',
  source: 'lmarbles: /usr/games/lmarbles (512×384 window)',
  title: /^LMarbles/,
  variants: ['unchanged', 'moved', 'removal'],
  removal: () => iagno,
  command: () => ({ file: '/usr/games/lmarbles', args: [], env: { SDL_AUDIODRIVER: 'dummy' } }),
  targets: {
    Options: [255, 291],
    Audio: [255, 284],
    'Sound:': [230, 261],
    'Back (audio)': [255, 306],
    'Back (options)': [255, 314],
    Quit: [255, 306],
  },
  settings(home): Record<string, string> {
    const file = join(home, '.lgames/lmarbles.conf')
    if (!existsSync(file)) return {}
    const f = readFileSync(file, 'latin1').split(';')
    return { profile: f[1] ?? '', sound: f[4] ?? '', volume: f[3] ?? '' }
  },
  cases: [
    {
      id: 'options-audio-sound-off',
      steps: [
        { click: 'Options' },
        { click: 'Audio' },
        { click: 'Sound:', effect: { key: 'sound', value: '0' } },
        { click: 'Back (audio)', label: 'Back' },
        { click: 'Back (options)', label: 'Back' },
        { click: 'Quit', effect: 'quit' },
      ],
    },
  ],
}

/** GNOME Mines (GTK 3): the start screen's four size buttons, the game screen's side buttons, the close button. */
const gnomeMines: GameDef = {
  id: 'gtk-gnome-mines',
  toolkit: 'GTK 3',
  source: 'gnome-mines: /usr/games/gnome-mines (GSETTINGS_BACKEND=keyfile)',
  title: /^(Mines|Minen)$/,
  variants: ['unchanged', 'moved', 'size', 'theme', 'language', 'removal'],
  removal: () => kmines,
  size: { w: 800, h: 560 },
  command: (variant) => ({
    file: '/usr/games/gnome-mines',
    args: [],
    env: {
      ...GTK_ENV,
      ...(variant === 'theme' ? { GTK_THEME: 'Adwaita:dark' } : {}),
      ...(variant === 'language' ? GERMAN : {}),
    },
  }),
  targets: {
    '16 × 16': [406, 160],
    '30 × 16': [202, 364],
    'Change Difficulty': [511, 360],
    Close: [583, 26],
  },
  settings: gsettingsKeyfile,
  cases: [
    {
      id: 'medium-then-large',
      steps: [
        { click: '16 × 16', effect: { key: 'mode', value: '1' } },
        { click: 'Change Difficulty' },
        { click: '30 × 16', effect: { key: 'mode', value: '2' } },
        { click: 'Close', effect: 'quit', label: '' },
      ],
    },
  ],
}

/** Iagno (GTK 3 Reversi): the new-game screen's mode buttons, the difficulty popover, the close button. */
const iagno: GameDef = {
  id: 'gtk-iagno',
  toolkit: 'GTK 3',
  source: 'iagno: /usr/games/iagno (GSETTINGS_BACKEND=keyfile)',
  title: /^(Reversi)$/,
  variants: ['unchanged', 'moved', 'size', 'theme', 'language', 'removal'],
  removal: () => lbreakout2,
  size: { w: 720, h: 680 },
  command: (variant) => ({
    file: '/usr/games/iagno',
    args: [],
    env: {
      ...GTK_ENV,
      ...(variant === 'theme' ? { GTK_THEME: 'Adwaita:dark' } : {}),
      ...(variant === 'language' ? GERMAN : {}),
    },
  }),
  targets: {
    'Reverse Reversi': [303, 248],
    Difficulty: [274, 382],
    Hard: [218, 286],
    Close: [522, 26],
  },
  settings: gsettingsKeyfile,
  cases: [
    {
      id: 'reverse-hard',
      steps: [
        { click: 'Reverse Reversi', effect: { key: 'type', value: 'reverse' } },
        { click: 'Difficulty' },
        { click: 'Hard', effect: { key: 'computer-level', value: '3' } },
        { click: 'Close', effect: 'quit', label: '' },
      ],
    },
  ],
}

/** KMines (Qt 5, KDE Frameworks): the status bar's difficulty combo box, its list, the Game menu's Quit. */
const kmines: GameDef = {
  id: 'qt-kmines',
  toolkit: 'Qt 5 / KDE Frameworks',
  source: 'kmines: /usr/games/kmines under dbus-run-session (settings in ~/.config/kminesrc)',
  title: /^KMines$/,
  variants: ['unchanged', 'moved', 'size', 'theme', 'language', 'removal'],
  removal: () => lbreakout2,
  removalKeeps: ['Quit'],
  size: { w: 700, h: 440 },
  command: (variant) => ({
    file: 'dbus-run-session',
    args: ['/usr/games/kmines'],
    env: {
      ...QT_ENV,
      ...(variant === 'theme' ? { QT_STYLE_OVERRIDE: 'Windows' } : {}),
      ...(variant === 'language' ? GERMAN : {}),
    },
  }),
  targets: {
    Easy: [447, 305],
    Hard: [441, 356],
    Game: [29, 10],
    Quit: [47, 113],
  },
  settings: (home) => iniFile(join(home, '.config/kminesrc'), '='),
  cases: [
    {
      id: 'difficulty-hard-quit',
      steps: [
        { click: 'Easy' },
        { click: 'Hard', effect: { key: 'Level', value: 'Hard' } },
        { click: 'Game' },
        { click: 'Quit', effect: 'quit' },
      ],
    },
  ],
}

/**
 * FLTK's sudoku (fltk1.3-games): its menu bar's Difficulty menu (radio items). It saves its preferences, the
 * difficulty among them, when its window is closed (Escape).
 */
const flsudoku: GameDef = {
  id: 'fltk-flsudoku',
  toolkit: 'FLTK 1.3',
  source: 'fltk1.3-games: /usr/games/flsudoku (preferences in ~/.fltk/fltk.org/sudoku.prefs)',
  title: /^Sudoku - /,
  variants: ['unchanged', 'moved', 'size', 'theme', 'removal'],
  removal: () => gnomeMines,
  command: (variant) => ({
    file: '/usr/games/flsudoku',
    args: [
      ...(variant === 'size' ? ['-g', '672x697'] : []),
      ...(variant === 'theme' ? ['-bg', '#30475e', '-bg2', '#1f2f3f', '-fg', '#f0f0f0'] : []),
    ],
    env: {},
  }),
  targets: {
    Difficulty: [100, 12],
    Medium: [111, 57],
  },
  settings: (home) => iniFile(join(home, '.fltk/fltk.org/sudoku.prefs'), ':'),
  close: async (xdo, win) => {
    await xdo('mousemove', String(win.x + win.w / 2), String(win.y + win.h / 2))
    await xdo('key', 'Escape')
  },
  cases: [
    {
      id: 'difficulty-medium',
      steps: [{ click: 'Difficulty' }, { click: 'Medium', effect: { key: 'difficulty', value: '1' } }],
    },
  ],
}

const DEFS: GameDef[] = [lbreakout2, lmarbles, gnomeMines, iagno, kmines, flsudoku]

function launcher(def: GameDef): Game['launch'] {
  return async (variant, display, workDir) => {
    const shown = variant === 'removal' ? def.removal() : def
    const home = mkdtempSync(join(workDir, `${shown.id}-home-`))
    mkdirSync(join(home, '.config'), { recursive: true })
    const { file, args, env } = shown.command(variant)
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      DISPLAY: display,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      ...env,
    }
    delete childEnv.XDG_RUNTIME_DIR
    const child = spawn(file, args, { env: childEnv, stdio: 'ignore', detached: true })
    const exited = new Promise<void>((r) => child.once('exit', () => r()))
    const xenv = { ...process.env, DISPLAY: display }
    const xdo = (...a: string[]) => run('xdotool', a, { env: xenv })
    let win: Box | null = null
    for (let attempt = 0; attempt < 150 && !win; attempt++) {
      await sleep(200)
      win = await findWindow(display, shown.title)
    }
    if (!win) {
      await stopChild(child)
      throw new Error(`${shown.id}: its window did not appear`)
    }
    const place = variant === 'moved' ? MOVED_PLACE : RECORDED_PLACE
    await xdo('windowmove', win.id, String(place.x), String(place.y))
    if (variant === 'size' && shown.size) await xdo('windowsize', win.id, String(shown.size.w), String(shown.size.h))
    // generous: the toolkit draws after mapping, and the machine is shared
    await sleep(1500)
    win = (await findWindow(display, shown.title)) ?? win
    const targets = new Map<string, { x: number; y: number }>()
    for (const [name, [x, y]] of Object.entries(shown.targets)) targets.set(name, { x: win.x + x, y: win.y + y })
    // the settings as they change while the game runs (GSettings writes each change at once)
    const trail: Record<string, string>[] = []
    const note = () => {
      const now = shown.settings(home)
      const last = trail[trail.length - 1]
      if (JSON.stringify(now) !== JSON.stringify(last ?? {})) trail.push(now)
    }
    const poll = setInterval(note, 150)
    let running = true
    void exited.then(() => {
      running = false
    })
    const shownWin = win
    return {
      targets,
      async finish() {
        // a game whose last step quits it is given up to 800 ms to go: no longer once it has
        await Promise.race([exited, sleep(800)])
        const quitByItself = !running
        if (running && shown.close) {
          await shown.close(xdo, shownWin)
          await Promise.race([exited, sleep(5000)])
        }
        // also when it quit by itself: what it started (dbus-daemon, a game under dbus-run-session) goes with it
        await stopChild(child)
        await exited
        clearInterval(poll)
        note()
        return { trail, quitByItself }
      },
    }
  }
}

export const GAMES: Game[] = DEFS.map((d) => ({
  id: d.id,
  toolkit: d.toolkit,
  source: d.source,
  variants: d.variants,
  cases: d.cases,
  removalKeeps: d.removalKeeps ?? [],
  launch: launcher(d),
}))
