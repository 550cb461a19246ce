import { describe, expect, it } from 'vitest'
import { qa } from '../__tests__/run-cli'

describe('qa mcp', () => {
  it('a missing case folder is exit 2 with what to do, and nothing on stdout (the protocol channel)', () => {
    const r = qa(['mcp', '--dir', '/nonexistent/cases'])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/The case folder \/nonexistent\/cases does not exist/)
    expect(r.stderr).toMatch(/hint: .*--demo/)
  })
  it('bad flags are exit 2', () => {
    const r = qa(['mcp', '--concurrency', 'many', '--dir', '.'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--concurrency: expected a positive integer/)
  })
})
