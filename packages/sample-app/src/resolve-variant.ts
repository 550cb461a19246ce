import { SampleAppError } from './errors'
import { type MutationName, parseMutationList, parseVersion, serializeMutationList, versionPresets } from './mutations'

/** Name of the cookie that pins a variant chosen with `?v=` / `?m=` for later requests of the same browser. */
export const variantCookie = 'qa_variant'

/** Outcome of {@link resolveVariant}. */
export interface ResolvedVariant {
  readonly mutations: readonly MutationName[]
  /** `undefined`: leave the cookie alone; `null`: clear it; a string: set it to this value. */
  readonly cookie?: string | null
}

/**
 * Pure: which mutations a request gets. Precedence: `?m=` (added to `?v=` if both) > `?v=` > the `qa_variant`
 * cookie > the server's current setting. `?v=default` clears the cookie. Throws SampleAppError on unknown names.
 */
export function resolveVariant(
  query: URLSearchParams,
  cookieValue: string | undefined,
  serverMutations: readonly MutationName[],
): ResolvedVariant {
  const v = query.get('v')
  const m = query.get('m')
  if (v !== null && v.trim().toLowerCase() === 'default') {
    return { mutations: m === null ? serverMutations : parseMutationList(m), cookie: null }
  }
  if (v !== null || m !== null) {
    const base = v === null ? [] : versionPresets[parseVersion(v)]
    const extra = m === null ? [] : parseMutationList(m)
    const mutations = parseMutationList([...base, ...extra].join(','))
    return { mutations, cookie: serializeMutationList(mutations) }
  }
  if (cookieValue !== undefined && cookieValue !== '') {
    try {
      return { mutations: parseMutationList(cookieValue) }
    } catch (error) {
      if (error instanceof SampleAppError) return { mutations: serverMutations, cookie: null }
      throw error
    }
  }
  return { mutations: serverMutations }
}
