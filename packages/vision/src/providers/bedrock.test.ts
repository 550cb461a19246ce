import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createUIAnalyzer } from '../analyzer'
import { isVisionError } from '../errors'
import { toImagePart } from '../image'
import { type BedrockStub, STUB_AWS_CREDENTIALS, startBedrockStub } from '../testing/bedrock-stub'
import { describeVisionProvider } from '../testing/describe-vision-provider'
import { renderBoxesPng, renderTextPng } from '../testing/render-text'
import { bedrockError, bedrockProvider } from './bedrock'

const MODEL = 'anthropic.claude-test-v1:0'
const screenJson = JSON.stringify({
  screen_state: 'main_menu',
  elements: [
    {
      type: 'button',
      text: '시작',
      description: '게임 시작 버튼',
      bounding_box: { x: 100, y: 50, width: 40, height: 20 },
      confidence: 0.9,
    },
  ],
})

let stub: BedrockStub
beforeAll(async () => {
  stub = await startBedrockStub()
})
afterAll(() => stub.close())
beforeEach(() => {
  stub.requests.length = 0
  stub.setDefault({ text: screenJson })
})

const bedrock = () => ({
  modelId: MODEL,
  region: 'us-east-1',
  endpoint: stub.endpoint,
  credentials: STUB_AWS_CREDENTIALS,
})
/** OCR that cannot start (no data for a made-up language): fails fast, so the chain moves on to none. */
const deadOcr = { languages: ['zzz'] }

function analyzer(extra: Partial<Parameters<typeof createUIAnalyzer>[0]> = {}) {
  const delays: number[] = []
  const a = createUIAnalyzer({
    provider: 'bedrock',
    bedrock: bedrock(),
    ocr: deadOcr,
    retryBaseDelayMs: 20,
    // generous: a loaded CI machine must not turn a slow first answer into a retry (two requests seen)
    timeoutMs: 60_000,
    sleep: async (ms) => {
      delays.push(ms)
      await new Promise((r) => setTimeout(r, 1))
    },
    ...extra,
  })
  return Object.assign(a, { delays })
}

