/** What a replay must do for an action imported from DevTools, read from what the import kept (`extra.devtools`). */
import type { Action, JsonObject, JsonValue } from '@qa/model'
import { devtoolsExtra, isFiniteNumber, isObject, keptSelectors } from './kept'
import type { DevtoolsSelector } from './types'

/** What a replay must do for an action imported from DevTools beyond the action itself (read by the replayer). */
export interface DevtoolsReplayPlan {
  /** The page the step runs in: `main` (the page the case started in) or the URL of a popup. Absent: as recorded. */
  target: string | null
  /** Why the step cannot be replayed: it fails with this reason (never a silent pass). */
  unsupported: string | null
  /** The step must cause a navigation (an asserted navigation event). */
  awaitsNavigation: boolean
  /** A scroll of the window (no scroller selector): the window scrolls, whatever stands under the point. */
  scrollsWindow: boolean
  /** A step honoured by the replay itself. */
  honour:
    | { kind: 'network'; offline: boolean; download: number; upload: number; latency: number }
    | { kind: 'viewport'; width: number; height: number }
    | { kind: 'close' }
    /** A key pressed or released alone (an unpaired keyDown or keyUp of the recording). */
    | { kind: 'key'; key: string; up: boolean }
    | null
}

/** The DevTools part of an action's replay, or null for an action not imported from DevTools. */
export function devtoolsReplayPlan(action: Action): DevtoolsReplayPlan | null {
  const kept = devtoolsExtra(action.extra)
  if (Object.keys(kept).length === 0) return null
  const step = isObject(kept.step) ? (kept.step as JsonObject) : null
  const target = typeof kept.target === 'string' ? kept.target : typeof step?.target === 'string' ? step.target : null
  const num = (v: JsonValue | undefined, fallback: number) => (isFiniteNumber(v) ? v : fallback)
  let honour: DevtoolsReplayPlan['honour'] = null
  let unsupported = typeof kept.unsupported === 'string' ? kept.unsupported : null
  if (step && !unsupported) {
    if (step.type === 'emulateNetworkConditions') {
      const download = num(step.download, -1)
      const upload = num(step.upload, -1)
      honour = { kind: 'network', offline: !download && !upload, download, upload, latency: num(step.latency, 0) }
    } else if (step.type === 'setViewport')
      honour = { kind: 'viewport', width: num(step.width, 0), height: num(step.height, 0) }
    else if (step.type === 'close') honour = { kind: 'close' }
    else if ((step.type === 'keyDown' || step.type === 'keyUp') && typeof step.key === 'string' && step.key !== '')
      honour = { kind: 'key', key: step.key, up: step.type === 'keyUp' }
    else unsupported = `the DevTools ${String(step.type)} step has no equivalent`
  }
  return {
    target,
    unsupported,
    awaitsNavigation: kept.awaitsNavigation === true,
    scrollsWindow: kept.scrolls === 'window',
    honour,
  }
}

/**
 * The recording's own selectors of an action imported from DevTools (kept at import) and its frame indices: what
 * the replay resolves first, as the reference does (`devtools-selectors.ts`). Null for any other action.
 */
export function recordedDevtoolsSelectors(action: Action): { selectors: DevtoolsSelector[]; frame: number[] } | null {
  const kept = devtoolsExtra(action.extra)
  const selectors = keptSelectors(kept)
  if (selectors.length === 0) return null
  const frame = Array.isArray(kept.frame) ? kept.frame.filter((f): f is number => Number.isInteger(f)) : []
  return { selectors, frame }
}

/** Whether an action was imported from a DevTools recording (its step is kept in `extra.devtools`). */
export const isDevtoolsImported = (action: Action): boolean => Object.keys(devtoolsExtra(action.extra)).length > 0
