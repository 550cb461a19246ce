import { defineConfig } from 'tsup'
import { base } from '../../tsup.base'

export default defineConfig({
  ...base,
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
  // The contract suite imports vitest; the test runner of the package using it provides it.
  external: ['vitest'],
})
