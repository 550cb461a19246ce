import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buttonScreen, centre, type TestButton } from './__tests__/screens'
import { createDesktopRecorder } from './desktop-recorder'
import { pointerArrivalMs } from './recorder-moments'
import { cropFrame, decodeImage, framesEqual } from './frame'
import { nowMs } from './input-event'
import { memoryScreen, scriptedInput } from './memory-screen'
import type { ElementAnalyzer } from './semantic-info'

const START: TestButton = { x: 100, y: 100, width: 160, height: 56, rgb: [45, 108, 223], label: 1 }
const menu = buttonScreen(480, 320, [START])
const level = buttonScreen(480, 320, [{ ...START, x: 300, y: 220, rgb: [200, 60, 60], label: 2 }])
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qa-rec-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const click = (input: ReturnType<typeof scriptedInput>, x: number, y: number) => {
  const t = nowMs()
  input.emit({ kind: 'mousedown', timeMs: t, x, y, button: 'left' })
  input.emit({ kind: 'mouseup', timeMs: t + 1, x, y, button: 'left' })
}

describe('createDesktopRecorder', () => {
  it("takes a quick click's after-frame before the next click, however long the settle time", async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    const rec = createDesktopRecorder({ input, screen, outDir: dir, frameIntervalMs: 15, settleMs: 500, name: 'quick' })
    await rec.start()
    await sleep(40)
    const p = centre(START)
    click(input, p.x, p.y)
    screen.set(level) // the first click opens the level
    await sleep(120) // a quick person: the next click 120 ms later, long before the 500 ms settle time
    click(input, 300 + 80, 220 + 28)
    screen.set(menu) // the second click goes back to the menu
    await sleep(700)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    expect(tc.actions).toHaveLength(2)
    const [first, second] = tc.actions
    // the first click's after-frame shows the level it opened, not the menu the second click went back to
    const afterFirst = await decodeImage(join(dir, first?.screenshotPath as string))
    expect(framesEqual(afterFirst, level)).toBe(true)
    expect(framesEqual(await decodeImage(join(dir, second?.screenshotPath as string)), menu)).toBe(true)
  })

  it('waits for a screen drawn late: the after-frame is the screen once it stopped changing, not the one at settleMs', async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    // a short settle time and a long quiet time, so that timers late by a few hundred ms on a loaded machine
    // change nothing
    const rec = createDesktopRecorder({
      input,
      screen,
      outDir: dir,
      frameIntervalMs: 15,
      settleMs: 200,
      quietMs: 1000,
      name: 'late',
    })
    await rec.start()
    await sleep(40)
    const p = centre(START)
    click(input, p.x, p.y)
    // the program draws its next screen in two goes on a loaded machine: an empty level 100 ms after the click,
    // its board 600 ms later — long after the settle time
    const board = buttonScreen(480, 320, [
      { ...START, x: 300, y: 220, rgb: [200, 60, 60], label: 2 },
      { ...START, x: 20, y: 220, rgb: [60, 200, 60], label: 4 },
    ])
    await sleep(100)
    screen.set(level)
    await sleep(600)
    screen.set(board)
    await sleep(1600)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    const after = await decodeImage(join(dir, tc.actions[0]?.screenshotPath as string))
    expect(framesEqual(after, board)).toBe(true)
    // drawn in two goes, then still: not an animation
    expect(tc.actions[0]?.animatedRegions).toBeUndefined()
  })

  it("learns what blinks by itself around a click (a caret, a sprite) and stores it as the step's animated regions", async () => {
    const withBlink = (f: typeof menu, on: boolean) => {
      const out = { ...f, data: new Uint8Array(f.data) }
      if (on)
        for (let y = 20; y < 26; y++)
          for (let x = 400; x < 410; x++) out.data.set([250, 250, 250, 255], (y * f.width + x) * 4)
      return out
    }
    let base = menu
    let on = false
    const screen = memoryScreen(withBlink(base, on))
    const blink = setInterval(() => {
      on = !on
      screen.set(withBlink(base, on))
    }, 150)
    const input = scriptedInput()
    const rec = createDesktopRecorder({ input, screen, outDir: dir, frameIntervalMs: 15, name: 'blink' })
    try {
      await rec.start()
      await sleep(1200) // the person looks at the screen; the caret blinks
      const p = centre(START)
      click(input, p.x, p.y)
      base = level
      screen.set(withBlink(base, on))
      await sleep(1500)
      input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    } finally {
      clearInterval(blink)
    }
    const tc = await rec.stop()
    // the blinking 10×6 px at (400, 20) lies in the 16 px tile at (400, 16); the level the click opened is not in it
    expect(tc.actions[0]?.animatedRegions).toEqual([{ x: 400, y: 16, width: 16, height: 16 }])
  })

  it('an animation that never stills: the after-frame is one of its frames (once learnt or at the cap), before the next click', async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    const rec = createDesktopRecorder({
      input,
      screen,
      outDir: dir,
      frameIntervalMs: 15,
      settleMs: 100,
      settleCapMs: 300,
      name: 'animated',
    })
    await rec.start()
    await sleep(40)
    const p = centre(START)
    const frames = [level, buttonScreen(480, 320, [{ ...START, x: 300, y: 222, rgb: [200, 60, 60], label: 2 }])]
    let tick = 0
    const timer = setInterval(() => screen.set(frames[tick++ % 2] as typeof level), 40)
    try {
      click(input, p.x, p.y)
      await sleep(900)
    } finally {
      clearInterval(timer)
    }
    screen.set(menu)
    await sleep(100)
    click(input, p.x, p.y)
    await sleep(700)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    expect(tc.actions).toHaveLength(2)
    const after = await decodeImage(join(dir, tc.actions[0]?.screenshotPath as string))
    // one of the animation's frames, not the menu shown before the next click
    expect(frames.some((f) => framesEqual(after, f))).toBe(true)
  })

  it('typing right after a click: the click ends before the first key, the typing has its own before and after', async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    const rec = createDesktopRecorder({
      input,
      screen,
      outDir: dir,
      frameIntervalMs: 15,
      settleMs: 500,
      name: 'typing',
    })
    await rec.start()
    await sleep(40)
    const p = centre(START)
    click(input, p.x, p.y)
    screen.set(level) // the click focuses a field
    await sleep(120) // typing at once, long before the 500 ms settle time
    const typed = buttonScreen(480, 320, [{ ...START, x: 300, y: 220, rgb: [20, 160, 60], label: 3 }])
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'a', char: 'a' })
    screen.set(typed)
    await sleep(700)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    expect(tc.actions.map((a) => a.actionType)).toEqual(['click', 'type'])
    const [first, second] = tc.actions
    expect(framesEqual(await decodeImage(join(dir, first?.screenshotPath as string)), level)).toBe(true)
    expect(framesEqual(await decodeImage(join(dir, second?.screenshotBeforePath as string)), level)).toBe(true)
    expect(framesEqual(await decodeImage(join(dir, second?.screenshotPath as string)), typed)).toBe(true)
  })

  it("waits for a game's late answer to a key: the after-frame is not the before-frame when the game draws after a still moment", async () => {
    // LBreakout2's menu (run M, a loaded machine): the highlight moved from "Network Game" to "Quick Help" after
    // the screen had been still past the settle and quiet times; the recording stored before == after
    const fixture = (name: string) => decodeImage(join(__dirname, `../test/fixtures/${name}`))
    const before = await fixture('lbreakout2-menu-before-down.png')
    const moved = await fixture('lbreakout2-menu-after-down.png')
    const screen = memoryScreen(before)
    const input = scriptedInput()
    const rec = createDesktopRecorder({ input, screen, outDir: dir, frameIntervalMs: 15, settleMs: 100, quietMs: 100 })
    await rec.start()
    await sleep(60)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'arrowdown' })
    await sleep(600) // still as before, three times the settle and quiet times
    screen.set(moved)
    await sleep(600)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    expect(tc.actions.map((a) => [a.actionType, a.key])).toEqual([['key_press', 'arrowdown']])
    const step = tc.actions[0]
    expect(framesEqual(await decodeImage(join(dir, step?.screenshotBeforePath as string)), before)).toBe(true)
    expect(framesEqual(await decodeImage(join(dir, step?.screenshotPath as string)), moved)).toBe(true)
  })

  it('a key the game does not answer keeps the unchanged screen as its after-frame, taken before the next key', async () => {
    const before = await decodeImage(join(__dirname, '../test/fixtures/lbreakout2-menu-before-down.png'))
    const moved = await decodeImage(join(__dirname, '../test/fixtures/lbreakout2-menu-after-down.png'))
    const screen = memoryScreen(before)
    const input = scriptedInput()
    const rec = createDesktopRecorder({ input, screen, outDir: dir, frameIntervalMs: 15, settleMs: 100, quietMs: 100 })
    await rec.start()
    await sleep(60)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'arrowup' }) // at the top already: nothing moves
    await sleep(500)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'arrowdown' })
    screen.set(moved)
    await sleep(500)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    expect(tc.actions.map((a) => a.key)).toEqual(['arrowup', 'arrowdown'])
    const [up, down] = tc.actions
    expect(framesEqual(await decodeImage(join(dir, up?.screenshotPath as string)), before)).toBe(true)
    expect(framesEqual(await decodeImage(join(dir, down?.screenshotPath as string)), moved)).toBe(true)
  })

  it('saves the frame from before the click, the after frame, a crop, hashes and the analysis', async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    const calls: number[] = []
    const analyzer: ElementAnalyzer = {
      async analyzeElementAt(_img, x, y) {
        calls.push(performance.now())
        await sleep(30)
        return {
          element: {
            type: 'button',
            text: '게임 시작',
            boundingBox: { x: 100, y: 100, width: 160, height: 56 },
            confidence: 0.9,
          },
          screenState: 'main_menu',
          intent: `start_${x}_${y}`,
        }
      },
      inferIntent: (e) => (e as { intent?: string } | null)?.intent ?? 'click_unknown',
    }
    const rec = createDesktopRecorder({
      input,
      screen,
      outDir: dir,
      frameIntervalMs: 15,
      settleMs: 60,
      analyzer,
      name: 'menu',
    })
    await rec.start()
    await sleep(40)
    const p = centre(START)
    click(input, p.x, p.y)
    screen.set(level) // the game reacts at once: the hook sees the click when the game already does
    await sleep(20)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    expect(await rec.stopped).toBe('hotkey')
    const tc = await rec.stop()
    expect(rec.state).toBe('stopped')
    expect(input.running).toBe(false)
    expect(tc).toMatchObject({ name: 'menu', platform: 'desktop', screen: { width: 480, height: 320 } })
    expect(tc.actions).toHaveLength(1)
    const a = tc.actions[0]
    if (!a) throw new Error('no action')
    expect(a).toMatchObject({ actionType: 'click', x: p.x, y: p.y, button: 'left', enrichmentStatus: 'enriched' })
    expect(a.semanticInfo?.targetElement?.text).toBe('게임 시작')
    expect(a.semanticInfo?.intent).toBe(`start_${p.x}_${p.y}`)
    expect(a.description).toContain('게임 시작')
    expect(framesEqual(await decodeImage(join(dir, a.screenshotBeforePath ?? '')), menu)).toBe(true)
    expect(framesEqual(await decodeImage(join(dir, a.screenshotPath ?? '')), level)).toBe(true)
    const crop = await decodeImage(join(dir, a.elementCropPath ?? ''))
    expect([crop.width, crop.height]).toEqual([96, 40])
    expect(a.elementCropBox).toEqual({ x: p.x - 48, y: p.y - 20, width: 96, height: 40 })
    expect(a.uiStateHashBefore).toMatch(/^[0-9a-f]{16}$/)
    expect(a.uiStateHashBefore).not.toBe(a.uiStateHashAfter)
    expect(a.screenTransition?.changed).toBe(true)
    expect(calls).toHaveLength(1)
  })

  it('keeps the case when the vision provider fails: coordinates + screenshots, enrichment pending', async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    const analyzer: ElementAnalyzer = {
      analyzeElementAt: async () => {
        throw new Error('VISION_UNAVAILABLE: endpoint unreachable')
      },
      inferIntent: () => 'x',
    }
    const rec = createDesktopRecorder({ input, screen, outDir: dir, frameIntervalMs: 15, settleMs: 30, analyzer })
    await rec.start()
    await sleep(30)
    click(input, 10, 10)
    const tc = await rec.stop()
    expect(tc.actions[0]).toMatchObject({ x: 10, y: 10, enrichmentStatus: 'pending' })
    expect(tc.actions[0]?.semanticInfo ?? null).toBeNull()
    expect(await readFile(join(dir, tc.actions[0]?.screenshotBeforePath ?? ''))).toBeTruthy()
  })

  it('records 40 clicks at 20 clicks/s without losing one, while a slow analysis runs behind', async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    let inFlight = 0
    let maxInFlight = 0
    const analyzer: ElementAnalyzer = {
      async analyzeElementAt() {
        inFlight++
        maxInFlight = Math.max(maxInFlight, inFlight)
        await sleep(40) // slower than the clicks come in
        inFlight--
        return { element: null }
      },
      inferIntent: () => 'x',
    }
    const rec = createDesktopRecorder({ input, screen, outDir: dir, frameIntervalMs: 20, settleMs: 40, analyzer })
    await rec.start()
    await sleep(30)
    const points: [number, number][] = []
    for (let i = 0; i < 40; i++) {
      const x = 10 + ((i * 37) % 400)
      const y = 10 + ((i * 53) % 280)
      points.push([x, y])
      click(input, x, y)
      await sleep(50)
    }
    const capturingDuring = rec.progress()
    const tc = await rec.stop()
    expect(tc.actions.map((a) => [a.x, a.y])).toEqual(points)
    expect(tc.actions.every((a) => a.screenshotBeforePath && a.screenshotPath && a.elementCropPath)).toBe(true)
    expect(maxInFlight).toBe(1) // one analysis at a time, in the background
    expect(capturingDuring.toAnalyze).toBeGreaterThan(0)
  })

  it('records the window holding the keyboard focus for a key step and for typing, none for a click', async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    const game = { box: { x: 420, y: 200, width: 640, height: 480 }, className: 'lbreakout2', title: 'LBreakout2' }
    const rec = createDesktopRecorder({
      input,
      screen,
      outDir: dir,
      frameIntervalMs: 15,
      settleMs: 30,
      quietMs: 0,
      focusedWindow: async () => game,
    })
    await rec.start()
    await sleep(40)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'arrowdown' })
    await sleep(80)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'a', char: 'a' })
    await sleep(80)
    const p = centre(START)
    click(input, p.x, p.y)
    await sleep(120)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    expect(tc.actions.map((a) => [a.actionType, a.window ?? null])).toEqual([
      ['key_press', game],
      ['type', game],
      ['click', null],
    ])
  })

  it('records the program window under each click as it was at the press (a button that closes it)', async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    // the program's window is open until the first click's release closes it (xmessage's buttons do)
    let open = true
    const asked: { x: number; y: number }[] = []
    const windowAt = async (x: number, y: number) => {
      asked.push({ x, y })
      return open ? { box: { x: 60, y: 50, width: 300, height: 200 }, className: 'Xmessage', title: 'question' } : null
    }
    const rec = createDesktopRecorder({ input, screen, outDir: dir, frameIntervalMs: 15, settleMs: 60, windowAt })
    await rec.start()
    await sleep(40)
    const p = centre(START)
    input.emit({ kind: 'mousedown', timeMs: nowMs(), x: p.x, y: p.y, button: 'left' })
    await sleep(5)
    open = false
    input.emit({ kind: 'mouseup', timeMs: nowMs(), x: p.x, y: p.y, button: 'left' })
    await sleep(60)
    click(input, 5, 5) // over no window now
    await sleep(200)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    expect(asked).toEqual([p, { x: 5, y: 5 }])
    expect(tc.actions.map((a) => a.window ?? null)).toEqual([
      { box: { x: 60, y: 50, width: 300, height: 200 }, className: 'Xmessage', title: 'question' },
      null,
    ])
  })

  it('records the list the pointer rested on, though the click closed it before the press was asked about', async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    const main = { box: { x: 0, y: 0, width: 640, height: 480 }, className: 'kmines' }
    const list = { box: { x: 100, y: 100, width: 82, height: 102 }, className: 'kmines' }
    // the drop-down's list (an override-redirect window over the main one) is open until the click
    let listOpen = true
    const windowAt = async () => (listOpen ? list : main)
    const rec = createDesktopRecorder({ input, screen, outDir: dir, frameIntervalMs: 15, settleMs: 60, windowAt })
    await rec.start()
    await sleep(40)
    const p = centre(START)
    input.emit({ kind: 'mousemove', timeMs: nowMs(), x: p.x, y: p.y })
    await sleep(200) // the person rests on the item
    listOpen = false // the click closes the list before the press is asked about (a loaded machine)
    input.emit({ kind: 'mousedown', timeMs: nowMs(), x: p.x, y: p.y, button: 'left' })
    input.emit({ kind: 'mouseup', timeMs: nowMs(), x: p.x, y: p.y, button: 'left' })
    await sleep(60)
    // a click without a rest: the window at the press
    input.emit({ kind: 'mousemove', timeMs: nowMs(), x: 5, y: 5 })
    input.emit({ kind: 'mousedown', timeMs: nowMs(), x: 5, y: 5, button: 'left' })
    input.emit({ kind: 'mouseup', timeMs: nowMs(), x: 5, y: 5, button: 'left' })
    await sleep(200)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    expect(tc.actions.filter((a) => a.actionType === 'click').map((a) => a.window ?? null)).toEqual([list, main])
  })

  it('refuses to start twice', async () => {
    const rec = createDesktopRecorder({
      input: scriptedInput(),
      screen: memoryScreen(menu),
      outDir: dir,
      frameIntervalMs: 20,
      settleMs: 10,
    })
    await rec.start()
    await expect(rec.start()).rejects.toMatchObject({ code: 'DESKTOP_BAD_STATE' })
    await rec.stop()
  })
})

