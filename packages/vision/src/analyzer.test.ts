import { describe, expect, test } from 'vitest'
import { createUIAnalyzer } from './analyzer'
import { createResponseCache } from './cache'
import { VisionError } from './errors'
import { toImagePart } from './image'
import { fakeProvider } from './providers/fake'
import { renderBoxesPng, renderTextPng } from './testing/render-text'

describe('createUIAnalyzer with a fake provider', () => {
  test('analyzeElementAt sends a crop around the point plus the whole screen, and maps the box back', async () => {
    const fake = fakeProvider({
      answer: (q) => ({
        element: {
          type: 'button',
          text: '입장',
          description: '게임 입장 버튼',
          bounding_box: { x: 140, y: 130, width: 40, height: 30 },
        },
        intent: 'enter_game',
        screen_state: 'lobby',
        nearby_elements: ['설정', { text: '친구 목록' }],
        point: q.point,
      }),
    })
    const a = createUIAnalyzer({ provider: fake, fallback: [] })
    const screen = await renderBoxesPng([{ x: 240, y: 180, width: 80, height: 40, color: '#2255ff' }], {
      width: 800,
      height: 600,
    })
    const r = await a.analyzeElementAt(screen, 300, 200)
    const q = fake.calls[0]!
    expect(q.task).toBe('element')
    expect(q.images.map((i) => [i.width, i.height])).toEqual([
      [300, 300],
      [800, 600],
    ])
    expect(q.point).toEqual({ x: 150, y: 150 })
    expect(q.prompt).toContain('(150, 150)')
    // crop top-left is (150, 50): the box (140,130) in the crop is (290,180) on the screen
    expect(r.element).toMatchObject({
      type: 'button',
      text: '입장',
      boundingBox: { x: 290, y: 180, width: 40, height: 30 },
      center: { x: 310, y: 195 },
    })
    expect(r).toMatchObject({ intent: 'enter_game', screenState: 'lobby', nearbyElements: ['설정', '친구 목록'] })
    expect(a.inferIntent({ ...r.element!, intent: r.intent })).toBe('enter_game')
    await expect(a.analyzeElementAt(screen, 900, 10)).rejects.toMatchObject({ code: 'VISION_BAD_REQUEST' })
  })

  test('analyzeTransition: hash distance < 5 means no change and no model call', async () => {
    const fake = fakeProvider({
      answer: () => ({ changed: true, transition_type: 'popup_open', result_state: 'settings', success: true }),
    })
    const a = createUIAnalyzer({ provider: fake, fallback: [] })
    const before = await renderBoxesPng([{ x: 10, y: 10, width: 50, height: 50, color: '#000' }])
    const same = await renderBoxesPng([{ x: 10, y: 10, width: 51, height: 50, color: '#000' }])
    const t0 = await a.analyzeTransition(before, same)
    expect(t0).toMatchObject({ changed: false, transitionType: 'none', resultState: 'same' })
    expect(t0.hashDifference).toBeLessThan(5)
    expect(fake.calls).toHaveLength(0)
    const after = await renderBoxesPng([{ x: 100, y: 60, width: 200, height: 160, color: '#000' }])
    const t1 = await a.analyzeTransition(before, after)
    expect(fake.calls).toHaveLength(1)
    expect(t1).toMatchObject({ changed: true, transitionType: 'popup_open', resultState: 'settings', success: true })
    expect(t1.hashDifference).toBeGreaterThanOrEqual(5)
  })

  test('analyzeTransition without any provider able to judge falls back to the hash verdict', async () => {
    const a = createUIAnalyzer({ provider: 'none' })
    const t = await a.analyzeTransition(
      await renderBoxesPng([]),
      await renderBoxesPng([{ x: 0, y: 0, width: 320, height: 120, color: '#000' }]),
    )
    expect(t).toMatchObject({ changed: true, transitionType: 'full_transition' })
  })

  test('compareScreens returns the verdict; fallbacks and the answering provider are reported', async () => {
    const broken = fakeProvider({ name: 'primary', answer: () => new VisionError('VISION_AUTH', 'denied') })
    const backup = fakeProvider({
      name: 'backup',
      answer: () => '```json\n{"match": "yes", "reason": "same lobby", "confidence": 95}\n```',
    })
    const calls: string[] = []
    const a = createUIAnalyzer({ provider: broken, fallback: [backup], onCall: (i) => calls.push(i.provider) })
    const img = await renderTextPng([{ text: 'Lobby', x: 5, y: 30 }], { width: 90, height: 40 })
    expect(await a.compareScreens(img, img, 'open lobby')).toEqual({
      match: true,
      reason: 'same lobby',
      confidence: 0.95,
    })
    expect(a.lastCall?.fallbacks).toEqual([{ provider: 'primary', code: 'VISION_AUTH', message: 'denied' }])
    expect(calls).toEqual(['backup'])
    expect(a.usageByProvider().map((u) => [u.provider, u.calls])).toEqual([
      ['primary', 1],
      ['backup', 1],
    ])
  })

  test('the memory cache answers repeats without calling the provider; cache: false always calls', async () => {
    const fake = fakeProvider({
      answer: () => ({ elements: [{ type: 'icon', bounding_box: { x: 1, y: 1, width: 2, height: 2 } }] }),
    })
    const img = await renderTextPng([], { width: 40, height: 40 })
    const a = createUIAnalyzer({ provider: fake, fallback: [] })
    await a.analyzeScreen(img)
    await a.analyzeScreen(img)
    expect(fake.calls).toHaveLength(1)
    expect(a.usage()).toMatchObject({ calls: 1, cacheHits: 1 })
    const b = createUIAnalyzer({ provider: fake, fallback: [], cache: false })
    await b.analyzeScreen(img)
    await b.analyzeScreen(img)
    expect(fake.calls).toHaveLength(3)
  })

  test('a malformed answer is never cached', async () => {
    let n = 0
    const fake = fakeProvider({ answer: () => (n++ === 0 ? 'no idea' : { elements: [] }) })
    const cache = createResponseCache()
    const a = createUIAnalyzer({ provider: fake, fallback: ['none'], responseCache: cache })
    const img = await renderTextPng([], { width: 41, height: 40 })
    await a.analyzeScreen(img)
    expect(a.lastCall?.provider).toBe('none')
    await a.analyzeScreen(img)
    expect(a.lastCall?.provider).toBe('fake')
    expect(fake.calls).toHaveLength(2)
  })

  test('accepts raw frames and rejects bad images with a clear VISION_BAD_IMAGE', async () => {
    const a = createUIAnalyzer({ provider: 'none' })
    const raw = { width: 2, height: 2, channels: 4 as const, data: new Uint8Array(16).fill(255) }
    expect(await a.analyzeScreen(raw)).toEqual({ elements: [], width: 2, height: 2 })
    await expect(a.analyzeScreen({ ...raw, data: new Uint8Array(3) })).rejects.toMatchObject({
      code: 'VISION_BAD_IMAGE',
    })
    await expect(a.analyzeScreen(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ code: 'VISION_BAD_IMAGE' })
    expect((await toImagePart(raw)).format).toBe('png')
  })
})
