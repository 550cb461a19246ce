import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { cloneFrame, paintRect, syntheticFrame, toPng } from './__tests__/images'
import { fakeReverifier } from './fake-reverifier'
import { verifyStep } from './verify-step'

const expected = syntheticFrame(40, 30, 11)
const same = cloneFrame(expected)
const slightly = cloneFrame(expected) // ~20% differs: between 0.7 and 0.95
paintRect(slightly, 0, 0, 40, 6, [0, 0, 0])
const very = cloneFrame(expected) // ~60% differs: under 0.7
paintRect(very, 0, 0, 40, 18, [0, 0, 0])

const step = (actual: unknown, extra = {}) => ({
  actionIndex: 3,
  description: '로그인 버튼 클릭',
  expected,
  actual: actual as never,
  ...extra,
})

describe('verifyStep', () => {
  test('similar screens pass without asking vision', async () => {
    const vision = fakeReverifier({ match: false })
    const r = await verifyStep(step(same), { reverifier: vision })
    expect(r).toMatchObject({
      finalResult: 'pass',
      screenshotMatch: true,
      screenshotSimilarity: 1,
      visionVerified: false,
    })
    expect(vision.calls).toHaveLength(0)
  })

  test('below the threshold vision decides: match → warning, mismatch → fail; it gets PNG bytes and the intent', async () => {
    const yes = fakeReverifier({ match: true, reason: '같은 화면' })
    const r1 = await verifyStep(step(slightly, { intent: 'open settings' }), { reverifier: yes })
    expect(r1).toMatchObject({
      finalResult: 'warning',
      visionVerified: true,
      visionMatch: true,
      screenshotMatch: false,
    })
    expect(r1.reason).toContain('같은 화면')
    expect(yes.calls[0]?.intent).toBe('open settings')
    expect(yes.calls[0]?.expectedBytes).toBeGreaterThan(8)
    const no = fakeReverifier({ match: false })
    expect(await verifyStep(step(slightly), { reverifier: no })).toMatchObject({
      finalResult: 'fail',
      visionVerified: true,
      visionMatch: false,
    })
  })

  test('vision missing, throwing or too slow falls back to 0.7', async () => {
    for (const reverifier of [null, fakeReverifier({ fail: 'throttled' }), fakeReverifier({ hang: true })]) {
      const io = { reverifier, reverifyTimeoutMs: 50 }
      expect((await verifyStep(step(slightly), io)).finalResult).toBe('warning')
      const r = await verifyStep(step(very), io)
      expect(r).toMatchObject({ finalResult: 'fail', visionVerified: false })
    }
    const r = await verifyStep(step(slightly), { reverifier: fakeReverifier({ hang: true }), reverifyTimeoutMs: 30 })
    expect(r.reason).toContain('no answer within 30 ms')
  })

  test('thresholds are configurable', async () => {
    const r = await verifyStep(step(slightly), { policy: { passSimilarity: 0.5 } })
    expect(r.finalResult).toBe('pass')
    const f = await verifyStep(step(slightly), { policy: { fallbackSimilarity: 0.9 } })
    expect(f.finalResult).toBe('fail')
  })

  test('capture failure → fail; no expected screenshot → not compared (skipped); unreadable expected → fail', async () => {
    const boom = await verifyStep(step(() => Promise.reject(new Error('display gone'))))
    expect(boom).toMatchObject({ finalResult: 'fail' })
    expect(boom.reason).toContain('display gone')
    expect((await verifyStep(step(() => null))).finalResult).toBe('fail')
    const skipped = await verifyStep({ actionIndex: 0, description: 'x', expected: null, actual: same })
    expect(skipped).toMatchObject({ finalResult: 'pass', details: { skipped: true } })
    const missing = await verifyStep({ actionIndex: 0, description: 'x', expected: '/nonexistent/a.png', actual: same })
    expect(missing).toMatchObject({ finalResult: 'fail', details: { error_code: 'VERIFIER_FILE_NOT_FOUND' } })
  })

  test('writes the actual and diff PNGs of a failed step into artifactDir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-verifier-step-'))
    const r = await verifyStep(step(very), { artifactDir: dir })
    expect(r.diffScreenshot).toBe(join(dir, 'step-003-diff.png'))
    expect(r.actualScreenshot).toBe(join(dir, 'step-003-actual.png'))
    expect(existsSync(r.diffScreenshot as string) && existsSync(r.actualScreenshot as string)).toBe(true)
    const ok = await verifyStep({ ...step(same), actionIndex: 4 }, { artifactDir: dir })
    expect([ok.diffScreenshot, ok.actualScreenshot]).toEqual([null, null])
  })

  test('unknown regions of the recorded screenshots (a toolbar in a frame) are never compared', async () => {
    const before = syntheticFrame(40, 30, 7)
    const recordedAfter = cloneFrame(before)
    paintRect(recordedAfter, 4, 4, 12, 8, [255, 0, 0]) // the step's effect, in its target
    paintRect(recordedAfter, 28, 22, 12, 8, [0, 0, 255]) // pixels the recorder did not see cleanly
    const actual = cloneFrame(before)
    paintRect(actual, 4, 4, 12, 8, [255, 0, 0])
    const base = {
      actionIndex: 0,
      description: 'Click button "Open"',
      expected: recordedAfter,
      recordedBefore: before,
      targetBox: { x: 4, y: 4, width: 12, height: 8 },
      actual,
    }
    const compared = await verifyStep(base)
    expect(compared.finalResult).not.toBe('pass')
    const ignored = await verifyStep({ ...base, unknownRegions: [{ x: 28, y: 22, width: 12, height: 8 }] })
    expect(ignored.finalResult).toBe('pass')
    // the effect itself is still compared: an actual screen without it fails
    const missing = await verifyStep({
      ...base,
      actual: cloneFrame(before),
      unknownRegions: [{ x: 28, y: 22, width: 12, height: 8 }],
    })
    expect(missing.finalResult).toBe('fail')
  })

  test('a recheck leaves out what changes by itself between looks (an animated image), never most of the step’s own change', async () => {
    // recorded: the click turned the target red; a spinner (an animated image, 8×8 at 28, 20) turned by itself
    const before = syntheticFrame(60, 40, 5)
    const recordedAfter = cloneFrame(before)
    paintRect(recordedAfter, 4, 4, 16, 10, [255, 0, 0])
    paintRect(recordedAfter, 28, 20, 8, 4, [20, 20, 20])
    const spinnerAt = (k: number, effect: [number, number, number] = [255, 0, 0]) => {
      const f = cloneFrame(before)
      paintRect(f, 4, 4, 16, 10, effect)
      paintRect(f, 28 + (k % 2) * 4, 20 + (k % 3), 4, 8, [20, 20, 20]) // another angle at every look
      return f
    }
    const looks = (make: (k: number) => ReturnType<typeof spinnerAt>) => {
      let k = 0
      return async () => toPng(make(++k))
    }
    const base = {
      actionIndex: 0,
      description: 'Click button "Save"',
      expected: recordedAfter,
      recordedBefore: before,
      targetBox: { x: 4, y: 4, width: 16, height: 10 },
    }
    const once = await verifyStep({ ...base, actual: looks(spinnerAt) })
    expect(once.finalResult).not.toBe('pass')
    const rechecked = await verifyStep(
      { ...base, actual: looks(spinnerAt) },
      { recheck: { timeoutMs: 400, intervalMs: 20 } },
    )
    expect(rechecked.finalResult, rechecked.reason ?? '').toBe('pass')
    expect(rechecked.details?.animated_regions).toBeDefined()
    // the target still fading to its look at every look: the step's own change is judged, not left out
    const fading = (k: number) => spinnerAt(0, [255, 40 * (k % 5), 40 * (k % 5)])
    const underWay = await verifyStep(
      { ...base, actual: looks((k) => fading(k + 1)) },
      { recheck: { timeoutMs: 300, intervalMs: 20 } },
    )
    expect(underWay.finalResult).not.toBe('pass')
    expect(underWay.details?.animated_regions).toBeUndefined()
  })
})
