import { isAbsolute, relative, resolve } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { isCaseRelativePath } from './case-path'
import { parseJsonText } from './codecs'
import { parseTestCase, validateTestCase } from './test-case'
import { arbTestCaseDocument } from './testing'

const caseWith = (field: string, value: string) => ({
  name: 'c',
  version: '3.0',
  platform: 'web',
  actions: [{ timestamp: 0, action_type: 'click', x: 1, y: 1, description: 'd', [field]: value }],
})

describe('screenshot paths stay inside the case folder', () => {
  it.each([
    ['screenshot_path', '../../etc/passwd'],
    ['screenshot_before_path', '/home/u/secret.png'],
    ['element_crop_path', 'shots/../../secret.png'],
    ['screenshot_path', 'C:\\Users\\u\\secret.png'],
    ['screenshot_path', '..\\secret.png'],
    ['screenshot_path', 'file:///etc/passwd'],
  ])('%s "%s" is a validation error naming the field and what was expected', (field, value) => {
    const issues = validateTestCase(caseWith(field, value))
    expect(issues).toEqual([
      {
        path: `actions[0].${field}`,
        expected: expect.stringMatching(/relative path inside the case's folder/),
        got: JSON.stringify(value),
      },
    ])
    expect(() => parseTestCase(caseWith(field, value), { file: 'cases/a.json' })).toThrow(
      new RegExp(`cases/a\\.json: actions\\[0\\]\\.${field}: expected a relative path inside the case's folder`),
    )
  })

  it.each(['login/step-000-after.png', './a.png', 'a..b.png', '스크린샷/1.png', ''])('"%s" is accepted', (value) => {
    expect(validateTestCase(caseWith('screenshot_path', value))).toEqual([])
  })

  test.prop([fc.string({ maxLength: 30 }), fc.constantFrom('/cases', '/home/u/cases/login')], { numRuns: 300 })(
    'an accepted path always resolves inside the case folder',
    (p, dir) => {
      if (!isCaseRelativePath(p)) return
      const rel = relative(dir, resolve(dir, p.replace(/\\/g, '/')))
      // `.. ` (dots and a space) is a folder inside; only a first segment of exactly `..` leaves the folder
      expect(rel.split('/')[0] === '..' || isAbsolute(rel)).toBe(false)
    },
  )

  test.prop([fc.array(fc.constantFrom('..', 'a', '.', 'b.png', '', '/', '\\'), { maxLength: 8 })], { numRuns: 300 })(
    'a path with a ".." segment or a leading slash is never accepted',
    (parts) => {
      const p = parts.join('/')
      const segments = p.replace(/\\/g, '/').split('/')
      if (segments.includes('..') || p.startsWith('/') || p.startsWith('\\')) expect(isCaseRelativePath(p)).toBe(false)
    },
  )

  test.prop([arbTestCaseDocument()], { numRuns: 100 })('generated cases only use relative paths', (doc) => {
    expect(validateTestCase(doc)).toEqual([])
  })
})

describe('JSON nesting', () => {
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
  it.each([100, 2000, 100_000])('%i levels is an error naming the file and the limit, not a stack overflow', (n) => {
    expect(() => parseJsonText(nested(n), { file: 'deep.json' })).toThrow(
      /deep\.json is nested deeper than 64 levels \(at line 1, column \d+\)/,
    )
  })
  it('64 levels and brackets inside strings are fine', () => {
    expect(parseJsonText(nested(63))).toBeTruthy()
    expect(parseJsonText(JSON.stringify({ s: '['.repeat(500) }))).toEqual({ s: '['.repeat(500) })
  })
})
