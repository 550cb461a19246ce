import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { type Layer, LAYERS } from './layers'
import { listSources } from './sources'

export interface WorkspacePackage {
  name: string
  dir: string
  /** Workspace packages named in dependencies, devDependencies, peerDependencies or optionalDependencies. */
  declared: string[]
  /** Workspace packages imported by a source file: name → the first file (relative to the package). */
  imported: Map<string, string>
}

export interface Violation {
  from: string
  to: string
  /** `package.json` or the source file that imports. */
  where: string
  rule: string
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+|\bvi\.mock\s*\(\s*)['"](@qa\/[a-z0-9-]+)/g

/** Every workspace package under `root` (packages/*, apps/*, examples/*, bench) with what it declares and imports. */
export function readWorkspace(root: string): WorkspacePackage[] {
  const dirs: string[] = []
  for (const group of ['packages', 'apps', 'examples']) {
    const groupDir = join(root, group)
    if (!existsSync(groupDir)) continue
    for (const entry of readdirSync(groupDir, { withFileTypes: true }))
      if (entry.isDirectory()) dirs.push(join(groupDir, entry.name))
  }
  dirs.push(join(root, 'bench'))
  const packages: WorkspacePackage[] = []
  for (const dir of dirs) {
    const manifest = join(dir, 'package.json')
    if (!existsSync(manifest)) continue
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, Record<string, string> | string>
    const name = pkg.name as string
    const declared = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((k) =>
      Object.keys((pkg[k] as Record<string, string> | undefined) ?? {}).filter((d) => d.startsWith('@qa/')),
    )
    const imported = new Map<string, string>()
    for (const file of listSources(dir)) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = m[1] as string
        if (target !== name && !imported.has(target)) imported.set(target, relative(dir, file))
      }
    }
    packages.push({ name, dir: relative(root, dir), declared: [...new Set(declared)], imported })
  }
  return packages
}

/** Violations of the layer rule; a package named in no layer is one too. */
export function findViolations(packages: readonly WorkspacePackage[], layers: readonly Layer[] = LAYERS): Violation[] {
  const layerOf = new Map<string, number>()
  layers.forEach((layer, i) => {
    for (const p of layer.packages) layerOf.set(p, i)
  })
  const violations: Violation[] = []
  for (const pkg of packages) {
    const from = layerOf.get(pkg.name)
    if (from === undefined) {
      violations.push({
        from: pkg.name,
        to: pkg.name,
        where: `${pkg.dir}/package.json`,
        rule: 'the package is in no layer: add it to scripts/architecture/layers.ts',
      })
      continue
    }
    const edges: [string, string][] = [
      ...pkg.declared.map((to): [string, string] => [to, `${pkg.dir}/package.json`]),
      ...[...pkg.imported].map(([to, file]): [string, string] => [to, `${pkg.dir}/${file}`]),
    ]
    for (const [to, where] of edges) {
      if (to === pkg.name) continue
      const target = layerOf.get(to)
      if (target === undefined) continue // not a workspace package of ours (reported on its own if it is one)
      const layer = layers[from] as Layer
      if (target > from)
        violations.push({
          from: pkg.name,
          to,
          where,
          rule: `${layer.title} must not import ${(layers[target] as Layer).title} (a higher layer)`,
        })
      else if (target === from && !layer.sameLayerImports)
        violations.push({ from: pkg.name, to, where, rule: `${layer.title} must not import one another` })
    }
  }
  return violations
}

/** The README picture: one box per layer, highest first, arrows downward. Only packages that exist are drawn. */
export function architectureMermaid(present: ReadonlySet<string>, layers: readonly Layer[] = LAYERS): string {
  const shown = layers
    .map((layer, i) => ({ layer, i, packages: layer.packages.filter((p) => present.has(p)) }))
    .filter((l) => l.packages.length > 0)
    .reverse()
  const lines = ['```mermaid', 'flowchart TD']
  for (const { layer, i, packages } of shown) {
    lines.push(`  subgraph L${i}["${layer.title}"]`)
    for (const p of packages) lines.push(`    ${p.replace(/[@/-]/g, '_')}["${p}"]`)
    lines.push('  end')
  }
  for (let k = 0; k + 1 < shown.length; k++) lines.push(`  L${shown[k]?.i} --> L${shown[k + 1]?.i}`)
  lines.push('```')
  return lines.join('\n')
}

export const README_START = '<!-- architecture: generated from scripts/architecture/layers.ts -->'
export const README_END = '<!-- /architecture -->'
