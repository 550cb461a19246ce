import type { MaskRect, QaConfig } from '@qa/model'
import type { DesktopReplayOptions } from './desktop-replayer'

/**
 * What the configuration decides about a desktop replay, the same on every route that replays a desktop case
 * (`qa replay <case>`, a folder, a shard, `qa serve`, `qa worker --tags desktop`, `qa mcp`).
 */
export interface DesktopReplaySettings {
  /** Similarity 0–1 a step needs to pass (config verify.passSimilarity, `--threshold`). */
  passSimilarity?: number
  /** Below passSimilarity and without a vision answer: warning at or above this (verify.fallbackSimilarity). */
  fallbackSimilarity?: number
  /** Ignore-masks for dynamic regions, in recorded-screen pixels (config verify.masks). */
  masks?: readonly MaskRect[]
  /** Semantic match confidence needed to move a click (config replay.matchThreshold; default 0.7). */
  matchThreshold?: number
  /** Click the recorded point when no strategy finds the target (replay.allowCoordinates, `--allow-coordinates`). */
  allowCoordinates?: boolean
  /** Stop a case after this many failed steps; the rest are reported as not run (replay.maxFailures). */
  maxFailures?: number | null
}

/** The settings one resolved configuration gives. Pure. */
export function desktopReplaySettingsOf(config: Pick<QaConfig, 'verify' | 'replay'>): DesktopReplaySettings {
  return {
    passSimilarity: config.verify.passSimilarity,
    fallbackSimilarity: config.verify.fallbackSimilarity,
    masks: config.verify.masks,
    matchThreshold: config.replay.matchThreshold,
    allowCoordinates: config.replay.allowCoordinates,
    ...(config.replay.maxFailures ? { maxFailures: config.replay.maxFailures } : {}),
  }
}

/** The `replayDesktopCase` options of the settings; what is not set keeps the replayer's default. Pure. */
export function desktopReplayOptionsOf(
  settings: DesktopReplaySettings,
): Pick<DesktopReplayOptions, 'policy' | 'compareIgnore' | 'locate' | 'allowCoordinates' | 'maxFailures'> {
  const policy = {
    ...(settings.passSimilarity !== undefined ? { passSimilarity: settings.passSimilarity } : {}),
    ...(settings.fallbackSimilarity !== undefined ? { fallbackSimilarity: settings.fallbackSimilarity } : {}),
  }
  return {
    ...(Object.keys(policy).length ? { policy } : {}),
    ...(settings.masks?.length ? { compareIgnore: settings.masks.map((m) => ({ ...m })) } : {}),
    ...(settings.matchThreshold !== undefined ? { locate: { semanticThreshold: settings.matchThreshold } } : {}),
    ...(settings.allowCoordinates !== undefined ? { allowCoordinates: settings.allowCoordinates } : {}),
    ...(settings.maxFailures ? { maxFailures: settings.maxFailures } : {}),
  }
}
