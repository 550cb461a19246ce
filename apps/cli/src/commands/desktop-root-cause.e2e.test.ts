// Issue 28 on a desktop case (real X display, Xvfb, no browser): the first failed step is the first cause, the
// failures after it say so, and --max-failures stops the case early; the steps after it are reported as not run.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CURRENT_FORMAT_VERSION, parseReplayReport } from '@qa/model'
import { encodePng, solidFrame, startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, qaAsync } from '../__tests__/run-cli'

const W = 160
const H = 120
const dir = mkdtempSync(join(tmpdir(), 'qa-cli-desktop-root-cause-'))
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

async function replay(file: string, reportDir: string, ...flags: string[]) {
  const r = await qaAsync(['replay', file, '--verify', '--json', '--report-dir', reportDir, ...flags], {
    env: { DISPLAY: xvfb.display, QA_VISION: 'none' },
  })
  const report = r.stdout.trim() ? parseReplayReport(JSON.parse(r.stdout)) : null
  return { ...r, report }
}

describe('root cause first on the desktop (issue 28, Build 4)', () => {
  it('every step failing: one first cause, the later failures after it; --max-failures 1 leaves the rest not run', async () => {
    const file = writeCase('three', ['white.png', 'white.png', 'white.png'])
    const all = await replay(file, join(dir, 'all'))
    expect(all.code, all.stderr).toBe(1)
    expect(all.report?.firstCause?.step).toBe(1)
    expect(all.report?.verificationResults.map((v) => v.step)).toEqual([1, 2, 3])
    expect(all.report?.verificationResults.map((v) => v.afterFirstCause ?? null)).toEqual([null, 1, 1])

    const stopped = await replay(file, join(dir, 'max1'), '--max-failures', '1')
    expect(stopped.code, stopped.stderr).toBe(1)
    const r = stopped.report
    expect(r?.totalActions).toBe(3)
    expect((r?.passedCount ?? 0) + (r?.failedCount ?? 0) + (r?.warningCount ?? 0)).toBe(3)
    expect(r?.verificationResults.map((v) => v.notRun === true)).toEqual([false, true, true])
    expect(r?.notRunCount).toBe(2)
    expect(r?.maxFailures).toBe(1)
    expect(r?.verificationResults[1]?.reason).toMatch(/^Not run: the replay stopped after 1 failed step/)
  }, 180_000)
})
