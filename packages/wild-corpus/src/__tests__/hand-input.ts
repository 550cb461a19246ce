/**
 * A person's hands on a display of our own, as real X input (xdotool): the mouse travels in a few moves, quick
 * clicks with no hold, typing with Hangul pasted, key presses and a person's pauses; `qa record web` started by hand
 * and stopped with Ctrl-C as a terminal sends it. Shared by the by-hand e2e tests and `bench/daily-loop`; not part
 * of the package's surface.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { promisify } from 'node:util'
import { installRecorderToolbarInPage, TOOLBAR_BINDING, TOOLBAR_TAG } from '@qa/recorder-cdp'
import { setClipboard } from '@qa/recorder-desktop'
import type { Page } from 'playwright-core'

export type Point = { x: number; y: number }

const run = promisify(execFile)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** How the pointer travels: the fractions of the way it moves in, and the pause after each move. */
export interface TravelOptions {
  steps?: readonly number[]
  stepMs?: number
}

export interface HandInputOptions {
  /** The X display the hands work on (`:99`). */
  display: string
  travel?: TravelOptions
  /** The pause after a click, when `clickAt` is given none. */
  clickPauseMs?: number
  /** xdotool's delay between typed keys. */
  typeDelayMs?: number
  /** The pause after a paste (Ctrl+V) of Hangul. */
  pasteMs?: number
  /** The pause after typing a text. */
  afterTypingMs?: number
  /** The pause after a key press, when `pressKey` is given none. */
  keyPauseMs?: number
}

export interface HandInput {
  readonly display: string
  /** Where the page's viewport (0, 0) is on the screen: points given to the hands are in viewport pixels. */
  origin: Point
  /** Runs xdotool on the display; its trimmed output. */
  xdo(...args: string[]): Promise<string>
  /** The pointer travels to a viewport point in a few moves, as a hand moves it (no click). */
  moveTo(p: Point, travel?: TravelOptions): Promise<void>
  /** A person's click: the pointer travels there, then a quick click with no hold, then a pause (0: type at once). */
  clickAt(p: Point, pauseMs?: number): Promise<void>
  /**
   * Real key presses; Hangul is pasted (Ctrl+V) as the desktop recorder's replay types it: xdotool maps characters
   * outside the keymap to a spare keycode, and Chromium keeps the first mapping, so "관리자" would arrive as "관관관".
   */
  typeText(text: string): Promise<void>
  pressKey(key: string, pauseMs?: number): Promise<void>
  /**
   * Measures `origin` with a click by X on a page of the window the hands will work in (its content is replaced):
   * the page's own pointerdown says where its viewport is on the screen.
   */
  measureOrigin(page: Page, timeoutMs?: number): Promise<Point>
}

export function createHandInput(opts: HandInputOptions): HandInput {
  const { display, clickPauseMs = 700, typeDelayMs = 60, pasteMs = 400, afterTypingMs = 500, keyPauseMs = 1200 } = opts
  const travel = { steps: [0.3, 0.7, 1], stepMs: 0, ...opts.travel }
  const xdo = async (...args: string[]) =>
    (await run('xdotool', args, { env: { ...process.env, DISPLAY: display } })).stdout.trim()
  const hand: HandInput = {
    display,
    origin: { x: 0, y: 0 },
    xdo,
    async moveTo(p, how) {
      const { steps, stepMs } = { ...travel, ...how }
      const to = { x: Math.round(hand.origin.x + p.x), y: Math.round(hand.origin.y + p.y) }
      const from = (await xdo('getmouselocation', '--shell')).match(/X=(\d+)\nY=(\d+)/)
      const [fx, fy] = from ? [Number(from[1]), Number(from[2])] : [0, 0]
      let at = { x: fx, y: fy }
      for (const f of steps) {
        const next = { x: Math.round(fx + (to.x - fx) * f), y: Math.round(fy + (to.y - fy) * f) }
        // `--sync` waits for the pointer to move: never ask it to move where it already is
        if (next.x !== at.x || next.y !== at.y) await xdo('mousemove', '--sync', String(next.x), String(next.y))
        at = next
        if (stepMs > 0) await sleep(stepMs)
      }
    },
    async clickAt(p, pauseMs = clickPauseMs) {
      await hand.moveTo(p)
      await xdo('click', '1')
      await sleep(pauseMs)
    },
    async typeText(text) {
      for (const part of text.match(/[\x20-\x7e]+|[^\x20-\x7e]+/gu) ?? []) {
        if (/^[\x20-\x7e]+$/.test(part)) await xdo('type', '--delay', String(typeDelayMs), part)
        else {
          await setClipboard(part)
          await xdo('key', 'ctrl+v')
          await sleep(pasteMs)
        }
      }
      await sleep(afterTypingMs)
    },
    async pressKey(key, pauseMs = keyPauseMs) {
      await xdo('key', key)
      await sleep(pauseMs)
    },
    async measureOrigin(page, timeoutMs = 10_000) {
      await page.setContent('<body style="margin:0;height:100vh"></body>')
      await page.evaluate(() => {
        addEventListener('pointerdown', (e) => {
          ;(window as unknown as { hit: number[] }).hit = [e.screenX - e.clientX, e.screenY - e.clientY]
        })
      })
      await xdo('mousemove', '--sync', '400', '400')
      await xdo('click', '1')
      const t0 = Date.now()
      let hit: number[] | undefined
      while (!hit && Date.now() - t0 < timeoutMs) {
        await sleep(50)
        hit = await page.evaluate(() => (window as unknown as { hit?: number[] }).hit)
      }
      if (!hit) throw new Error('the calibration click did not reach the page')
      hand.origin = { x: hit[0] as number, y: hit[1] as number }
      return hand.origin
    },
  }
  return hand
}

