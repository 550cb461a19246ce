import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type TestCase, CURRENT_FORMAT_VERSION } from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import { fc, test } from '@fast-check/vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buttonScreen, centre, inside, type TestButton } from './__tests__/screens'
import { replayDesktopCase, waitForChangedScreen, waitForStableScreen } from './desktop-replayer'
import { boxAround, cropFrame, encodePng, type RgbaFrame } from './frame'
import { memoryScreen, recordingInput, solidFrame } from './memory-screen'

const W = 640
const H = 400
const v1: TestButton[] = [
  { x: 60, y: 60, width: 180, height: 60, rgb: [45, 108, 223], label: 1 },
  { x: 60, y: 200, width: 180, height: 60, rgb: [45, 108, 223], label: 4 },
]
// v2: moved, 1.25× larger, recoloured
const v2: TestButton[] = v1.map((b, i) => ({
  ...b,
  x: 330 + i * 10,
  y: 40 + i * 170,
  width: 225,
  height: 75,
  rgb: [47, 158, 85],
}))

let dir: string
const screens: Record<'v1' | 'v2', RgbaFrame> = { v1: buttonScreen(W, H, v1), v2: buttonScreen(W, H, v2) }
let tc: TestCase

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qa-replay-'))
  const actions: TestCase['actions'] = []
  for (const [i, b] of v1.entries()) {
    const p = centre(b)
    const box = boxAround(p.x, p.y, 96, 40, screens.v1)
    await writeFileAtomic(join(dir, `crop_${i}.png`), await encodePng(cropFrame(screens.v1, box)))
    await writeFileAtomic(join(dir, `after_${i}.png`), await encodePng(screens.v1))
    actions.push({
      timestamp: new Date(0).toISOString(),
      actionType: 'click',
      x: p.x,
      y: p.y,
      button: 'left',
      description: `click ${i}`,
      elementCropPath: `crop_${i}.png`,
      screenshotPath: `after_${i}.png`,
      semanticInfo: { intent: 'click_button', targetElement: { type: 'button', text: `button ${i}` } },
      elementCropBox: { ...box },
    })
  }
  actions.push({
    timestamp: new Date(0).toISOString(),
    actionType: 'type',
    x: 0,
    y: 0,
    text: 'player01',
    description: 'type',
  })
  tc = { name: 'menu', version: CURRENT_FORMAT_VERSION, platform: 'desktop', actions }
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const settle = { timeoutMs: 200, pollMs: 1 }

