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
 * (DESKTOP_NO_DISPLAY with how to get one, never a native crash), then hands out nut-js capture/input on that
 * display and the uiohook hook (all native modules load on first use). The hook (libuiohook) can only open the
 * display of the process's own environment: record from a process whose DISPLAY names this display (the CLI does;
 * the demo re-runs itself under its private Xvfb).
 */
export async function openDesktop(env: Readonly<Record<string, string | undefined>>): Promise<DesktopSession> {
  const display = await assertDisplay(env)
  // the hook reads typing through the display's own layout (AltGr, dead keys), read when recording starts
  const hook = uiohookInput({ keymap: () => readKeymap(display) })
  let windows: Promise<WindowLocator | null> | null = null
  return {
    display,
    screen: nutScreen(display),
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
