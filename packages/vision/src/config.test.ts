import { describe, expect, test } from 'vitest'
import { defaultFallback, visionConfigFromEnv } from './config'

describe('visionConfigFromEnv', () => {
  test('reads every variable', () => {
    const c = visionConfigFromEnv({
      QA_VISION: 'bedrock',
      QA_BEDROCK_MODEL: 'anthropic.claude-3-haiku-20240307-v1:0',
      AWS_REGION: 'ap-northeast-2',
      QA_VISION_TIMEOUT_MS: '20000',
      QA_VISION_CACHE_DIR: '/tmp/cache',
      QA_VISION_FALLBACK: 'ocr,none',
    })
    expect(c).toEqual({
      provider: 'bedrock',
      fallback: ['ocr', 'none'],
      bedrock: { modelId: 'anthropic.claude-3-haiku-20240307-v1:0', region: 'ap-northeast-2' },
      timeoutMs: 20000,
      cacheDir: '/tmp/cache',
    })
    const o = visionConfigFromEnv({
      QA_VISION: 'openai',
      QA_OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      QA_OPENAI_MODEL: 'llava',
      QA_OPENAI_API_KEY: 'k',
    })
    expect(o.openai).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llava', apiKey: 'k' })
    expect(visionConfigFromEnv({}).provider).toBe('ocr')
    expect(
      visionConfigFromEnv({ AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://x', QA_VISION: 'bedrock' }).bedrock,
    ).not.toHaveProperty('endpoint')
  })

  test('lists every problem with the variable, what was expected and what was found', () => {
    try {
      visionConfigFromEnv({ QA_VISION: 'gpt', QA_VISION_TIMEOUT_MS: 'soon', QA_OPENAI_MODEL: 'llava' })
      expect.unreachable()
    } catch (error) {
      const e = error as { code: string; message: string }
      expect(e.code).toBe('VISION_BAD_CONFIG')
      expect(e.message).toContain('QA_VISION: expected one of bedrock, openai, ocr, none, got "gpt"')
      expect(e.message).toContain('QA_VISION_TIMEOUT_MS: expected a positive integer (ms), got "soon"')
      expect(e.message).toContain('QA_OPENAI_BASE_URL: expected a URL')
    }
  })

  test('default fallback chains follow seed 001: LLM → OCR → none', () => {
    expect(defaultFallback('bedrock')).toEqual(['ocr', 'none'])
    expect(defaultFallback('ocr')).toEqual(['none'])
    expect(defaultFallback('none')).toEqual([])
  })
})
