// Typing is recorded and replayed exactly into a real text field, Shift and AltGr included.
// Under Xvfb (its default US layout, then a German one set with setxkbmap), a Tk program (Debian's `wish`) with a
// text field writes the field's value to a file on every change; the test reads that file, never what the
// replayer reports. A person's key strokes are raw XTEST key events by keycode (the physical keys: right Alt,
// Q), sent by this test over its own X connection, recorded by the uiohook hook.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CURRENT_FORMAT_VERSION, type TestCase } from '@qa/model'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createActionCoalescer } from './coalesce-actions'
import { replayDesktopCase } from './desktop-replayer'
import type { InputEvent } from './input-event'
import { type DesktopSession, openDesktop } from './open-desktop'
import { startXvfb, type VirtualDisplay } from './xvfb'

const KEYPAD = join(__dirname, '../test/fixtures/keypad.tcl')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let xvfb: VirtualDisplay
let desktop: DesktopSession
let dir: string
let app: ChildProcess | null = null
let valueFile = ''

/** Starts the program with an empty, focused text field. */
async function startField(name: string) {
  if (app) {
    const gone = new Promise((r) => app?.once('exit', r))
    app.kill('SIGTERM')
    await gone
  }
  valueFile = join(dir, `${name}.txt`)
  const child = spawn('wish', [KEYPAD, valueFile], { env: { ...process.env, DISPLAY: xvfb.display } })
  app = child
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.once('error', reject)
    child.stdout?.on('data', (d) => {
      out += d
      if (/^ready$/m.test(out)) resolve()
    })
  })
}

/** The field's value once it stops changing. */
async function fieldValue(): Promise<string> {
  let last = ''
  for (let i = 0; i < 20; i++) {
    await sleep(150)
    const now = await readFile(valueFile, 'utf8')
    if (now === last && i > 1) return now
    last = now
  }
  return last
}

function typingCase(text: string): TestCase {
  return {
    name: 'typing',
    version: CURRENT_FORMAT_VERSION,
    platform: 'desktop',
    actions: [{ timestamp: 0, actionType: 'type', x: 0, y: 0, text, description: 'type' }],
  }
}

/** Sets the display's keyboard layout as a person does (`setxkbmap de`). */
const setLayout = (layout: string) =>
  new Promise<void>((resolve, reject) =>
    execFile('setxkbmap', [layout], { env: { ...process.env, DISPLAY: xvfb.display } }, (e) =>
      e ? reject(e) : resolve(),
    ),
  )

/** A person's fingers: each chord (X keycodes, held in order, released in reverse) as raw XTEST key events. */
async function pressKeys(chords: number[][]): Promise<void> {
  type XTest = { KeyPress: number; KeyRelease: number; FakeInput(...args: number[]): void }
  type XClient = {
    require(ext: string, cb: (e: unknown, t: XTest) => void): void
    GetInputFocus(cb: (e: unknown) => void): void
    terminate(): void
  }
  type Connected = { client: XClient; screen: { root: number }[] }
  const x11 = createRequire(import.meta.url)('x11') as {
    createClient(o: { display: string }, cb: (err: unknown, d: Connected) => void): void
  }
  await new Promise<void>((resolve, reject) => {
    x11.createClient({ display: xvfb.display }, (err, d) => {
      if (err) return reject(err)
      const X = d.client
      X.require('xtest', async (e, t) => {
        if (e) return reject(e)
        const root = d.screen[0]?.root ?? 0
        for (const chord of chords) {
          for (const k of chord) t.FakeInput(t.KeyPress, k, 0, root, 0, 0)
          for (const k of [...chord].reverse()) t.FakeInput(t.KeyRelease, k, 0, root, 0, 0)
          await new Promise((r) => X.GetInputFocus(r)) // a person's keys come one after the other
          await sleep(15)
        }
        X.terminate()
        resolve()
      })
    })
  })
}

const PRINTABLE_ASCII = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i)).join('')

beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600 })
  process.env.DISPLAY = xvfb.display
  dir = await mkdtemp(join(tmpdir(), 'qa-typing-e2e-'))
  desktop = await openDesktop({ DISPLAY: xvfb.display })
})

afterAll(async () => {
  if (app) {
    const gone = new Promise((r) => app?.once('exit', r))
    app.kill('SIGTERM')
    await gone
  }
  await desktop?.close()
  await xvfb?.stop({ deferToExit: true }) // libuiohook keeps an X connection; Xlib exits the process if the server goes first
  await rm(dir, { recursive: true, force: true })
})

