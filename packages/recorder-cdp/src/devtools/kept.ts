/**
 * What an import keeps of a DevTools step in an action's (or the case's) `extra.devtools`, read back by the export
 * and the replay plan; and the small JSON checks every part of the room shares.
 */
import type { JsonObject, JsonValue } from '@qa/model'
import type { DevtoolsSelector } from './types'

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
export const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/** A step's fields but `fields` (and undefined ones): what the import keeps of it. */
export function omit(step: Readonly<Record<string, unknown>>, fields: readonly string[]): JsonObject {
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(step)) if (v !== undefined && !fields.includes(k)) out[k] = v as JsonValue
  return out
}

/** Whether a step's `assertedEvents` say it must cause a navigation. */
export const hasNavigation = (events: JsonValue | undefined) =>
  Array.isArray(events) && events.some((e) => isObject(e) && e.type === 'navigation')

/** What the import kept in `extra.devtools` (empty for anything not imported from DevTools). */
export function devtoolsExtra(extra: JsonObject | null | undefined): JsonObject {
  const d = extra?.devtools
  return isObject(d) ? (d as JsonObject) : {}
}

/** The recording's own selectors the import kept. */
export function keptSelectors(kept: JsonObject): DevtoolsSelector[] {
  const s = kept.selectors
  if (!Array.isArray(s)) return []
  return s.filter(
    (x): x is DevtoolsSelector => typeof x === 'string' || (Array.isArray(x) && x.every((p) => typeof p === 'string')),
  )
}
