import { ServerError } from './errors'
import { compareCasePaths } from './suite-catalog'

/** One shard of a fan-out: `k` of `n`, 1-based (`--shard 2/4`). */
export interface ShardSpec {
  k: number
  n: number
}

/** `"2/4"` → `{ k: 2, n: 4 }`; anything else is a clear error naming the flag. */
export function parseShardSpec(value: string, flag = '--shard'): ShardSpec {
  const m = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(value)
  const k = m ? Number(m[1]) : Number.NaN
  const n = m ? Number(m[2]) : Number.NaN
  if (!m || n < 1 || k < 1 || k > n) {
    throw new ServerError('SERVER_BAD_OPTION', `${flag}: expected k/n with 1 ≤ k ≤ n, got "${value}".`, {
      hint: `For example ${flag} 2/4 runs the second of four shards.`,
    })
  }
  return { k, n }
}

/**
 * The case files of shard `k` of `n` (1-based): the files sorted by path (`/` separators, relative to the case
 * folder), then dealt round-robin. Deterministic on every host, independent of the input order, balanced to
 * within one case, and over k = 1..n every file lands in exactly one shard. Duplicates count once.
 */
export function selectShard(caseFiles: readonly string[], k: number, n: number): string[] {
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(k) || k < 1 || k > n) {
    throw new ServerError('SERVER_BAD_OPTION', `Shard ${k}/${n} is not a shard: expected 1 ≤ k ≤ n.`, {
      hint: 'For example --shard 2/4.',
    })
  }
  const sorted = [...new Set(caseFiles)].sort(compareCasePaths)
  return sorted.filter((_, i) => i % n === k - 1)
}
