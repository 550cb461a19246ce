import { defineConfig } from 'tsup'
import { base } from '../../tsup.base'

export default defineConfig({
  ...base,
  entry: { index: 'src/index.ts', 'replay-case': 'src/replay-case.ts', testing: 'src/testing/index.ts' },
  // The contract suites import vitest; the test runner of the package using them provides it.
  external: ['vitest'],
})