describe('bedrock provider over the real SDK against the Converse stub', () => {
  test('the request carries the image bytes, the prompt, the system prompt and the model id', async () => {
    const png = await renderTextPng([{ text: 'Start', x: 20, y: 60 }], { width: 200, height: 100 })
    const a = analyzer()
    const result = await a.analyzeScreen(png)
    expect(stub.requests).toHaveLength(1)
    const req = stub.requests[0]!
    expect(req.modelId).toBe(MODEL)
    expect(req.images).toHaveLength(1)
    expect(req.images[0]!.format).toBe('png')
    expect(Buffer.from(req.images[0]!.bytes).equals(Buffer.from(png))).toBe(true)
    expect(req.prompt).toContain('interactive UI element')
    expect(req.prompt).toContain('Image 1 is 200×100 pixels.')
    expect(req.system).toContain('strict JSON')
    expect(req.body.inferenceConfig?.temperature).toBe(0)
    expect(result).toEqual({
      screenState: 'main_menu',
      width: 200,
      height: 100,
      elements: [
        {
          type: 'button',
          text: '시작',
          description: '게임 시작 버튼',
          boundingBox: { x: 100, y: 50, width: 40, height: 20 },
          center: { x: 120, y: 60 },
          confidence: 0.9,
        },
      ],
    })
    expect(a.lastCall).toMatchObject({ provider: 'bedrock', cached: false, fallbacks: [] })
    expect(a.usage()).toMatchObject({ calls: 1, cacheHits: 0, inputTokens: 1000 })
  })

  test('large screenshots are downscaled for cost and the boxes mapped back exactly', async () => {
    const png = await renderBoxesPng([{ x: 200, y: 100, width: 80, height: 40, color: '#3366ff' }], {
      width: 2000,
      height: 1000,
    })
    const a = analyzer({ bedrock: { ...bedrock(), maxImageSide: 1000 } })
    const result = await a.analyzeScreen(png)
    const sent = await toImagePart(stub.requests[0]!.images[0]!.bytes)
    expect([sent.width, sent.height]).toEqual([1000, 500])
    expect(stub.requests[0]!.prompt).toContain('Image 1 is 1000×500 pixels.')
    // The stub answered (100, 50, 40×20) in the 1000×500 image: that is (200, 100, 80×40) on the screen.
    expect(result.elements[0]!.boundingBox).toEqual({ x: 200, y: 100, width: 80, height: 40 })
    expect(result.width).toBe(2000)
  })

  test('a throttled call succeeds on retry, with growing delays', async () => {
    stub.reply({ error: 'throttle' }, { error: 'throttle' }, { error: 'throttle' })
    const a = analyzer({ random: () => 0.5 })
    const result = await a.analyzeScreen(await renderTextPng([], { width: 64, height: 64 }))
    expect(result.elements).toHaveLength(1)
    expect(stub.requests).toHaveLength(4)
    expect(a.delays).toHaveLength(3)
    expect(a.delays[1]!).toBeGreaterThan(a.delays[0]!)
    expect(a.delays[2]!).toBeGreaterThan(a.delays[1]!)
    expect(a.lastCall).toMatchObject({ provider: 'bedrock', fallbacks: [] })
    expect(a.usage().calls).toBe(4)
  })

  test('5xx errors are retried; a 400 validation error is not', async () => {
    stub.reply({ error: 'internal' })
    const a = analyzer()
    await a.analyzeScreen(await renderTextPng([], { width: 64, height: 64 }))
    expect(stub.requests).toHaveLength(2)

    stub.requests.length = 0
    stub.reply({ error: 'validation', message: 'model does not accept images' })
    const b = analyzer({ fallback: [] })
    const error = await b.analyzeScreen(await renderTextPng([], { width: 65, height: 64 })).catch((e: unknown) => e)
    expect(stub.requests).toHaveLength(1)
    expect(b.delays).toHaveLength(0)
    expect(isVisionError(error)).toBe(true)
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('VISION_BAD_REQUEST')
  })

  test('a dead provider falls back to OCR, then to none, and says so', async () => {
    stub.setDefault({ error: 'unavailable' })
    const a = analyzer({ maxRetries: 3 })
    const result = await a.analyzeScreen(await renderTextPng([{ text: 'x', x: 1, y: 20 }], { width: 64, height: 64 }))
    expect(result.elements).toEqual([])
    expect(stub.requests).toHaveLength(4) // 1 try + 3 retries
    expect(a.lastCall?.provider).toBe('none')
    expect(a.lastCall?.fallbacks.map((f) => [f.provider, f.code])).toEqual([
      ['bedrock', 'VISION_UNAVAILABLE'],
      ['ocr', 'VISION_OCR_DATA_MISSING'],
    ])
    expect(a.provider).toBe('bedrock>ocr>none')
  })

  test('a hanging endpoint times out per call and is retried, then falls back', async () => {
    stub.setDefault({ hang: true })
    // long enough for each call to reach the stub on a loaded machine before it times out
    const a = analyzer({ timeoutMs: 1500, maxRetries: 1 })
    const started = performance.now()
    const result = await a.analyzeScreen(await renderTextPng([], { width: 66, height: 64 }))
    expect(performance.now() - started).toBeGreaterThanOrEqual(2990)
    expect(result.elements).toEqual([])
    expect(stub.requests).toHaveLength(2)
    expect(a.lastCall?.fallbacks[0]).toMatchObject({ provider: 'bedrock', code: 'VISION_TIMEOUT' })
  })

  test('malformed output: repaired when possible, else VISION_BAD_ANSWER with the raw text, then fallback', async () => {
    stub.reply({
      text: 'Sure! Here it is:\n```json\n{"elements": [{"type": "icon", "bounding_box": [1, 2, 3, 4]},],}\n```',
    })
    const a = analyzer()
    const ok = await a.analyzeScreen(await renderTextPng([], { width: 67, height: 64 }))
    expect(ok.elements[0]).toMatchObject({ type: 'icon', boundingBox: { x: 1, y: 2, width: 3, height: 4 } })

    stub.setDefault({ text: 'I cannot help with that screenshot.' })
    const b = analyzer()
    const fallen = await b.analyzeScreen(await renderTextPng([], { width: 68, height: 64 }))
    expect(fallen.elements).toEqual([])
    expect(b.lastCall?.fallbacks[0]).toMatchObject({
      provider: 'bedrock',
      code: 'VISION_BAD_ANSWER',
      raw: 'I cannot help with that screenshot.',
    })
    expect(stub.requests).toHaveLength(2) // bad answers are not retried

    const c = analyzer({ fallback: [] })
    const error = (await c
      .analyzeScreen(await renderTextPng([], { width: 69, height: 64 }))
      .catch((e: unknown) => e)) as {
      code: string
      raw?: string
    }
    expect(error.code).toBe('VISION_ALL_FAILED')
    expect(error.raw).toBe('I cannot help with that screenshot.')
  })

  test('a second identical run hits the disk cache and makes 0 provider calls', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-vision-cache-'))
    try {
      const png = await renderTextPng([{ text: 'Play', x: 10, y: 40 }], { width: 120, height: 60 })
      const first = analyzer({ cacheDir: dir })
      const r1 = await first.analyzeScreen(png)
      expect(stub.requests).toHaveLength(1)
      expect((await readdir(dir)).filter((f) => f.endsWith('.json'))).toHaveLength(1)

      const second = analyzer({ cacheDir: dir }) // a new run: fresh memory, same folder
      const r2 = await second.analyzeScreen(png)
      expect(stub.requests).toHaveLength(1)
      expect(r2).toEqual(r1)
      expect(second.usage()).toMatchObject({ calls: 0, cacheHits: 1 })
      expect(second.lastCall).toMatchObject({ provider: 'bedrock', cached: true })

      const other = await renderTextPng([{ text: 'Quit', x: 10, y: 40 }], { width: 120, height: 60 })
      await second.analyzeScreen(other)
      expect(stub.requests).toHaveLength(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  test('SDK setup errors map to clear codes that are not retried', () => {
    const region = bedrockError(new Error('Region is missing'))
    expect([region.code, region.retryable]).toEqual(['VISION_BAD_CONFIG', false])
    const creds = bedrockError(
      Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }),
    )
    expect([creds.code, creds.retryable]).toEqual(['VISION_AUTH', false])
    const denied = bedrockError(
      Object.assign(new Error('no'), { name: 'AccessDeniedException', $metadata: { httpStatusCode: 403 } }),
    )
    expect(denied.code).toBe('VISION_AUTH')
    const throttled = bedrockError(
      Object.assign(new Error('slow'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 429 } }),
    )
    expect([throttled.code, throttled.retryable]).toEqual(['VISION_RATE_LIMITED', true])
  })
})

describeVisionProvider('bedrock (Converse stub)', async () => {
  const own = await startBedrockStub({
    default: (req) => ({
      text: req.prompt.includes('compare') ? '{"match": true, "reason": "same"}' : '{"elements": []}',
    }),
  })
  const p = bedrockProvider({
    modelId: MODEL,
    region: 'us-east-1',
    endpoint: own.endpoint,
    credentials: STUB_AWS_CREDENTIALS,
  })
  return { ...p, close: async () => own.close() }
})
