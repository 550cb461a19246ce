// The expected-change check on real screens: the Tk keypad fixture of @qa/recorder-desktop
// on an 800×600 Xvfb, clicked with xdotool and captured with the replayer's own capture
// (packages/recorder-desktop/test/fixtures/make-keypad-frames.sh). The window covers under 30 % of the screen,
// so a wrong key changes a few hundred pixels of 480 000: whole-screen similarity cannot see it.
import { fileURLToPath } from 'node:url'
import { fc, test } from '@fast-check/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { syntheticFrame } from './__tests__/images'
import { compareScreenshots } from './compare-screenshots'
import { type DecodedScreenshot, decodeScreenshot } from './decode-screenshot'
import { decideVerdict } from './decide-verdict'
import { assessExpectedChange, caretPixels, changedRegions, changeMask, type RgbaImage } from './expected-change'
import { fakeReverifier } from './fake-reverifier'
import { verifyStep } from './verify-step'

const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/keypad/${name}`, import.meta.url))
/** Key "3" as recorded (centre (298, 269)): the recorder's 96×40 element crop box around the click. */
const KEY_3_BOX = { x: 250, y: 249, width: 96, height: 40 }
/** make-keypad-frames.sh moved the window by (+120, +70) for the moved-* frames. */
const MOVED = { x: 120, y: 70 }

let before: DecodedScreenshot
let after3: DecodedScreenshot
let after4: DecodedScreenshot
let movedBefore: DecodedScreenshot
let movedAfter3: DecodedScreenshot
beforeAll(async () => {
  const read = (f: string) => decodeScreenshot(fixture(f))
  before = await read('before.png')
  after3 = await read('after-3.png')
  after4 = await read('after-4.png')
  movedBefore = await read('moved-before.png')
  movedAfter3 = await read('moved-after-3.png')
})

const wholeScreen = async (expected: RgbaImage, actual: RgbaImage) =>
  (await compareScreenshots({ ...expected, channels: 4 }, { ...actual, channels: 4 })).similarity

describe('expected change on a real keypad (Tk under Xvfb)', () => {
  it('finds what the click on "3" changed: the field text, nowhere else', () => {
    const regions = changedRegions(changeMask(before, after3), 800, 600)
    expect(regions.length).toBeGreaterThanOrEqual(1)
    // the field is the entry at the top of the window (y 48–80), right of "7*"
    for (const r of regions) {
      expect(r.y).toBeGreaterThanOrEqual(48)
      expect(r.y + r.height).toBeLessThanOrEqual(81)
      expect(r.x).toBeGreaterThanOrEqual(48)
      expect(r.x + r.width).toBeLessThanOrEqual(446)
    }
  })

  it('a wrong click ("4" instead of "3") fails although the whole screen is more than 99 % alike', async () => {
    expect(await wholeScreen(after3, after4)).toBeGreaterThan(0.99)
    const r = assessExpectedChange({
      recordedBefore: before,
      recordedAfter: after3,
      actualAfter: after4,
      actualBefore: before,
      targetBox: KEY_3_BOX,
    })
    expect(r.changeSimilarity).not.toBeNull()
    expect(r.regionSimilarity).toBeLessThan(0.7)
    const d = decideVerdict({
      similarity: await wholeScreen(after3, after4),
      region: r,
      vision: { status: 'unavailable', reason: 'none' },
    })
    expect(d.status).toBe('fail')
  })

  it('the same through verifyStep (files, no vision): fail, with the region and both similarities reported', async () => {
    const v = await verifyStep({
      actionIndex: 2,
      description: 'Click "3"',
      expected: fixture('after-3.png'),
      actual: fixture('after-4.png'),
      recordedBefore: fixture('before.png'),
      actualBefore: fixture('before.png'),
      targetBox: KEY_3_BOX,
    })
    expect(v.finalResult).toBe('fail')
    expect(v.screenshotSimilarity).toBeGreaterThan(0.99)
    expect(v.regionSimilarity).toBeLessThan(0.7)
    // the expected region holds the field and the key
    expect(v.expectedRegion?.y).toBeLessThanOrEqual(60)
    expect((v.expectedRegion?.y ?? 0) + (v.expectedRegion?.height ?? 0)).toBeGreaterThanOrEqual(KEY_3_BOX.y + 40)
    expect(v.details?.region).toMatchObject({ expected_change_missing: false, changed_elsewhere: false })
  })

  it('an expected change that did not happen fails: the field still shows "7*"', async () => {
    const v = await verifyStep({
      actionIndex: 2,
      description: 'Click "3"',
      expected: fixture('after-3.png'),
      actual: fixture('before.png'),
      recordedBefore: fixture('before.png'),
      actualBefore: fixture('before.png'),
      targetBox: KEY_3_BOX,
    })
    expect(v.screenshotSimilarity).toBeGreaterThan(0.99)
    expect(v.finalResult).toBe('fail')
    expect(v.reason).toMatch(/expected change did not happen/)
    expect(v.details?.region).toMatchObject({ expected_change_missing: true })
  })

  it('the right click passes, with region similarity 1', async () => {
    const v = await verifyStep({
      actionIndex: 2,
      description: 'Click "3"',
      expected: fixture('after-3.png'),
      actual: fixture('after-3.png'),
      recordedBefore: fixture('before.png'),
      actualBefore: fixture('before.png'),
      targetBox: KEY_3_BOX,
    })
    expect(v.finalResult).toBe('pass')
    expect(v.regionSimilarity).toBe(1)
  })

  it('the window moved: the region moves with the displacement and the right click passes', async () => {
    // whole-screen similarity no longer says anything useful here
    expect(await wholeScreen(after3, movedAfter3)).toBeLessThan(0.95)
    const v = await verifyStep({
      actionIndex: 2,
      description: 'Click "3"',
      expected: after3,
      actual: movedAfter3,
      recordedBefore: before,
      actualBefore: movedBefore,
      displacement: MOVED,
      targetBox: KEY_3_BOX,
    })
    expect(v.finalResult).toBe('pass')
    expect(v.actualRegion).toEqual({
      ...(v.expectedRegion as object),
      x: (v.expectedRegion?.x ?? 0) + 120,
      y: (v.expectedRegion?.y ?? 0) + 70,
    })
    // without the displacement the same screens do not match
    const unmapped = assessExpectedChange({ recordedBefore: before, recordedAfter: after3, actualAfter: movedAfter3 })
    expect(decideVerdict({ region: unmapped }).status).not.toBe('pass')
  })

  const withBox = (frame: DecodedScreenshot) => {
    const out = { ...frame, data: new Uint8Array(frame.data) }
    for (let y = 450; y < 520; y++) for (let x = 600; x < 760; x++) out.data.set([40, 90, 200, 255], (y * 800 + x) * 4)
    return out
  }

  it('a change somewhere else instead (the field unchanged, a box drawn away from it) fails', async () => {
    const v = await verifyStep({
      actionIndex: 2,
      description: 'Click "3"',
      expected: fixture('after-3.png'),
      actual: withBox(before),
      recordedBefore: fixture('before.png'),
      actualBefore: fixture('before.png'),
      targetBox: KEY_3_BOX,
    })
    expect(v.finalResult).toBe('fail')
    expect(v.reason).toMatch(/outside its expected region/)
    expect(v.details?.region).toMatchObject({
      changed_elsewhere: true,
      unexpected_pixels: 160 * 70,
      unexpected_regions: [{ x: 600, y: 450, width: 160, height: 70 }],
    })
  })

  it('a change elsewhere beside the expected one is a warning, never a pass', async () => {
    const v = await verifyStep({
      actionIndex: 2,
      description: 'Click "3"',
      expected: fixture('after-3.png'),
      actual: withBox(after3),
      recordedBefore: fixture('before.png'),
      actualBefore: fixture('before.png'),
      targetBox: KEY_3_BOX,
    })
    expect(v.finalResult).toBe('warning')
    expect(v.reason).toMatch(/also changed the screen elsewhere/)
  })

  it('the vision second opinion gets the expected region, not the whole screen', async () => {
    const reverifier = fakeReverifier({ match: false })
    const whole = fakeReverifier({ match: false })
    const step = {
      actionIndex: 2,
      description: 'Click "3"',
      expected: fixture('after-3.png'),
      actual: fixture('after-4.png'),
    }
    await verifyStep({ ...step, recordedBefore: fixture('before.png'), targetBox: KEY_3_BOX }, { reverifier })
    await verifyStep(step, { reverifier: whole, policy: { passSimilarity: 0.9999 } })
    expect(reverifier.calls).toHaveLength(1)
    expect(whole.calls).toHaveLength(1)
    // PNG crops of the region: far fewer bytes than the whole screens the old flow sent
    const crop = reverifier.calls[0] as { expectedBytes: number; actualBytes: number }
    const screen = whole.calls[0] as { expectedBytes: number; actualBytes: number }
    expect(crop.expectedBytes).toBeLessThan(screen.expectedBytes / 2)
    expect(crop.actualBytes).toBeLessThan(screen.actualBytes / 2)
  })
})

// ---------------------------------------------------------------------------------------------------------
// Properties on synthetic screens

const W = 96
const H = 72
const arbRect = fc
  .record({ x: fc.integer({ min: 0, max: W - 8 }), y: fc.integer({ min: 0, max: H - 8 }) })
  .chain(({ x, y }) =>
    fc.record({
      x: fc.constant(x),
      y: fc.constant(y),
      width: fc.integer({ min: 8, max: Math.min(24, W - x) }),
      height: fc.integer({ min: 8, max: Math.min(24, H - y) }),
    }),
  )

/** Every channel of every pixel in `r` moved by 128 (wrapping): a change no colour difference measure misses. */
function flipRect(img: RgbaImage, r: { x: number; y: number; width: number; height: number }) {
  const out = { ...img, data: new Uint8Array(img.data) }
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++)
      for (let c = 0; c < 3; c++) {
        const i = (y * img.width + x) * 4 + c
        out.data[i] = ((out.data[i] as number) + 128) % 256
      }
  return out
}

function paintRect(img: RgbaImage, r: { x: number; y: number; width: number; height: number }, rgb: number[]) {
  const out = { ...img, data: new Uint8Array(img.data) }
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++) out.data.set([...rgb, 255], (y * img.width + x) * 4)
  return out
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a, margin: number) =>
  a.x < b.x + b.width + margin &&
  b.x < a.x + a.width + margin &&
  a.y < b.y + b.height + margin &&
  b.y < a.y + a.height + margin

describe('expected-change properties', () => {
  test.prop([fc.integer({ min: 1, max: 1e6 }), arbRect, fc.option(arbRect, { nil: undefined })], { numRuns: 100 })(
    'an after-frame identical to the recorded one always passes',
    (seed, change, targetBox) => {
      const recordedBefore = syntheticFrame(W, H, seed)
      const recordedAfter = paintRect(recordedBefore, change, [200, 30, 30])
      const r = assessExpectedChange({
        recordedBefore,
        recordedAfter,
        actualAfter: { ...recordedAfter, data: new Uint8Array(recordedAfter.data) },
        actualBefore: recordedBefore,
        targetBox: targetBox ?? null,
      })
      expect(r.regionSimilarity).toBe(1)
      expect(r.unexpectedPixels).toBe(0)
      expect(decideVerdict({ region: r }).status).toBe('pass')
    },
  )

  test.prop([fc.integer({ min: 1, max: 1e6 }), arbRect, arbRect], { numRuns: 100 })(
    'a change confined outside the expected region, unlike the recording, is reported and never passes',
    (seed, change, other) => {
      fc.pre(!overlaps(change, other, 8))
      const recordedBefore = paintRect(syntheticFrame(W, H, seed), other, [10, 10, 10])
      // the recording changed the screen plainly: every channel of every pixel of the rectangle moved by 128 (a
      // fixed paint colour may already lie under most of it: the property run with seed=767796 at 66,56 changed one column of 8 visibly)
      const recordedAfter = flipRect(recordedBefore, change)
      // the replay made the recorded change, and another one elsewhere
      const actualAfter = paintRect(recordedAfter, other, [250, 250, 120])
      const r = assessExpectedChange({ recordedBefore, recordedAfter, actualAfter, actualBefore: recordedBefore })
      expect(r.unexpectedPixels).toBe(other.width * other.height)
      expect(r.unexpectedRegions).toEqual([other])
      expect(r.changedElsewhere).toBe(true)
      // beside the expected change: a warning; instead of it (the replay changed only the other place): a fail
      expect(decideVerdict({ region: r }).status).toBe('warning')
      const instead = assessExpectedChange({
        recordedBefore,
        recordedAfter,
        actualAfter: paintRect(recordedBefore, other, [250, 250, 120]),
        actualBefore: recordedBefore,
      })
      expect(instead.unexpectedRegions).toEqual([other])
      expect(decideVerdict({ region: instead }).status).toBe('fail')
    },
  )
})

describe('a program drawn larger on replay (a screen of another size): scale-mapped regions', () => {
  /** A white screen with blue rectangles. */
  const screen = (w: number, h: number, rects: { x: number; y: number; width: number; height: number }[]) => {
    const data = new Uint8Array(w * h * 4).fill(255)
    for (const r of rects)
      for (let y = r.y; y < r.y + r.height; y++)
        for (let x = r.x; x < r.x + r.width; x++) data.set([30, 90, 200, 255], (y * w + x) * 4)
    return { width: w, height: h, data }
  }
  // recorded on 200×100: the click at (50, 25) made a panel appear at (120, 40), 40×20
  const click = { x: 50, y: 25 }
  const recordedBefore = screen(200, 100, [])
  const recordedAfter = screen(200, 100, [{ x: 120, y: 40, width: 40, height: 20 }])
  // replayed on 400×200 with the program drawn at 2×: the click was found at (120, 70); the panel is at
  // (120 + (120 − 50)·2, 70 + (40 − 25)·2) = (260, 100), 80×40
  const located = { x: 120, y: 70 }
  const displacement = { x: located.x - click.x, y: located.y - click.y }
  const actualBefore = screen(400, 200, [])
  const actualAfter = screen(400, 200, [{ x: 260, y: 100, width: 80, height: 40 }])
  const input = { recordedBefore, recordedAfter, actualBefore, actualAfter, displacement }

  it('compares the recorded change where the scale puts it: the step did what was recorded', () => {
    const r = assessExpectedChange({ ...input, scale: 2, anchor: click })
    expect(r.scale).toBe(2)
    expect(r.regionSimilarity).toBeGreaterThan(0.95)
    expect(r.expectedChangeMissing).toBe(false)
    expect(r.changedElsewhere).toBe(false)
    expect(r.actualRegion).toEqual({ x: 260, y: 100, width: 80, height: 40 })
  })

  it('moved only (scale 1), the same replay reads as a missing change and a change elsewhere', () => {
    const r = assessExpectedChange(input)
    expect(r.regionSimilarity).toBeLessThan(0.5)
    expect(r.changedElsewhere).toBe(true)
  })

  // the program draws at the new size itself: a 2 px outline of a 1.4× panel lands a pixel off where each
  // recorded pixel maps to (FLTK's sudoku digits at 1.39×: region 69 % pixel for pixel)
  const outline = (x: number, y: number, w: number, h: number, t: number) => [
    { x, y, width: w, height: t },
    { x, y: y + h - t, width: w, height: t },
    { x, y, width: t, height: h },
    { x: x + w - t, y, width: t, height: h },
  ]
  const cross = (x: number, y: number, w: number, h: number, t: number) => [
    { x, y: y + Math.round(h / 2) - 1, width: w, height: t },
    { x: x + Math.round(w / 2) - 1, y, width: t, height: h },
  ]
  // 1.4× about the click: the panel's corner maps to (50 + 70·1.4, 25 + 15·1.4) = (148, 46), drawn one pixel off
  const scaledInput = (drawn: { x: number; y: number; width: number; height: number }[]) => ({
    recordedBefore,
    recordedAfter: screen(200, 100, outline(120, 40, 40, 20, 2)),
    actualBefore: screen(280, 140, []),
    actualAfter: screen(280, 140, drawn),
    displacement: { x: 0, y: 0 },
    scale: 1.4,
    anchor: click,
  })

  it('a panel the program drew at 1.4× itself, a pixel off the mapped place, is the recorded change', () => {
    const r = assessExpectedChange(scaledInput(outline(149, 47, 56, 28, 3)))
    expect(r.regionSimilarity).toBeGreaterThan(0.95)
    expect(r.changedElsewhere).toBe(false)
  })

  it('a region far from the target, drawn 3 px off where the measured scale puts it, is still found', () => {
    const r = assessExpectedChange(scaledInput(outline(151, 49, 56, 28, 3)))
    expect(r.regionSimilarity).toBeGreaterThan(0.95)
    // within the pixel a scaled comparison allows
    expect(Math.abs((r.actualRegion?.x ?? 0) - 151)).toBeLessThanOrEqual(1)
    expect(Math.abs((r.actualRegion?.y ?? 0) - 49)).toBeLessThanOrEqual(1)
  })

  it('another drawing at 1.4× (a cross for an outline) is not', () => {
    const r = assessExpectedChange(scaledInput(cross(149, 47, 56, 28, 3)))
    expect(r.regionSimilarity).toBeLessThan(0.5)
  })

  it('thin strokes drawn at 1.4× (typed text) are the change made, never "still as before" around them', () => {
    // 1 px strokes every 3 px: at 1.4× each recorded stroke pixel has the old background a pixel away
    const strokes = (x0: number, y: number, n: number, pitch: number, h: number) =>
      Array.from({ length: n }, (_, k) => ({ x: Math.round(x0 + k * pitch), y, width: 1, height: h }))
    const r = assessExpectedChange({
      ...scaledInput(strokes(149, 47, 13, 3 * 1.4, 28)),
      recordedAfter: screen(200, 100, strokes(120, 40, 13, 3, 20)),
    })
    expect(r.expectedChangeMissing).toBe(false)
    expect(r.unchangedShare).toBeLessThan(0.2)
    expect(r.regionSimilarity).toBeGreaterThan(0.7)
  })

  it('at 1.4× a change running on past its region (text in a larger font) is no change elsewhere; far off it is', () => {
    const panel = { x: 148, y: 46, width: 56, height: 28 }
    // the panel as recorded, plus 16 px more of it to the right: within 0.4 × 40 px of where the scale puts it
    const longer = assessExpectedChange(scaledInput([panel, { x: 204 + 8, y: 50, width: 16, height: 8 }]))
    expect(longer.changedElsewhere).toBe(false)
    const far = assessExpectedChange(scaledInput([panel, { x: 20, y: 100, width: 16, height: 8 }]))
    expect(far.changedElsewhere).toBe(true)
  })

  it('a scaled replay where the panel did not appear still fails', () => {
    const r = assessExpectedChange({ ...input, actualAfter: actualBefore, scale: 2, anchor: click })
    expect(r.expectedChangeMissing).toBe(true)
    expect(r.regionSimilarity).toBeLessThan(0.5)
  })
})

describe('a text caret is no difference of the effect (a recorded frame caught it lit, a capture hides it)', () => {
  const white = (w: number, h: number): RgbaImage => ({
    width: w,
    height: h,
    data: new Uint8Array(w * h * 4).fill(255),
  })
  const draw = (img: RgbaImage, x: number, y: number, w: number, h: number) => {
    for (let yy = y; yy < y + h; yy++)
      for (let xx = x; xx < x + w; xx++) img.data.fill(0, (yy * img.width + xx) * 4, (yy * img.width + xx) * 4 + 3)
  }
  /** A field 200×40 at (10, 10); "text": blocks like glyphs; a caret: a 1-px bar 24 px tall. */
  const field = (text: boolean, caretX: number | null) => {
    const img = white(240, 60)
    draw(img, 10, 10, 200, 1)
    draw(img, 10, 49, 200, 1)
    if (text) for (let k = 0; k < 5; k++) draw(img, 16 + k * 14, 20, 9, 18)
    if (caretX !== null) draw(img, caretX, 17, 1, 24)
    return img
  }
  const box = { x: 10, y: 10, width: 200, height: 40 }
  it('typing recorded with the caret shown passes against a screen without it; without the text it fails', () => {
    const base = { recordedBefore: field(false, 15), recordedAfter: field(true, 88), targetBox: box }
    const right = assessExpectedChange({ ...base, actualAfter: field(true, null) })
    expect(right.regionSimilarity).toBe(1)
    const missing = assessExpectedChange({ ...base, actualAfter: field(false, null) })
    expect(missing.regionSimilarity).toBeLessThan(0.5)
    expect(missing.expectedChangeMissing).toBe(true)
  })
  test.prop([fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 8, max: 40 })])(
    'caretPixels counts a thin bar, and never a block as wide as a glyph',
    (x, width, height) => {
      const w = 40
      const h = 50
      const mask = new Uint8Array(w * h)
      for (let y = 2; y < 2 + height; y++) mask.fill(1, y * w + x, y * w + x + width)
      expect(caretPixels(mask, w, h)).toBe(width * height)
      for (let y = 2; y < 2 + height; y++) mask.fill(1, y * w + x, y * w + x + width + 1)
      expect(caretPixels(mask, w, h)).toBe(width === 1 ? (width + 1) * height : 0)
    },
  )
})
