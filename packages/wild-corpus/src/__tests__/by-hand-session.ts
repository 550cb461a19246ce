/** What the by-hand recording e2e files share: their X session, the CLI, and helpers to read what they saved. */
import { type ChildProcess, execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { decodeFrame, openBrowser } from '@qa/recorder-cdp'
import { startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { type Browser, chromium, type Locator } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import {
  createHandInput,
  type HandInput,
  type HandRecording,
  probeToolbarLayout,
  startRecordingByHand,
} from './hand-input'
import { runCli } from '../run-cli'

export const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../apps/cli/bin/qa.js')
export const VIEWPORT = { width: 1280, height: 720 }
export const CHROMIUM = process.env.QA_CHROMIUM ?? '/usr/bin/chromium'
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/**
 * Waits for something the test needs to have happened (a request served, a step saved): polls, and fails naming
 * it only when it never happens. An event wait, not a time limit: a slow machine only makes it wait longer.
 */
export async function until(what: string, happened: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await happened()) return
    await sleep(100)
  }
  throw new Error(`waited a minute for ${what}`)
}
export const run = promisify(execFile)

export let xvfb: VirtualDisplay
export let dir: string
export let probe: Browser
/**
 * Real X input on `xvfb` (quick clicks, a 700 ms pause after each; Hangul pasted); its origin, where the page's
 * viewport (0, 0) is on the screen, is measured once with a window the recorder's code opens.
 */
export let hand: HandInput
export const started: ChildProcess[] = []
export const savedDisplay = process.env.DISPLAY

export const centre = async (l: Locator) => {
  const b = await l.boundingBox()
  if (!b) throw new Error('a target is not visible in the probe page')
  return { x: b.x + b.width / 2, y: b.y + b.height / 2, box: b }
}

/**
 * The session every by-hand file shares: a virtual display of its own (DISPLAY points at it while the file runs),
 * a probe browser, and real X input whose origin is measured once with a window as the recorder opens it.
 */
export function useHandSession(): void {
  beforeAll(async () => {
    xvfb = await startXvfb({ width: 1400, height: 1000 })
    process.env.DISPLAY = xvfb.display
    dir = await mkdtemp(join(tmpdir(), 'qa-by-hand-'))
    probe = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
    hand = createHandInput({ display: xvfb.display })
    // Calibrate: a headed window as openBrowser opens it (the command's window is the same), clicked by X.
    const w = await openBrowser({ headless: false, executablePath: CHROMIUM, handleSignals: false })
    try {
      await hand.measureOrigin(w.page)
    } finally {
      await w.close()
    }
  })

  afterAll(async () => {
    for (const child of started)
      if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, 'SIGKILL')
    await probe?.close()
    await xvfb?.stop()
    if (savedDisplay === undefined) delete process.env.DISPLAY
    else process.env.DISPLAY = savedDisplay
    if (dir) await rm(dir, { recursive: true, force: true })
  })
}

/** Starts `qa record web <url> --out <file>` (no --script: by hand) and waits until the window is recording. */
export async function startRecording(url: string, out: string, extra: string[] = []): Promise<HandRecording> {
  const rec = await startRecordingByHand(CLI, ['web', url, '--out', out, ...extra], {
    cwd: dir,
    display: xvfb.display,
    started,
  })
  expect(rec.stderr(), rec.stdout()).toMatch(/Recording in the browser window/)
  await sleep(500)
  return rec
}

export interface SavedCase {
  json: string
  actions: {
    action_type: string
    text?: string
    key?: string
    secret_env?: string
    description: string
    screenshot_before_path?: string
    screenshot_path?: string
    identity?: { tag_name?: string; ax_role?: string; ax_name?: string }
  }[]
}
export const readCase = async (file: string): Promise<SavedCase> => {
  const json = await readFile(file, 'utf8')
  return { json, actions: JSON.parse(json).actions }
}
export const qa = (args: string[], env: Record<string, string> = {}) => {
  const old = { ...process.env }
  Object.assign(process.env, env)
  const p = runCli(CLI, args, dir)
  process.env = old
  return p
}

/** The distinct RGB colours inside a box of a PNG (inset by 3 px from its border). */
export async function coloursIn(png: string, box: { x: number; y: number; width: number; height: number }) {
  const f = await decodeFrame(png)
  const colours = new Set<number>()
  for (let y = Math.ceil(box.y) + 3; y < Math.floor(box.y + box.height) - 3; y++)
    for (let x = Math.ceil(box.x) + 3; x < Math.floor(box.x + box.width) - 3; x++) {
      const i = (y * f.width + x) * 4
      colours.add(((f.data[i] as number) << 16) | ((f.data[i + 1] as number) << 8) | (f.data[i + 2] as number))
    }
  return [...colours]
}

export async function restAt(p: { x: number; y: number }, restMs = 700): Promise<void> {
  await hand.moveTo(p, { steps: [0.25, 0.5, 0.75, 1], stepMs: 40 })
  await sleep(restMs)
}

export async function toolbarLayout(): Promise<{
  buttons: Record<string, { x: number; y: number }>
  editor: Record<string, { x: number; y: number }>
}> {
  const probePage = await probe.newPage({ viewport: VIEWPORT })
  try {
    const { buttons, editor } = await probeToolbarLayout(probePage, '3 items')
    expect(Object.keys(buttons)).toEqual(['Assert visible', 'Assert text', 'Assert value', 'Stop'])
    expect(Object.keys(editor)).toEqual(['equals', 'contains', 'Add', 'Cancel', 'Stop'])
    return { buttons, editor }
  } finally {
    await probePage.close()
  }
}
