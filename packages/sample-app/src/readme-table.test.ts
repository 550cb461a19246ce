import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { mutations, mutationTableRow } from './mutations'

/** Table cell padding is the formatter's business; compare cell contents only. */
const squeeze = (text: string) => text.replace(/[ \t]*\|[ \t]*/g, '|')

describe('README change table', () => {
  it('has one row per mutation, identical to the catalogue the benchmark reads', () => {
    const readme = squeeze(readFileSync(new URL('../README.md', import.meta.url), 'utf8'))
    for (const m of mutations) expect(readme, m.name).toContain(squeeze(mutationTableRow(m)))
  })
})
