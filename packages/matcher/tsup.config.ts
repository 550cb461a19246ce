import { defineConfig } from 'tsup'
import { base } from '../../tsup.base'

// The keypad fixture of `testing` draws with sharp, an optional peer: the matcher itself never needs it.
export default defineConfig({
  ...base,
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts', image: 'src/image/index.ts' },
  external: ['sharp'],
})
