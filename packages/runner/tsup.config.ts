import { defineConfig } from 'tsup'
import { base } from '../../tsup.base'

export default defineConfig({ ...base, entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' } })
