/** Rewrites the architecture picture of the root README from layers.ts (`pnpm architecture:readme`). */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { architectureMermaid, README_END, README_START, readWorkspace } from './check'

const root = fileURLToPath(new URL('../../', import.meta.url))
const readme = `${root}README.md`
const text = readFileSync(readme, 'utf8')
const start = text.indexOf(README_START)
const end = text.indexOf(README_END)
if (start < 0 || end < start) throw new Error(`${readme}: the markers ${README_START} … ${README_END} are missing.`)
const present = new Set(readWorkspace(root).map((p) => p.name))
const block = `${README_START}\n${architectureMermaid(present)}\n${README_END}`
writeFileSync(readme, text.slice(0, start) + block + text.slice(end + README_END.length))
console.log(`wrote the architecture picture into ${readme}`)
