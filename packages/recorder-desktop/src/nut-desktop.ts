import { execFile, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { installCommand, type MouseButton, type ScreenInfo } from '@qa/model'
import { DesktopError } from './errors'
import type { RgbaFrame } from './frame'
import type { KeyboardInput, PointerInput, ScreenCapture } from './ports'
import { planKeyTyping } from './keymap'
import { planTyping } from './type-plan'
import { openX11Keyboard, type X11Keyboard } from './x11-keyboard'

/**
 * nut-js (libnut) runs in a worker thread: a grab (XGetImage, ~20 ms at 1280×720) and the BGRA → RGBA
 * conversion never block the main thread, so input-hook callbacks stay prompt and their timestamps stay true;
 * and terminating the worker closes libnut's X connection (Xlib would exit the process when the server goes).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const nut = require(workerData.nutPath)
nut.mouse.config.autoDelayMs = 0
nut.mouse.config.mouseSpeed = 100000
nut.keyboard.config.autoDelayMs = 0
const now = () => performance.timeOrigin + performance.now()
const btn = (b) => (b === 'right' ? nut.Button.RIGHT : b === 'middle' ? nut.Button.MIDDLE : nut.Button.LEFT)
const at = (x, y) => nut.mouse.setPosition(new nut.Point(Math.round(x), Math.round(y)))
const ops = {
  async grab() {
    const startMs = now()
    const img = await nut.screen.grab()
    const endMs = now()
    const w = img.width, h = img.height, bw = img.byteWidth, src = img.data
    const out = new Uint8Array(w * h * 4)
    const bgr = Number(img.colorMode) !== 1
    for (let y = 0; y < h; y++) {
      let s = y * bw, d = y * w * 4
      for (let x = 0; x < w; x++, s += 4, d += 4) {
        out[d] = bgr ? src[s + 2] : src[s]; out[d + 1] = src[s + 1]; out[d + 2] = bgr ? src[s] : src[s + 2]; out[d + 3] = 255
      }
    }
    return { value: { width: w, height: h, data: out, startMs, endMs, scale: img.pixelDensity ? img.pixelDensity.scaleX : 1 }, transfer: [out.buffer] }
  },
  async size() { return { value: { width: await nut.screen.width(), height: await nut.screen.height() } } },
  async move(a) { await at(a.x, a.y); return {} },
  async click(a) { await at(a.x, a.y); await nut.mouse.click(btn(a.button)); return {} },
  async doubleClick(a) { await at(a.x, a.y); await nut.mouse.doubleClick(btn(a.button)); return {} },
  async drag(a) {
    const b = btn(a.button)
    await at(a.x, a.y); await nut.mouse.pressButton(b)
    await at((a.x + a.endX) / 2, (a.y + a.endY) / 2); await at(a.endX, a.endY)
    await nut.mouse.releaseButton(b); return {}
  },
  async scroll(a) {
    await at(a.x, a.y)
    if (a.dy > 0) await nut.mouse.scrollDown(a.dy)
    if (a.dy < 0) await nut.mouse.scrollUp(-a.dy)
    if (a.dx > 0) await nut.mouse.scrollRight(a.dx)
    if (a.dx < 0) await nut.mouse.scrollLeft(-a.dx)
    return {}
  },
  // key strokes one by one, Shift held where the layout needs it (nut's type() drops Shift: "7*3" became "783")
  async keys(a) {
    for (const s of a.keys) {
      const k = nut.Key[s.key]
      if (k === undefined) throw new Error('unknown key ' + s.key)
      if (s.shift) {
        await nut.keyboard.pressKey(nut.Key.LeftShift, k)
        await nut.keyboard.releaseKey(k)
        await nut.keyboard.releaseKey(nut.Key.LeftShift)
      } else {
        await nut.keyboard.pressKey(k)
        await nut.keyboard.releaseKey(k)
      }
    }
    return {}
  },
  async press(a) {
    const keys = a.keys.map((k) => nut.Key[k])
    if (keys.some((k) => k === undefined)) throw new Error('unknown key in ' + a.keys.join('+'))
    await nut.keyboard.pressKey(...keys); await nut.keyboard.releaseKey(...keys); return {}
  },
}
// one operation at a time, in order: a click must not interleave with the next one's pointer move
let chain = Promise.resolve()
parentPort.on('message', ({ id, op, args }) => {
  chain = chain.then(async () => {
    try {
      const r = await ops[op](args)
      parentPort.postMessage({ id, value: r.value }, r.transfer || [])
    } catch (e) {
      parentPort.postMessage({ id, error: String((e && e.message) || e) })
    }
  })
})
`

export interface NutWorker {
  call<T>(op: string, args?: unknown): Promise<T>
  close(): Promise<void>
}

let shared: NutWorker | undefined

/**
 * The worker thread running libnut (started on first use). libnut opens the X display the process's environment
 * names (its screen grab calls `XOpenDisplay(NULL)` and takes no display name), so the app sets DISPLAY.
 */
export function nutWorker(): NutWorker {
  if (shared) return shared
  let nutPath: string
  try {
    nutPath = createRequire(import.meta.url).resolve('@nut-tree-fork/nut-js')
  } catch (cause) {
    throw new DesktopError(
      'DESKTOP_NATIVE_MISSING',
      'Screen capture and synthetic input (@nut-tree-fork/nut-js) are not installed.',
      {
        hint: `Install it in your project: ${installCommand('desktop')}`,
        cause,
      },
    )
  }
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { nutPath } })
  worker.unref()
  let seq = 0
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void; op: string }>()
  let dead: Error | null = null
  const failAll = (e: Error) => {
    dead = e
    for (const w of waiting.values()) w.reject(e)
    waiting.clear()
  }
  worker.on('message', (m: { id: number; value?: unknown; error?: string }) => {
    const w = waiting.get(m.id)
    if (!w) return
    waiting.delete(m.id)
    if (m.error !== undefined)
      w.reject(
        new DesktopError(
          w.op === 'grab' ? 'DESKTOP_CAPTURE_FAILED' : 'DESKTOP_INPUT_FAILED',
          `${w.op} failed on the display: ${m.error}`,
          {
            hint: 'Check that DISPLAY points to a running X server (with XTEST for input).',
          },
        ),
      )
    else w.resolve(m.value)
  })
  worker.on('error', (cause) =>
    failAll(
      new DesktopError('DESKTOP_NATIVE_MISSING', 'Screen capture and synthetic input (libnut) could not be loaded.', {
        hint: 'Reinstall dependencies (`pnpm install`); libnut needs libxtst6 and libpng16 on Linux.',
        cause,
      }),
    ),
  )
  worker.on('exit', () => failAll(new DesktopError('DESKTOP_CAPTURE_FAILED', 'The capture worker stopped.')))
  const w: NutWorker = {
    call<T>(op: string, args?: unknown) {
      if (dead) return Promise.reject(dead)
      const id = seq++
      worker.ref()
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, op })
        worker.postMessage({ id, op, args })
      }).finally(() => {
        if (waiting.size === 0) worker.unref()
      })
    },
    async close() {
      if (shared === w) shared = undefined
      await worker.terminate()
    },
  }
  shared = w
  return w
}

