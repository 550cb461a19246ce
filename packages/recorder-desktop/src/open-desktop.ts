import { assertDisplay } from './display'
import { closeNut, nutInput, nutScreen } from './nut-desktop'
import type { InputSource, KeyboardInput, PointerInput, ScreenCapture } from './ports'
import { uiohookInput } from './uiohook-input'
import { readKeymap } from './x11-keyboard'

export interface DesktopSession {
  display: string
  screen: ScreenCapture
  input: PointerInput & KeyboardInput
  hook: InputSource
  /** Stops the hook and the capture/input worker (closes their X connections). */
  close(): Promise<void>
}

/**
 * The real desktop: checks the display first (DESKTOP_NO_DISPLAY with how to get one, never a native crash),
 * then hands out nut-js capture/input and the uiohook hook (all native modules load on first use).
 */
export async function openDesktop(env: Record<string, string | undefined> = process.env): Promise<DesktopSession> {
  const display = await assertDisplay(env)
  if (process.env.DISPLAY !== display) process.env.DISPLAY = display
  // the hook reads typing through the display's own layout (AltGr, dead keys), read when recording starts
  const hook = uiohookInput({ keymap: () => readKeymap(display) })
  return {
    display,
    screen: nutScreen(),
    input: nutInput(),
    hook,
    async close() {
      await hook.stop()
      await closeNut()
    },
  }
}
