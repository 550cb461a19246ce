import type { MouseButton } from '@qa/model'

/** One global input event as a hook reports it, with a high-resolution timestamp (epoch ms, fractional). */
export type InputEvent =
  | { kind: 'mousedown' | 'mouseup'; timeMs: number; x: number; y: number; button: MouseButton }
  | { kind: 'mousemove'; timeMs: number; x: number; y: number }
  | { kind: 'wheel'; timeMs: number; x: number; y: number; dx: number; dy: number }
  | {
      kind: 'keydown' | 'keyup'
      timeMs: number
      /** Key name: `a`, `enter`, `f10`, `shift`, … */
      key: string
      /** The character the key types with the current modifiers, when printable. */
      char?: string | null
      /** A dead key (an accent waiting for the next key): it types nothing itself and is no key press. */
      dead?: boolean
      ctrl?: boolean
      alt?: boolean
      meta?: boolean
      shift?: boolean
    }

/** High-resolution wall-clock time in epoch milliseconds. */
export const nowMs = (): number => performance.timeOrigin + performance.now()

export const MODIFIER_KEYS: ReadonlySet<string> = new Set(['shift', 'ctrl', 'alt', 'meta', 'capslock'])
