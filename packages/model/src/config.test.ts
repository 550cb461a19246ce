import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, resolveConfig } from './config'

describe('resolveConfig', () => {
  it('gives the defaults for nothing', () => {
    expect(resolveConfig(undefined, {})).toEqual({ config: DEFAULT_CONFIG, issues: [] })
  })

  it('layers file < env < flags', () => {
    const { config, issues } = resolveConfig(
      { verify: { passSimilarity: 0.9 }, replay: { reportDir: 'from-file', actionTimeoutMs: 1000 } },
      { QA_THRESHOLD: '0.97', QA_REPORT_DIR: 'from-env', QA_VISION: 'BEDROCK', AWS_REGION: 'ap-northeast-2' },
      { replay: { reportDir: 'from-flag' } },
    )
    expect(issues).toEqual([])
    expect(config.verify.passSimilarity).toBe(0.97)
    expect(config.replay).toMatchObject({ reportDir: 'from-flag', actionTimeoutMs: 1000 })
    expect(config.vision).toMatchObject({ provider: 'bedrock', region: 'ap-northeast-2' })
  })

  it('names unknown keys and bad values, from the file and from the environment', () => {
    const { issues } = resolveConfig(
      { verify: { passSimilarity: 1.5, treshold: 1 }, replay: { actionTimeoutMs: -1 }, viewer: {} },
      { QA_VISION: 'gpt', AWS_REGION: '', QA_VISION_TIMEOUT_MS: 'soon' },
    )
    expect(issues).toEqual([
      { path: 'verify.passSimilarity', expected: 'a number from 0 to 1', got: '1.5' },
      {
        path: 'verify.treshold',
        expected: 'one of verify.passSimilarity, verify.fallbackSimilarity, verify.masks',
        got: 'an unknown key',
      },
      { path: 'replay.actionTimeoutMs', expected: 'a positive integer', got: '-1' },
      {
        path: 'viewer',
        expected: 'one of the sections verify, vision, replay, browser, record',
        got: 'an unknown key',
      },
      { path: 'QA_VISION (vision.provider)', expected: 'one of "bedrock", "openai", "ocr", "none"', got: '"gpt"' },
      { path: 'QA_VISION_TIMEOUT_MS (vision.timeoutMs)', expected: 'a positive integer', got: 'NaN' },
    ])
  })

  it('reads replay.allowCoordinates (default off) and names a non-boolean', () => {
    expect(resolveConfig(undefined, {}).config.replay.allowCoordinates).toBe(false)
    expect(resolveConfig({ replay: { allowCoordinates: true } }, {}).config.replay.allowCoordinates).toBe(true)
    expect(
      resolveConfig({ replay: { allowCoordinates: true } }, {}, { replay: { allowCoordinates: false } }).config.replay
        .allowCoordinates,
    ).toBe(false)
    expect(resolveConfig({ replay: { allowCoordinates: 'yes' } }, {}).issues).toEqual([
      { path: 'replay.allowCoordinates', expected: 'true or false', got: '"yes"' },
    ])
  })

  it('checks masks, the viewport and the threshold order', () => {
    const { issues } = resolveConfig(
      {
        verify: { masks: [{ x: 0, y: 0, width: 0, height: 4 }], fallbackSimilarity: 0.99 },
        browser: { viewport: { width: 1280 } },
      },
      {},
    )
    expect(issues.map((i) => i.path)).toEqual(['verify.masks', 'browser.viewport', 'verify.fallbackSimilarity'])
  })

  test.prop([fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ noNaN: true })], { numRuns: 100 })(
    'a threshold is accepted exactly when it is in [0, 1]',
    (good, any) => {
      expect(resolveConfig({ verify: { passSimilarity: good, fallbackSimilarity: 0 } }, {}).issues).toEqual([])
      const bad = resolveConfig({ verify: { passSimilarity: any, fallbackSimilarity: 0 } }, {}).issues
      expect(bad.length === 0).toBe(any >= 0 && any <= 1)
    },
  )
})

describe('keys named like object internals', () => {
  it.each([
    ['{"verify": {"__proto__": {"passSimilarity": 2}}}', 'verify.__proto__'],
    ['{"verify": {"toString": 1}}', 'verify.toString'],
    ['{"constructor": {"name": 1}}', 'constructor'],
    ['{"toString": {}}', 'toString'],
  ])('%s is an unknown key naming its path, never a crash', (text, path) => {
    // JSON.parse keeps "__proto__" as an own key, as a config read from disk has it
    const { issues } = resolveConfig(JSON.parse(text), {}, {})
    expect(issues).toEqual([expect.objectContaining({ path, got: 'an unknown key' })])
  })
})