describe('replayDesktopCase', () => {
  it('replays an unchanged screen by the fast path only: no analysis, no OCR', async () => {
    const input = recordingInput()
    let visionCalls = 0
    const out = await replayDesktopCase(tc, {
      caseDir: dir,
      screen: memoryScreen(screens.v1),
      input,
      analyze: async () => {
        visionCalls++
        return { elements: [] }
      },
      ocr: async () => {
        visionCalls++
        return []
      },
      verify: true,
      settle,
    })
    expect(out.results.map((r) => r.method)).toEqual(['direct', 'direct', 'none'])
    expect(visionCalls).toBe(0)
    expect(input.calls).toEqual([
      { kind: 'click', ...centre(v1[0] as TestButton), button: 'left' },
      { kind: 'click', ...centre(v1[1] as TestButton), button: 'left' },
      { kind: 'type', text: 'player01' },
    ])
    expect(out.passed).toBe(true)
    expect(out.report.accuracyStats).toMatchObject({ totalActions: 3, failedCount: 0 })
  })

  it('finds moved, resized, recoloured buttons by template matching offline', async () => {
    const input = recordingInput()
    const out = await replayDesktopCase(tc, { caseDir: dir, screen: memoryScreen(screens.v2), input, settle })
    expect(out.results.slice(0, 2).map((r) => r.method)).toEqual(['template', 'template'])
    for (const [i, b] of v2.entries()) {
      const call = input.calls[i] as { x: number; y: number }
      expect(inside(b, call)).toBe(true)
    }
    expect(out.results[0]?.coordinateChange).toEqual({
      x: (input.calls[0] as { x: number }).x - tc.actions[0]!.x,
      y: (input.calls[0] as { y: number }).y - tc.actions[0]!.y,
    })
  })

  it('verifies each step at the scale its target was found at (the v2 buttons are drawn 1.25× larger)', async () => {
    const out = await replayDesktopCase(tc, {
      caseDir: dir,
      screen: memoryScreen(screens.v2),
      input: recordingInput(),
      settle,
      verify: true,
      recheckMs: 0,
    })
    expect(out.results[0]?.method).toBe('template')
    const region = out.verifications[0]?.details?.region as { scale?: number } | undefined
    // the template match's own estimate of the 1.25× (a crop inside a plain button pins it only roughly)
    expect(region?.scale).toBeGreaterThan(1.15)
    expect(region?.scale).toBeLessThan(1.4)
    // the expected region (on the recorded screen) is compared scaled by that much where v2 draws the button
    const expected = out.verifications[0]?.expectedRegion
    const actual = out.verifications[0]?.actualRegion
    expect(expected && actual).toBeTruthy()
    expect((actual?.width ?? 0) / (expected?.width ?? 1)).toBeCloseTo(region?.scale ?? 0, 1)
  })

  it('uses the semantic analysis when it is confident, before the template', async () => {
    const input = recordingInput()
    const out = await replayDesktopCase(tc, {
      caseDir: dir,
      screen: memoryScreen(screens.v2),
      input,
      settle,
      analyze: async () => ({
        elements: v2.map((b, i) => ({
          type: 'button',
          text: `button ${i}`,
          boundingBox: { x: b.x, y: b.y, width: b.width, height: b.height },
        })),
        width: W,
        height: H,
      }),
    })
    expect(out.results.slice(0, 2).map((r) => r.method)).toEqual(['semantic', 'semantic'])
    expect(input.calls.slice(0, 2)).toEqual(v2.map((b) => ({ kind: 'click', ...centre(b), button: 'left' })))
  })

  it('runs every step when one fails, and the test fails', async () => {
    const input = recordingInput()
    const broken: TestCase = {
      ...tc,
      actions: [{ ...tc.actions[0]!, elementCropPath: null, semanticInfo: null }, ...tc.actions.slice(1)],
    }
    const out = await replayDesktopCase(broken, {
      caseDir: dir,
      screen: memoryScreen(screens.v2),
      input,
      settle,
      verify: true,
    })
    expect(out.results.map((r) => r.success)).toEqual([false, true, true])
    expect(out.results[0]?.method).toBe('failed')
    expect(out.results[0]?.errorMessage).toMatch(
      /^Element not found: the step has only its recorded coordinates \(150, 90\).*--allow-coordinates/,
    )
    expect(out.verifications).toHaveLength(3)
    expect(out.verifications[0]).toMatchObject({ finalResult: 'fail' })
    expect(out.passed).toBe(false)
    expect(out.report.passed).toBe(false)
    expect(input.calls).toHaveLength(2)
  })

  it('clicks nothing when the target is gone: every click "not found" with the strategies tried', async () => {
    const input = recordingInput()
    const out = await replayDesktopCase(tc, {
      caseDir: dir,
      screen: memoryScreen(solidFrame(W, H, [250, 250, 250])),
      input,
      settle,
      ocr: async () => [],
    })
    // the typing after them is not typed either: its field was not found, the text would land anywhere
    expect(out.results.map((r) => r.method)).toEqual(['failed', 'failed', 'failed'])
    expect(out.results[2]?.errorMessage).toBe(
      'Not typed: the field it goes into (step 2) was not found, so the text would land wherever the focus is.',
    )
    expect(out.results[0]?.errorMessage).toBe(
      'Element not found: button "button 0" at (150, 90) (tried direct: below_threshold (1), semantic: skipped (the source has no screen analysis), template: below_threshold (1), ocr: none (0), coordinate: skipped (coordinate fallback not allowed (allowCoordinateFallback; `qa replay --allow-coordinates`))).',
    )
    expect(out.results[1]?.strategiesTried?.map((a) => [a.strategy, a.outcome])).toEqual([
      ['direct', 'below_threshold'],
      ['semantic', 'skipped'],
      ['template', 'below_threshold'],
      ['ocr', 'none'],
      ['coordinate', 'skipped'],
    ])
    expect(input.calls).toEqual([])
    expect(out.passed).toBe(false)
    expect(out.report.summary).toMatch(/^Test FAILED: .*2 target\(s\) not found/)
  })

  // the crop shows the hover look (the toolkit lightens a button under the pointer); with the
  // pointer elsewhere the button looks otherwise and nothing qualifies at once
  it('rests the pointer on a near miss and looks again: a button that highlights on hover is found', async () => {
    const button = v1[0] as TestButton
    const hovered = buttonScreen(W, H, [{ ...button, rgb: [236, 240, 250] }, v1[1] as TestButton])
    const p = centre(button)
    const box = boxAround(p.x, p.y, 200, 80, hovered)
    await writeFileAtomic(join(dir, 'crop_hover.png'), await encodePng(cropFrame(hovered, box)))
    const hoverCase: TestCase = {
      ...tc,
      actions: [
        { ...(tc.actions[0] as TestCase['actions'][0]), elementCropPath: 'crop_hover.png', elementCropBox: box },
      ],
    }
    const screen = memoryScreen(screens.v1)
    const input = recordingInput((call) => {
      if (call.kind === 'move') screen.set(inside(button, call) ? hovered : screens.v1)
    })
    const out = await replayDesktopCase(hoverCase, { caseDir: dir, screen, input, settle, ocr: async () => [] })
    expect(out.results[0]?.strategiesTried?.[0]).toMatchObject({ strategy: 'direct', outcome: 'below_threshold' })
    expect(out.results[0]).toMatchObject({ success: true, method: 'direct', actualCoords: p })
    expect(out.results[0]?.strategiesTried?.find((t) => t.outcome === 'matched')?.detail).toMatch(
      /^after resting the pointer on \(150, 90\)/,
    )
    expect(input.calls).toEqual([
      { kind: 'move', x: p.x, y: p.y },
      { kind: 'click', x: p.x, y: p.y, button: 'left' },
    ])
    // an input that cannot move the pointer gets no second look: not found, nothing clicked
    const { move: _cannotMove, ...still } = recordingInput()
    const without = await replayDesktopCase(hoverCase, {
      caseDir: dir,
      screen: memoryScreen(screens.v1),
      input: still,
      settle,
      ocr: async () => [],
    })
    expect(without.results[0]).toMatchObject({ success: false, method: 'failed' })
    // another button at that place takes the same hover look: the second look wants a near-exact match, so it
    // is not clicked
    const other = { ...button, label: 9 }
    const replaced = buttonScreen(W, H, [other, v1[1] as TestButton])
    const replacedHovered = buttonScreen(W, H, [{ ...other, rgb: [236, 240, 250] }, v1[1] as TestButton])
    const screen2 = memoryScreen(replaced)
    const input2 = recordingInput((call) => {
      if (call.kind === 'move') screen2.set(inside(button, call) ? replacedHovered : replaced)
    })
    const lookAlike = await replayDesktopCase(hoverCase, {
      caseDir: dir,
      screen: screen2,
      input: input2,
      settle,
      ocr: async () => [],
    })
    expect(lookAlike.results[0]).toMatchObject({ success: false, method: 'failed' })
    expect(input2.calls.filter((c) => c.kind === 'click')).toEqual([])
  })

  it('with allowCoordinates clicks the recorded points of a coordinate-only case, reported as coordinate', async () => {
    const input = recordingInput()
    const legacy: TestCase = {
      ...tc,
      actions: tc.actions.map((a) => ({ ...a, elementCropPath: null, elementCropBox: null, semanticInfo: null })),
    }
    const strict = await replayDesktopCase(legacy, {
      caseDir: dir,
      screen: memoryScreen(screens.v1),
      input: recordingInput(),
      settle,
    })
    expect(strict.results.map((r) => r.method)).toEqual(['failed', 'failed', 'failed'])
    const out = await replayDesktopCase(legacy, {
      caseDir: dir,
      screen: memoryScreen(screens.v1),
      input,
      settle,
      allowCoordinates: true,
    })
    expect(out.results.map((r) => r.method)).toEqual(['coordinate', 'coordinate', 'none'])
    expect(out.results[0]).toMatchObject({ success: true, matchConfidence: 0, coordinateChange: { x: 0, y: 0 } })
    expect(out.results[0]?.warning).toMatch(/clicked the recorded coordinates/)
    expect(input.calls.slice(0, 2)).toEqual([
      { kind: 'click', x: 150, y: 90, button: 'left' },
      { kind: 'click', x: 150, y: 230, button: 'left' },
    ])
    expect(out.report.summary).toMatch(/2 click\(s\) at the recorded coordinates, not located/)
  })

  it('warns when the replay screen is not the recorded size (report summary and warnings)', async () => {
    const recordedOn = { ...tc, screen: { width: 1280, height: 720, scale: 1 } }
    const out = await replayDesktopCase(recordedOn, {
      caseDir: dir,
      screen: memoryScreen(screens.v1),
      input: recordingInput(),
      settle,
    })
    expect(out.warnings).toHaveLength(1)
    expect(out.warnings[0]).toMatch(/^The screen is 640×400 now and was 1280×720 when recorded/)
    expect(out.report.summary).toMatch(/Warning: The screen is 640×400 now and was 1280×720 when recorded/)
    // a field of the report too (JSON, and a line of the TXT and HTML reports)
    expect(out.report.screenSizeChange).toEqual({
      recorded: { width: 1280, height: 720 },
      replayed: { width: 640, height: 400 },
      message: out.warnings[0],
    })
    const same = await replayDesktopCase(
      { ...tc, screen: { width: W, height: H, scale: 1 } },
      { caseDir: dir, screen: memoryScreen(screens.v1), input: recordingInput(), settle },
    )
    expect(same.warnings).toEqual([])
    expect(same.report.summary).not.toMatch(/Warning/)
    expect(same.report.screenSizeChange ?? null).toBeNull()
  })

  it('refuses a web case', async () => {
    await expect(
      replayDesktopCase(
        { ...tc, platform: 'web' },
        { caseDir: dir, screen: memoryScreen(screens.v1), input: recordingInput() },
      ),
    ).rejects.toMatchObject({ code: 'DESKTOP_NOT_DESKTOP_CASE' })
  })
})

