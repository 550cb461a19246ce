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
  it.each(['../x', 'a/../../x', '/etc/passwd', 'a\\..\\x', 'x\0.png', 'C:/x', ''])('refuses %j', (p) => {
    expect(resolveInside(root, p)).toBeNull()
  })
})
