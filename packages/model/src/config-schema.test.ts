import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { configJsonSchema, resolveConfig } from './config'

const shipped = JSON.parse(readFileSync(new URL('../qa.config.schema.json', import.meta.url), 'utf8'))
const example = JSON.parse(readFileSync(new URL('../../../examples/qa.config.json', import.meta.url), 'utf8'))
const validate = new Ajv({ allErrors: true, strict: true }).compile(shipped)

describe('qa.config.schema.json', () => {
  it('is the schema generated from the config definition (regenerate: pnpm --filter @qa/model write-schema)', () => {
    expect(shipped).toEqual(configJsonSchema())
  })

  it('accepts the example config, "$schema" included, and so does resolveConfig', () => {
    expect(example.$schema).toBe('../packages/model/qa.config.schema.json')
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true)
    expect(resolveConfig(example, {}).issues).toEqual([])
  })

  it('rejects a wrong key, as resolveConfig does', () => {
    const typo = { ...example, verify: { ...example.verify, treshold: 0.9 } }
    expect(validate(typo)).toBe(false)
    expect(validate.errors).toContainEqual(
      expect.objectContaining({ instancePath: '/verify', params: { additionalProperty: 'treshold' } }),
    )
    expect(resolveConfig(typo, {}).issues.map((i) => i.path)).toEqual(['verify.treshold'])
    expect(validate({ viewer: {} })).toBe(false)
  })

  it.each([
    ['a threshold above 1', { verify: { passSimilarity: 1.5 } }],
    ['a negative timeout', { replay: { actionTimeoutMs: -1 } }],
    ['a fractional timeout', { vision: { timeoutMs: 2.5 } }],
    ['an unknown provider', { vision: { provider: 'gpt' } }],
    ['an unknown report format', { replay: { reportFormats: ['pdf'] } }],
    ['a region that is no region', { vision: { region: 'Seoul' } }],
    ['a URL without http', { vision: { openaiBaseUrl: 'ftp://x' } }],
    ['an empty report folder', { replay: { reportDir: '' } }],
    ['a mask without height', { verify: { masks: [{ x: 0, y: 0, width: 4 }] } }],
    ['a viewport with a third key', { browser: { viewport: { width: 1, height: 1, depth: 2 } } }],
    ['a string for a boolean', { browser: { headless: 'yes' } }],
    ['a non-string $schema', { $schema: 3 }],
  ])('rejects %s, as resolveConfig does', (_, config) => {
    expect(validate(config)).toBe(false)
    expect(resolveConfig(config, {}).issues).not.toEqual([])
  })

  it.each([
    ['every default', {}],
    ['null fallbacks and viewport', { vision: { fallback: null }, browser: { viewport: null } }],
    ['a GovCloud region', { vision: { region: 'us-gov-west-1' } }],
    ['an OpenAI-compatible endpoint', { vision: { openaiBaseUrl: 'http://127.0.0.1:11434/v1', openaiModel: 'm' } }],
  ])('accepts %s, as resolveConfig does', (_, config) => {
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true)
    expect(resolveConfig(config, {}).issues).toEqual([])
  })
})
