import { defineConfig } from 'tsup'
import { base } from '../../tsup.base'

export default defineConfig({
  ...base,
  entry: { index: 'src/index.ts', 'replay-case': 'src/replay-case.ts', testing: 'src/testing/index.ts' },
})
