import { realpath, stat } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'

/**
 * Pure: the absolute path of `requested` (a URL path tail, already percent-decoded) inside `root`, or null when
 * it would leave the root (`..`, absolute paths, drive letters, NUL bytes, backslashes) or names a dotfile or a
 * file in a dot-folder (`.env`, `.git/config`): those are never served.
 */
export function resolveInside(root: string, requested: string): string | null {
  if (requested.length === 0 || requested.length > 4096) return null
  if (requested.includes('\0') || requested.includes('\\')) return null
  if (isAbsolute(requested) || /^[a-zA-Z]:/.test(requested)) return null
  const parts = requested.split('/')
  // `..` leaves the root; any other dot-name is a hidden file or folder (.env, .git/config, .aws/credentials).
  if (parts.some((p) => p.startsWith('.'))) return null
  const base = resolve(root)
  const full = resolve(base, requested)
  const rel = relative(base, full)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null
  return full
}

/** The real file behind `requested` when it is a regular file inside `root` (symlinks leading out refused). */
export async function safeFile(root: string, requested: string): Promise<string | null> {
  const candidate = resolveInside(root, requested)
  if (!candidate) return null
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)])
    if (realFile !== realRoot && !realFile.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) return null
    const info = await stat(realFile)
    return info.isFile() ? realFile : null
  } catch {
    return null
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
}

export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf('.')
  return TYPES[dot >= 0 ? path.slice(dot).toLowerCase() : ''] ?? 'application/octet-stream'
}