describe('typing on replay into a real text field (Tk entry under Xvfb)', () => {
  it.each([
    ['a formula with shifted symbols', '7*3=(1+2)'],
    ['the shifted symbols of a US keyboard', '!@#$%^&*()_+{}|:"<>?~'],
    ['the full printable ASCII set', PRINTABLE_ASCII],
  ])('%s arrives exactly', async (name, text) => {
    await startField(name.replace(/\W+/g, '-'))
    const out = await replayDesktopCase(typingCase(text), {
      caseDir: dir,
      screen: desktop.screen,
      input: desktop.input,
      settle: { timeoutMs: 300 },
    })
    expect(out.results[0]?.success).toBe(true)
    expect(await fieldValue()).toBe(text)
  })

  it('Hangul (and mixed text) arrives through the clipboard, as a person without a Korean input method pastes it', async () => {
    await startField('hangul')
    const text = 'id: 한글 테스트 (ok)'
    const out = await replayDesktopCase(typingCase(text), {
      caseDir: dir,
      screen: desktop.screen,
      input: desktop.input,
      settle: { timeoutMs: 300 },
    })
    expect(out.results[0]?.success).toBe(true)
    expect(await fieldValue()).toBe(text)
  })
})

// X keycodes (evdev) of the physical keys, as engraved on a German keyboard
const RIGHT_ALT = 108
const SHIFT = 50
const K = { q: 24, e: 26, n7: 16, n8: 17, n9: 18, n0: 19, sz: 20, plus: 35, less: 94, circumflex: 49, acute: 21 }
const SPACE = 65
const Y = 29 // types z on a German layout

describe('a German layout: AltGr characters recorded and replayed exactly (setxkbmap de)', () => {
  beforeAll(async () => {
    await setLayout('de')
  })
  afterAll(async () => {
    await setLayout('us')
  })

  it('the hook records AltGr, Shift and dead keys as the characters they typed', async () => {
    await startField('de-record')
    const events: InputEvent[] = []
    await desktop.hook.start((e) => events.push(e))
    try {
      await pressKeys([
        [RIGHT_ALT, K.q], // @
        [RIGHT_ALT, K.n7], // {
        [RIGHT_ALT, K.n8], // [
        [RIGHT_ALT, K.n9], // ]
        [RIGHT_ALT, K.n0], // }
        [RIGHT_ALT, K.sz], // \
        [RIGHT_ALT, K.plus], // ~
        [RIGHT_ALT, K.e], // €
        [SHIFT, K.plus], // *
        [Y], // z
        [K.circumflex], // dead ^
        [SPACE], // → ^
        [K.acute], // dead ´
        [K.e], // → é
      ])
      await sleep(300)
    } finally {
      await desktop.hook.stop()
    }
    const coalescer = createActionCoalescer()
    for (const e of events) coalescer.push(e)
    const typed = coalescer.actions.filter((a) => a.actionType === 'type').map((a) => a.text)
    const expected = '@{[]}\\~€*z^é'
    expect(typed).toEqual([expected])
    expect(coalescer.actions.filter((a) => a.actionType === 'key_press')).toEqual([])
    // what the person typed reached the field as recorded (the program read the same keys)
    expect(await fieldValue()).toBe(expected)

    // and the recorded text replays exactly into a fresh field
    await startField('de-replay-recorded')
    const out = await replayDesktopCase(typingCase(typed[0] as string), {
      caseDir: dir,
      screen: desktop.screen,
      input: desktop.input,
      settle: { timeoutMs: 300 },
    })
    expect(out.results[0]?.success).toBe(true)
    expect(await fieldValue()).toBe(expected)
  })

  it.each([
    ['AltGr characters', '@{[]}\\~|€ µ²³'],
    ['the full printable ASCII set', PRINTABLE_ASCII],
    ['dead-key letters and Hangul', 'é à ô ñ 한글 ü ß'],
  ])('%s replay exactly', async (name, text) => {
    await startField(`de-${name.replace(/\W+/g, '-')}`)
    const out = await replayDesktopCase(typingCase(text), {
      caseDir: dir,
      screen: desktop.screen,
      input: desktop.input,
      settle: { timeoutMs: 300 },
    })
    expect(out.results[0]?.success).toBe(true)
    expect(await fieldValue()).toBe(text)
  })
})
