/** Writes qa.config.schema.json (shipped in the package) from the one config definition in src/config.ts. */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { configJsonSchema } from '../src/config'

const file = fileURLToPath(new URL('../qa.config.schema.json', import.meta.url))
writeFileSync(file, `${JSON.stringify(configJsonSchema(), null, 2)}\n`)
console.log(`wrote ${file}`)
