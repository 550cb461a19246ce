import { installCommand, type MouseButton } from '@qa/model'
import { DesktopError } from './errors'
import { type InputEvent, nowMs } from './input-event'
import { composeDeadKey, type Keymap, keyOutput } from './keymap'
import type { InputSource } from './ports'

/** uiohook key codes (US layout) → key names used in actions. */
const NAMES: Record<number, string> = {
  14: 'backspace',
  15: 'tab',
  28: 'enter',
  3612: 'enter',
  58: 'capslock',
  1: 'escape',
  57: 'space',
  3657: 'pageup',
  3665: 'pagedown',
  3663: 'end',
  3655: 'home',
  57419: 'arrowleft',
  57416: 'arrowup',
  57421: 'arrowright',
  57424: 'arrowdown',
  3666: 'insert',
  3667: 'delete',
  29: 'ctrl',
  3613: 'ctrl',
  56: 'alt',
  3640: 'alt',
  42: 'shift',
  54: 'shift',
  3675: 'meta',
  3676: 'meta',
  39: ';',
  13: '=',
  51: ',',
  12: '-',
  52: '.',
  53: '/',
  41: '`',
  26: '[',
  43: '\\',
  27: ']',
  40: "'",
}
const LETTERS: Record<string, number> = {
  a: 30,
  b: 48,
  c: 46,
  d: 32,
  e: 18,
  f: 33,
  g: 34,
  h: 35,
  i: 23,
  j: 36,
  k: 37,
  l: 38,
  m: 50,
  n: 49,
  o: 24,
  p: 25,
  q: 16,
  r: 19,
  s: 31,
  t: 20,
  u: 22,
  v: 47,
  w: 17,
  x: 45,
  y: 21,
  z: 44,
}
for (const [l, c] of Object.entries(LETTERS)) NAMES[c] = l
for (let d = 1; d <= 9; d++) NAMES[d + 1] = String(d)
NAMES[11] = '0'
const FKEYS = [59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 87, 88]
FKEYS.forEach((c, i) => {
  NAMES[c] = `f${i + 1}`
})
const SHIFTED: Record<string, string> = {
  '1': '!',
  '2': '@',
  '3': '#',
  '4': '$',
  '5': '%',
  '6': '^',
  '7': '&',
  '8': '*',
  '9': '(',
  '0': ')',
  ';': ':',
  '=': '+',
  ',': '<',
  '-': '_',
  '.': '>',
  '/': '?',
  '`': '~',
  '[': '{',
  '\\': '|',
  ']': '}',
  "'": '"',
}

/** Key name of a uiohook key code (`a`, `enter`, `f10`, …; `key<code>` when unknown). Pure. */
export function keyName(keycode: number): string {
  return NAMES[keycode] ?? `key${keycode}`
}

/** The character a key types on a US layout, or null for non-printing keys. Pure. */
export function keyChar(name: string, shift: boolean): string | null {
  if (name === 'space') return ' '
  if (name.length !== 1) return null
  if (/[a-z]/.test(name)) return shift ? name.toUpperCase() : name
  return shift ? (SHIFTED[name] ?? name) : name
}

/** uiohook codes of the keys outside the main block that matter for typing, → X keycodes (evdev). */
const X_KEYCODES: Record<number, number> = { 3612: 104, 3613: 105, 3637: 106, 3640: 108 }
const SHIFT_CODES = new Set([42, 54])
const LEFT_ALT = 56
const RIGHT_ALT = 3640

/**
 * The X keycode (evdev) of a uiohook key code: the main block's codes are the keyboard's scan codes, 8 below the
 * X keycodes (libuiohook's evdev table); a few others by table; null when unknown. Pure.
 */
export function xKeycodeOf(uiohookKeycode: number): number | null {
  if (uiohookKeycode >= 1 && uiohookKeycode <= 88) return uiohookKeycode + 8
  return X_KEYCODES[uiohookKeycode] ?? null
}

/** What the typing part of a key event is on the display's layout. */
export interface LayoutKey {
  /** The character typed (a pending dead key's accent composed in), or null. */
  char: string | null
  /** A dead key: it types nothing now and changes the next character. */
  dead: boolean
  /** Alt held as Alt (not AltGr): a shortcut, not typing. */
  alt: boolean
  /** The key's name on this layout for shortcuts (`z` on a German layout's Z key), or null to keep the US name. */
  name: string | null
}

/**
 * Reads key events through the display's layout: Shift and AltGr (the right Alt key when the
 * layout makes it ISO_Level3_Shift) choose the level, dead keys compose with the next key. Pure but for the state
 * of held keys and a pending dead key, fed with every key event in order.
 */