// click actions are complete: every recorded click carries its physical coordinates and semantic_info with a
// target_element. Drives the real recorder (memory screen, scripted hook) with random clicks and elements.
describe('the element crop without the hover effect', () => {
  it('is cut from the newest frame before the pointer came near the button, not from the highlighted one', async () => {
    const hovered = buttonScreen(480, 320, [{ ...START, rgb: [120, 170, 250] }])
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    const rec = createDesktopRecorder({ input, screen, outDir: dir, frameIntervalMs: 15, settleMs: 60 })
    await rec.start()
    const p = centre(START)
    input.emit({ kind: 'mousemove', timeMs: nowMs(), x: 20, y: 300 })
    await sleep(60)
    // the pointer arrives and rests on the button; the toolkit draws it highlighted from then on
    input.emit({ kind: 'mousemove', timeMs: nowMs(), x: p.x, y: p.y })
    screen.set(hovered)
    await sleep(120)
    click(input, p.x, p.y)
    await sleep(20)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    const a = tc.actions[0]
    if (!a?.elementCropBox) throw new Error('no crop')
    const crop = await decodeImage(join(dir, a.elementCropPath ?? ''))
    expect(framesEqual(crop, cropFrame(menu, a.elementCropBox))).toBe(true)
    expect(framesEqual(crop, cropFrame(hovered, a.elementCropBox))).toBe(false)
    // the before-screenshot stays the screen just before the click (what the click acted on)
    expect(framesEqual(await decodeImage(join(dir, a.screenshotBeforePath ?? '')), hovered)).toBe(true)
  })

  it('pointerArrivalMs: the first position near the click after the last one away from it', () => {
    const near = { halfWidth: 96, halfHeight: 40 }
    const moves = [
      { timeMs: 0, x: 500, y: 500 },
      { timeMs: 10, x: 150, y: 120 },
      { timeMs: 20, x: 100, y: 100 },
      { timeMs: 30, x: 102, y: 101 },
      { timeMs: 90, x: 600, y: 100 },
    ]
    expect(pointerArrivalMs(moves, 100, 100, 35, near)).toBe(10)
    // moves after the click are not its approach
    expect(pointerArrivalMs(moves, 100, 100, 25, near)).toBe(10)
    // rested there longer than the trail reaches back, or no move seen: unknown
    expect(pointerArrivalMs(moves.slice(2, 4), 100, 100, 35, near)).toBeNull()
    expect(pointerArrivalMs([], 100, 100, 35, near)).toBeNull()
  })

  it('keeps the usual crop when the pointer was already resting there before the previous action', async () => {
    const screen = memoryScreen(menu)
    const input = scriptedInput()
    const rec = createDesktopRecorder({ input, screen, outDir: dir, frameIntervalMs: 15, settleMs: 40 })
    await rec.start()
    const p = centre(START)
    input.emit({ kind: 'mousemove', timeMs: nowMs(), x: 20, y: 300 })
    await sleep(40)
    input.emit({ kind: 'mousemove', timeMs: nowMs(), x: p.x, y: p.y })
    await sleep(40)
    click(input, p.x, p.y)
    await sleep(80)
    // the first click turned the button red; the second click on the same place must crop the red button
    const red = buttonScreen(480, 320, [{ ...START, rgb: [200, 60, 60] }])
    screen.set(red)
    await sleep(600) // past the double-click window: a second click of its own
    click(input, p.x, p.y)
    await sleep(80)
    input.emit({ kind: 'keydown', timeMs: nowMs(), key: 'f10' })
    const tc = await rec.stop()
    const second = tc.actions[1]
    if (!second?.elementCropBox) throw new Error('no second crop')
    const crop = await decodeImage(join(dir, second.elementCropPath ?? ''))
    expect(framesEqual(crop, cropFrame(red, second.elementCropBox))).toBe(true)
  })
})

