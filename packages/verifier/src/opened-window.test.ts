// A step that opens a menu or a drop-down's list, a window of its own (KMines' difficulty list and Game menu): in
// another language the list is wider and grows to the left, so the part outside the recorded box read as "changed the
// screen outside its expected region". With the window the step opened (where the recording showed it, where it is
// now), what changed inside it is its appearing.
import { describe, expect, it } from 'vitest'
import type { Rect } from './compare-screenshots'
import { decideVerdict } from './decide-verdict'
import { assessExpectedChange, drawnByStep, type RgbaImage } from './expected-change'
import { AS_RECORDED } from './placement'
import { fillRect as fill, type Rgb } from './__tests__/images'

const W = 640
const H = 480
const BAR: Rgb = [196, 198, 200]
const LIST: Rgb = [252, 252, 252]
const INK: Rgb = [35, 38, 41]
const LIT: Rgb = [61, 174, 233]

function screen(): RgbaImage {
  const data = new Uint8Array(W * H * 4)
  for (let i = 0; i < W * H; i++) data.set([...BAR, 255], i * 4)
  return { width: W, height: H, data }
}
/** A word: a stroke per letter, heights by the letter. */
function word(img: RgbaImage, text: string, x: number, y: number): void {
  ;[...text].forEach((ch, k) => {
    const h = 5 + (ch.charCodeAt(0) % 6)
    fill(img, { x: x + k * 6, y: y + 11 - h, width: 2, height: h }, INK)
  })
}
/** The status bar's drop-down showing `current`, and its list opened above it, right-aligned at x = 550. */
function bar(current: string): RgbaImage {
  const img = screen()
  word(img, current, 470, 352)
  return img
}
function withList(img: RgbaImage, rows: readonly string[], lit: number | null = null): { img: RgbaImage; box: Rect } {
  const width = Math.max(...rows.map((r) => r.length * 6 + 16))
  const box = { x: 550 - width, y: 240, width, height: rows.length * 24 + 6 }
  fill(img, box, LIST)
  rows.forEach((r, k) => {
    if (k === lit) fill(img, { x: box.x + 2, y: box.y + 3 + k * 24, width: box.width - 4, height: 24 }, LIT)
    word(img, r, box.x + 8, box.y + 9 + k * 24)
  })
  return { img, box }
}

const EN = ['Easy', 'Medium', 'Hard', 'Custom']
const DE = ['Einfach', 'Mittel', 'Schwer', 'Benutzerdefiniert']
const recordedBefore = bar('Easy')
const recorded = withList(bar('Easy'), EN, 0)
const actualBefore = bar('Einfach')
const actual = withList(bar('Einfach'), DE, 0)
const TARGET: Rect = { x: 450, y: 338, width: 96, height: 40 }

const assess = (after: RgbaImage, opened: readonly { recorded: Rect; now: Rect }[] | undefined) =>
  assessExpectedChange({
    recordedBefore,
    recordedAfter: recorded.img,
    actualBefore,
    actualAfter: after,
    targetBox: TARGET,
    ...(opened ? { opened } : {}),
  })
const unavailable = { status: 'unavailable' as const, reason: 'no second opinion' }

describe('a step that opened a window of its own', () => {
  it('without it, the German list wider than the English one reads as a change elsewhere and fails', () => {
    const r = assess(actual.img, undefined)
    expect(r.changedElsewhere).toBe(true)
    expect(decideVerdict({ region: r, vision: unavailable }).status).toBe('fail')
  })

  it('with it, the list is the step’s change at its real extent: no change elsewhere, not a failure', () => {
    const r = assess(actual.img, [{ recorded: recorded.box, now: actual.box }])
    expect(actual.box.width).toBeGreaterThan(recorded.box.width + 40)
    expect(r.openedWindows).toEqual([actual.box])
    expect(r.changedElsewhere).toBe(false)
    expect(decideVerdict({ region: r, vision: unavailable }).status).not.toBe('fail')
  })

  it('a change outside the opened window still fails the step', () => {
    const after = withList(bar('Einfach'), DE, 0).img
    fill(after, { x: 40, y: 40, width: 60, height: 30 }, [200, 40, 40])
    const r = assess(after, [{ recorded: recorded.box, now: actual.box }])
    expect(r.changedElsewhere).toBe(true)
    expect(r.unexpectedRegions).toEqual([{ x: 40, y: 40, width: 60, height: 30 }])
    expect(decideVerdict({ region: r, vision: unavailable }).status).toBe('fail')
  })

  it('a window the recorded step did not draw excuses nothing (the step opened another one)', () => {
    // the window the next step was recorded in lay elsewhere and the recorded step left it as it was
    const elsewhere = { x: 40, y: 40, width: 200, height: 102 }
    const r = assess(actual.img, [{ recorded: elsewhere, now: actual.box }])
    expect(r.openedWindows).toEqual([])
    expect(r.changedElsewhere).toBe(true)
  })

  it('drawnByStep: most of the recorded box changed, and the box now covers it', () => {
    const mask = new Uint8Array(W * H)
    for (let y = recorded.box.y; y < recorded.box.y + recorded.box.height; y++)
      for (let x = recorded.box.x; x < recorded.box.x + recorded.box.width; x++) mask[y * W + x] = 1
    expect(drawnByStep({ recorded: recorded.box, now: actual.box }, mask, W, H, AS_RECORDED)).toBe(true)
    // open far from where it was recorded: another window
    const far = { ...actual.box, x: 10, y: 10 }
    expect(drawnByStep({ recorded: recorded.box, now: far }, mask, W, H, AS_RECORDED)).toBe(false)
    expect(drawnByStep({ recorded: recorded.box, now: actual.box }, new Uint8Array(W * H), W, H, AS_RECORDED)).toBe(
      false,
    )
  })
})
