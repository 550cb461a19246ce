import type { MouseButton, ScreenInfo } from '@qa/model'
import type { RgbaFrame } from './frame'
import type { InputEvent } from './input-event'

/** The screen: grab the whole thing as RGBA; report its size and scale. */
export interface ScreenCapture {
  capture(): Promise<RgbaFrame>
  info(): Promise<ScreenInfo>
}

/** Synthetic mouse input (replay). */
export interface PointerInput {
  click(x: number, y: number, button?: MouseButton): Promise<void>
  doubleClick(x: number, y: number, button?: MouseButton): Promise<void>
  drag(x: number, y: number, endX: number, endY: number, button?: MouseButton): Promise<void>
  scroll(x: number, y: number, dx: number, dy: number): Promise<void>
  /** Moves the pointer without clicking (a second look at a candidate the toolkit highlights on hover). */
  move?(x: number, y: number): Promise<void>
}

/** Synthetic keyboard input (replay). `press` takes a combo such as `enter` or `ctrl+s`. */
export interface KeyboardInput {
  type(text: string): Promise<void>
  press(combo: string): Promise<void>
}

/** A global input hook (record). */
export interface InputSource {
  start(onEvent: (event: InputEvent) => void): Promise<void>
  stop(): Promise<void>
}
