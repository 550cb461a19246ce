// On a real toolkit: Tk draws a button in its activebackground while the pointer rests on it. A
// person rests on the button before clicking, so the frame just before the click shows it highlighted; the element
// crop must show the button as the replay will see it, with the pointer elsewhere. The program is Debian's own Tk
// demo `hello` (tk8.6-doc), unchanged; the click is real XTest input (xdotool) recorded by `qa record desktop`.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  closeNut,
  cropFrame,
  decodeImage,
  framesEqual,
  nutScreen,
  startXvfb,
  type VirtualDisplay,
} from '@qa/recorder-desktop'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin } from '../__tests__/run-cli'

const HELLO = '/usr/share/doc/tk8.6-doc/demos/hello'
const run = promisify(execFile)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let xvfb: VirtualDisplay
let dir: string
beforeAll(async () => {
  xvfb = await startXvfb({ width: 640, height: 480 })
  process.env.DISPLAY = xvfb.display
  dir = mkdtempSync(join(tmpdir(), 'qa-record-hover-'))
})
afterAll(async () => {
  await closeNut()
  await xvfb?.stop()
})

describe('qa record desktop on a Tk button that highlights on hover', () => {
  it('cuts the element crop from the frame before the pointer arrived, not from the highlighted one', async () => {
    const env = { ...process.env, DISPLAY: xvfb.display }
    const xdo = (...args: string[]) => run('xdotool', args, { env })
    await xdo('mousemove', '600', '450')
    const hello: ChildProcess = spawn('wish', [HELLO], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let printed = ''
    hello.stdout?.on('data', (d) => {
      printed += d
    })
    // the window without a window manager sits at 0,0; its button fills it
    let geometry: RegExpExecArray | null = null
    for (let i = 0; i < 50 && !geometry; i++) {
      await sleep(200)
      const { stdout } = await run('xwininfo', ['-root', '-tree'], { env })
      geometry = /"hello": \(.*?\)\s+(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)/.exec(stdout)
    }
    if (!geometry) throw new Error('the hello demo did not open its window')
    const [w, h, x, y] = geometry.slice(1).map(Number) as [number, number, number, number]
    const centre = { x: x + Math.floor(w / 2), y: y + Math.floor(h / 2) }
    const idle = await nutScreen().capture()

    const casePath = join(dir, 'hello.json')
    const rec = spawn(process.execPath, [bin, 'record', 'desktop', '--out', casePath], {
      env: { ...env, NO_COLOR: '1', QA_VISION: 'ocr' },
    })
    let stderr = ''
    const exited = new Promise<number | null>((r) => rec.once('close', r))
    await new Promise<void>((resolve) =>
      rec.stderr.on('data', (d) => {
        stderr += d
        if (stderr.includes('Recording on')) resolve()
      }),
    )
    // the pointer comes from elsewhere on the screen (a real mouse reports its way there; xdotool jumps)
    await xdo('mousemove', '600', '450')
    await sleep(400)
    await xdo('mousemove', String(centre.x), String(centre.y))
    await sleep(500) // resting on the button: Tk draws it in its activebackground
    const hovered = await nutScreen().capture()
    await xdo('click', '1')
    await sleep(800)
    await xdo('key', 'F10')
    expect(await exited, stderr).toBe(0)
    expect(printed).toContain('Hello, world') // the program got the click

    const action = JSON.parse(readFileSync(casePath, 'utf8')).actions[0]
    const box = action.element_crop_box as { x: number; y: number; width: number; height: number }
    const crop = await decodeImage(join(dir, action.element_crop_path))
    // the toolkit really highlights: the same box differs between the idle and the hovered screen
    expect(framesEqual(cropFrame(idle, box), cropFrame(hovered, box))).toBe(false)
    expect(framesEqual(crop, cropFrame(idle, box))).toBe(true)
    // the before-screenshot stays the screen the click acted on: the highlighted button
    const before = await decodeImage(join(dir, action.screenshot_before_path))
    expect(framesEqual(cropFrame(before, box), cropFrame(hovered, box))).toBe(true)
  })
})
