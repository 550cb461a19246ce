import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { fc, test } from '@fast-check/vitest'
import { labelReadImage, locateOnScreen, textSimilarity } from '@qa/matcher'
import { createUIAnalyzer, TRUSTED_LABEL_SCORE } from '@qa/vision'
import { afterAll, describe, expect, it } from 'vitest'
import { desktopVision } from './desktop-vision'
import { decodeImage } from './frame'
import type { ClickRead } from './semantic-info'
import { readClickLabel, settleByThirdRead, thirdReadBox, thirdReadOf } from './third-read'

/** One read of the clicked item: its text, box and score as the OCR element analysis gives them. */
const read = (text: string, box: { x: number; y: number; width: number; height: number }, confidence: number) =>
  ({
    status: 'enriched',
    semanticInfo: {
      intent: 'click_text',
      targetElement: { type: 'text', text, description: null, boundingBox: box, confidence },
      context: { screenState: null },
    },
  }) as ClickRead

const label = (r: ClickRead | null) => r?.semanticInfo?.targetElement

/**
 * Real screens of the games bench (Xvfb, 320×320 parts of them): flsudoku's menu bar, whose "Difficulty" the
 * element analysis reads as "fficulty" (0.45) on this puzzle's screen; KMines' status bar, its difficulty drop-down
 * "Easy" under the pointer read at 0.46; KMines' opened list with "Hard" lit blue, read "dard".
 */
const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url)))
const screens = {
  flsudoku: { png: fixture('flsudoku-menu-bar.png'), click: { x: 160, y: 62 } },
  easy: { png: fixture('kmines-status-easy.png'), click: { x: 160, y: 160 } },
  hardLit: { png: fixture('kmines-list-hard-lit.png'), click: { x: 160, y: 160 } },
}

describe('a third read of the label’s own box (real screens, real Tesseract)', () => {
  const analyzer = createUIAnalyzer({ provider: 'ocr', fallback: [] })
  afterAll(() => analyzer.close())
  const framesOf = async (png: Uint8Array) => ({ pressed: { png, frame: await decodeImage(png) }, atRest: null })

  it('flsudoku’s "Difficulty", read cut short and unsure, is read whole and trusted', async () => {
    const { png, click } = screens.flsudoku
    const got = label(await readClickLabel(analyzer, await framesOf(png), click.x, click.y))
    expect(got?.text).toBe('Difficulty')
    expect(got?.confidence).toBeGreaterThanOrEqual(TRUSTED_LABEL_SCORE)
    // the menu bar's next item ("Help", 16 px to the right) stays out of the label and of its box
    expect((got?.boundingBox?.x ?? 0) + (got?.boundingBox?.width ?? 0)).toBeLessThan(205)
  })

  it('KMines’ "Easy", read unsure on its drop-down, is trusted once its own box reads it again', async () => {
    const { png, click } = screens.easy
    const got = label(await readClickLabel(analyzer, await framesOf(png), click.x, click.y))
    expect(got?.text).toBe('Easy')
    expect(got?.confidence).toBeGreaterThanOrEqual(TRUSTED_LABEL_SCORE)
  })

  it('KMines’ lit "Hard": the third read reads the lit item’s own text, and settles "Hard" against "dard"', async () => {
    const { png, click } = screens.hardLit
    const frame = await decodeImage(png)
    // the two reads of the real run: at rest "Hard" (0.59), pressed "dard" (0.66), both on the click's line
    const atRest = read('Hard', { x: 136, y: 155, width: 29, height: 10 }, 0.59)
    const pressed = read('dard', { x: 138, y: 155, width: 27, height: 18 }, 0.66)
    const box = thirdReadBox(frame, [atRest, pressed], click.x, click.y)
    expect(box).not.toBeNull()
    const image = labelReadImage(frame, box as NonNullable<typeof box>)
    const third = thirdReadOf((await analyzer.analyzeScreen(image.image)).elements, image, box!, 'click_text')
    expect(label(third)?.text).toBe('Hard')
    const settled = label(settleByThirdRead([atRest, pressed], third, click.y))
    expect(settled?.text).toBe('Hard')
    expect(settled?.confidence).toBeGreaterThanOrEqual(TRUSTED_LABEL_SCORE)
  })

  it('a neighbour’s text read on the click line is never where the third read looks', async () => {
    const { png, click } = screens.easy
    const frame = await decodeImage(png)
    // at rest the analysis answered with the status bar's "110 Time: 00:00" left of the drop-down
    const neighbour = read('110 Time: 00:00', { x: 40, y: 156, width: 74, height: 12 }, 0.7)
    expect(thirdReadBox(frame, [neighbour], click.x, click.y)).toBeNull()
    const easy = read('Easy', { x: 127, y: 156, width: 29, height: 12 }, 0.46)
    const box = thirdReadBox(frame, [neighbour, easy], click.x, click.y)
    expect(box?.x).toBeGreaterThan(114)
  })
})

