import { resolveConfig } from '@qa/model'
import { describe, expect, test } from 'vitest'
import { defaultFallback, visionConfigFromQa } from './config'

/** The vision section as the apps get it: the environment read by @qa/model's one declaration of QA_*. */
const visionOf = (env: Record<string, string>) => {
  const { config, issues } = resolveConfig(undefined, env)
  expect(issues).toEqual([])
  return config.vision
}

describe('visionConfigFromQa', () => {
  test('maps every vision setting of the resolved config', () => {
    const c = visionConfigFromQa(
      visionOf({
        QA_VISION: 'bedrock',
        QA_BEDROCK_MODEL: 'anthropic.claude-3-haiku-20240307-v1:0',
        AWS_REGION: 'ap-northeast-2',
        QA_VISION_TIMEOUT_MS: '20000',
        QA_VISION_CACHE_DIR: '/tmp/cache',
        QA_VISION_FALLBACK: 'ocr,none',
      }),
    )
    expect(c).toEqual({
      provider: 'bedrock',
      fallback: ['ocr', 'none'],
      bedrock: { modelId: 'anthropic.claude-3-haiku-20240307-v1:0', region: 'ap-northeast-2' },
      timeoutMs: 20000,
      cacheDir: '/tmp/cache',
    })
    const o = visionConfigFromQa(
      visionOf({ QA_VISION: 'openai', QA_OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', QA_OPENAI_MODEL: 'llava' }),
      { openaiApiKey: 'k' },
    )
    expect(o.openai).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llava', apiKey: 'k' })
    expect(visionConfigFromQa(visionOf({})).provider).toBe('ocr')
    expect(visionConfigFromQa(visionOf({ AWS_DEFAULT_REGION: 'eu-west-1', QA_VISION: 'bedrock' })).bedrock).toEqual({
      region: 'eu-west-1',
    })
  })

  test('bad vision settings are the config resolver’s issues, naming the variable', () => {
    const { issues } = resolveConfig(undefined, { QA_VISION: 'gpt', QA_VISION_TIMEOUT_MS: 'soon' })
    expect(issues.map((i) => i.path)).toEqual([
      'QA_VISION (vision.provider)',
      'QA_VISION_TIMEOUT_MS (vision.timeoutMs)',
    ])
    const openai = resolveConfig(undefined, { QA_VISION: 'openai', QA_OPENAI_MODEL: 'llava' }).issues
    expect(openai).toEqual([
      expect.objectContaining({ path: 'vision.openaiBaseUrl (QA_OPENAI_BASE_URL)', got: 'nothing' }),
    ])
  })

  test('default fallback chains: LLM → OCR → none', () => {
    expect(defaultFallback('bedrock')).toEqual(['ocr', 'none'])
    expect(defaultFallback('ocr')).toEqual(['none'])
    expect(defaultFallback('none')).toEqual([])
  })
})
