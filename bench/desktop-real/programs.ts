// The real X11 programs of bench/desktop-real: Debian's own programs, started unchanged, with each variant applied
// through the program's documented options (geometry, colours, font), and a way to read what the program itself
// saw (which widget got each mouse press, what a field holds, which button it reports) — the ground truth the
// replayers under test never see.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'

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
  fields: Map<string, string>
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
        const fields = new Map<string, string>()
        for (const line of readFileSync(truthFile, 'utf8').split('\n')) {
          const press = /^press (\S+)$/.exec(line)
          if (press) presses.push(press[1] as string)
          const entry = /^entry (\S+) ?(.*)$/.exec(line)
          if (entry) fields.set(entry[1] as string, entry[2] as string)
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
    const args = ['-print', '-geometry', variant === 'moved' ? MOVED_PLACE : RECORDED_PLACE, '-buttons', shown.join(',')]
    if (variant === 'colours') args.push('-bg', '#30475e', '-fg', '#f0f0f0', '-xrm', '*Command.background: #4a6d8c')
    if (variant === 'larger-font') args.push('-xrm', '*font: 10x20')
    args.push('Choose what happens to the 3 selected files.')
    const child = spawn('xmessage', args, { env: { ...process.env, DISPLAY: display }, stdio: ['ignore', 'pipe', 'pipe'] })
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
      const rows = [...tree.matchAll(/^\s+0x[0-9a-f]+ \(has no name\): \(\)\s+(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)$/gm)]
        .map((m) => ({ w: Number(m[1]), h: Number(m[2]), x: Number(m[3]), y: Number(m[4]) }))
        .filter((b) => b.w > 20)
      const byRow = new Map<number, typeof rows>()
      for (const b of rows) byRow.set(b.y, [...(byRow.get(b.y) ?? []), b])
      buttons = [...byRow.values()].find((r) => r.length === shown.length) ?? []
    }
    if (buttons.length !== shown.length) throw new Error(`xmessage: found ${buttons.length} buttons, not ${shown.length}`)
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
]
