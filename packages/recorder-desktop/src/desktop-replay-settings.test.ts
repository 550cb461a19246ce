import { CURRENT_FORMAT_VERSION, DEFAULT_CONFIG, type TestCase } from '@qa/model'
import type { UiAnalysis } from '@qa/matcher'
import { describe, expect, it } from 'vitest'
import { desktopReplayOptionsOf, desktopReplaySettingsOf } from './desktop-replay-settings'
import { replayDesktopCase } from './desktop-replayer'
import { memoryScreen, recordingInput, solidFrame } from './memory-screen'

const config = {
  ...DEFAULT_CONFIG,
  verify: { passSimilarity: 0.9, fallbackSimilarity: 0.6, masks: [{ x: 0, y: 0, width: 100, height: 20 }] },
  replay: { ...DEFAULT_CONFIG.replay, matchThreshold: 0.95, allowCoordinates: true },
}

describe('desktopReplaySettingsOf / desktopReplayOptionsOf', () => {
  it('carries every config key a desktop replay honours into the replayer options', () => {
    expect(desktopReplayOptionsOf(desktopReplaySettingsOf(config))).toEqual({
      policy: { passSimilarity: 0.9, fallbackSimilarity: 0.6 },
      compareIgnore: [{ x: 0, y: 0, width: 100, height: 20 }],
      locate: { semanticThreshold: 0.95 },
      allowCoordinates: true,
    })
  })

  it('leaves the replayer defaults alone for what is not set', () => {
    expect(desktopReplayOptionsOf({})).toEqual({})
  })

  // the click's target is found by the semantic strategy only: no crop, no OCR
  const tc: TestCase = {
    name: 'semantic',
    version: CURRENT_FORMAT_VERSION,
    platform: 'desktop',
    actions: [
      {
        timestamp: 0,
        actionType: 'click',
        x: 100,
        y: 100,
        description: 'click Start',
        semanticInfo: {
          intent: 'click_button',
          targetElement: { type: 'button', text: 'Start game', boundingBox: { x: 60, y: 90, width: 80, height: 20 } },
        },
      },
    ],
  }
  // the program now says "Start the game" at another place: a near match, not an exact one
  const analysis: UiAnalysis = {
    screenState: 'menu',
    elements: [{ type: 'button', text: 'Start the game', boundingBox: { x: 300, y: 200, width: 120, height: 20 } }],
  }
  const replay = (matchThreshold?: number) =>
    replayDesktopCase(tc, {
      caseDir: '/nonexistent',
      screen: memoryScreen(solidFrame(640, 400, [255, 255, 255])),
      input: recordingInput(),
      analyze: async () => analysis,
      settle: { timeoutMs: 0 },
      ...desktopReplayOptionsOf({ ...(matchThreshold !== undefined ? { matchThreshold } : {}) }),
    })

  it('replay.matchThreshold decides whether a near semantic match moves the click', async () => {
    const loose = await replay()
    expect(loose.results[0]?.method).toBe('semantic')
    const confidence = loose.results[0]?.matchConfidence ?? 0
    expect(confidence).toBeGreaterThan(0.7)
    expect(confidence).toBeLessThan(0.95)
    const strict = await replay(0.95)
    expect(strict.results[0]?.success).toBe(false)
    expect(strict.results[0]?.errorMessage).toMatch(/Element not found.*semantic/)
  })
})
