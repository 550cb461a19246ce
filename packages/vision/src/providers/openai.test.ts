import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createUIAnalyzer } from '../analyzer'
import { describeVisionProvider } from '../testing/describe-vision-provider'
import { type OpenAiStub, startOpenAiStub } from '../testing/openai-stub'
import { renderTextPng } from '../testing/render-text'
import { openAiProvider } from './openai'

let stub: OpenAiStub
beforeAll(async () => {
  stub = await startOpenAiStub()
})
afterAll(() => stub.close())
beforeEach(() => {
  stub.requests.length = 0
  stub.setDefault({ text: '{"match": false, "reason": "a dialog is open", "confidence": 0.8}' })
})

const make = (extra = {}) => {
  const delays: number[] = []
  const a = createUIAnalyzer({
    provider: 'openai',
    openai: { baseUrl: stub.baseUrl, model: 'qwen2.5vl:7b', apiKey: 'sk-test' },
    ocr: { languages: ['zzz'] },
    retryBaseDelayMs: 10,
    sleep: async (ms) => void delays.push(ms),
    ...extra,
  })
  return Object.assign(a, { delays })
}

describe('openai-compatible provider against the chat-completions stub', () => {
  test('compareScreens sends both images as data URIs with the intent, and returns the verdict', async () => {
    const expected = await renderTextPng([{ text: 'Lobby', x: 10, y: 40 }], { width: 100, height: 60 })
    const actual = await renderTextPng([{ text: 'Error', x: 10, y: 40 }], { width: 100, height: 60 })
    const a = make()
    const verdict = await a.compareScreens(expected, actual, 'open the lobby')
    expect(verdict).toEqual({ match: false, reason: 'a dialog is open', confidence: 0.8 })
    const req = stub.requests[0]!
    expect(req.body.model).toBe('qwen2.5vl:7b')
    expect(req.authorization).toBe('Bearer sk-test')
    expect(req.images.map((i) => Buffer.from(i.bytes).equals(Buffer.from(expected)))).toEqual([true, false])
    expect(Buffer.from(req.images[1]!.bytes).equals(Buffer.from(actual))).toBe(true)
    expect(req.prompt).toContain('"open the lobby"')
    expect(a.usage()).toMatchObject({ calls: 1, inputTokens: 1000 })
  })

  test('throttling (429) is retried with growing delays; 401 is not retried', async () => {
    stub.reply({ error: 'throttle' }, { error: 'throttle' })
    const a = make({ random: () => 1 })
    await a.compareScreens(await renderTextPng([]), await renderTextPng([{ text: 'a', x: 1, y: 20 }]), 'x')
    expect(stub.requests).toHaveLength(3)
    expect(a.delays).toEqual([10, 20])

    stub.requests.length = 0
    stub.reply({ error: 'access-denied' })
    const b = make()
    const error = (await b
      .compareScreens(await renderTextPng([]), await renderTextPng([]), 'y')
      .catch((e: unknown) => e)) as {
      code: string
      cause?: { code?: string }
    }
    expect(stub.requests).toHaveLength(1)
    // ocr and none cannot judge a comparison, so the verifier gets a rejection and uses its pixel fallback.
    expect(error.code).toBe('VISION_ALL_FAILED')
    expect(b.lastCall).toBeUndefined()
  })

  test('a non-JSON body is VISION_BAD_ANSWER keeping the raw body', async () => {
    stub.reply({ status: 200, body: '<html>proxy error</html>' })
    const p = openAiProvider({ baseUrl: stub.baseUrl, model: 'm' })
    const error = (await p.ask({ task: 'compare', images: [], prompt: 'x' }).catch((e: unknown) => e)) as {
      code: string
      raw: string
    }
    expect(error.code).toBe('VISION_BAD_ANSWER')
    expect(error.raw).toBe('<html>proxy error</html>')
  })

  test('missing settings are a clear VISION_BAD_CONFIG', () => {
    const error = (() => {
      try {
        openAiProvider({ baseUrl: '', model: '' })
      } catch (e) {
        return e as { code: string; hint: string }
      }
    })()
    expect(error?.code).toBe('VISION_BAD_CONFIG')
    expect(error?.hint).toContain('QA_OPENAI_BASE_URL')
  })
})

describeVisionProvider('openai (chat-completions stub)', async () => {
  const own = await startOpenAiStub({ default: { text: '{"elements": [], "match": true, "changed": true}' } })
  return { ...openAiProvider({ baseUrl: own.baseUrl, model: 'stub' }), close: () => own.close() }
})
