import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DesktopError } from './errors'

export interface VirtualDisplay {
  /** e.g. `:93` */
  readonly display: string
  /**
   * Stops the server. `deferToExit`: stop it when this process exits instead — needed once a native module
   * (libuiohook) holds an X connection it never closes, because Xlib exits the process when the server goes away.
   */
  stop(opts?: { deferToExit?: boolean }): Promise<void>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function stopChild(child: ChildProcess, timeoutMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
    }, timeoutMs)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/**
 * Starts Xvfb on a free display number with the RECORD extension (uiohook needs XRecord) and waits for it.
 * Used by the e2e tests, the demo and the benchmark.
 */
export async function startXvfb(
  opts: {
    width?: number
    height?: number
    first?: number
    /** With the RECORD extension (default true; false starts a server the recorder must refuse). */
    record?: boolean
  } = {},
): Promise<VirtualDisplay> {
  const width = opts.width ?? 1280
  const height = opts.height ?? 720
  for (let n = opts.first ?? 90 + Math.floor(Math.random() * 100); n < 400; n++) {
    if (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) continue
    let child: ChildProcess
    try {
      child = spawn(
        'Xvfb',
        [
          `:${n}`,
          '-screen',
          '0',
          `${width}x${height}x24`,
          opts.record === false ? '-extension' : '+extension',
          'RECORD',
          '-nolisten',
          'tcp',
          '-noreset',
        ],
        {
          stdio: 'ignore',
        },
      )
    } catch (cause) {
      throw new DesktopError('DESKTOP_NO_DISPLAY', 'Xvfb could not be started.', {
        hint: 'Install it with `apt-get install xvfb`.',
        cause,
      })
    }
    const failed = new Promise<string>((resolve) => {
      child.once('error', (e) => resolve((e as NodeJS.ErrnoException).code ?? e.message))
      child.once('exit', (code) => resolve(`exit ${code}`))
    })
    let why: string | null = null
    void failed.then((w) => {
      why = w
    })
    for (let i = 0; i < 100 && !why; i++) {
      if (existsSync(`/tmp/.X11-unix/X${n}`)) {
        const kill = () => child.kill('SIGTERM')
        process.once('exit', kill)
        return {
          display: `:${n}`,
          stop: async (o) => {
            if (o?.deferToExit) return
            process.off('exit', kill)
            await stopChild(child)
          },
        }
      }
      await sleep(50)
    }
    await stopChild(child)
    if (why === 'ENOENT')
      throw new DesktopError('DESKTOP_NO_DISPLAY', 'Xvfb is not installed.', {
        hint: 'Install it with `apt-get install xvfb`.',
      })
  }
  throw new DesktopError('DESKTOP_NO_DISPLAY', 'No free X display number was found for Xvfb.')
}

export interface AppWindow {
  close(): Promise<void>
}

/** Opens a URL in Chromium's app mode (no browser UI) at 0,0 on the given display, with a fresh profile. */
export async function openAppWindow(opts: {
  url: string
  display: string
  width: number
  height: number
  executablePath?: string
}): Promise<AppWindow> {
  const profile = await mkdtemp(join(tmpdir(), 'qa-chromium-'))
  const exe = opts.executablePath ?? '/usr/bin/chromium'
  const child = spawn(
    exe,
    [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-dev-shm-usage',
      '--test-type',
      '--disable-translate',
      '--disable-features=Translate,TranslateUI,MediaRouter',
      '--password-store=basic',
      '--force-device-scale-factor=1',
      '--hide-scrollbars',
      `--user-data-dir=${profile}`,
      // the display by flag (it wins over the inherited DISPLAY)
      `--display=${opts.display}`,
      `--app=${opts.url}`,
      '--window-position=0,0',
      `--window-size=${opts.width},${opts.height}`,
    ],
    { stdio: 'ignore' },
  )
  const spawned = await new Promise<Error | null>((resolve) => {
    child.once('error', resolve)
    child.once('spawn', () => resolve(null))
  })
  if (spawned)
    throw new DesktopError('DESKTOP_GAME_FAILED', `Chromium could not be started (${exe}).`, {
      hint: 'Install it with `apt-get install chromium`, or set QA_CHROMIUM.',
      cause: spawned,
    })
  return {
    async close() {
      await stopChild(child)
      await rm(profile, { recursive: true, force: true }).catch(() => undefined)
    },
  }
}
