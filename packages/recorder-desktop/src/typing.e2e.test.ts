// Issue 14 item 6: replayed typing reaches a real text field exactly, Shift included. Under Xvfb (its default US
// layout), a Tk program (Debian's `wish`) with a text field writes the field's value to a file on every change;
// the test reads that file, never what the replayer reports.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CURRENT_FORMAT_VERSION, type TestCase } from '@qa/model'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replayDesktopCase } from './desktop-replayer'
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
  await desktop?.close() // the hook never started: no X connection outlives this, so the server can go now
  await xvfb?.stop()
  await rm(dir, { recursive: true, force: true })
})

describe('typing on replay into a real text field (Tk entry under Xvfb)', () => {
  it.each([
    ['the issue 14 formula', '7*3=(1+2)'],
    ['the shifted symbols of the issue', '!@#$%^&*()_+{}|:"<>?~'],
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
