import { execFile } from 'node:child_process'
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
export async function assertDisplay(
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs = 1500,
): Promise<string> {
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

/**
 * Whether the X server on `display` has the RECORD extension, which the global input hook (uiohook) needs to see
 * clicks and keys: asked with `xdpyinfo -queryExtensions` (x11-utils). `null` when it cannot be told (no xdpyinfo,
 * or it failed).
 */
export function hasRecordExtension(display: string, timeoutMs = 5000): Promise<boolean | null> {
  return new Promise((resolve) => {
    execFile('xdpyinfo', ['-display', display, '-queryExtensions'], { timeout: timeoutMs }, (error, stdout) => {
      if (error) resolve(null)
      else resolve(/^\s*RECORD\b/m.test(stdout))
    })
  })
}

/**
 * Throws DESKTOP_NO_RECORD (exit 2 in the CLI) when the X server on `display` surely lacks RECORD: without it
 * uiohook aborts the whole process with a raw Xlib message. Passes when it cannot be told (no xdpyinfo).
 */
export async function assertRecordExtension(display: string): Promise<void> {
  if ((await hasRecordExtension(display)) !== false) return
  throw new DesktopError(
    'DESKTOP_NO_RECORD',
    `The X server on display ${display} has no RECORD extension, which recording needs to see clicks and keys; nothing was recorded.`,
    {
      hint: 'Start the server with it: `Xvfb :99 +extension RECORD`, or `xvfb-run -a -s "-screen 0 1920x1080x24 +extension RECORD" qa record desktop …`; on a desktop session enable the RECORD extension in the X server configuration.',
    },
  )
}
