import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { OPTIONAL_PARTS } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { repoRoot } from './__tests__/run-cli'
import { checkOptionalPart } from './optional-parts'

interface Manifest {
  name: string
  private?: boolean
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
}

const dirs = [
  'apps/cli',
  ...[
    'api',
    'matcher',
    'model',
    'playwright',
    'recorder-cdp',
    'recorder-desktop',
    'runner',
    'sample-app',
    'verifier',
    'vision',
  ].map((p) => `packages/${p}`),
]
const manifests = dirs.map((d) => JSON.parse(readFileSync(join(repoRoot, d, 'package.json'), 'utf8')) as Manifest)
const byName = new Map(manifests.map((m) => [m.name, m]))

describe('the optional parts agree with the packages that load them', () => {
  it('each part is an optional peer of the package that loads it, with the same range, and no dependency', () => {
    for (const part of OPTIONAL_PARTS) {
      const owner = byName.get(part.usedBy) as Manifest
      for (const [name, range] of Object.entries(part.packages)) {
        expect(owner.peerDependencies?.[name], `${part.usedBy} peerDependencies.${name}`).toBe(range)
        expect(owner.peerDependenciesMeta?.[name]?.optional, `${part.usedBy} peerDependenciesMeta.${name}`).toBe(true)
        for (const m of manifests) expect(m.dependencies?.[name], `${m.name} dependencies.${name}`).toBeUndefined()
      }
    }
  })

  it('the published packages are public', () => {
    for (const m of manifests) expect(m.private, m.name).toBeUndefined()
  })

  it('qa doctor: a present part lists its versions, a missing one gives the install command', () => {
    const present = checkOptionalPart({
      id: 'server',
      feature: 'the server',
      packages: { fastify: '^5.0.0' },
      usedBy: '@qa/api',
    })
    expect(present.status).toBe('ok')
    expect(present.detail).toMatch(/^fastify 5\.\d+\.\d+, for the server$/)
    const missing = checkOptionalPart({
      id: 'server',
      feature: 'the server',
      packages: { fastify: '^5.0.0', 'qa-no-such-package': '^1.0.0' },
      usedBy: '@qa/api',
    })
    expect(missing).toMatchObject({
      status: 'warn',
      required: false,
      detail: 'qa-no-such-package not installed (only the server needs it)',
      fix: 'npm install -D fastify@^5.0.0 qa-no-such-package@^1.0.0',
    })
  })
})
