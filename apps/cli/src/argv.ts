/** Flags whose value may be left out (`--update-baselines` alone, or `--update-baselines 3,5`). */
const OPTIONAL_VALUE_FLAGS = new Map<string, RegExp>([['--update-baselines', /^\d[\d,\s-]*$/]])

/**
 * `--update-baselines 3,5` → `--update-baselines=3,5`: clipanion reads a flag that may go without a value only in
 * the `=` form, and would take `3,5` for a second case path. Only a value that looks like a step list is joined.
 */
export function joinOptionalFlagValues(argv: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') return [...out, ...argv.slice(i)]
    const pattern = OPTIONAL_VALUE_FLAGS.get(arg)
    const next = argv[i + 1]
    if (pattern && next !== undefined && pattern.test(next)) {
      out.push(`${arg}=${next}`)
      i++
    } else out.push(arg)
  }
  return out
}
