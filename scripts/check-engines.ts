/**
 * Checks that one Node range is true of every installed package: the lowest Node version of the root's
 * `engines.node` must satisfy each installed package's `engines.node`. A package that wants a newer Node than the
 * project promises gives `npm warn EBADENGINE` to every user on the lowest supported Node, and may not run there.
 *
 * Usage: node --import tsx scripts/check-engines.ts [project folder] [--range <node range>]
 *   project folder   where to start (default: this repository); its package.json, and every workspace package
 *                    under it that has node_modules, are the roots of the walk
 *   --range          the promised Node range (default: engines.node of this repository's package.json)
 *
 * The walk follows dependencies, optionalDependencies and installed peerDependencies of every package (and
 * devDependencies of the roots) with Node's own lookup (each ancestor's node_modules), so it works for pnpm's
 * and npm's layouts alike and sees only what is installed and linked. Exit 0: all agree; 1: a package disagrees
 * (each listed with its range and who pulled it in); 2: bad input.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import semver from 'semver'

interface Manifest {
  name?: string
  version?: string
  engines?: { node?: string }
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

/**
 * Packages whose `engines.node` has no bearing on Node: browser libraries installed only as page content (never
 * run by Node). Each entry says why.
 */
const NOT_RUN_BY_NODE: Record<string, string> = {
  select2: 'a jQuery plugin a wild-corpus admin template serves to the browser; Node never loads it',
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')

function readManifest(dir: string): Manifest | null {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
  } catch {
    return null
  }
}

/** The installed folder of `name` as Node would find it from `fromDir`, or null. */
function lookup(name: string, fromDir: string): string | null {
  let dir = fromDir
  for (;;) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate)
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

function workspaceRoots(project: string): string[] {
  const roots = [project]
  for (const group of ['packages', 'apps', 'examples']) {
    const base = join(project, group)
    if (!existsSync(base)) continue
    for (const entry of readdirSync(base)) {
      const dir = join(base, entry)
      if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'node_modules'))) roots.push(dir)
    }
  }
  return roots
}

export interface EngineMismatch {
  id: string
  range: string
  via: string
}

export function checkEngines(project: string, range: string): { checked: number; mismatches: EngineMismatch[] } {
  const lowest = semver.minVersion(range)
  if (!lowest) throw new Error(`not a Node range: ${JSON.stringify(range)}`)
  const seen = new Set<string>()
  const mismatches: EngineMismatch[] = []
  const queue: { dir: string; via: string; root: boolean }[] = workspaceRoots(project).map((dir) => ({
    dir,
    via: relative(project, dir) || '.',
    root: true,
  }))
  while (queue.length > 0) {
    const { dir, via, root } = queue.shift() as { dir: string; via: string; root: boolean }
    if (seen.has(dir)) continue
    seen.add(dir)
    const manifest = readManifest(dir)
    if (!manifest) continue
    const id = `${manifest.name ?? dir}@${manifest.version ?? '?'}`
    const wanted = manifest.engines?.node
    if (!root && wanted && !(manifest.name && manifest.name in NOT_RUN_BY_NODE)) {
      if (!semver.validRange(wanted) || !semver.satisfies(lowest, wanted)) mismatches.push({ id, range: wanted, via })
    }
    const names = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      ...(root ? Object.keys(manifest.devDependencies ?? {}) : []),
    ])
    for (const name of names) {
      const found = lookup(name, dir)
      if (found && !seen.has(found)) queue.push({ dir: found, via: root ? id : `${via} > ${id}`, root: false })
    }
  }
  return { checked: seen.size, mismatches }
}

function main(argv: string[]): number {
  let project = repoRoot
  let range: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--range') range = argv[++i]
    else if (arg.startsWith('-')) {
      process.stderr.write(`check-engines: unknown option ${arg} (expected --range <node range>)\n`)
      return 2
    } else project = resolve(arg)
  }
  range ??= readManifest(repoRoot)?.engines?.node
  if (!range || !semver.validRange(range)) {
    process.stderr.write(`check-engines: ${join(repoRoot, 'package.json')}: engines.node must be a Node range\n`)
    return 2
  }
  if (!readManifest(project)) {
    process.stderr.write(`check-engines: ${join(project, 'package.json')}: not found or not JSON\n`)
    return 2
  }
  const { checked, mismatches } = checkEngines(project, range)
  const lowest = semver.minVersion(range)?.version
  if (mismatches.length === 0) {
    process.stdout.write(`check-engines: ${checked} packages, every engines.node admits Node ${lowest} (${range})\n`)
    return 0
  }
  process.stderr.write(
    `check-engines: ${mismatches.length} installed packages do not run on Node ${lowest} (${range}):\n`,
  )
  for (const m of mismatches) process.stderr.write(`  ${m.id} wants node ${m.range} (via ${m.via})\n`)
  process.stderr.write('Pin an older major that supports the range, or replace the dependency.\n')
  return 1
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2))
}