/** Stops the libnut worker (closes its X connection); the next use starts a new one. */
export async function closeNut(): Promise<void> {
  await shared?.close()
}

interface Grab {
  width: number
  height: number
  data: Uint8Array
  startMs: number
  endMs: number
  scale: number
}

/** A frame with when its grab started and ended (epoch ms). */
export interface TimedCapture {
  frame: RgbaFrame
  startMs: number
  endMs: number
}

/** Screen capture on nut-js in the worker (XGetImage on X11, converted to RGBA) of the process's DISPLAY. */
export function nutScreen(): ScreenCapture & { captureTimed(): Promise<TimedCapture> } {
  const grab = () => nutWorker().call<Grab>('grab')
  return {
    async capture() {
      const g = await grab()
      return { width: g.width, height: g.height, data: g.data, channels: 4 }
    },
    async captureTimed() {
      const g = await grab()
      return {
        frame: { width: g.width, height: g.height, data: g.data, channels: 4 },
        startMs: g.startMs,
        endMs: g.endMs,
      }
    },
    async info(): Promise<ScreenInfo> {
      const g = await grab()
      return { width: g.width, height: g.height, scale: g.scale }
    },
  }
}

const KEY_ALIASES: Record<string, string> = {
  ctrl: 'LeftControl',
  control: 'LeftControl',
  alt: 'LeftAlt',
  shift: 'LeftShift',
  meta: 'LeftSuper',
  super: 'LeftSuper',
  // the main Return key (XK_Return): libnut's "enter" is the keypad's Enter (XK_KP_Enter), which games such as
  // LBreakout2 ignore
  enter: 'Return',
  return: 'Return',
  escape: 'Escape',
  esc: 'Escape',
  tab: 'Tab',
  backspace: 'Backspace',
  space: 'Space',
  delete: 'Delete',
  insert: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  arrowleft: 'Left',
  arrowright: 'Right',
  arrowup: 'Up',
  arrowdown: 'Down',
  left: 'Left',
  right: 'Right',
  up: 'Up',
  down: 'Down',
  ';': 'Semicolon',
  '=': 'Equal',
  ',': 'Comma',
  '-': 'Minus',
  '.': 'Period',
  '/': 'Slash',
  '`': 'Grave',
  '[': 'LeftBracket',
  ']': 'RightBracket',
  '\\': 'Backslash',
  "'": 'Quote',
  capslock: 'CapsLock',
}