describe('replay: a trusted label the whole screen’s read glued to its neighbours (real screen, real Tesseract)', () => {
  const vision = desktopVision({ provider: 'ocr', fallback: [] })
  afterAll(() => vision.close())

  it('KMines on the Windows style: "Easy" is read again alone in "Mines: 0/10 Time: 00:00 Easy" and clicked there', async () => {
    // the window at (60, 50); its status bar's three fields read as one unsure phrase (0.44), so the label, trusted
    // since the recording's third read, was not found on this screen before
    const frame = await decodeImage(fixture('kmines-windows-style.png'))
    const ocr = vision.ocr as NonNullable<typeof vision.ocr>
    const step = {
      original: { x: 507, y: 355 },
      target: {
        type: 'text',
        text: 'Easy',
        description: null,
        boundingBox: { x: 474, y: 351, width: 29, height: 12 },
        confidence: 0.94,
      },
    }
    const r = await locateOnScreen(step, { capture: async () => frame, ocr })
    expect(r.strategy).toBe('ocr')
    // the drop-down's text, 474–503 across and 352–363 down on this screen
    expect(r.point?.x).toBeGreaterThanOrEqual(476)
    expect(r.point?.x).toBeLessThanOrEqual(502)
    expect(r.point?.y).toBeGreaterThanOrEqual(352)
    expect(r.point?.y).toBeLessThanOrEqual(363)
  })

  it('a label that is not on the screen is not found by reading phrases again', async () => {
    const frame = await decodeImage(fixture('kmines-windows-style.png'))
    const step = {
      original: { x: 507, y: 355 },
      target: {
        type: 'text',
        text: 'Hard',
        description: null,
        boundingBox: { x: 474, y: 351, width: 29, height: 12 },
        confidence: 0.94,
      },
    }
    const r = await locateOnScreen(step, {
      capture: async () => frame,
      ocr: vision.ocr as NonNullable<typeof vision.ocr>,
    })
    expect(r.status).toBe('not_found')
  })
})

describe('settleByThirdRead (two of three reads)', () => {
  const line = { y: 401, height: 12 }
  const at = (x: number) => ({ x, ...line, width: 30 })
  it('the third read agrees with one of two disagreeing reads: that label, trusted', () => {
    const got = label(
      settleByThirdRead(
        [read('110 Time: 00:00', at(380), 0.7), read('Easy', at(474), 0.46)],
        read('Easy', at(474), 0.95),
        406,
      ),
    )
    expect(got?.text).toBe('Easy')
    expect(got?.confidence).toBe(0.95)
  })
  it('OCR noise is agreement ("dard" and "Hard"); the text is the one read exactly twice', () => {
    const got = label(
      settleByThirdRead([read('Hard', at(477), 0.59), read('dard', at(479), 0.66)], read('Hard', at(476), 0.5), 406),
    )
    expect(got?.text).toBe('Hard')
    expect(got?.confidence).toBeGreaterThanOrEqual(TRUSTED_LABEL_SCORE)
  })
  it('three different texts: nothing settled (the label stays untrusted)', () => {
    expect(
      settleByThirdRead([read('Easy', at(474), 0.46), read('Time', at(380), 0.5)], read('Medium', at(474), 0.9), 406),
    ).toBeNull()
  })
  it('a read off the click line never counts (a neighbouring row’s item)', () => {
    const above = { x: 474, y: 376, width: 50, height: 12 }
    expect(settleByThirdRead([read('Medium', above, 0.95)], read('Medium', above, 0.95), 406)).toBeNull()
    expect(settleByThirdRead([read('Hard', at(474), 0.5)], read('Hard', above, 0.95), 406)).toBeNull()
  })

  const word = fc.constantFrom('Easy', 'Hard', 'dard', 'Medium', 'dium', 'Difficulty', 'fficulty', 'Help', 'Quit')
  const aRead = fc.record({
    text: word,
    y: fc.integer({ min: 370, max: 430 }),
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  test.prop([fc.array(aRead, { minLength: 1, maxLength: 2 }), aRead], { numRuns: 200 })(
    'a settled label is the third read’s text, agreed by a read on the click line, and trusted',
    (firsts, third) => {
      const r = (a: typeof third) => read(a.text, { x: 474, y: a.y, width: 30, height: 12 }, a.confidence)
      const got = label(settleByThirdRead(firsts.map(r), r(third), 406))
      if (!got) return
      expect(got.text).toBe(third.text)
      expect(got.confidence).toBeGreaterThanOrEqual(TRUSTED_LABEL_SCORE)
      const onLine = firsts.filter((f) => f.y >= 406 - 14 && f.y <= 406 + 2)
      expect(onLine.some((f) => textSimilarity(f.text, third.text) >= 0.75)).toBe(true)
    },
  )
})
