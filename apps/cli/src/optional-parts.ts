import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { installCommand, type OptionalPart } from '@qa/model'
import type { DoctorCheck } from './doctor-check'

/** The version of `name` as the qa package `usedBy` would load it (each ancestor's node_modules), or null. */
function installedVersion(name: string, usedBy: string): string | null {
  let dir: string
  try {
    dir = dirname(realpathSync(createRequire(import.meta.url).resolve(`${usedBy}/package.json`)))
  } catch {
    return null
  }
  for (;;) {
    const manifest = join(dir, 'node_modules', name, 'package.json')
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? '?'
      } catch {
        return '?'
      }
    }
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

/** One line per optional part: present (with versions) or what it is for and the command that installs it. */
export function checkOptionalPart(part: OptionalPart): DoctorCheck {
  const names = Object.keys(part.packages)
  const versions = names.map((name) => [name, installedVersion(name, part.usedBy)] as const)
  const missing = versions.filter(([, v]) => v === null).map(([name]) => name)
  if (missing.length === 0)
    return {
      name: `optional: ${part.id}`,
      status: 'ok',
      required: false,
      detail: `${versions.map(([name, v]) => `${name} ${v}`).join(', ')}, for ${part.feature}`,
    }
  return {
    name: `optional: ${part.id}`,
    status: 'warn',
    required: false,
    detail: `${missing.join(', ')} not installed (only ${part.feature} needs ${missing.length > 1 ? 'them' : 'it'})`,
    fix: installCommand(part),
  }
}
