import { TRUSTED_LABEL_SCORE } from '@qa/vision'
import { describe, expect, it } from 'vitest'
import { changedBox, clickChangedOnlyItsLabel, pickClickLabel } from './semantic-info'

/** One read of the clicked item: its text, box and score as the OCR element analysis gives them. */
const read = (text: string | null, box: { x: number; y: number; width: number; height: number }, confidence: number) =>
  ({
    status: 'enriched' as const,
    semanticInfo:
      text === null
        ? null
        : {
            intent: 'click',
            targetElement: { type: 'text', text, description: null, boundingBox: box, confidence },
            context: { screenState: null },
          },
  }) as Parameters<typeof pickClickLabel>[0]

// LMarbles' main menu, clicked on "Quit" (y 356): at rest the item is orange and read; pressed, it is white and
// unread, and the element analysis of the pressed frame answers with "Options" two lines up
const quitAtRest = read('Quit', { x: 296, y: 350, width: 39, height: 12 }, 0.93)
const optionsPressed = read('Options', { x: 281, y: 336, width: 68, height: 13 }, 0.95)

describe('pickClickLabel (the item at rest and as pressed)', () => {
  it('the reads disagree: the one on the click line wins, at rest or pressed', () => {
    expect(pickClickLabel(quitAtRest, optionsPressed, 356).semanticInfo?.targetElement?.text).toBe('Quit')
    // KMines' drop-down list: "Hard" pressed (blue highlight) reads on its line; at rest the read went to "Medium"
    const hardPressed = read('Hard', { x: 479, y: 401, width: 27, height: 12 }, 0.9)
    const mediumAtRest = read('Medium', { x: 474, y: 376, width: 50, height: 12 }, 0.95)
    expect(pickClickLabel(mediumAtRest, hardPressed, 406).semanticInfo?.targetElement?.text).toBe('Hard')
  })
  it('the reads agree: the surer one, as it is', () => {
    const pressed = read('Audio', { x: 217, y: 416, width: 49, height: 11 }, 0.82)
    const atRest = read('Audio', { x: 219, y: 417, width: 45, height: 10 }, 0.93)
    expect(pickClickLabel(atRest, pressed, 422).semanticInfo?.targetElement?.confidence).toBe(0.93)
  })
  it('neither read on the click line and they disagree: the label is kept low-confidence, never trusted', () => {
    const above = read('Graphics', { x: 211, y: 401, width: 62, height: 11 }, 0.95)
    const below = read('Advanced', { x: 179, y: 435, width: 62, height: 9 }, 0.9)
    const got = pickClickLabel(above, below, 422).semanticInfo?.targetElement
    expect(got?.text).toBe('Graphics')
    expect(got?.confidence).toBeLessThan(TRUSTED_LABEL_SCORE)
  })
  it('one read saw nothing: the other stands alone', () => {
    const none = read(null, { x: 0, y: 0, width: 0, height: 0 }, 0)
    expect(pickClickLabel(none, optionsPressed, 356)).toBe(optionsPressed)
    expect(pickClickLabel(quitAtRest, none, 356)).toBe(quitAtRest)
  })
})

/** A 200×60 dark frame with light rectangles drawn where given. */
function frameWith(...boxes: { x: number; y: number; width: number; height: number }[]) {
  const width = 200
  const height = 60
  const data = new Uint8Array(width * height * 4)
  for (let i = 3; i < data.length; i += 4) data[i] = 255
  for (const b of boxes)
    for (let y = b.y; y < b.y + b.height; y++)
      for (let x = b.x; x < b.x + b.width; x++) data.fill(230, (y * width + x) * 4, (y * width + x) * 4 + 3)
  return { width, height, data, channels: 4 as const }
}

describe('clickChangedOnlyItsLabel (a toggle whose value is what the click changed)', () => {
  const label = { x: 10, y: 20, width: 40, height: 12 }
  const value = { x: 150, y: 20, width: 16, height: 12 }
  it('only the value\'s pixels changed ("On" → "Off"): true', () => {
    const before = frameWith(label, value)
    const after = frameWith(label, { ...value, width: 22 })
    expect(changedBox(before, after)).toEqual({ x: 166, y: 20, width: 6, height: 12 })
    expect(clickChangedOnlyItsLabel(value, before, after)).toBe(true)
  })
  it('LBreakout2\'s Speech value, "On" (14×9) right-aligned, became "Off", 15 px wider to the left: true', () => {
    const on = { x: 338, y: 392, width: 14, height: 9 }
    const before = { ...frameWith(), width: 400, height: 420, data: new Uint8Array(400 * 420 * 4) }
    const after = { ...before, data: new Uint8Array(before.data) }
    for (let y = 390; y < 401; y++) after.data.fill(200, (y * 400 + 323) * 4, (y * 400 + 352) * 4)
    expect(changedBox(before, after)).toEqual({ x: 323, y: 390, width: 29, height: 11 })
    expect(clickChangedOnlyItsLabel(on, before, after)).toBe(true)
  })
  it('a submenu replaced the screen around it, or nothing changed: false', () => {
    const before = frameWith(label, value)
    expect(clickChangedOnlyItsLabel(value, before, frameWith({ x: 10, y: 40, width: 100, height: 12 }))).toBe(false)
    expect(clickChangedOnlyItsLabel(value, before, frameWith(label, value))).toBe(false)
  })
})
