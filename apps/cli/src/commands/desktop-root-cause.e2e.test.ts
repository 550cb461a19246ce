// On a desktop case (real X display, Xvfb, no browser): the first failed step is the first cause, the
// failures after it say so, and --max-failures stops the case early; the steps after it are reported as not run.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useDesktopVerifyDisplay } from '../__tests__/desktop-verify-display'

const { dir, writeCase, replay } = useDesktopVerifyDisplay('qa-cli-desktop-root-cause-')

describe('root cause first on the desktop', () => {
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
