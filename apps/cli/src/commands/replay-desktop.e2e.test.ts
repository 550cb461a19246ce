// `qa record desktop` and `qa replay` of a desktop case on a real X11 program nobody here wrote the toolkit of
// (a Tk keypad run by Debian's `wish`), under Xvfb with real input (xdotool, resting on each key before the
// click as a person does). With the program closed, the replay must refuse every step ("not found")
// and exit 1, instead of clicking the recorded pixels and calling it a pass.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parseReplayReport } from '@qa/model'
import { startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, qaAsync, repoRoot } from '../__tests__/run-cli'

const KEYPAD = join(repoRoot, 'packages/recorder-desktop/test/fixtures/keypad.tcl')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const run = promisify(execFile)

let xvfb: VirtualDisplay
let dir: string
let keypad: { child: ChildProcess; keys: Map<string, { x: number; y: number }>; stateFile: string } | null = null
const env = () => ({ DISPLAY: xvfb.display, QA_VISION: 'ocr' })
const xdo = (...args: string[]) => run('xdotool', args, { env: { ...process.env, DISPLAY: xvfb.display } })

/** Starts the keypad program and reads where its keys are (it prints their screen centres, then `ready`). */
async function startKeypad(stateFile: string, deadKeys = '') {
  const child = spawn('wish', [KEYPAD, stateFile, deadKeys], { env: { ...process.env, DISPLAY: xvfb.display } })
  const keys = new Map<string, { x: number; y: number }>()
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.once('error', reject)
    child.stdout?.on('data', (d) => {
      out += d
      for (const m of out.matchAll(/^key (\S+) (\d+) (\d+)$/gm)) keys.set(m[1] as string, { x: +m[2]!, y: +m[3]! })
      if (/^ready$/m.test(out)) resolve()
    })
  })
  keypad = { child, keys, stateFile }
  return keypad
}

async function stopKeypad() {
  if (!keypad) return
  const { child } = keypad
  keypad = null
  const gone = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await gone
}

beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600 })
  dir = mkdtempSync(join(tmpdir(), 'qa-replay-desktop-'))
})

afterAll(async () => {
  await stopKeypad()
  await xvfb?.stop()
})

