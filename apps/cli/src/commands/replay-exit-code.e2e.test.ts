// `qa replay --verify`: the built CLI exits 0 exactly when the replay passed and 1 when a
// step failed, on a desktop case replayed on a real X display (Xvfb, no browser).
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useDesktopVerifyDisplay } from '../__tests__/desktop-verify-display'

const { dir, writeCase, replay } = useDesktopVerifyDisplay('qa-cli-replay-exit-')

describe('qa replay --verify exit code', () => {
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
