import type { TargetElement } from '@qa/model'
import { describe, expect, it } from 'vitest'
import type { UiAnalysis } from './find-matching-element'
import { cropFrame, noiseFrame, pasteScaled } from './internal/synthetic'
import { locateOnScreen, type ScreenSource } from './locate-on-screen'

const recorded = noiseFrame(400, 300, 11, 6, 4)
const crop = cropFrame(recorded, 180, 130, 48, 30)
const target: TargetElement = { type: 'button', text: '입장', boundingBox: { x: 180, y: 130, width: 48, height: 30 } }
const original = { x: 204, y: 145 }

function source(
  frame = recorded,
  analysis?: UiAnalysis,
  words?: { text: string; x: number; y: number }[],
): ScreenSource & { analyses: number } {
  const s: ScreenSource & { analyses: number } = {
    analyses: 0,
    capture: async () => frame,
  }
  if (analysis)
    s.analyze = async () => {
      s.analyses++
      return analysis
    }
  if (words)
    s.ocr = async () =>
      words.map((w) => ({ text: w.text, boundingBox: { x: w.x, y: w.y, width: 40, height: 20 }, confidence: 0.9 }))
  return s
}

describe('locateOnScreen', () => {
  it('takes the fast path without an analysis when the pixels are unchanged', async () => {
    const s = source(recorded, { elements: [] })
    const r = await locateOnScreen({ original, target, crop, cropBox: { x: 180, y: 130, width: 48, height: 30 } }, s)
    expect(r).toMatchObject({ status: 'found', strategy: 'direct', point: original })
    expect(s.analyses).toBe(0)
  })

  it('uses the semantic match when the element moved and the analysis finds it', async () => {
    const moved = noiseFrame(400, 300, 12, 6, 4)
    const ui: UiAnalysis = {
      width: 400,
      height: 300,
      elements: [{ type: 'button', text: '입장', boundingBox: { x: 300, y: 200, width: 48, height: 30 } }],
    }
    const r = await locateOnScreen({ original, target, crop }, source(moved, ui))
    expect(r.strategy).toBe('semantic')
    expect(r.point).toEqual({ x: 324, y: 215 })
    expect(r.attempts[0]).toMatchObject({ strategy: 'direct', outcome: 'below_threshold' })
  })

  it('falls to template matching when the analysis is not confident, keeping the click offset', async () => {
    const moved = noiseFrame(400, 300, 13, 6, 4)
    pasteScaled(moved, crop, 40, 60, 1)
    const ui: UiAnalysis = {
      elements: [{ type: 'icon', text: '설정', boundingBox: { x: 5, y: 5, width: 20, height: 20 } }],
    }
    const r = await locateOnScreen(
      { original, target, crop, cropBox: { x: 180, y: 130, width: 48, height: 30 } },
      source(moved, ui),
    )
    expect(r.strategy).toBe('template')
    expect(r.point?.x).toBeCloseTo(64, 0)
    expect(r.point?.y).toBeCloseTo(75, 0)
    expect(r.attempts.map((a) => a.outcome)).toEqual(['below_threshold', 'below_threshold', 'matched'])
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
})