/** nut-js Key enum name of a key name (`ctrl` → LeftControl, `a` → A, `1` → Num1, `f10` → F10). Pure. */
export function nutKeyName(name: string): string | null {
  const k = name.toLowerCase()
  if (KEY_ALIASES[k]) return KEY_ALIASES[k] as string
  if (/^[a-z]$/.test(k)) return k.toUpperCase()
  if (/^[0-9]$/.test(k)) return `Num${k}`
  if (/^f([1-9]|1[0-9]|2[0-4])$/.test(k)) return k.toUpperCase()
  return null
}

/** Runs a clipboard tool with the text on stdin; resolves false when the tool is not installed. */
function runClipboardTool(cmd: string, args: string[], text: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    // no pipe but stdin: the forked child that serves the selection must not hold one of ours open
    const child = spawn(cmd, args, { stdio: ['pipe', 'ignore', 'ignore'] })
    child.once('error', (e) => ((e as NodeJS.ErrnoException).code === 'ENOENT' ? resolve(false) : reject(e)))
    // xclip and xsel fork a child that serves the selection; the parent exits once it holds it
    child.once('exit', (code) => (code === 0 ? resolve(true) : reject(new Error(`${cmd} exited with ${code}`))))
    child.stdin.end(text, 'utf8')
  })
}

/**
 * Puts a text on the X clipboard (CLIPBOARD selection) of `display` (default: the process's DISPLAY) with xclip,
 * else xsel: how characters a US keyboard cannot type (Hangul, accents) are entered, as a person without that
 * input method would paste them.
 */
export async function setClipboard(text: string, display?: string): Promise<void> {
  const xclip = display ? ['-display', display] : []
  const xsel = display ? ['--display', display] : []
  if (await runClipboardTool('xclip', [...xclip, '-selection', 'clipboard', '-in'], text))
    return untilClipboardHolds('xclip', [...xclip, '-selection', 'clipboard', '-out'], text)
  if (await runClipboardTool('xsel', [...xsel, '--clipboard', '--input'], text))
    return untilClipboardHolds('xsel', [...xsel, '--clipboard', '--output'], text)
  throw new DesktopError(
    'DESKTOP_INPUT_FAILED',
    `Typing "${text.slice(0, 20)}" needs the clipboard (characters a US keyboard cannot type are pasted with Ctrl+V), and neither xclip nor xsel is installed.`,
    { hint: 'Install one: `apt-get install xclip`.' },
  )
}

