/**
 * The one rule for file paths stored in a case (screenshots, element crops): relative to the case's folder and
 * inside it. Pure (no `node:*`), so loading, validation, the queue upload and the inspector share it.
 */

/** What a case path must be, in the words of validation errors. */
export const CASE_PATH_EXPECTED = `a relative path inside the case's folder (like "login/step-000-after.png")`

/**
 * True when `path` stays inside the folder it is relative to: not absolute (`/x`, `\\x`, `C:\x`), not a URL
 * (`file:`), no `..` segment (with `/` or `\` separators), no NUL byte. The empty string means "no file".
 */
export function isCaseRelativePath(path: string): boolean {
  if (path.includes('\0')) return false
  const p = path.replace(/\\/g, '/')
  if (p.startsWith('/')) return false
  // a scheme (file:, http:) or a drive letter (C:) — both leave the folder
  if (/^[a-z][a-z0-9+.-]*:/i.test(p)) return false
  return !p.split('/').some((segment) => segment === '..')
}