describe('qa replay of a desktop case on a real Tk program', () => {
  const casePath = () => join(dir, 'keypad.json')
  const FLOW = ['7', '*', '3', '=']

  it('records four key clicks with `qa record desktop` (real XTest input, a hover pause before each click)', async () => {
    const kp = await startKeypad(join(dir, 'recorded-value.txt'))
    const rec = spawn(process.execPath, [bin, 'record', 'desktop', '--out', casePath()], {
      env: { ...process.env, NO_COLOR: '1', ...env() },
    })
    let stderr = ''
    let stdout = ''
    rec.stdout.on('data', (d) => {
      stdout += d
    })
    const exited = new Promise<number | null>((r) => rec.once('close', r))
    await new Promise<void>((resolve) =>
      rec.stderr.on('data', (d) => {
        stderr += d
        if (stderr.includes('Recording on')) resolve()
      }),
    )
    await sleep(400)
    for (const k of FLOW) {
      const p = kp.keys.get(k) as { x: number; y: number }
      await xdo('mousemove', String(p.x), String(p.y))
      await sleep(400)
      await xdo('click', '1')
      await sleep(800)
    }
    await xdo('key', 'F10')
    expect(await exited, stderr).toBe(0)
    expect(stdout).toMatch(/Recorded 4 actions/)
    // the program really got the clicks
    expect(readFileSync(kp.stateFile, 'utf8')).toBe('7*3=')
  })

  it('replays on the running program: every key found, the program shows the keys again, exit 0', async () => {
    const r = await qaAsync(['replay', casePath(), '--json', '--report-dir', join(dir, 'r-running')], { env: env() })
    expect(r.code, r.stderr).toBe(0)
    const report = parseReplayReport(JSON.parse(r.stdout))
    expect(report.replayResults?.map((x) => x.success)).toEqual([true, true, true, true])
    for (const x of report.replayResults ?? []) expect(['direct', 'template']).toContain(x.method)
    expect(readFileSync(keypad?.stateFile as string, 'utf8')).toBe('7*3=7*3=')
  })

  /** A fresh keypad (empty field) at the recorded place, so the field shows what the recording showed. */
  async function restartKeypad(name: string, deadKeys = '') {
    await stopKeypad()
    await sleep(300)
    return startKeypad(join(dir, name), deadKeys)
  }
  const verified = async (casefile: string, report: string, extra: string[] = []) => {
    const r = await qaAsync(['replay', casefile, '--verify', '--json', '--report-dir', join(dir, report), ...extra], {
      env: env(),
    })
    return { code: r.code, stderr: r.stderr, report: parseReplayReport(JSON.parse(r.stdout)) }
  }

  it('--save-heals on a moved window: verified heals written to a new case, which then replays by the fast path', async () => {
    const moveKeypad = () => xdo('search', '--sync', '--name', 'qa keypad', 'windowmove', '160', '110')
    let kp = await restartKeypad('heals-moved.txt')
    await moveKeypad()
    await sleep(400)
    const healed = join(dir, 'keypad.healed.json')
    const r = await verified(casePath(), 'r-heals', ['--save-heals', healed])
    expect(r.code, r.stderr).toBe(0)
    expect(r.report.replayResults?.map((x) => x.method)).toEqual(['template', 'template', 'template', 'template'])
    expect(existsSync(healed)).toBe(true)
    expect(readFileSync(kp.stateFile, 'utf8')).toBe('7*3=')
    const doc = JSON.parse(readFileSync(healed, 'utf8'))
    for (const a of doc.actions) {
      expect(a.healing_history?.[0]).toMatchObject({ strategy: 'template', verified: true })
      expect(existsSync(join(dir, a.element_crop_path))).toBe(true)
    }
    expect(JSON.parse(readFileSync(casePath(), 'utf8')).actions[0].healing_history).toBeUndefined() // input untouched
    // the healed case on the moved window: every key found where it was healed to, and right
    kp = await restartKeypad('heals-replayed.txt')
    await moveKeypad()
    await sleep(400)
    const again = await verified(healed, 'r-healed')
    expect(again.code, again.stderr).toBe(0)
    expect(again.report.replayResults?.map((x) => x.method)).toEqual(['direct', 'direct', 'direct', 'direct'])
    expect(readFileSync(kp.stateFile, 'utf8')).toBe('7*3=')
  })

  it('--verify on the unchanged program: every step passes on its expected region, exit 0', async () => {
    const kp = await restartKeypad('verify-unchanged.txt')
    const { code, stderr, report } = await verified(casePath(), 'r-verify')
    expect(code, stderr).toBe(0)
    expect(readFileSync(kp.stateFile, 'utf8')).toBe('7*3=')
    expect(report.verificationResults.map((v) => v.finalResult)).toEqual(['pass', 'pass', 'pass', 'pass'])
    for (const v of report.verificationResults) {
      expect(v.regionSimilarity).toBeGreaterThanOrEqual(0.95)
      expect(v.expectedRegion).toBeTruthy()
    }
    expect(report.replayResults?.map((x) => x.screenTransitionVerified)).toEqual([true, true, true, true])
  })

  it('a wrong click ("4" for "3") fails its step although the whole screen is over 99 % alike', async () => {
    // the third step, as a coordinate-only step pointing at key "4": replayed blind (--allow-coordinates), the
    // field shows 7*4 where the recording showed 7*3
    const tc = JSON.parse(readFileSync(casePath(), 'utf8'))
    const four = keypad?.keys.get('4') as { x: number; y: number }
    const { element_crop_path: _c, element_crop_box: _b, semantic_info: _s, ...step } = tc.actions[2]
    tc.actions[2] = { ...step, x: four.x, y: four.y }
    const wrong = join(dir, 'keypad-wrong.json')
    writeFileSync(wrong, JSON.stringify(tc, null, 2))
    const kp = await restartKeypad('verify-wrong.txt')
    const { code, report } = await verified(wrong, 'r-wrong', ['--allow-coordinates'])
    expect(readFileSync(kp.stateFile, 'utf8')).toBe('7*4=')
    expect(code).toBe(1)
    const third = report.verificationResults[2]
    expect(third?.finalResult).toBe('fail')
    expect(third?.screenshotSimilarity).toBeGreaterThan(0.99)
    expect(third?.regionSimilarity).toBeLessThan(0.7)
    expect(report.verificationResults[0]?.finalResult).toBe('pass')
    expect(report.replayResults?.[2]?.screenTransitionVerified).toBe(false)
  })

  it('an expected change that did not happen fails: "=" is dead, the field keeps 7*3', async () => {
    const kp = await restartKeypad('verify-dead.txt', '=')
    const { code, report } = await verified(casePath(), 'r-dead')
    expect(readFileSync(kp.stateFile, 'utf8')).toBe('7*3')
    expect(code).toBe(1)
    // every key was found and clicked: only the screen tells the last click did nothing
    expect(report.replayResults?.map((x) => x.success)).toEqual([true, true, true, true])
    expect(report.verificationResults.map((v) => v.finalResult)).toEqual(['pass', 'pass', 'pass', 'fail'])
    const last = report.verificationResults[3]
    expect(last?.screenshotSimilarity).toBeGreaterThan(0.99)
    expect(last?.regionSimilarity).toBeLessThan(0.7)
    // "did not happen" when the field's pixels are all as before; the blinking caret can make it read as a
    // region that does not match instead, a fail either way
    expect(last?.reason).toMatch(/expected change did not happen|Expected region similarity .* < the fallback/)
  })

  it('with the program not running: exits 1, every step "not found" with the strategies tried, nothing clicked', async () => {
    await stopKeypad()
    await sleep(300)
    const r = await qaAsync(['replay', casePath(), '--json', '--report-dir', join(dir, 'r-closed')], { env: env() })
    expect(r.code, r.stderr).toBe(1)
    const report = parseReplayReport(JSON.parse(r.stdout))
    expect(report.passed).toBe(false)
    const results = report.replayResults ?? []
    expect(results).toHaveLength(4)
    for (const x of results) {
      expect(x).toMatchObject({ success: false, method: 'failed' })
      expect(x.errorMessage).toMatch(
        /^Element not found: .* \(tried direct: below_threshold.*template: .*coordinate: skipped/,
      )
      expect(x.actualCoords ?? null).toBeNull()
    }
    expect(report.summary).toMatch(/4 target\(s\) not found/)
    // the terminal says so too
    const human = await qaAsync(['replay', casePath(), '--report-dir', join(dir, 'r-closed-2')], { env: env() })
    expect(human.code).toBe(1)
    expect(human.stderr.match(/ — not found — Element not found/g)).toHaveLength(4)
  })

  it('--allow-coordinates clicks the recorded points instead, reported as coordinate, never as located', async () => {
    const r = await qaAsync(
      ['replay', casePath(), '--json', '--allow-coordinates', '--report-dir', join(dir, 'r-coords')],
      { env: env() },
    )
    const report = parseReplayReport(JSON.parse(r.stdout))
    expect(report.replayResults?.map((x) => x.method)).toEqual(['coordinate', 'coordinate', 'coordinate', 'coordinate'])
    for (const x of report.replayResults ?? []) {
      expect(x.matchConfidence).toBe(0)
      expect(x.warning).toMatch(/clicked the recorded coordinates/)
    }
    expect(report.summary).toMatch(/4 click\(s\) at the recorded coordinates, not located/)
  })
})

/** An X server without RECORD is named by `qa doctor --desktop` and refused by the recorder. */
describe('an X server without the RECORD extension', () => {
  it('qa doctor --desktop fails the RECORD check; qa record desktop refuses with DESKTOP_NO_RECORD, exit 2', async () => {
    const bare = await startXvfb({ width: 640, height: 480, record: false })
    try {
      const ok = await qaAsync(['doctor', '--desktop', '--json'], { env: env() })
      const withRecord = JSON.parse(ok.stdout).checks.find((c: { name: string }) => c.name === 'X RECORD extension')
      expect(withRecord).toMatchObject({ status: 'ok', required: true })

      const doctor = await qaAsync(['doctor', '--desktop', '--json'], { env: { DISPLAY: bare.display } })
      const check = JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === 'X RECORD extension')
      expect(check).toMatchObject({ status: 'fail', required: true })
      expect(check.fix).toMatch(/\+extension RECORD/)
      expect(doctor.code).toBe(2)

      const out = join(dir, 'no-record.json')
      const rec = await qaAsync(['record', 'desktop', '--out', out, '--duration-ms', '2000'], {
        env: { DISPLAY: bare.display },
      })
      expect(rec.code).toBe(2)
      expect(rec.stderr).toMatch(/has no RECORD extension, which recording needs to see clicks and keys/)
      expect(rec.stderr).toMatch(/hint: .*\+extension RECORD/)
      expect(rec.stderr).not.toMatch(/Xlib|XRecord|Abort/i)
      expect(existsSync(out)).toBe(false)
    } finally {
      await bare.stop()
    }
  })
})
