import sharp from 'sharp'
import { afterAll, describe, expect, test } from 'vitest'
import { createUIAnalyzer } from '../analyzer'
import { type TextLabel, renderTextPng } from '../testing/render-text'
import { STUB_AWS_CREDENTIALS, startBedrockStub } from '../testing/bedrock-stub'
import { describeVisionProvider } from '../testing/describe-vision-provider'
import { findTessdata, ocrProvider } from './ocr'

const SIZE = { width: 720, height: 300 }

/** The ink box of one label, found by rendering it alone and scanning for dark pixels. */
async function inkBox(label: TextLabel) {
  const png = await renderTextPng([label], SIZE)
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true })
  let x0 = Number.POSITIVE_INFINITY
  let y0 = Number.POSITIVE_INFINITY
  let x1 = -1
  let y1 = -1
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[y * info.width + x]! < 128) {
        x0 = Math.min(x0, x)
        y0 = Math.min(y0, y)
        x1 = Math.max(x1, x + 1)
        y1 = Math.max(y1, y + 1)
      }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

const labels: TextLabel[] = [
  { text: 'Start Game', x: 40, y: 70 },
  { text: 'Settings', x: 420, y: 70 },
  { text: '게임 시작', x: 40, y: 190 },
  { text: '설정', x: 420, y: 190 },
  { text: '확인', x: 560, y: 270, fontSize: 28 },
]

const analyzer = createUIAnalyzer({ provider: 'ocr', fallback: [] })
afterAll(() => analyzer.close())

describe('ocr provider (tesseract.js, offline data)', () => {
  test('English and Korean data are found locally', () => {
    const found = findTessdata(['eng', 'kor'])
    expect([...found.keys()]).toEqual(['eng', 'kor'])
  })

  test('finds English and Korean words with their boxes within a few pixels', async () => {
    const png = await renderTextPng(labels, SIZE)
    const result = await analyzer.analyzeScreen(png)
    expect(analyzer.lastCall?.provider).toBe('ocr')
    for (const label of labels) {
      const found = result.elements.find((e) => e.text === label.text)
      expect(found, `"${label.text}" in ${JSON.stringify(result.elements.map((e) => e.text))}`).toBeDefined()
      const truth = await inkBox(label)
      const b = found!.boundingBox
      for (const [got, want] of [
        [b.x, truth.x],
        [b.y, truth.y],
        [b.x + b.width, truth.x + truth.width],
        [b.y + b.height, truth.y + truth.height],
      ] as const)
        expect(
          Math.abs(got - want),
          `${label.text}: ${JSON.stringify(b)} vs ink ${JSON.stringify(truth)}`,
        ).toBeLessThanOrEqual(4)
      expect(found!.type).toBe('text')
      expect(found!.confidence).toBeGreaterThan(0.5)
    }
  })

  test('analyzeElementAt reads the label under the click, in screen coordinates', async () => {
    const png = await renderTextPng(labels, SIZE)
    const truth = await inkBox(labels[3]!)
    const r = await analyzer.analyzeElementAt(png, truth.x + 10, truth.y + 10)
    expect(r.element?.text).toBe('설정')
    expect(Math.abs(r.element!.boundingBox.x - truth.x)).toBeLessThanOrEqual(4)
    expect(analyzer.inferIntent(r.element)).toBe('open_settings')
  })

  test('a dead Bedrock falls back to real OCR, and the report says so', async () => {
    const stub = await startBedrockStub({ default: { error: 'internal' } })
    const a = createUIAnalyzer({
      provider: 'bedrock',
      bedrock: { modelId: 'm', region: 'us-east-1', endpoint: stub.endpoint, credentials: STUB_AWS_CREDENTIALS },
      retryBaseDelayMs: 5,
    })
    try {
      const r = await a.analyzeScreen(
        await renderTextPng([{ text: 'Play', x: 40, y: 80 }], { width: 300, height: 120 }),
      )
      expect(r.elements.map((e) => e.text)).toContain('Play')
      expect(a.lastCall?.provider).toBe('ocr')
      expect(a.lastCall?.fallbacks).toMatchObject([{ provider: 'bedrock', code: 'VISION_UNAVAILABLE' }])
      expect(stub.requests).toHaveLength(4)
    } finally {
      await a.close()
      await stub.close()
    }
  })
})

describeVisionProvider('ocr', () => ocrProvider(), { supports: ['screen', 'element', 'compare'] })

describe('ocr compare: the text of two regions (issue 14 Build 1, the offline second opinion)', () => {
  const provider = ocrProvider()
  afterAll(() => provider.close?.())
  const region = (text: string, color = '#000000', fontSize = 40, background = '#ffffff') =>
    renderTextPng([{ text, x: 30, y: 80, color, fontSize }], { width: 320, height: 130, background })
  const compare = async (a: Uint8Array, b: Uint8Array) => {
    const part = async (bytes: Uint8Array) => {
      const m = await sharp(bytes).metadata()
      return { bytes, format: 'png' as const, width: m.width ?? 0, height: m.height ?? 0 }
    }
    const answer = await provider.ask({ task: 'compare', images: [await part(a), await part(b)], prompt: 'compare' })
    return answer.data as { match: boolean; reason: string }
  }

  test('a field showing 7*4 where 7*3 was recorded is a mismatch', async () => {
    const got = await compare(await region('7*3'), await region('7*4'))
    expect(got.match).toBe(false)
    expect(got.reason).toMatch(/3" in the recorded region and "7\*?4"/)
  })
  test('the same label restyled (colour, size) is a match', async () => {
    const got = await compare(await region('New Game'), await region('New Game', '#1565c0', 48, '#fff3e0'))
    expect(got.match).toBe(true)
  })
})
