// The window prior's X side, on a real X server (Xvfb) with a real program (Debian's xmessage, class Xmessage):
// the window under a point, and the same program's window found again after it moved. Places come from the
// program's own -geometry, sizes from xwininfo, never from the code under test.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openWindowLocator, type WindowLocator } from './x11-windows'
import { startXvfb, type VirtualDisplay } from './xvfb'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let xvfb: VirtualDisplay
let windows: WindowLocator
const programs: ChildProcess[] = []

/** Starts xmessage at a place, with a title, and waits until xwininfo sees its window; returns its box as xwininfo gives it. */
async function xmessage(
  place: string,
  title: string,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const child = spawn('xmessage', ['-geometry', place, '-title', title, '-buttons', 'One,Two', 'hello'], {
    env: { ...process.env, DISPLAY: xvfb.display },
    stdio: 'ignore',
  })
  programs.push(child)
  for (let i = 0; i < 50; i++) {
    await sleep(100)
    const info = await new Promise<string>((resolve) =>
      execFile('xwininfo', ['-display', xvfb.display, '-name', title], (err, out) => resolve(err ? '' : out)),
    )
    const [x, y, width, height] = [/upper-left X: +(\d+)/, /upper-left Y: +(\d+)/, /Width: (\d+)/, /Height: (\d+)/].map(
      (re) => re.exec(info)?.[1],
    )
    if (x && y && width && height) return { x: Number(x), y: Number(y), width: Number(width), height: Number(height) }
  }
  throw new Error(`xmessage "${title}" did not appear`)
}

async function stopAll() {
  for (const p of programs.splice(0)) {
    const gone = new Promise((r) => p.once('exit', r))
    p.kill('SIGTERM')
    await gone
  }
}

describe.runIf(process.env.QA_TEST_E2E === '1')('the program window under a click, and found again (X11)', () => {
  beforeAll(async () => {
    xvfb = await startXvfb({ width: 800, height: 600 })
    const opened = await openWindowLocator(xvfb.display)
    if (!opened) throw new Error('the X client could not connect')
    windows = opened
  })
  afterAll(async () => {
    await stopAll()
    await windows?.close()
    await xvfb?.stop()
  })

  it('names the window under a point with its place, size and class, and nothing over the bare root', async () => {
    const box = await xmessage('+100+80', 'probe-one')
    expect([box.x, box.y]).toEqual([100, 80])
    const at = await windows.windowAt(100 + 10, 80 + 10)
    expect(at).toEqual({ box, className: 'Xmessage', title: 'probe-one' })
    expect(await windows.windowAt(5, 590)).toBeNull()
    await stopAll()
  })

  it('finds the same program after it moved, and refuses to choose between two alike', async () => {
    const was = await xmessage('+100+80', 'probe-two')
    const recorded = await windows.windowAt(110, 90)
    expect(recorded?.box).toEqual(was)
    await stopAll()
    const now = await xmessage('+300+200', 'probe-two')
    expect([now.x, now.y]).toEqual([300, 200])
    expect(await windows.find(recorded as NonNullable<typeof recorded>)).toEqual(now)
    // another xmessage with another title: the recorded title tells them apart
    await xmessage('+20+20', 'another')
    expect(await windows.find(recorded as NonNullable<typeof recorded>)).toEqual(now)
    // two with the recorded title: nothing tells which one, no prior
    await xmessage('+400+300', 'probe-two')
    expect(await windows.find(recorded as NonNullable<typeof recorded>)).toBeNull()
    // a program that is not running: no window
    expect(await windows.find({ box: { x: 0, y: 0, width: 10, height: 10 }, className: 'NoSuchProgram' })).toBeNull()
  })
})