export interface HandRecording {
  child: ChildProcess
  stdout(): string
  stderr(): string
  exited: Promise<number>
  /** Whether the command said it is recording (before it exited or `maxWaitMs` passed). */
  recording: boolean
  /** Ctrl-C as a terminal sends it: SIGINT to the command's whole process group. */
  interrupt(): void
}

export interface StartRecordingOptions {
  cwd: string
  /** The display its window opens on (default: this process's `DISPLAY`). */
  display?: string
  /** How long to wait for "Recording in the browser window"; Infinity: until the command says it or exits. */
  maxWaitMs?: number
  /** The child is pushed here as soon as it is spawned, for an `afterAll` to kill what is left. */
  started?: ChildProcess[]
}

/**
 * Starts `qa record <args>` (no --script: by hand) in a process group of its own and waits until the window is
 * recording, the command exits, or `maxWaitMs` passes; `recording` says which.
 */
export async function startRecordingByHand(
  cli: string,
  args: string[],
  opts: StartRecordingOptions,
): Promise<HandRecording> {
  const child = spawn(process.execPath, [cli, 'record', ...args], {
    cwd: opts.cwd,
    ...(opts.display ? { env: { ...process.env, DISPLAY: opts.display } } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  opts.started?.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => {
    stdout += d
  })
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  const exited = new Promise<number>((r) => child.on('close', (code) => r(code ?? -1)))
  const started = () => /Recording in the browser window/.test(stderr)
  const tries = (opts.maxWaitMs ?? 30_000) / 100
  for (let i = 0; i < tries && !started() && child.exitCode === null; i++) await sleep(100)
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    recording: started(),
    interrupt: () => {
      if (child.pid) process.kill(-child.pid, 'SIGINT')
    },
  }
}

/** Where the recorder toolbar's buttons are (centres, viewport pixels), by their text. */
export interface ToolbarLayout {
  buttons: Record<string, Point>
  /** With the text editor open (Assert text, a pick): its buttons, Add among them; `buttons` when it has none. */
  editor: Record<string, Point>
}

/**
 * Where the recorder toolbar's buttons are in a viewport of `page`'s size: the same toolbar in a probe page (its
 * shadow root opened; the page's content is replaced), as it starts and with its editor open on `sampleText`.
 */
export async function probeToolbarLayout(page: Page, sampleText: string): Promise<ToolbarLayout> {
  await page.setContent('<body></body>')
  await page.evaluate(() => {
    const attach = Element.prototype.attachShadow
    Element.prototype.attachShadow = function (init) {
      return attach.call(this, { ...init, mode: 'open' })
    }
  })
  await page.evaluate(installRecorderToolbarInPage, { binding: TOOLBAR_BINDING, tag: TOOLBAR_TAG })
  const visibleButtons = () =>
    page.evaluate((tag) => {
      const root = document.querySelector(tag)?.shadowRoot
      return Object.fromEntries(
        Array.from(root?.querySelectorAll('button') ?? [])
          .filter((b) => b.getClientRects().length > 0)
          .map((b) => {
            const r = b.getBoundingClientRect()
            return [b.textContent?.trim() ?? '', { x: r.left + r.width / 2, y: r.top + r.height / 2 }]
          }),
      )
    }, TOOLBAR_TAG)
  const buttons = await visibleButtons()
  // the editor a text pick opens: Assert text, a click on the page, the editor as Node opens it
  const assertText = buttons['Assert text']
  if (assertText) {
    await page.mouse.click(assertText.x, assertText.y)
    await page.mouse.click(100, 100)
    await page.evaluate(
      (request) =>
        (window as unknown as Record<symbol, (r: unknown) => void>)[Symbol.for('qa.recorderToolbar.edit')]?.(request),
      { id: 1, assert: 'text', expected: sampleText, op: 'equals' },
    )
  }
  return { buttons, editor: await visibleButtons() }
}

export interface OwnChromiumOptions {
  executablePath: string
  display: string
  /** The person's profile folder. */
  profile: string
  port: number
  /** The tabs it opens with, the last one in front. */
  urls: string[]
  /** More switches (a window's place and size). */
  args?: string[]
  /** How long to wait for its DevTools endpoint; Infinity: until it answers. */
  maxWaitMs?: number
  /** The child is pushed here as soon as it is spawned. */
  started?: ChildProcess[]
}

/**
 * The person's own running Chromium on the display (their profile, their tabs), with a DevTools port for
 * `qa record web --cdp` to attach to; waits until the endpoint answers. `cdpUrl`: `http://127.0.0.1:<port>`.
 */
export async function startOwnChromium(opts: OwnChromiumOptions): Promise<{ child: ChildProcess; cdpUrl: string }> {
  const child = spawn(
    opts.executablePath,
    [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      ...(opts.args ?? []),
      `--user-data-dir=${opts.profile}`,
      `--remote-debugging-port=${opts.port}`,
      ...opts.urls,
    ],
    { stdio: 'ignore', env: { ...process.env, DISPLAY: opts.display } },
  )
  opts.started?.push(child)
  const cdpUrl = `http://127.0.0.1:${opts.port}`
  const tries = (opts.maxWaitMs ?? 10_000) / 100
  for (let i = 0; i < tries; i++) {
    const up = await fetch(`${cdpUrl}/json/version`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    await sleep(100)
  }
  return { child, cdpUrl }
}
