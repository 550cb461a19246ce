import { defineConfig } from 'tsup'
import { base } from '../../tsup.base'

/** `@qa/recorder-cdp/devtools` is the DevTools room alone: its bundle imports nothing but `@qa/model`. */
export default defineConfig({ ...base, entry: { index: 'src/index.ts', devtools: 'src/devtools/index.ts' } })
