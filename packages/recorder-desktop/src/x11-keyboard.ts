import { createRequire } from 'node:module'
import { DesktopError } from './errors'
import { type Keymap, type KeyStroke, keymapFromCore } from './keymap'

/**
 * The keyboard of an X display over the X protocol itself (the pure-JavaScript `x11` client, loaded on first
 * use): its layout (the core keyboard mapping) and key strokes by keycode through XTEST, with Shift and AltGr
 * held as the layout needs — what a person's fingers do, whatever the layout. nut-js can only press the keys of
 * a US layout by name, so it cannot type AltGr characters.
 */
export interface X11Keyboard {
  readonly keymap: Keymap
  /** Taps each stroke (modifiers down, key down and up, modifiers up), then waits until the server took them. */
  tap(strokes: readonly KeyStroke[]): Promise<void>
  close(): Promise<void>
}

interface XClient {
  GetKeyboardMapping(start: number, count: number, cb: (err: unknown, rows: number[][]) => void): void
  GetInputFocus(cb: (err: unknown, focus: unknown) => void): void
  require(ext: 'xtest', cb: (err: unknown, ext: XTest) => void): void
  terminate(): void
  on(event: 'error', cb: (err: unknown) => void): void
}
interface XTest {
  KeyPress: number
  KeyRelease: number
  FakeInput(type: number, detail: number, time: number, root: number, x: number, y: number): void
}
interface XDisplay {
  client: XClient
  min_keycode: number
  max_keycode: number
  screen: { root: number }[]
}
interface X11Module {
  createClient(opts: { display: string }, cb: (err: unknown, display: XDisplay) => void): XClient
}

const fail = (display: string, what: string, cause: unknown) =>
  new DesktopError('DESKTOP_INPUT_FAILED', `Could not ${what} on display ${display}: ${String(cause)}.`, {
    hint: 'Check that DISPLAY points to a running X server with the XTEST extension.',
    cause,
  })

/** Connects to the display and reads its keyboard layout; `tap` types through XTEST on the same connection. */
export async function openX11Keyboard(display: string): Promise<X11Keyboard> {
  let x11: X11Module
  try {
    x11 = createRequire(import.meta.url)('x11') as X11Module
  } catch (cause) {
    throw new DesktopError('DESKTOP_NATIVE_MISSING', 'The X protocol client (x11) is not installed.', {
      hint: 'Reinstall dependencies (`pnpm install`).',
      cause,
    })
  }
  const connected = await new Promise<XDisplay>((resolve, reject) => {
    const client = x11.createClient({ display }, (err, d) => (err ? reject(fail(display, 'connect', err)) : resolve(d)))
    client.on('error', (err) => reject(fail(display, 'connect', err)))
  })
  const X = connected.client
  let broken: unknown = null
  X.on('error', (err) => {
    broken = err
  })
  const call = <T>(what: string, run: (cb: (err: unknown, value: T) => void) => void) =>
    new Promise<T>((resolve, reject) =>
      run((err, value) => (err || broken ? reject(fail(display, what, err ?? broken)) : resolve(value))),
    )
  try {
    const min = connected.min_keycode
    const rows = await call<number[][]>('read the keyboard layout', (cb) =>
      X.GetKeyboardMapping(min, connected.max_keycode - min + 1, cb),
    )
    const xtest = await call<XTest>('load XTEST', (cb) => X.require('xtest', cb))
    const root = connected.screen[0]?.root ?? 0
    const keymap = keymapFromCore(min, rows)
    const key = (keycode: number, down: boolean) =>
      xtest.FakeInput(down ? xtest.KeyPress : xtest.KeyRelease, keycode, 0, root, 0, 0)
    return {
      keymap,
      async tap(strokes) {
        for (const s of strokes) {
          const mods = [s.shift ? keymap.shiftKeycode : null, s.levelThree ? keymap.levelThreeKeycode : null].filter(
            (k): k is number => k !== null,
          )
          for (const m of mods) key(m, true)
          key(s.keycode, true)
          key(s.keycode, false)
          for (const m of mods.reverse()) key(m, false)
        }
        // a round trip: every fake event before it has been processed by the server
        await call<unknown>('type', (cb) => X.GetInputFocus(cb))
      },
      async close() {
        X.terminate()
      },
    }
  } catch (error) {
    X.terminate()
    throw error
  }
}

/** The display's keyboard layout, or null when the X protocol client is not installed. */
export async function readKeymap(display: string): Promise<Keymap | null> {
  let keyboard: X11Keyboard
  try {
    keyboard = await openX11Keyboard(display)
  } catch (error) {
    if ((error as { code?: string }).code === 'DESKTOP_NATIVE_MISSING') return null
    throw error
  }
  await keyboard.close()
  return keyboard.keymap
}
