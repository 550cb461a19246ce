import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { parseShardSpec, selectShard } from './select-shard'

const segment = fc.stringMatching(/^[a-z0-9가-힣_-]{1,8}$/)
const caseFile = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `${parts.join('/')}.json`)
const folder = fc.uniqueArray(caseFile, { maxLength: 60 })

describe('selectShard', () => {
  // qa replay --shard k/n over the same folder covers every case exactly once.
  test.prop([folder, fc.integer({ min: 1, max: 12 })], { numRuns: 200 })(
    'over k = 1..n every case lands in exactly one shard',
    (files, n) => {
      const seen = new Map<string, number>()
      for (let k = 1; k <= n; k++) for (const f of selectShard(files, k, n)) seen.set(f, (seen.get(f) ?? 0) + 1)
      expect([...seen.keys()].sort()).toEqual([...files].sort())
      expect([...seen.values()].every((c) => c === 1)).toBe(true)
    },
  )

  // Determinism: every CI host computes the same shard whatever order its file system lists the folder in.
  test.prop([folder, fc.integer({ min: 1, max: 12 }), fc.nat()], { numRuns: 100 })(
    'the shard does not depend on the listing order, and shard sizes differ by at most one',
    (files, n, seed) => {
      const shuffled = [...files].sort((a, b) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7))
      const sizes: number[] = []
      for (let k = 1; k <= n; k++) {
        expect(selectShard(shuffled, k, n)).toEqual(selectShard(files, k, n))
        sizes.push(selectShard(files, k, n).length)
      }
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
    },
  )

  test('1/1 is the whole folder, sorted', () => {
    expect(selectShard(['b.json', 'a.json', 'c/d.json'], 1, 1)).toEqual(['a.json', 'b.json', 'c/d.json'])
  })

  test('bad shards are refused with the expected form', () => {
    expect(() => selectShard(['a.json'], 0, 2)).toThrow(/1 ≤ k ≤ n/)
    expect(() => selectShard(['a.json'], 3, 2)).toThrow(/1 ≤ k ≤ n/)
  })
})

describe('parseShardSpec', () => {
  test('k/n', () => {
    expect(parseShardSpec('2/4')).toEqual({ k: 2, n: 4 })
    expect(parseShardSpec(' 1 / 1 ')).toEqual({ k: 1, n: 1 })
  })
  test.each(['0/4', '5/4', '2', '2/0', 'a/b', '-1/2', '1.5/2'])('refuses %s', (v) => {
    expect(() => parseShardSpec(v)).toThrow(/--shard: expected k\/n/)
  })
})
