import type { TargetElement } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { original, source, target } from '../__tests__/screen-step'
import { noiseFrame } from '../internal/synthetic'
import { locateOnScreen } from './locate-on-screen'
import type { ScreenSource } from './types'

describe('locateOnScreen by OCR', () => {
  it('a low-confidence label is never used alone to click', async () => {
    const blank = noiseFrame(400, 300, 14, 6, 4)
    const words = [{ text: '입장', x: 10, y: 250 }]
    // recorded at 41 %: the OCR strategy does not run, nothing is clicked
    const lowRecorded = await locateOnScreen(
      { original, target: { ...target, confidence: 0.41 } },
      source(blank, undefined, words),
    )
    expect(lowRecorded.status).toBe('not_found')
    expect(lowRecorded.attempts.find((a) => a.strategy === 'ocr')).toMatchObject({ outcome: 'skipped' })
    expect(lowRecorded.attempts.find((a) => a.strategy === 'ocr')?.detail).toMatch(/low-confidence \(0\.41 < 0\.60\)/)
    // read now at 41 %: the word agrees but is no place to click
    const unsure: ScreenSource = {
      capture: async () => blank,
      ocr: async () => [{ text: '입장', boundingBox: { x: 10, y: 250, width: 40, height: 20 }, confidence: 0.41 }],
    }
    const lowNow = await locateOnScreen({ original, target }, unsure)
    expect(lowNow.status).toBe('not_found')
    expect(lowNow.attempts.find((a) => a.strategy === 'ocr')).toMatchObject({ outcome: 'below_threshold' })
    // the same label recorded and read with confidence is found
    const sure = await locateOnScreen(
      { original, target: { ...target, confidence: 0.9 } },
      source(blank, undefined, words),
    )
    expect(sure).toMatchObject({ status: 'found', strategy: 'ocr' })
  })

  it('finds the label by OCR, refuses an ambiguous label; coordinates only when allowed', async () => {
    const blank = noiseFrame(400, 300, 14, 6, 4)
    const ocr = await locateOnScreen(
      { original, target },
      source(blank, undefined, [
        { text: '입장', x: 10, y: 250 },
        { text: '나가기', x: 200, y: 20 },
      ]),
    )
    expect(ocr).toMatchObject({ strategy: 'ocr', point: { x: 30, y: 260 } })
    const words = [
      { text: '입장', x: 10, y: 250 },
      { text: '입장', x: 300, y: 10 },
    ]
    // by default nothing is clicked blindly: not found, the coordinate fallback named as not allowed
    const twice = await locateOnScreen({ original, target }, source(blank, undefined, words))
    expect(twice).toMatchObject({ status: 'not_found', strategy: 'failed', coordinateFallback: false })
    expect(twice.point).toBeUndefined()
    expect(twice.attempts.find((a) => a.strategy === 'ocr')?.outcome).toBe('ambiguous')
    expect(twice.attempts.at(-1)).toMatchObject({ strategy: 'coordinate', outcome: 'skipped' })
    expect(twice.attempts.at(-1)?.detail).toMatch(/--allow-coordinates/)
    const allowed = await locateOnScreen({ original, target }, source(blank, undefined, words), {
      allowCoordinateFallback: true,
    })
    expect(allowed).toMatchObject({ strategy: 'coordinate', coordinateFallback: true, point: original, confidence: 0 })
  })

  it('a label read exactly gives the scale it is drawn at now (its width ratio); a misread one gives none', async () => {
    const blank = noiseFrame(400, 300, 14, 6, 4)
    const search: TargetElement = {
      type: 'text',
      text: 'Search button',
      boundingBox: { x: 100, y: 50, width: 80, height: 12 },
    }
    const read = (text: string) => ({
      capture: async () => blank,
      ocr: async () => [{ text, boundingBox: { x: 20, y: 200, width: 100, height: 15 }, confidence: 0.9 }],
    })
    // the recorded label 80 px wide, 100 px now: a font 1.25× as large
    const exact = await locateOnScreen({ original, target: search }, read('Search button'))
    expect(exact).toMatchObject({ strategy: 'ocr', scale: 1.25 })
    expect(exact.attempts.at(-1)?.detail).toMatch(/drawn 1\.25× as wide/)
    // one letter misread: found (a long label), but its width says nothing sure about the font
    const misread = await locateOnScreen({ original, target: search }, read('Search buttom'))
    expect(misread.strategy).toBe('ocr')
    expect(misread.scale).toBeUndefined()
  })

  it('a short label must be read exactly: "Ctrl+C" is not "Ctrl+A", a longer label tolerates a misread letter', async () => {
    const blank = noiseFrame(400, 300, 15, 6, 4)
    const shortcut = { ...target, text: 'Ctrl+A' }
    const other = await locateOnScreen(
      { original, target: shortcut },
      source(blank, undefined, [{ text: 'Ctrl+C', x: 20, y: 200 }]),
    )
    expect(other.status).toBe('not_found')
    expect(other.attempts.find((a) => a.strategy === 'ocr')).toMatchObject({ outcome: 'below_threshold' })
    const same = await locateOnScreen(
      { original, target: shortcut },
      source(blank, undefined, [{ text: 'ctrl+a', x: 20, y: 200 }]),
    )
    expect(same).toMatchObject({ status: 'found', strategy: 'ocr', point: { x: 40, y: 210 } })
    const long = await locateOnScreen(
      { original, target: { ...target, text: 'Delete Entry' } },
      source(blank, undefined, [{ text: 'Delete Entrv', x: 20, y: 200 }]),
    )
    expect(long).toMatchObject({ status: 'found', strategy: 'ocr' })
  })
})
