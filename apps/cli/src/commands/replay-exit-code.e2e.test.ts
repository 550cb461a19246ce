// seed 000 Property 7 on `qa replay --verify`: the built CLI exits 0 exactly when the replay passed and 1 when a
// step failed, on a desktop case replayed on a real X display (Xvfb, no browser).
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CURRENT_FORMAT_VERSION, parseReplayReport } from '@qa/model'
import { encodePng, solidFrame, startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, qaAsync } from '../__tests__/run-cli'

const W = 160
const H = 120
const dir = mkdtempSync(join(tmpdir(), 'qa-cli-replay-exit-'))
let xvfb: VirtualDisplay

beforeAll(async () => {
  ensureBuilt()
  xvfb = await startXvfb({ width: W, height: H })
  writeFileSync(join(dir, 'white.png'), await encodePng(solidFrame(W, H, [255, 255, 255])))
}, 180_000)
afterAll(() => xvfb?.stop())

/** A desktop case of harmless key presses, each verified against the named after-screenshot. */
function writeCase(name: string, shots: string[]): string {
  const file = join(dir, `${name}.json`)
  const doc = {
    version: CURRENT_FORMAT_VERSION,
    name,
    platform: 'desktop',
    screen: { width: W, height: H },
    actions: shots.map((shot, i) => ({
      timestamp: new Date(i * 1000).toISOString(),
      action_type: 'key_press',
      x: 0,
      y: 0,
      key: 'shift',
      description: `press shift ${i}`,
      screenshot_path: shot,
    })),
  }
  writeFileSync(file, JSON.stringify(doc))
  return file
}

async function replay(file: string, reportDir: string) {
  const r = await qaAsync(['replay', file, '--verify', '--json', '--report-dir', reportDir], {
    env: { DISPLAY: xvfb.display, QA_VISION: 'none' },
  })
  const report = r.stdout.trim() ? parseReplayReport(JSON.parse(r.stdout)) : null
  return { ...r, report }
}

describe('qa replay --verify exit code (seed 000 Property 7)', () => {
  it('exits 1 when a step fails, 0 when every step passes, and 1 when a failure follows a pass', async () => {
    // The screen is not white: the step fails, and the CLI keeps the real screen as the step's actual image.
    const failing = await replay(writeCase('fails', ['white.png']), join(dir, 'r1'))
    expect(failing.code, failing.stderr).toBe(1)
    expect(failing.report?.passed).toBe(false)
    expect(failing.report?.verificationResults.map((v) => v.finalResult)).toEqual(['fail'])

    // That actual image is what the display shows, so a case expecting it passes.
    copyFileSync(join(dir, 'r1', 'artifacts', 'step-000-actual.png'), join(dir, 'real.png'))
    const passing = await replay(writeCase('passes', ['real.png', 'real.png']), join(dir, 'r2'))
    expect(passing.code, passing.stderr).toBe(0)
    expect(passing.report?.passed).toBe(true)
    expect(passing.report?.verificationResults.map((v) => v.finalResult)).toEqual(['pass', 'pass'])

    const mixed = await replay(writeCase('mixed', ['real.png', 'white.png', 'real.png']), join(dir, 'r3'))
    expect(mixed.code, mixed.stderr).toBe(1)
    expect(mixed.report?.passed).toBe(false)
    expect(mixed.report?.verificationResults.map((v) => v.finalResult)).toEqual(['pass', 'fail', 'pass'])
  })
})
