import type { Action, EnrichmentResult, EnrichmentStatus } from './types'

/** What an enricher found for one action; only fields that are absent (or null) on the action are filled. */
export type ActionEnrichment = Partial<
  Pick<
    Action,
    | 'semanticInfo'
    | 'screenTransition'
    | 'identity'
    | 'selectors'
    | 'operates'
    | 'uiStateHashBefore'
    | 'uiStateHashAfter'
    | 'elementCropPath'
    | 'enrichmentStatus'
  >
>

/**
 * Merges an enrichment into an action without touching any existing field. A field is filled only
 * when the action has it absent or null; `enrichmentStatus` is always updated (it describes this enrichment).
 * Returns a new action; the input is not modified.
 */
export function mergeEnrichment(action: Action, enrichment: ActionEnrichment): Action {
  const out: Action = structuredClone(action)
  const target = out as unknown as Record<string, unknown>
  for (const [key, value] of Object.entries(enrichment)) {
    if (value === undefined || key === 'enrichmentStatus') continue
    if (target[key] === undefined || target[key] === null) target[key] = structuredClone(value)
  }
  if (enrichment.enrichmentStatus) out.enrichmentStatus = enrichment.enrichmentStatus
  return out
}

/** Counts an enrichment run from the per-action statuses. */
export function summarizeEnrichment(
  statuses: readonly (EnrichmentStatus | null | undefined)[],
  version: string,
): EnrichmentResult {
  let enrichedCount = 0
  let skippedCount = 0
  let failedCount = 0
  for (const s of statuses) {
    if (s === 'enriched') enrichedCount++
    else if (s === 'skipped') skippedCount++
    else if (s === 'failed') failedCount++
  }
  return { totalActions: statuses.length, enrichedCount, skippedCount, failedCount, version }
}
