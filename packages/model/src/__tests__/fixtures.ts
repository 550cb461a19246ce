import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const fixturesDir = fileURLToPath(new URL('../../test/fixtures/', import.meta.url))

export function fixturePath(rel: string): string {
  return join(fixturesDir, rel)
}

export function readFixture(rel: string): unknown {
  return JSON.parse(readFileSync(fixturePath(rel), 'utf8'))
}

/** Every frozen valid fixture: `v1/…`, `v2/…`, `v3/…`. */
export function validFixtures(): string[] {
  return ['v1', 'v2', 'v3'].flatMap((v) => readdirSync(join(fixturesDir, v)).map((f) => `${v}/${f}`))
}
