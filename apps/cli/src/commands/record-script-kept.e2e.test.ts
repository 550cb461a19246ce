import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bin, ensureBuilt, startQa } from '../__tests__/run-cli'

/**
 * `qa record web --script` lost every step on SIGINT, SIGKILL or a full disk (the case was saved
 * only at the end) and could leave a truncated PNG. The case is now saved after each step, atomically, and so is
 * every screenshot, as recording by hand does.
 */

const PAGE = 'data:text/html,<button style="position:absolute;left:0;top:0;width:300px;height:200px">Save</button>'
const PNG_END = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82])

/** A folder with a script of `clicks` clicks on the button (long enough to be stopped midway). */
function scriptOf(clicks: number): { dir: string; script: string } {
  const dir = mkdtempSync(join(tmpdir(), 'qa-record-kept-'))
  const script = join(dir, 'steps.json')
  writeFileSync(script, JSON.stringify(Array.from({ length: clicks }, () => ({ type: 'click', x: 100, y: 100 }))))
  return { dir, script }
}

/** The steps of the case as saved, or 0 while there is none (every save is atomic: never half a file). */
function savedSteps(file: string): number {
  if (!existsSync(file)) return 0
  return (JSON.parse(readFileSync(file, 'utf8')) as { actions: unknown[] }).actions.length
}

/** Waits until the case on disk has at least `n` steps (the recording goes on meanwhile). */
async function untilSaved(file: string, n: number, exited: () => boolean): Promise<void> {
  while (savedSteps(file) < n) {
    if (exited()) throw new Error(`the recording ended before ${n} steps were saved in ${file}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Every screenshot the case names is there and is a whole PNG; and so is every PNG in its folder. */
function expectWholeScreenshots(caseFile: string): void {
  const dir = join(caseFile, '..')
  const doc = JSON.parse(readFileSync(caseFile, 'utf8')) as { actions: Record<string, unknown>[] }
  const named = doc.actions.flatMap((a) =>
    ['screenshot_before_path', 'screenshot_path', 'element_crop_path'].map((k) => a[k]).filter((p) => !!p),
  ) as string[]
  expect(named.length).toBeGreaterThan(0)
  for (const p of named) expect(readFileSync(join(dir, p)).subarray(-8), p).toEqual(PNG_END)
  const folder = caseFile.replace(/\.json$/, '')
  for (const f of readdirSync(folder).filter((f) => f.endsWith('.png')))
    expect(readFileSync(join(folder, f)).subarray(-8), f).toEqual(PNG_END)
}

/** Starts recording a script of 200 clicks and waits until the case on disk has 3 steps. */
async function recordingWithThreeSteps() {
  ensureBuilt()
  const { dir, script } = scriptOf(200)
  const out = join(dir, 'flow.json')
  const rec = startQa(['record', 'web', PAGE, '--script', script, '--out', out])
  await untilSaved(out, 3, rec.exited)
  return { out, rec }
}

describe('qa record web --script keeps the steps so far', () => {
  it('SIGINT stops after the current step: exit 130, the case holds the steps so far and whole screenshots', async () => {
    const { out, rec } = await recordingWithThreeSteps()
    rec.child.kill('SIGINT')
    const { code } = await rec.result
    expect(code, rec.output().stderr).toBe(130)
    expect(rec.output().stdout).toMatch(/Stopped: interrupted \(SIGINT\) after (\d+) of 200 steps/)
    const kept = Number(/after (\d+) of 200/.exec(rec.output().stdout)?.[1])
    expect(kept).toBeGreaterThanOrEqual(3)
    expect(savedSteps(out)).toBe(kept)
    expectWholeScreenshots(out)
  })

  it('SIGKILL: the case saved after the last finished step loads, with whole screenshots', async () => {
    const { out, rec } = await recordingWithThreeSteps()
    rec.child.kill('SIGKILL')
    await rec.result
    expect(savedSteps(out)).toBeGreaterThanOrEqual(3)
    expectWholeScreenshots(out)
    const validate = spawnSync(process.execPath, [bin, 'validate', out], { encoding: 'utf8' })
    expect(validate.status, validate.stderr).toBe(0)
  })

  // A full disk for real: a 120 KiB tmpfs in a user and mount namespace (no root needed where unshare -rm works).
  const tmpfsWorks = spawnSync('unshare', ['-rm', 'true']).status === 0
  it.runIf(tmpfsWorks)(
    'a full disk: exit 2 naming the file that could not be written, the steps before it kept',
    async () => {
      ensureBuilt()
      const { dir, script } = scriptOf(60)
      const disk = join(dir, 'disk')
      const copy = join(dir, 'copy')
      mkdirSync(disk)
      mkdirSync(copy)
      // the tmpfs lives as long as the namespace: its content is copied out before the shell ends
      const sh = `mount -t tmpfs -o size=120k tmpfs "$1" && "$2" "$3" record web "$4" --script "$5" --out "$1/flow.json"; rc=$?; cp -a "$1/." "$6/"; exit $rc`
      const r = spawnSync('unshare', ['-rm', 'sh', '-c', sh, 'sh', disk, process.execPath, bin, PAGE, script, copy], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      })
      expect(r.status, r.stderr).toBe(2)
      expect(r.stderr).toMatch(
        /qa: .*\/(flow\.json|flow\/step-\d{3}-\w+\.png): could not be written \(ENOSPC: no space left on device/,
      )
      expect(r.stderr).toMatch(/hint: The \d+ steps? recorded before it (is|are) saved in .*flow\.json/)
      const out = join(copy, 'flow.json')
      expect(savedSteps(out)).toBeGreaterThanOrEqual(1)
      expectWholeScreenshots(out)
    },
  )
})
