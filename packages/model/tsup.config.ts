import { defineConfig } from 'tsup'
import { base } from '../../tsup.base'

export default defineConfig({
  ...base,
  entry: ['src/index.ts', 'src/node.ts', 'src/testing.ts'],
  external: ['fast-check'],
})
