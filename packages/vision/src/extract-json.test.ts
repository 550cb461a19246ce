import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { extractJson, removeTrailingCommas, tryExtractJson } from './extract-json'

const prose = fc.string({ maxLength: 40 }).map((s) => s.replace(/[{}[\]`]/g, ''))
const jsonObject = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
const normalize = (v: unknown) => JSON.parse(JSON.stringify(v))

describe('extractJson', () => {
  // LLM text is parsed robustly: any JSON object wrapped in fences/prose parses back equal
  test.prop(
    [
      jsonObject,
      prose,
      prose,
      fc.constantFrom('', '```\n', '```json\n', '```JSON  \n'),
      fc.constantFrom(undefined, 0, 2),
    ],
    { numRuns: 200 },
  )('any JSON object wrapped in fences and prose parses back equal', (obj, before, after, fence, indent) => {
    const body = JSON.stringify(obj, null, indent)
    const wrapped = fence ? `${before}\n${fence}${body}\n\`\`\`\n${after}` : `${before} ${body} ${after}`
    expect(extractJson(wrapped)).toEqual(normalize(obj))
  })

  // trailing commas anywhere outside strings are tolerated
  test.prop([jsonObject], { numRuns: 100 })('trailing commas are tolerated', (obj) => {
    const withCommas = JSON.stringify(obj).replace(/([}\]])$/, ',$1')
    expect(extractJson(`Result: ${withCommas}`)).toEqual(normalize(obj))
    expect(JSON.parse(removeTrailingCommas(JSON.stringify(obj)))).toEqual(normalize(obj))
  })

  test('truncated output keeps the complete items and drops the cut one', () => {
    const cut = '```json\n{"screen_state": "lobby", "elements": [{"type": "button", "text": "입장"}, {"type": "butt'
    expect(extractJson(cut)).toEqual({ screen_state: 'lobby', elements: [{ type: 'button', text: '입장' }] })
    expect(extractJson('{"a": 1, "b":')).toEqual({ a: 1, b: null })
    expect(extractJson('{"reason": "the screen sh')).toEqual({ reason: 'the screen sh' })
  })

  test('prefers the object over stray brackets in prose', () => {
    expect(extractJson('See [1] and {not json} then {"match": true} ok')).toEqual({ match: true })
    expect(extractJson('[{"x": 1}]')).toEqual([{ x: 1 }])
  })

  test('unusable output is VISION_BAD_ANSWER keeping the raw text', () => {
    const raw = 'I am sorry, I cannot analyse this image.'
    expect(tryExtractJson(raw)).toEqual({ ok: false })
    try {
      extractJson(raw, { provider: 'bedrock' })
      expect.unreachable()
    } catch (error) {
      expect(error).toMatchObject({ code: 'VISION_BAD_ANSWER', raw, provider: 'bedrock' })
    }
    expect(() => extractJson('')).toThrow(/empty answer/)
  })
})
