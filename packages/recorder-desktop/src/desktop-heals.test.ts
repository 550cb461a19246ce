import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { CURRENT_FORMAT_VERSION, type TestCase } from '@qa/model'
import { loadTestCase, writeFileAtomic } from '@qa/model/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buttonScreen, centre, type TestButton } from './__tests__/screens'
import { healsFolderOf, saveDesktopHeals } from './desktop-heals'
import { replayDesktopCase } from './desktop-replayer'
import { boxAround, cropFrame, decodeImage, encodePng, framesEqual, type RgbaFrame } from './frame'
import { memoryScreen, recordingInput } from './memory-screen'

const W = 640
const H = 400
const recorded: TestButton[] = [
  { x: 60, y: 60, width: 180, height: 60, rgb: [45, 108, 223], label: 1 },
  { x: 60, y: 200, width: 180, height: 60, rgb: [200, 60, 60], label: 4 },
]
// the window moved by (+150, +40): same look, another place
const moved = recorded.map((b) => ({ ...b, x: b.x + 150, y: b.y + 40 }))
// the program restyled: moved and recoloured, so the recorded after-screenshot cannot confirm the step
const restyled = moved.map((b) => ({ ...b, rgb: [47, 158, 85] as [number, number, number] }))
const screens: Record<'recorded' | 'moved' | 'restyled', RgbaFrame> = {
  recorded: buttonScreen(W, H, recorded),
  moved: buttonScreen(W, H, moved),
  restyled: buttonScreen(W, H, restyled),
}
const settle = { timeoutMs: 200, pollMs: 1 }
let dir: string
let tc: TestCase

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qa-heals-'))
  const actions: TestCase['actions'] = []
  for (const [i, b] of recorded.entries()) {
    const p = centre(b)
    const box = boxAround(p.x, p.y, 96, 40, screens.recorded)
    await writeFileAtomic(join(dir, 'rec', `crop_${i}.png`), await encodePng(cropFrame(screens.recorded, box)))
    await writeFileAtomic(join(dir, 'rec', `after_${i}.png`), await encodePng(screens.recorded))
    actions.push({
      timestamp: new Date(0).toISOString(),
      actionType: 'click',
      x: p.x,
      y: p.y,
      button: 'left',
      description: `click ${i}`,
      elementCropPath: `rec/crop_${i}.png`,
      elementCropBox: { ...box },
      screenshotPath: `rec/after_${i}.png`,
      semanticInfo: { intent: 'click_button', targetElement: { type: 'button', text: `button ${i}` } },
    })
  }
  tc = { name: 'heals', version: CURRENT_FORMAT_VERSION, platform: 'desktop', actions }
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const replay = (screen: RgbaFrame, testCase: TestCase = tc) =>
  replayDesktopCase(testCase, {
    caseDir: dir,
    screen: memoryScreen(screen),
    input: recordingInput(),
    settle,
    verify: true,
    recheckMs: 0,
    learnHeals: true,
  })

describe('desktop heals (--save-heals, verified steps only)', () => {
  it('learns the new place and a crop cut there for clicks that moved and passed verification', async () => {
    const out = await replay(screens.moved)
    expect(out.verifications.map((v) => v.finalResult)).toEqual(['pass', 'pass'])
    expect(out.heals.map((h) => h.index)).toEqual([0, 1])
    for (const [i, b] of moved.entries()) {
      const heal = out.heals[i]
      expect(heal?.point).toEqual(centre(b))
      expect(heal?.record).toMatchObject({ strategy: 'template', verified: true, coordinateChange: { x: 150, y: 40 } })
      // the crop at the new place shows the same button as the recorded crop
      const recordedCrop = await decodeImage(join(dir, tc.actions[i]?.elementCropPath as string))
      expect(framesEqual(heal?.crop as RgbaFrame, recordedCrop)).toBe(true)
    }
  })

  it('learns nothing from steps whose verification did not pass', async () => {
    // recorded: each click opened a panel; the restyled program (moved, recoloured) shows none
    const panel = buttonScreen(W, H, [
      ...recorded,
      { x: 400, y: 300, width: 120, height: 60, rgb: [20, 20, 20], label: 9 },
    ])
    await writeFileAtomic(join(dir, 'rec', 'before.png'), await encodePng(screens.recorded))
    await writeFileAtomic(join(dir, 'rec', 'after_panel.png'), await encodePng(panel))
    const opensPanel: TestCase = {
      ...tc,
      actions: tc.actions.map((a) => ({
        ...a,
        screenshotBeforePath: 'rec/before.png',
        screenshotPath: 'rec/after_panel.png',
      })),
    }
    const out = await replay(screens.restyled, opensPanel)
    expect(out.results.every((r) => r.success)).toBe(true) // found by template, clicked
    expect(out.verifications.some((v) => v.finalResult === 'pass')).toBe(false)
    expect(out.heals).toEqual([])
  })

  it('writes a new case: healed points and crops, history, the other paths still pointing at the recording', async () => {
    const out = await replay(screens.moved)
    // a folder elsewhere cannot reach the recording's screenshots: refused before anything is written
    const elsewhere = join(dir, 'elsewhere', 'heals.healed.json')
    await expect(
      saveDesktopHeals({ testCase: tc, caseDir: dir, heals: out.heals, outPath: elsewhere }),
    ).rejects.toMatchObject({ code: 'DESKTOP_BAD_OPTION' })
    expect(existsSync(healsFolderOf(elsewhere))).toBe(false)
    const outPath = join(dir, 'heals.healed.json')
    expect(await saveDesktopHeals({ testCase: tc, caseDir: dir, heals: out.heals, outPath })).toBe(2)
    const back = await loadTestCase(outPath)
    for (const [i, b] of moved.entries()) {
      const a = back.testCase.actions[i]
      expect({ x: a?.x, y: a?.y }).toEqual(centre(b))
      expect(a?.elementCropPath).toBe(`heals.healed_heals/action_000${i}_crop.png`)
      expect(existsSync(resolve(back.dir, a?.elementCropPath as string))).toBe(true)
      expect(resolve(back.dir, a?.screenshotPath as string)).toBe(resolve(dir, `rec/after_${i}.png`))
      expect(a?.healingHistory?.[0]).toMatchObject({ strategy: 'template', verified: true })
    }
    expect(healsFolderOf(outPath)).toBe(join(dir, 'heals.healed_heals'))
    // the healed case replays on the moved program by the fast path: the heal was right
    const again = await replayDesktopCase(back.testCase, {
      caseDir: back.dir,
      screen: memoryScreen(screens.moved),
      input: recordingInput(),
      settle,
      verify: true,
      recheckMs: 0,
    })
    expect(again.results.map((r) => r.method)).toEqual(['direct', 'direct'])
    // verified against the recording's screenshots, which still show the window where it was recorded
    expect(again.verifications.map((v) => v.finalResult)).toEqual(['pass', 'pass'])
  })
})