// whatever fails in the middle, every action runs and gets a result (and, with
// verification, a verdict), in order; the test passes only when nothing failed. Drives the real replayer.
describe('a failing step never stops the replay', () => {
  type Step = 'found' | 'lost' | 'input-throws' | 'missing-secret' | 'wrong-after' | 'no-shot' | 'typed'
  const failing = new Set<Step>(['lost', 'input-throws', 'missing-secret', 'wrong-after'])
  const button: TestButton = { x: 40, y: 30, width: 100, height: 44, rgb: [45, 108, 223], label: 2 }
  const screen = buttonScreen(200, 120, [button])
  const other = buttonScreen(200, 120, [{ ...button, x: 90, y: 60, rgb: [200, 60, 60], label: 5 }], [250, 250, 250])
  let pdir: string
  beforeAll(async () => {
    pdir = await mkdtemp(join(tmpdir(), 'qa-replay-p5-'))
    const p = centre(button)
    await writeFileAtomic(
      join(pdir, 'crop.png'),
      await encodePng(cropFrame(screen, boxAround(p.x, p.y, 96, 40, screen))),
    )
    await writeFileAtomic(join(pdir, 'same.png'), await encodePng(screen))
    await writeFileAtomic(join(pdir, 'other.png'), await encodePng(other))
  })
  afterAll(() => rm(pdir, { recursive: true, force: true }))

  function actionFor(step: Step, i: number): TestCase['actions'][number] {
    const p = centre(button)
    const common = { timestamp: new Date(i).toISOString(), x: p.x, y: p.y, description: `${step} ${i}` }
    switch (step) {
      case 'found':
        return {
          ...common,
          actionType: 'click',
          button: 'left',
          elementCropPath: 'crop.png',
          elementCropBox: boxAround(p.x, p.y, 96, 40, screen),
          screenshotPath: 'same.png',
        }
      case 'lost':
        return { ...common, actionType: 'click', button: 'left', screenshotPath: 'same.png' }
      case 'input-throws':
        return { ...common, actionType: 'key_press', key: 'boom', screenshotPath: 'same.png' }
      case 'missing-secret':
        return {
          ...common,
          actionType: 'type',
          text: '****',
          secretEnv: 'QA_SECRET_NOT_SET',
          screenshotPath: 'same.png',
        }
      case 'wrong-after':
        return { ...common, actionType: 'key_press', key: 'enter', screenshotPath: 'other.png' }
      case 'no-shot':
        return { ...common, actionType: 'key_press', key: 'tab' }
      case 'typed':
        return { ...common, actionType: 'type', text: 'hello', screenshotPath: 'same.png' }
    }
  }

  test.prop(
    [
      fc.array(
        fc.constantFrom<Step>('found', 'lost', 'input-throws', 'missing-secret', 'wrong-after', 'no-shot', 'typed'),
        {
          minLength: 1,
          maxLength: 6,
        },
      ),
    ],
    { numRuns: 100 },
  )('every action gets a result and a verdict, in order, whatever fails', async (steps) => {
    const input = recordingInput((c) => {
      if (c.kind === 'press' && c.combo === 'boom') throw new Error('the key could not be sent')
    })
    const tcase: TestCase = {
      name: 'p5',
      version: CURRENT_FORMAT_VERSION,
      platform: 'desktop',
      actions: steps.map(actionFor),
    }
    const out = await replayDesktopCase(tcase, {
      caseDir: pdir,
      screen: memoryScreen(screen),
      input,
      settle: { timeoutMs: 50, pollMs: 1 },
      // a memory screen never changes: looking again at a failing step could only cost time
      recheckMs: 0,
      verify: true,
      env: {},
      locate: { allowCoordinateFallback: false },
    })
    expect(out.results.map((r) => r.actionIndex)).toEqual(steps.map((_, i) => i))
    expect(out.verifications.map((v) => v.actionIndex)).toEqual(steps.map((_, i) => i))
    expect(out.report.accuracyStats?.totalActions ?? out.report.verificationResults.length).toBe(steps.length)
    // typing after a click that found nothing is not typed (its field is unknown): the model of the replayer
    const unfocused = steps.map((s, i) => {
      if (s !== 'typed' && s !== 'missing-secret') return false
      const lastClick = steps.slice(0, i).findLast((x) => x === 'found' || x === 'lost')
      return lastClick === 'lost'
    })
    expect(out.results.map((r) => r.success)).toEqual(
      steps.map((s, i) => s !== 'lost' && s !== 'input-throws' && s !== 'missing-secret' && !unfocused[i]),
    )
    // a step that did not run fails whatever the screen shows (as on the web)
    expect(out.verifications.map((v) => v.finalResult)).toEqual(
      steps.map((s, i) => (failing.has(s) || unfocused[i] ? 'fail' : 'pass')),
    )
    // a step without a recorded screenshot is not compared, and the report names it once
    expect(out.report.unverifiedSteps ?? []).toEqual(
      steps.flatMap((s, i) => (s === 'no-shot' && !failing.has(s) && !unfocused[i] ? [i] : [])),
    )
    // the steps after a failure were really sent to the screen
    const sent = steps.filter((s, i) => s !== 'lost' && s !== 'missing-secret' && !unfocused[i]).length
    expect(input.calls).toHaveLength(sent)
    const anyFailed = steps.some((s, i) => failing.has(s) || unfocused[i])
    expect(out.passed).toBe(!anyFailed)
    expect(out.report.passed).toBe(!anyFailed)
  })
})

