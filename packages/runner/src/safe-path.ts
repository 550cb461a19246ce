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

/**
 * The only kinds of file the server hands out from the cases and reports folders: reports (HTML, JSON, text, JUnit
 * XML shown as text) and screenshots. Anything else (SVG, XHTML, JavaScript…) is never served: it could run script
 * on the Inspector's origin.
 */
const SERVED_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  // JUnit XML as text: an XML document can carry an XHTML namespace and run script
  '.xml': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
}

/**
 * A report's page: its own images and inline styles only, no script, no form, no frame, and in a sandbox (an
 * opaque origin) so that even markup a case smuggled in cannot reach the API or the token.
 */
const REPORT_PAGE_POLICY =
  "sandbox; default-src 'none'; img-src data: 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'"
/** Everything else served: never a document of this origin. */
const FILE_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'"

/**
 * The one rule for files served from the cases and reports folders: the headers to send `path` with, or null when
 * its type is not one the server hands out (answer 404). Every served file gets `nosniff` and a sandboxing CSP.
 */
export function servedFileHeaders(path: string): Record<string, string> | null {
  const dot = path.lastIndexOf('.')
  const type = SERVED_TYPES[dot >= 0 ? path.slice(dot).toLowerCase() : '']
  if (!type) return null
  return {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'content-security-policy': type.startsWith('text/html') ? REPORT_PAGE_POLICY : FILE_POLICY,
  }
}

/** @deprecated Use servedFileHeaders: the content type of a served file, `application/octet-stream` when not served. */
export function contentTypeOf(path: string): string {
  return servedFileHeaders(path)?.['content-type'] ?? 'application/octet-stream'
}
