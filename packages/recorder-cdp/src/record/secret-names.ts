import type { CapturedElement } from '../browser/cdp-identity'
import type { SecretFieldRef } from '../browser/cdp-secret-fields'
import { secretSlug } from '../devtools/secret'

/** `QA_SECRET_PASSWORD` from a field's name/id/label (the DevTools import names its secrets by the same rule). */
export const secretEnvName = secretSlug

type SecretField = Pick<CapturedElement['identity'], 'name' | 'id' | 'axName' | 'xpath' | 'framePath'>

/**
 * The secret names of one recording: each distinct password field (its page, frame, place in the document and
 * name) gets its own `QA_SECRET_…` name, suffixed `_2`, `_3` when another field's name would be the same, so two
 * different passwords never share one variable; the same field typed into again keeps its name. Pure state.
 */
export function createSecretNamer(prefix: string): (el: SecretField, url: string) => string {
  const byField = new Map<string, string>()
  const used = new Set<string>()
  return (el, url) => {
    let page = url
    try {
      const u = new URL(url)
      page = `${u.origin}${u.pathname}`
    } catch {
      // not a URL: the text as it is
    }
    const key = JSON.stringify([
      page,
      el.framePath ?? null,
      el.xpath ?? null,
      el.name ?? null,
      el.id ?? null,
      el.axName ?? null,
    ])
    const known = byField.get(key)
    if (known) return known
    const base = secretEnvName(prefix, el)
    let name = base
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`
    used.add(name)
    byField.set(key, name)
    return name
  }
}

/** The field a secret is typed into (for the masks of later screenshots). */
export const fieldRef = (t: CapturedElement): SecretFieldRef => ({
  targetId: t.targetId ?? null,
  backendNodeId: t.backendNodeId,
})
