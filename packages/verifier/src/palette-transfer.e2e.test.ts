// Palette transfer on real screens: a small Tk form (Debian's wish) on its own Xvfb, recorded in Tk's default
// palette and replayed under `tk_setPalette #30475e` (the desktop bench's `colours` variant). The screens are
// read from Xvfb's own framebuffer (`-fbdir`, an XWD file), so every pixel is what the X server drew: Xft's
// antialiased text, Tk's relief and focus ring.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Rect } from './compare-screenshots'
import type { RawFrame } from './decode-screenshot'
import { assessExpectedChange } from './expected-change'
import { verifyStep } from './verify-step'

const WIDTH = 360
const HEIGHT = 200
const FORM_TCL = `
if {[lindex $argv 0] ne ""} { tk_setPalette [lindex $argv 0] }
wm geometry . +20+20
label .l1 -text "Name:"
entry .e1 -width 16 -insertofftime 0
label .l2 -text "Phone:"
entry .e2 -width 16 -insertofftime 0
button .add -text "Add card"
grid .l1 .e1 -padx 6 -pady 6 -sticky w
grid .l2 .e2 -padx 6 -pady 6 -sticky w
grid .add - -pady 6
proc box {w} { return "[winfo rootx $w] [winfo rooty $w] [winfo width $w] [winfo height $w]" }
proc settle {} { update; after 300; update }
settle
puts "ready [box .e1] [box .e2]"
flush stdout
fileevent stdin readable {
  if {[gets stdin line] < 0} { exit }
  lassign $line widget text
  focus -force $widget
  $widget insert end $text
  settle
  puts done
  flush stdout
}
`

let dir: string
let xvfb: ChildProcess
let display: string

/** Starts Xvfb on a display number it picks itself (-displayfd), drawing into an XWD file in `dir`. */
async function startXvfb(): Promise<void> {
  xvfb = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', `${WIDTH}x${HEIGHT}x24`, '-fbdir', dir, '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] },
  )
  const fd = xvfb.stdio[3] as NodeJS.ReadableStream
  display = await new Promise<string>((resolve, reject) => {
    let text = ''
    fd.on('data', (chunk) => {
      text += String(chunk)
      if (text.includes('\n')) resolve(`:${text.trim()}`)
    })
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)))
  })
}

/** The screen as the X server holds it: Xvfb's framebuffer file (XWD, 32 bits per pixel), as RGBA. */
function captureScreen(): RawFrame & { channels: 4 } {
  const file = readFileSync(join(dir, 'Xvfb_screen0'))
  const u32 = (i: number) => file.readUInt32BE(i * 4)
  const [headerSize, width, height, byteOrder, bitsPerPixel, bytesPerLine] = [0, 4, 5, 7, 11, 12].map(u32) as number[]
  const [redMask, greenMask, blueMask, colours] = [14, 15, 16, 19].map(u32) as number[]
  if (bitsPerPixel !== 32) throw new Error(`captureScreen: ${bitsPerPixel} bits per pixel`)
  const shift = (mask: number) => Math.log2(mask & -mask)
  const start = (headerSize as number) + (colours as number) * 12
  const data = new Uint8Array((width as number) * (height as number) * 4)
  for (let y = 0; y < (height as number); y++)
    for (let x = 0; x < (width as number); x++) {
      const at = start + y * (bytesPerLine as number) + x * 4
      const v = byteOrder === 0 ? file.readUInt32LE(at) : file.readUInt32BE(at)
      const p = (y * (width as number) + x) * 4
      data[p] = (v & (redMask as number)) >>> shift(redMask as number)
      data[p + 1] = (v & (greenMask as number)) >>> shift(greenMask as number)
      data[p + 2] = (v & (blueMask as number)) >>> shift(blueMask as number)
      data[p + 3] = 255
    }
  return { width: width as number, height: height as number, channels: 4, data }
}

interface FormRun {
  before: RawFrame & { channels: 4 }
  after: RawFrame & { channels: 4 }
  name: Rect
  phone: Rect
}

/** Starts the form (in `palette`, or Tk's default), types `text` into `widget`, captures before and after. */
async function runForm(palette: string, widget: '.e1' | '.e2', text: string): Promise<FormRun> {
  const script = join(dir, 'form.tcl')
  writeFileSync(script, FORM_TCL)
  const wish = spawn('wish', [script, palette], { env: { ...process.env, DISPLAY: display } })
  const lines = createInterface({ input: wish.stdout })[Symbol.asyncIterator]()
  const next = async () => String((await lines.next()).value ?? '')
  try {
    const ready = (await next()).split(' ').slice(1).map(Number)
    const rect = (o: number): Rect => ({
      x: ready[o] as number,
      y: ready[o + 1] as number,
      width: ready[o + 2] as number,
      height: ready[o + 3] as number,
    })
    const before = captureScreen()
    wish.stdin.write(`${widget} {${text}}\n`)
    expect(await next()).toBe('done')
    return { before, after: captureScreen(), name: rect(0), phone: rect(4) }
  } finally {
    wish.kill()
    await new Promise((r) => wish.once('exit', r))
  }
}

const DARK = '#30475e'
let recorded: FormRun
let replayed: FormRun
let wrongField: FormRun
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'qa-palette-'))
  await startXvfb()
  recorded = await runForm('', '.e1', 'Ada Lovelace')
  replayed = await runForm(DARK, '.e1', 'Ada Lovelace')
  wrongField = await runForm(DARK, '.e2', 'Ada Lovelace')
})
afterAll(async () => {
  if (xvfb && xvfb.exitCode === null) {
    xvfb.kill()
    await new Promise((r) => xvfb.once('exit', r))
  }
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const step = (actual: FormRun) => ({
  actionIndex: 1,
  description: 'Type "Ada Lovelace"',
  expected: recorded.after,
  recordedBefore: recorded.before,
  actualBefore: actual.before,
  actual: actual.after,
  targetBox: recorded.name,
})

describe('typing into a Tk form recorded in the default palette, replayed under tk_setPalette', () => {
  it('compared as recorded, every pixel of the new palette differs: the right step would not pass', () => {
    const r = assessExpectedChange({
      recordedBefore: recorded.before,
      recordedAfter: recorded.after,
      actualAfter: replayed.after,
      targetBox: recorded.name,
    })
    expect(r.palette).toBeNull()
    expect(r.regionSimilarity).toBeLessThan(0.5)
  })

  it('the right step passes through the palette learned from the screen before it', async () => {
    const result = await verifyStep(step(replayed))
    expect(result.details?.region).toMatchObject({ palette: { applied: true } })
    expect(result.regionSimilarity).toBeGreaterThanOrEqual(0.95)
    expect(result.finalResult).toBe('pass')
    expect(result.reason).toMatch(/Compared after the palette change \(\d+ colours mapped/)
  })

  it('the text typed into the other field under the new palette fails', async () => {
    const result = await verifyStep(step(wrongField))
    expect(result.details?.region).toMatchObject({ palette: { applied: true } })
    expect(result.finalResult).toBe('fail')
  })

  it('the same palette is compared as it is', () => {
    const r = assessExpectedChange({
      recordedBefore: recorded.before,
      recordedAfter: recorded.after,
      actualBefore: recorded.before,
      actualAfter: recorded.after,
      targetBox: recorded.name,
    })
    expect(r.palette?.applied).toBe(false)
    expect(r.regionSimilarity).toBe(1)
  })
})
