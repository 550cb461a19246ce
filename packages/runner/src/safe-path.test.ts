import { fc, test } from '@fast-check/vitest'
import { relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveInside } from './safe-path'

const root = '/srv/qa/reports'
const segment = fc.oneof(
  fc.constantFrom('..', '.', '', '%2e%2e', 'a', 'b.png', '...', '..\\..', '/', 'C:', '\0'),
  fc.string({ maxLength: 6 }),
)

describe('resolveInside', () => {
  // No path the file route accepts may leave its root.
  test.prop([fc.array(segment, { maxLength: 8 })], { numRuns: 300 })('never resolves outside the root', (parts) => {
    const got = resolveInside(root, parts.join('/'))
    if (got !== null) {
      const rel = relative(root, got)
      expect(rel.startsWith('..')).toBe(false)
      expect(got.startsWith(root + sep)).toBe(true)
    }
  })
  it('accepts ordinary nested paths', () => {
    expect(resolveInside(root, 'runs/a/report.html')).toBe('/srv/qa/reports/runs/a/report.html')
  })
  it.each(['.env', '.git/config', 'cases/.aws/credentials', 'a/.hidden.png', './x.json'])(
    'never serves dotfiles: %j',
    (p) => {
      expect(resolveInside(root, p)).toBeNull()
    },
  )
  test.prop(
    [
      fc.array(fc.stringMatching(/^[a-z0-9_-]{1,6}$/), { maxLength: 3 }),
      fc.stringMatching(/^\.[a-z0-9_.-]{0,8}$/),
      fc.array(fc.stringMatching(/^[a-z0-9_.-]{1,6}$/), { maxLength: 3 }),
    ],
    { numRuns: 200 },
  )('refuses every path with a dot-segment anywhere', (before, dotted, after) => {
    expect(resolveInside(root, [...before, dotted, ...after].join('/'))).toBeNull()
  })
  it.each(['../x', 'a/../../x', '/etc/passwd', 'a\\..\\x', 'x\0.png', 'C:/x', ''])('refuses %j', (p) => {
    expect(resolveInside(root, p)).toBeNull()
  })
})