/**
 * Reads the clipboard back until it holds the text (the tool's forked child may take the selection a moment after
 * its parent exits; a Ctrl+V before that pastes nothing). Gives up silently after 2 s.
 */
async function untilClipboardHolds(cmd: string, args: string[], text: string): Promise<void> {
  const end = performance.now() + 2000
  while (performance.now() < end) {
    const now = await new Promise<string | null>((resolve) =>
      execFile(cmd, args, { timeout: 1000, encoding: 'utf8' }, (error, stdout) => resolve(error ? null : stdout)),
    )
    if (now === text) return
    await new Promise((r) => setTimeout(r, 30))
  }
}

/** Time a program gets to fetch the clipboard after Ctrl+V before anything else is typed or pasted. */
const PASTE_SETTLE_MS = 400

/**
 * The display's keyboard over the X protocol, or null without a display or when the X client is not installed
 * (not an X11 desktop).
 */
async function x11KeyboardOrNull(display: string | undefined): Promise<X11Keyboard | null> {
  if (!display) return null
  try {
    return await openX11Keyboard(display)
  } catch (error) {
    if ((error as { code?: string }).code === 'DESKTOP_NATIVE_MISSING') return null
    throw error
  }
}

/**
 * Synthetic mouse and keyboard input on nut-js (XTest on X11), in the worker, on the process's DISPLAY, which
 * `display` names; typed text goes through that display's own keyboard layout (`openX11Keyboard`), so AltGr
 * characters of a German or French layout arrive too, and pasted text through its clipboard. Without `display`,
 * text is typed as on a US layout (the rest pasted).
 */
export function nutInput(display?: string): PointerInput & KeyboardInput {
  const call = (op: string, args: unknown) => nutWorker().call<void>(op, args)
  return {
    click: (x, y, button?: MouseButton) => call('click', { x, y, button }),
    doubleClick: (x, y, button?: MouseButton) => call('doubleClick', { x, y, button }),
    drag: (x, y, endX, endY, button?: MouseButton) => call('drag', { x, y, endX, endY, button }),
    scroll: (x, y, dx, dy) => call('scroll', { x, y, dx, dy }),
    move: (x, y) => call('move', { x, y }),
    type: async (text) => {
      const paste = async (chunk: string) => {
        await setClipboard(chunk, display)
        await call('press', { keys: ['LeftControl', 'V'] })
        // the program fetches the clipboard asynchronously: the next paste must not replace it before
        await new Promise((r) => setTimeout(r, PASTE_SETTLE_MS))
      }
      const keyboard = await x11KeyboardOrNull(display)
      if (!keyboard) {
        // no X protocol client: the keys of a US layout by name (nut-js), the rest pasted
        for (const step of planTyping(text)) {
          if (step.kind === 'keys') await call('keys', { keys: step.keys })
          else await paste(step.text)
        }
        return
      }
      try {
        // the display's own layout, read now: Shift and AltGr held as it needs, dead keys, the rest pasted
        for (const step of planKeyTyping(keyboard.keymap, text)) {
          if (step.kind === 'keys') await keyboard.tap(step.strokes)
          else await paste(step.text)
        }
      } finally {
        await keyboard.close()
      }
    },
    press: async (combo) => {
      const keys = combo.split('+').map((part) => {
        const name = nutKeyName(part)
        if (!name)
          throw new DesktopError('DESKTOP_INPUT_FAILED', `Unknown key "${part}" in "${combo}".`, {
            hint: 'Use names like enter, ctrl+s, f5, a.',
          })
        return name
      })
      await call('press', { keys })
    },
  }
}