describe('masked typing (secret_env) on replay', () => {
  const typing = (secretEnv: string): TestCase => ({
    name: 'secret',
    version: CURRENT_FORMAT_VERSION,
    platform: 'desktop',
    actions: [
      { timestamp: 0, actionType: 'type', x: 0, y: 0, text: '******', secretEnv, description: 'type ******' },
      { timestamp: 1, actionType: 'key_press', x: 0, y: 0, key: 'enter', description: 'press enter' },
    ],
  })

  it('types the value of the secret_env variable, never the stored mask', async () => {
    const input = recordingInput()
    const out = await replayDesktopCase(typing('QA_SECRET_0001'), {
      caseDir: dir,
      screen: memoryScreen(screens.v1),
      input,
      settle,
      env: { QA_SECRET_0001: 'hunter22' },
    })
    expect(input.calls[0]).toEqual({ kind: 'type', text: 'hunter22' })
    expect(out.passed).toBe(true)
  })

  it('fails the step naming the missing variable, types nothing, and still runs the next step', async () => {
    const input = recordingInput()
    const out = await replayDesktopCase(typing('QA_SECRET_0002'), {
      caseDir: dir,
      screen: memoryScreen(screens.v1),
      input,
      settle,
      env: { QA_SECRET_0001: 'other' },
    })
    expect(out.results[0]).toMatchObject({ success: false, method: 'failed' })
    expect(out.results[0]?.errorMessage).toContain('QA_SECRET_0002')
    expect(input.calls).toEqual([{ kind: 'press', combo: 'enter' }])
    expect(out.passed).toBe(false)
  })
})

