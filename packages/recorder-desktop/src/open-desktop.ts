import { assertDisplay } from './display'
import { closeNut, nutInput, nutScreen } from './nut-desktop'
import type { InputSource, KeyboardInput, PointerInput, ScreenCapture } from './ports'
import { uiohookInput } from './uiohook-input'
import { readKeymap } from './x11-keyboard'
import { openWindowLocator, type WindowLocator } from './x11-windows'

export interface DesktopSession {
  display: string
  screen: ScreenCapture
  input: PointerInput & KeyboardInput
  hook: InputSource
  /**
   * The display's top-level windows (connected on first use; null when the X client cannot connect): the window
   * under a click when recording, the same program's window when replaying.
   */
  windows(): Promise<WindowLocator | null>
  /** Stops the hook and the capture/input worker (closes their X connections). */
  close(): Promise<void>
}

/**
 * The real desktop on the display `env.DISPLAY` names (the app passes its environment): checks the display first
 * (DESKTOP_NO_DISPLAY with how to get one, never a native crash), then hands out nut-js capture/input and the
 * uiohook hook (all native modules load on first use). libnut's screen grab and libuiohook take no display name:
 * they open the display of the process's own environment, which the app sets (the CLI runs with it; a worker that
 * owns `--display` sets it; the demo re-runs itself under its private Xvfb). This library never changes it.
 */
export async function openDesktop(env: Readonly<Record<string, string | undefined>>): Promise<DesktopSession> {
  const display = await assertDisplay(env)
  // the hook reads typing through the display's own layout (AltGr, dead keys), read when recording starts
  const hook = uiohookInput({ keymap: () => readKeymap(display) })
  let windows: Promise<WindowLocator | null> | null = null
  return {
    display,
    screen: nutScreen(),
    input: nutInput(display),
    hook,
    windows() {
      windows ??= openWindowLocator(display)
      return windows
    },
    async close() {
      await hook.stop()
      await closeNut()
      await (await windows)?.close()
    },
  }
}
