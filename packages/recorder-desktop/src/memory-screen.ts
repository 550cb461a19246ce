import type { MouseButton, ScreenInfo } from '@qa/model'
import type { RgbaFrame } from './frame'
import type { InputEvent } from './input-event'
import type { InputSource, KeyboardInput, PointerInput, ScreenCapture } from './ports'

/** A screen whose content the test sets; `captures` counts grabs. */
export interface MemoryScreen extends ScreenCapture {
  set(frame: RgbaFrame): void
  readonly captures: number
}

export function memoryScreen(initial: RgbaFrame, info: Partial<ScreenInfo> = {}): MemoryScreen {
  let current = initial
  let captures = 0
  return {
    set(frame) {
      current = frame
    },
    get captures() {
      return captures
    },
    async capture() {
      captures++
      return current
    },
    async info() {
      return { width: current.width, height: current.height, scale: 1, ...info }
    },
  }
}

export type InputCall =
  | { kind: 'click' | 'doubleClick'; x: number; y: number; button: MouseButton }
  | { kind: 'drag'; x: number; y: number; endX: number; endY: number; button: MouseButton }
  | { kind: 'scroll'; x: number; y: number; dx: number; dy: number }
  | { kind: 'move'; x: number; y: number }
  | { kind: 'type'; text: string }
  | { kind: 'press'; combo: string }

/** Pointer + keyboard fakes that log every call (and can react to clicks, like a game would). */
export function recordingInput(
  onCall?: (call: InputCall) => void | Promise<void>,
): PointerInput & KeyboardInput & { calls: InputCall[] } {
  const calls: InputCall[] = []
  const log = async (c: InputCall) => {
    calls.push(c)
    await onCall?.(c)
  }
  return {
    calls,
    click: (x, y, button = 'left') => log({ kind: 'click', x, y, button }),
    doubleClick: (x, y, button = 'left') => log({ kind: 'doubleClick', x, y, button }),
    drag: (x, y, endX, endY, button = 'left') => log({ kind: 'drag', x, y, endX, endY, button }),
    scroll: (x, y, dx, dy) => log({ kind: 'scroll', x, y, dx, dy }),
    move: (x, y) => log({ kind: 'move', x, y }),
    type: (text) => log({ kind: 'type', text }),
    press: (combo) => log({ kind: 'press', combo }),
  }
}

/** An input hook fake: the test emits events by hand. */
export interface ScriptedInput extends InputSource {
  emit(event: InputEvent): void
  readonly running: boolean
}

export function scriptedInput(): ScriptedInput {
  let handler: ((e: InputEvent) => void) | null = null
  return {
    get running() {
      return handler !== null
    },
    async start(onEvent) {
      handler = onEvent
    },
    async stop() {
      handler = null
    },
    emit(event) {
      handler?.(event)
    },
  }
}

/** A solid-colour RGBA frame, with optional filled rectangles (test screens). */
export function solidFrame(
  width: number,
  height: number,
  rgb: [number, number, number],
  rects: { x: number; y: number; width: number; height: number; rgb: [number, number, number] }[] = [],
): RgbaFrame {
  const data = new Uint8Array(width * height * 4)
  for (let i = 0; i < width * height; i++) data.set([rgb[0], rgb[1], rgb[2], 255], i * 4)
  for (const r of rects)
    for (let y = Math.max(0, r.y); y < Math.min(height, r.y + r.height); y++)
      for (let x = Math.max(0, r.x); x < Math.min(width, r.x + r.width); x++)
        data.set([r.rgb[0], r.rgb[1], r.rgb[2], 255], (y * width + x) * 4)
  return { width, height, data, channels: 4 }
}
