import { defineConfig } from 'tsup'
import { base } from '../../tsup.base'

// hand-input: real X input (xdotool) moving and typing as a person does, for the hand-recording tests and benches.
// It drives the recorder packages, which stay imports (devDependencies here: the corpus itself needs none of them).
export default defineConfig({
  ...base,
  entry: { index: 'src/index.ts', 'hand-input': 'src/__tests__/hand-input.ts' },
  external: [/^@qa\//, 'playwright-core'],
})