describe('click actions are complete', () => {
  const small = buttonScreen(120, 80, [{ x: 20, y: 20, width: 60, height: 30, rgb: [45, 108, 223], label: 3 }])
  const arbClick = fc.record({
    x: fc.integer({ min: 0, max: 119 }),
    y: fc.integer({ min: 0, max: 79 }),
    button: fc.constantFrom('left' as const, 'right' as const),
    type: fc.constantFrom('button', 'icon', 'text_field', ''),
    text: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
  })
  let run = 0
  test.prop([fc.array(arbClick, { minLength: 1, maxLength: 3 })], { numRuns: 100 })(
    'every click has x, y and semantic_info.target_element',
    async (clicks) => {
      const input = scriptedInput()
      const seen: { x: number; y: number }[] = []
      const analyzer: ElementAnalyzer = {
        async analyzeElementAt(_img, x, y) {
          seen.push({ x, y })
          const c = clicks[seen.length - 1] ?? clicks[0]
          return {
            element: {
              type: c?.type ?? 'button',
              ...(c?.text !== undefined ? { text: c.text } : {}),
              boundingBox: { x: Math.max(0, x - 5), y: Math.max(0, y - 5), width: 10, height: 10 },
              confidence: 0.8,
            },
          }
        },
        inferIntent: () => 'click_element',
      }
      const rec = createDesktopRecorder({
        input,
        screen: memoryScreen(small),
        outDir: join(dir, String(run++)),
        frameIntervalMs: 5,
        settleMs: 0,
        quietMs: 0,
        analyzer,
        coalesce: { doubleClickMs: 1 },
      })
      await rec.start()
      await sleep(8)
      for (const c of clicks) {
        const t = nowMs()
        input.emit({ kind: 'mousedown', timeMs: t, x: c.x, y: c.y, button: c.button })
        input.emit({ kind: 'mouseup', timeMs: t + 1, x: c.x, y: c.y, button: c.button })
        await sleep(4)
      }
      const tc = await rec.stop()
      expect(tc.actions.map((a) => [a.actionType, a.x, a.y])).toEqual(
        clicks.map((c) => [c.button === 'right' ? 'right_click' : 'click', c.x, c.y]),
      )
      for (const a of tc.actions) {
        expect(Number.isFinite(a.x) && Number.isFinite(a.y)).toBe(true)
        expect(a.enrichmentStatus).toBe('enriched')
        expect(a.semanticInfo?.targetElement).toMatchObject({ boundingBox: { width: 10, height: 10 } })
        expect(a.semanticInfo?.targetElement?.type).toBeTruthy()
      }
    },
    // 100 real recorder sessions: ~10 s on an idle machine, three times that on a loaded CI machine
    120_000,
  )
})
