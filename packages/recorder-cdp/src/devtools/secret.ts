/** Password fields of a DevTools recording: never stored in clear, supplied from an environment variable at replay. */
import type { ElementIdentity } from '@qa/model'

export const PASSWORD_WORDS = /passw|passwd|pwd|비밀번호|패스워드|암호/i
export const MASK = '********'
export const DEFAULT_SECRET_PREFIX = 'QA_SECRET_'

/** `QA_SECRET_PASSWORD` from a field's name, id or accessible name: the one rule of the recorder and the import. */
export function secretSlug(prefix: string, identity: Pick<ElementIdentity, 'name' | 'id' | 'axName'>): string {
  const base = identity.name || identity.id || identity.axName || 'password'
  const slug = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
  return `${prefix}${slug || 'PASSWORD'}`
}

/** A field typed into is a password field by its type or by a name, id, label or placeholder saying so. */
export const isPasswordField = (id: ElementIdentity) =>
  id.type === 'password' ||
  [id.axName, id.id, id.name, id.ariaLabel, id.placeholder].some((v) => v && PASSWORD_WORDS.test(v))
