import { existsSync } from 'node:fs'
import { connect } from 'node:net'
import { DesktopError } from './errors'

const HINT =
  'Desktop recording and replay need an X display. Run under a virtual one with `xvfb-run -a qa …` ' +
  '(install it with `apt-get install xvfb`), or set DISPLAY to a running X server (e.g. DISPLAY=:0).'

/** `:1`, `:1.0`, `host:1`, `unix:1` → where the X server listens. Pure. */
export function parseDisplay(display: string): { host: string | null; number: number } | null {
  const m = /^([^:]*):(\d+)(?:\.\d+)?$/.exec(display.trim())
  if (!m) return null
  const host = m[1] === '' || m[1] === 'unix' ? null : (m[1] as string)
  return { host, number: Number(m[2]) }
}

/**
 * Throws DESKTOP_NO_DISPLAY (exit 2 in the CLI, with how to get a display) unless `env.DISPLAY` names an X server
 * that accepts connections — checked before any native module is loaded, because libnut/uiohook abort the process
 * when XOpenDisplay fails.
 */
export async function assertDisplay(env: Record<string, string | undefined>, timeoutMs = 1500): Promise<string> {
  const display = env.DISPLAY?.trim()
  if (!display)
    throw new DesktopError('DESKTOP_NO_DISPLAY', 'No display is available (DISPLAY is not set).', { hint: HINT })
  const parsed = parseDisplay(display)
  if (!parsed)
    throw new DesktopError('DESKTOP_NO_DISPLAY', `DISPLAY="${display}" is not an X display name like ":0".`, {
      hint: HINT,
    })
  if (parsed.host === null) {
    const socket = `/tmp/.X11-unix/X${parsed.number}`
    if (!existsSync(socket))
      throw new DesktopError(
        'DESKTOP_NO_DISPLAY',
        `No X server is running on display ${display} (${socket} is missing).`,
        {
          hint: HINT,
        },
      )
    await probe({ path: socket }, display, timeoutMs)
    return display
  }
  await probe({ host: parsed.host, port: 6000 + parsed.number }, display, timeoutMs)
  return display
}

function probe(target: { path: string } | { host: string; port: number }, display: string, timeoutMs: number) {
  return new Promise<void>((resolve, reject) => {
    const sock = connect(target as never)
    const fail = (why: string) => {
      sock.destroy()
      reject(
        new DesktopError('DESKTOP_NO_DISPLAY', `The X server on display ${display} does not answer (${why}).`, {
          hint: HINT,
        }),
      )
    }
    const timer = setTimeout(() => fail('timeout'), timeoutMs)
    sock.once('connect', () => {
      clearTimeout(timer)
      sock.destroy()
      resolve()
    })
    sock.once('error', (e) => {
      clearTimeout(timer)
      fail((e as NodeJS.ErrnoException).code ?? e.message)
    })
  })
}
