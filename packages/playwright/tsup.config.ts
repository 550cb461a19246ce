import { defineConfig } from 'tsup'
import { base } from '../../tsup.base'

export default defineConfig({
  ...base,
  entry: ['src/index.ts', 'src/reporter.ts', 'src/codegen.ts'],
  external: ['@playwright/test', 'playwright-core'],
})