// A keyboard-driven game menu: Down moves the lit item. No click locates anything, so where the
// focused window is now (recorded as the step's `window`) is what moves the step's expected region.
describe('a key step in a moved window', () => {
  const menuAt = (dx: number, dy: number, lit: 0 | 1) =>
    buttonScreen(
      W,
      H,
      [0, 1].map((i) => ({
        x: 60 + dx,
        y: 60 + dy + i * 70,
        width: 160,
        height: 50,
        rgb: (i === lit ? [240, 240, 240] : [45, 108, 223]) as [number, number, number],
        label: i + 1,
      })),
    )
  const recordedBox = { x: 40, y: 40, width: 220, height: 160 }
  const down = (window: boolean): TestCase => ({
    name: 'keys',
    version: CURRENT_FORMAT_VERSION,
    platform: 'desktop',
    actions: [
      {
        timestamp: 0,
        actionType: 'key_press',
        x: 0,
        y: 0,
        key: 'arrowdown',
        description: 'Press arrowdown',
        screenshotBeforePath: 'menu-0.png',
        screenshotPath: 'menu-1.png',
        ...(window ? { window: { box: recordedBox, className: 'Game' } } : {}),
      },
    ],
  })
  beforeAll(async () => {
    await writeFileAtomic(join(dir, 'menu-0.png'), await encodePng(menuAt(0, 0, 0)), { overwrite: true })
    await writeFileAtomic(join(dir, 'menu-1.png'), await encodePng(menuAt(0, 0, 1)), { overwrite: true })
  })
  const replay = async (tc: TestCase, keyWorks: boolean) => {
    const screen = memoryScreen(menuAt(300, 120, 0))
    const input = recordingInput((c) => {
      if (c.kind === 'press' && keyWorks) screen.set(menuAt(300, 120, 1))
    })
    return replayDesktopCase(tc, {
      caseDir: dir,
      screen,
      input,
      settle,
      verify: true,
      recheckMs: 0,
      findWindow: async (w) => (w.className === 'Game' ? { ...recordedBox, x: 340, y: 160 } : null),
    })
  }

  it('passes where the window is now when the key did its job, fails when it did nothing', async () => {
    expect((await replay(down(true), true)).verifications[0]?.finalResult).toBe('pass')
    expect((await replay(down(true), false)).verifications[0]?.finalResult).toBe('fail')
  })

  it('without the recorded window the moved menu cannot be judged (compared at the recorded place)', async () => {
    expect((await replay(down(false), true)).verifications[0]?.finalResult).toBe('fail')
  })
})

