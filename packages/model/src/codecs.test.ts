import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { childPath, decodeObject, encodeObject } from './codec'
import {
  actionCodec,
  parseJsonText,
  parseReplayReport,
  parseVerificationResult,
  replayReportCodec,
  serializeReplayReport,
  serializeVerificationResult,
  validateAgainst,
  verificationResultCodec,
} from './codecs'
import type { ModelError } from './errors'
import * as schemas from './schemas'
import {
  arbAction,
  arbDocument,
  arbReplayReport,
  arbReplayReportDocument,
  arbVerificationResult,
  arbVerificationResultDocument,
} from './testing'

const RUNS = { numRuns: 150 }
const allSchemas = Object.values(schemas).filter((s) => typeof s === 'object' && 'fields' in s)

describe('file ⇄ model codecs', () => {
  for (const schema of allSchemas) {
    test.prop([arbDocument(schema)], RUNS)(`${schema.name}: every generated document is valid`, (doc) => {
      expect(validateAgainst(doc, schema)).toEqual([])
    })
    // The validator must also be able to say no: a required field taken away, or given a value of no
    // kind any field accepts, is reported at that field's path.
    const required = schema.fields.filter((f) => f.required).map((f) => f.file)
    if (required.length > 0) {
      test.prop([arbDocument(schema), fc.constantFrom(...required), fc.constantFrom('drop', 'null', 'symbol')], RUNS)(
        `${schema.name}: a document missing or spoiling a required field is invalid`,
        (doc, key, how) => {
          const bad: Record<string, unknown> = { ...doc }
          if (how === 'drop') delete bad[key]
          else bad[key] = how === 'null' ? null : Symbol('not JSON')
          expect(validateAgainst(bad, schema).map((i) => i.path)).toContain(childPath('$', key))
        },
      )
    }
    // every field survives a round trip (null stays null, absent stays absent), unknown fields kept.
    test.prop([arbDocument(schema)], RUNS)(`${schema.name}: encode ∘ decode = id on documents`, (doc) => {
      expect(encodeObject(decodeObject(doc, schema), schema)).toEqual(doc)
    })
  }

  // SemanticAction JSON round trip, through text as a file would be.
  test.prop([arbAction()], RUNS)('Action: parse(JSON(serialize(a))) = a', (action) => {
    const text = JSON.stringify(actionCodec.serialize(action))
    expect(actionCodec.parse(JSON.parse(text))).toEqual(action)
  })

  // optional fields that are null come back null, absent ones stay absent.
  test.prop([arbAction()], RUNS)('Action: null and absent optional fields survive the round trip', (action) => {
    const back = actionCodec.parse(JSON.parse(JSON.stringify(actionCodec.serialize(action))))
    for (const field of schemas.actionSchema.fields) {
      const model = field.model as keyof typeof action
      expect(Object.hasOwn(back, model)).toBe(Object.hasOwn(action, model))
      if (action[model] === null) expect(back[model]).toBeNull()
    }
  })

  // VerificationResult and ReplayReport round trip.
  test.prop([arbVerificationResult()], RUNS)('VerificationResult round trip', (result) => {
    expect(parseVerificationResult(JSON.parse(JSON.stringify(serializeVerificationResult(result))))).toEqual(result)
  })
  test.prop([arbReplayReport()], RUNS)('ReplayReport round trip', (report) => {
    expect(parseReplayReport(JSON.parse(JSON.stringify(serializeReplayReport(report))))).toEqual(report)
  })

  // required fields exist in every serialized result and report.
  test.prop([arbVerificationResultDocument()], RUNS)('VerificationResult: required fields present', (doc) => {
    const out = serializeVerificationResult(verificationResultCodec.parse(doc))
    for (const key of ['action_index', 'final_result', 'screenshot_similarity', 'vision_match'])
      expect(out).toHaveProperty(key)
  })
  // a report has its counts and, per action, index, verdict and similarity.
  test.prop([arbReplayReportDocument()], RUNS)('ReplayReport: counts and per-action fields present', (doc) => {
    const out = serializeReplayReport(replayReportCodec.parse(doc))
    for (const key of ['total_actions', 'passed_count', 'failed_count', 'warning_count', 'success_rate'])
      expect(out).toHaveProperty(key)
    for (const r of out.verification_results as Record<string, unknown>[])
      for (const key of ['action_index', 'final_result', 'screenshot_similarity']) expect(r).toHaveProperty(key)
  })

  test.prop([fc.constantFrom(...['x', 'y', 'action_type', 'description', 'timestamp']), arbAction()], RUNS)(
    'removing a required field is reported at its path',
    (key, action) => {
      const doc = actionCodec.serialize(action)
      delete doc[key]
      const issues = actionCodec.validate(doc)
      expect(issues.map((i) => i.path)).toContain(key)
    },
  )
})

describe('validation messages', () => {
  it('names the path, what was expected and what was found', () => {
    const issues = actionCodec.validate({ timestamp: 't', action_type: 'click', x: '12', y: 1.5, description: 'd' })
    expect(issues).toEqual([
      { path: 'x', expected: 'integer', got: '"12"' },
      { path: 'y', expected: 'integer', got: '1.5' },
    ])
  })

  it('throws one error listing every issue with the file name', () => {
    try {
      verificationResultCodec.parse({ action_index: -1, final_result: 'ok' }, { file: 'r.json' })
      expect.unreachable()
    } catch (e) {
      const err = e as ModelError
      expect(err.code).toBe('MODEL_INVALID')
      expect(err.issues.length).toBeGreaterThanOrEqual(6)
      expect(err.message).toContain('r.json: action_index: expected integer ≥ 0, got -1')
      expect(err.message).toContain('r.json: final_result: expected one of "pass", "fail", "warning", got "ok"')
    }
  })

  it('reports the line and column of broken JSON', () => {
    expect(() => parseJsonText('{\n  "a": 1,\n  "b": }', { file: 'c.json' })).toThrow(
      /c\.json is not valid JSON at line 3/,
    )
    try {
      parseJsonText('{"name": "x", "actions": [', { file: 't.json' })
    } catch (e) {
      expect((e as ModelError).code).toBe('MODEL_INVALID_JSON')
      expect((e as ModelError).message).toMatch(/t\.json is not valid JSON/)
    }
  })
})

describe('unknown fields', () => {
  it('keeps keys that look like object internals as plain data', () => {
    const doc = JSON.parse(
      '{"timestamp": 1, "action_type": "wait", "x": 0, "y": 0, "description": "", "__proto__": {"a": 1}, "constructor": 2}',
    )
    const action = actionCodec.parse(doc)
    expect(Object.getPrototypeOf(action)).toBe(Object.prototype)
    expect(JSON.stringify(actionCodec.serialize(action))).toBe(JSON.stringify(doc))
  })
})

describe('a "__proto__" key in a file of ours', () => {
  it.each([
    ['{"__proto__": {"x": 1}, "name": "a"}', '__proto__'],
    ['{"actions": [{"x": 1}, {"identity": {"__proto__": null}}]}', 'actions[1].identity.__proto__'],
    ['{"verify": {"__proto__": {"passSimilarity": 2}}}', 'verify.__proto__'],
  ])('%s is refused naming the file and the path', (text, path) => {
    expect(() => parseJsonText(text, { file: 'c.json' })).toThrow(
      `c.json: ${path}: expected no "__proto__" key (JavaScript reads it as an object's prototype), got one`,
    )
  })

  it('"constructor" and "__proto__" inside a string value are plain data', () => {
    expect(parseJsonText('{"constructor": 1, "s": "__proto__"}')).toEqual({ constructor: 1, s: '__proto__' })
  })
})