export function createLayoutReader(keymap: Keymap) {
  const held = new Set<number>()
  let deadMark: string | null = null
  const altGrIsLevelThree = keymap.levelThreeKeycode === xKeycodeOf(RIGHT_ALT)
  return {
    read(uiohookKeycode: number, down: boolean, shift: boolean): LayoutKey {
      if (down) held.add(uiohookKeycode)
      else held.delete(uiohookKeycode)
      const levelThree = altGrIsLevelThree && held.has(RIGHT_ALT)
      const alt = held.has(LEFT_ALT) || (held.has(RIGHT_ALT) && !altGrIsLevelThree)
      const xKeycode = xKeycodeOf(uiohookKeycode)
      const none: LayoutKey = { char: null, dead: false, alt, name: null }
      if (!down || xKeycode === null || SHIFT_CODES.has(uiohookKeycode) || uiohookKeycode === RIGHT_ALT) return none
      const plain = keyOutput(keymap, xKeycode, { shift: false, levelThree: false })
      const name = plain && 'char' in plain && /^\p{L}$/u.test(plain.char) ? plain.char.toLowerCase() : null
      const out = keyOutput(keymap, xKeycode, { shift, levelThree })
      if (!out) {
        deadMark = null
        return { ...none, name }
      }
      if ('deadMark' in out) {
        // a second dead key types the first one's accent, as X's compose does for an unknown sequence
        deadMark = out.deadMark
        return { char: null, dead: true, alt, name }
      }
      // Enter and Tab stay key presses, as on a US layout
      if (out.char === '\n' || out.char === '\t') {
        deadMark = null
        return { ...none, name }
      }
      const char = deadMark ? composeDeadKey(deadMark, out.char) : out.char
      deadMark = null
      return { char, dead: false, alt, name }
    },
  }
}

const BUTTONS: Record<number, MouseButton> = { 1: 'left', 2: 'right', 3: 'middle' }

type Uiohook = typeof import('uiohook-napi')

/**
 * The global input hook on uiohook-napi (X11 needs the XRecord extension: `Xvfb … +extension RECORD`).
 * The native module is loaded on start(), never at import time. Call `assertDisplay` first.
 */
export function uiohookInput(opts: { keymap?: () => Promise<Keymap | null> } = {}): InputSource {
  let mod: Uiohook | undefined
  let listener: ((e: unknown) => void) | undefined
  let running = false
  return {
    async start(onEvent) {
      try {
        mod = await import('uiohook-napi')
      } catch (cause) {
        throw new DesktopError('DESKTOP_NATIVE_MISSING', 'The input hook (uiohook-napi) could not be loaded.', {
          hint: `Install it in your project (${installCommand('desktop')}); on Linux the hook also needs libxtst6 and an X display.`,
          cause,
        })
      }
      const hook = mod.uIOhook
      // the display's layout, read before the hook starts; without it, a US layout's characters
      const keymap = (await opts.keymap?.()) ?? null
      const layout = keymap ? createLayoutReader(keymap) : null
      const wheelHorizontal = mod.WheelDirection.HORIZONTAL
      listener = (raw) => {
        const e = raw as {
          type: number
          x: number
          y: number
          button: unknown
          keycode: number
          rotation: number
          direction: number
          shiftKey: boolean
          ctrlKey: boolean
          altKey: boolean
          metaKey: boolean
        }
        const timeMs = nowMs()
        let ev: InputEvent | null = null
        switch (e.type) {
          case 7:
          case 8: {
            const button = BUTTONS[Number(e.button)]
            if (button) ev = { kind: e.type === 7 ? 'mousedown' : 'mouseup', timeMs, x: e.x, y: e.y, button }
            break
          }
          case 9: // moved
          case 10: // dragged (moved with a button held)
            ev = { kind: 'mousemove', timeMs, x: e.x, y: e.y }
            break
          case 11: {
            const ticks = e.rotation
            ev =
              e.direction === wheelHorizontal
                ? { kind: 'wheel', timeMs, x: e.x, y: e.y, dx: ticks, dy: 0 }
                : { kind: 'wheel', timeMs, x: e.x, y: e.y, dx: 0, dy: ticks }
            break
          }
          case 4:
          case 5: {
            const usName = keyName(e.keycode)
            const onLayout = layout?.read(e.keycode, e.type === 4, e.shiftKey)
            const key = onLayout?.name ?? usName
            ev = {
              kind: e.type === 4 ? 'keydown' : 'keyup',
              timeMs,
              key,
              char: onLayout ? onLayout.char : keyChar(usName, e.shiftKey),
              ...(onLayout?.dead ? { dead: true } : {}),
              ctrl: e.ctrlKey,
              alt: onLayout ? onLayout.alt : e.altKey,
              meta: e.metaKey,
              shift: e.shiftKey,
            }
            break
          }
        }
        if (ev) onEvent(ev)
      }
      hook.on('input', listener)
      hook.start()
      running = true
    },
    async stop() {
      if (!mod || !running) return
      running = false
      if (listener) mod.uIOhook.off('input', listener)
      mod.uIOhook.stop()
      listener = undefined
    },
  }
}