describe('the screen after a step that changed it when recorded', () => {
  const popup = solidFrame(320, 200, [40, 40, 40], [{ x: 60, y: 40, width: 200, height: 120, rgb: [230, 230, 230] }])
  const closed = solidFrame(320, 200, [40, 40, 40])
  /** A program that repaints late: the first `lateGrabs` grabs after the click still show the popup. */
  const lateScreen = (lateGrabs: number) => {
    let grabs = 0
    return {
      capture: async () => (++grabs > lateGrabs ? closed : popup),
      info: async () => ({ width: 320, height: 200, scale: 1 }),
    }
  }

  it('waits for the change the recording saw before it waits for stillness', async () => {
    // two equal grabs of the old screen are "still": the plain settle returns the popup the click is closing
    expect(await waitForStableScreen(lateScreen(4), { pollMs: 1 })).toBe(popup)
    expect(await waitForChangedScreen(lateScreen(4), popup, { pollMs: 1 })).toBe(closed)
  })

  it('returns the still screen when no change comes within the timeout (the verdict judges it)', async () => {
    expect(await waitForChangedScreen(lateScreen(Number.POSITIVE_INFINITY), popup, { pollMs: 5, timeoutMs: 60 })).toBe(
      popup,
    )
  })
})

describe('a click that shows a new screen in a window laid out again at another size', () => {
  type Box = { x: number; y: number; width: number; height: number }
  type Rect = Box & { rgb: [number, number, number] }
  const DESKTOP: [number, number, number] = [30, 42, 68]
  /** A button with bars for a label (distinct per seed), as `buttonScreen` draws them. */
  const buttonRects = (b: Box, rgb: [number, number, number], seed: number): Rect[] => [
    { ...b, rgb },
    ...(Array.from({ length: 6 }, (_, i) => {
      const h = Math.round(((((seed * 7 + i * 13) % 5) + 2) / 7) * b.height * 0.6)
      return { x: b.x + 8 + i * 12, y: b.y + Math.round((b.height - h) / 2), width: 6, height: h, rgb: [250, 250, 250] }
    }) as Rect[]),
  ]
  /** The program's window showing its menu (two buttons, centred) or its game (a board and a column of buttons). */
  const windowShowing = (w: Box, screen: 'menu' | 'game' | 'scores'): RgbaFrame => {
    const rects: Rect[] = [{ ...w, rgb: [236, 236, 236] }]
    if (screen === 'menu') {
      const x = w.x + Math.round((w.width - 140) / 2)
      const y = w.y + Math.round((w.height - 120) / 2)
      rects.push(...buttonRects({ x, y, width: 140, height: 50 }, [45, 108, 223], 1))
      rects.push(...buttonRects({ x, y: y + 70, width: 140, height: 50 }, [45, 108, 223], 2))
    } else if (screen === 'game') {
      // the board fills the window's height; the buttons keep their size at the right
      const pitch = Math.floor((w.height - 20) / 6)
      for (let r = 0; r < 6; r++)
        for (let c = 0; c < 6; c++)
          rects.push({
            x: w.x + 10 + c * pitch,
            y: w.y + 10 + r * pitch,
            width: pitch - 3,
            height: pitch - 3,
            rgb: [150, 150, 150],
          })
      const x = w.x + w.width - 100
      const y = w.y + Math.round((w.height - 100) / 2)
      rects.push(...buttonRects({ x, y, width: 90, height: 40 }, [47, 158, 85], 3))
      rects.push(...buttonRects({ x, y: y + 60, width: 90, height: 40 }, [47, 158, 85], 4))
    } else {
      for (let k = 0; k < 5; k++)
        rects.push({ x: w.x + 20, y: w.y + 20 + k * 36, width: w.width - 40, height: 14, rgb: [90, 90, 90] })
    }
    return solidFrame(W, H, DESKTOP, rects)
  }
  const recorded = { x: 40, y: 40, width: 300, height: 220 }
  const now = { x: 300, y: 120, width: 320, height: 260 }
  const firstButton = (w: Box) => ({
    x: w.x + Math.round((w.width - 140) / 2) + 70,
    y: w.y + Math.round((w.height - 120) / 2) + 25,
  })
  let caseOf: TestCase
  beforeAll(async () => {
    const before = windowShowing(recorded, 'menu')
    const p = firstButton(recorded)
    const box = boxAround(p.x, p.y, 96, 40, before)
    await writeFileAtomic(join(dir, 'relaid-before.png'), await encodePng(before), { overwrite: true })
    await writeFileAtomic(join(dir, 'relaid-after.png'), await encodePng(windowShowing(recorded, 'game')), {
      overwrite: true,
    })
    await writeFileAtomic(join(dir, 'relaid-crop.png'), await encodePng(cropFrame(before, box)), { overwrite: true })
    caseOf = {
      name: 'new game',
      version: CURRENT_FORMAT_VERSION,
      platform: 'desktop',
      actions: [
        {
          timestamp: 0,
          actionType: 'click',
          x: p.x,
          y: p.y,
          button: 'left',
          description: 'Click "New game"',
          elementCropPath: 'relaid-crop.png',
          elementCropBox: { ...box },
          screenshotBeforePath: 'relaid-before.png',
          screenshotPath: 'relaid-after.png',
          window: { box: recorded, className: 'Game' },
        },
      ],
    }
  })
  const replay = async (then: 'game' | 'scores' | null, knowsWindow = true) => {
    const screen = memoryScreen(windowShowing(now, 'menu'))
    const target = firstButton(now)
    const input = recordingInput((c) => {
      if (c.kind === 'click' && then && Math.abs(c.x - target.x) < 40 && Math.abs(c.y - target.y) < 20)
        screen.set(windowShowing(now, then))
    })
    const outcome = await replayDesktopCase(caseOf, {
      caseDir: dir,
      screen,
      input,
      settle,
      verify: true,
      recheckMs: 0,
      ...(knowsWindow ? { findWindow: async (w) => (w.className === 'Game' ? now : null) } : {}),
    })
    expect(outcome.results[0]?.success).toBe(true)
    return outcome.verifications[0]
  }

  it('passes when the click showed the new screen, laid out for the window now', async () => {
    const v = await replay('game')
    expect(v?.finalResult).toBe('pass')
    expect(v?.reason).toContain('laid out again at another size (300×220 recorded, 320×260 now)')
  })

  it('fails when the click did nothing, and when it showed another screen', async () => {
    expect((await replay(null))?.finalResult).toBe('fail')
    expect((await replay('scores'))?.finalResult).toBe('fail')
  })

  it('without the window the replay finds, the right screen reads as a change elsewhere (a false alarm)', async () => {
    expect((await replay('game', false))?.finalResult).toBe('fail')
  })
})
