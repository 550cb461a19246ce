import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { fixturePath, readFixture, validFixtures } from './__tests__/fixtures'
import type { ModelError } from './errors'
import { isLegacyTestCase } from './legacy'
import { parseTestCase, parseTestCaseJson, serializeTestCase, stringifyTestCase, validateTestCase } from './test-case'
import { arbTestCase, arbTestCaseDocument } from './testing'
import { ACTION_TYPES, CURRENT_FORMAT_VERSION } from './types'

const RUNS = { numRuns: 120 }

describe('test-case documents', () => {
  test.prop([arbTestCaseDocument()], RUNS)('every 3.x document is valid and serializes back to itself', (doc) => {
    expect(validateTestCase(doc)).toEqual([])
    const { testCase, migrated } = parseTestCase(doc)
    expect(migrated).toBe(false)
    expect(serializeTestCase(testCase)).toEqual(doc)
  })

  // a round trip keeps every field, over whole cases, every action type, through the text of a file.
  test.prop([arbTestCase({ actionTypes: ACTION_TYPES })], RUNS)('parse(stringify(tc)) = tc', (tc) => {
    expect(parseTestCaseJson(stringifyTestCase(tc)).testCase).toEqual(tc)
  })

  it.each(validFixtures())('frozen fixture %s loads, migrates to the current version and round-trips', (rel) => {
    const raw = readFixture(rel)
    const first = parseTestCase(raw, { file: rel })
    expect(first.testCase.version).toBe(CURRENT_FORMAT_VERSION)
    // only files older than the current version migrate (3.0 → 3.1 → 3.2 change nothing but the version)
    expect(first.migrated).toBe(first.sourceVersion !== CURRENT_FORMAT_VERSION)
    if (first.sourceVersion === '3.0' || first.sourceVersion === '3.1')
      expect(serializeTestCase(first.testCase)).toEqual({ ...(raw as object), version: '3.2' })
    const saved = stringifyTestCase(first.testCase)
    const again = parseTestCaseJson(saved, { file: rel })
    expect(again.migrated).toBe(false)
    expect(again.testCase).toEqual(first.testCase)
  })

  it('loads the format 2.0 desktop example as-is and keeps every field of it', () => {
    const raw = readFixture('v2/seed-001-example.json') as Record<string, unknown>
    const { testCase, sourceVersion, migrationNotes } = parseTestCase(raw)
    expect(sourceVersion).toBe('2.0')
    expect(testCase.platform).toBe('desktop')
    expect(migrationNotes).toEqual([
      '2.0 → 3.0: platform set to "desktop"',
      '3.0 → 3.1: adds the assert action type; nothing else changes',
      '3.1 → 3.2: adds hover steps, file choices, drop targets, held keys and side buttons; nothing else changes',
    ])
    const target = testCase.actions[0]?.semanticInfo?.targetElement
    expect(target?.text).toBe('시작')
    expect(target?.boundingBox).toEqual({ x: 926, y: 259, width: 80, height: 40 })
    expect(testCase.actions[0]?.screenTransition).toEqual({ transitionType: 'full_transition', hashDifference: 45 })
    // Everything of the original document is still there after saving; only version and platform are new.
    const saved = serializeTestCase(testCase)
    expect(saved).toEqual({ ...raw, version: '3.2', platform: 'desktop' })
  })

  it('keeps unknown fields of a 1.0 file (written back unchanged)', () => {
    const { testCase } = parseTestCase(readFixture('v1/coordinate-only.json'))
    expect(testCase.extra).toEqual({ recorder: 'game-qa-automation 0.3' })
    expect(serializeTestCase(testCase).recorder).toBe('game-qa-automation 0.3')
    expect(isLegacyTestCase(testCase)).toBe(true)
  })

  it('treats a 2.0 case with web identities as a web case', () => {
    const raw = readFixture('v3/web-login.json') as Record<string, unknown>
    const { platform: _platform, ...withoutPlatform } = raw
    const { testCase } = parseTestCase({ ...withoutPlatform, version: '2.0' })
    expect(testCase.platform).toBe('web')
  })

  it('refuses a newer major version with a clear message', () => {
    expect(() => parseTestCase(readFixture('invalid/future-version.json'), { file: 'future.json' })).toThrow(
      expect.objectContaining({
        code: 'MODEL_VERSION_UNSUPPORTED',
        message: expect.stringContaining('future.json has format version 4.0'),
        hint: expect.stringContaining('upgrade qa'),
      }),
    )
  })

  it('reports every problem of a broken case at once', () => {
    try {
      parseTestCase(readFixture('invalid/wrong-types.json'), { file: fixturePath('invalid/wrong-types.json') })
      expect.unreachable()
    } catch (e) {
      const err = e as ModelError
      expect(err.code).toBe('MODEL_INVALID')
      expect(err.issues.map((i) => `${i.path}: ${i.got}`)).toEqual([
        'actions[1].action_type: "tap"',
        'actions[2].x: 10.5',
        'actions[2].y: null',
        'actions[3].x: "12"',
        'actions[3].description: 7',
      ])
      expect(err.message).toContain('actions[3].x: expected integer, got "12"')
    }
  })

  it('rejects a version that is not a version', () => {
    expect(validateTestCase({ name: 'n', version: 'abc', actions: [] })).toEqual([
      { path: 'version', expected: 'a version string like "3.0"', got: '"abc"' },
    ])
    expect(validateTestCase([])).toEqual([{ path: '$', expected: 'object (TestCase)', got: 'array (0 items)' }])
  })

  test.prop([arbTestCaseDocument(), fc.constantFrom('name', 'actions', 'platform')], RUNS)(
    'a 3.x document missing a required field is invalid at that path',
    (doc, key) => {
      const broken = { ...doc }
      delete broken[key]
      expect(validateTestCase(broken).map((i) => i.path)).toContain(key)
    },
  )
})

describe('what a click operates, and recording warnings', () => {
  const doc = {
    name: 'styled',
    version: '3.2',
    platform: 'web',
    actions: [
      {
        timestamp: 1,
        action_type: 'click',
        x: 10,
        y: 20,
        description: 'Click label "Remember me"',
        identity: {
          tag_name: 'label',
          bounding_box: { x: 0, y: 0, width: 90, height: 20 },
          text_content: 'Remember me',
        },
        operates: {
          tag_name: 'input',
          ax_role: 'checkbox',
          ax_name: 'Remember me',
          type: 'checkbox',
          bounding_box: { x: 0, y: 2, width: 16, height: 16 },
        },
      },
      {
        timestamp: 2,
        action_type: 'click',
        x: 5,
        y: 5,
        description: 'Click (5, 5)',
        warning: 'no interactive element',
      },
    ],
  }

  it('reads operates and warning from snake_case files and writes them back unchanged', () => {
    expect(validateTestCase(doc)).toEqual([])
    const { testCase } = parseTestCase(doc)
    expect(testCase.actions[0]?.operates?.axRole).toBe('checkbox')
    expect(testCase.actions[0]?.operates?.boundingBox.width).toBe(16)
    expect(testCase.actions[1]?.warning).toBe('no interactive element')
    expect(serializeTestCase(testCase)).toEqual(doc)
  })

  it('validates operates as an identity', () => {
    const broken = structuredClone(doc) as { actions: Record<string, unknown>[] }
    broken.actions[0]!.operates = { bounding_box: { x: 0, y: 0, width: 1, height: 1 } }
    expect(validateTestCase(broken).map((i) => i.path)).toContain('actions[0].operates.tag_name')
  })
})
