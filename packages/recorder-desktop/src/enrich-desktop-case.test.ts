import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { type Action, isLegacyTestCase, parseTestCase, serializeTestCase, type TestCase } from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enrichDesktopCase } from './enrich-desktop-case'
import { encodePng } from './frame'
import { solidFrame } from './memory-screen'
import type { ElementAnalyzer } from './semantic-info'

// the coordinate-only legacy fixture of @qa/model (packages/model/test/fixtures/v1/coordinate-only.json)
const LEGACY = {
  name: 'legacy_login',
  created_at: '2025-11-02T09:15:00',
  actions: [
    {
      timestamp: '2025-11-02T09:15:01',
      action_type: 'click',
      x: 512,
      y: 384,
      button: 'left',
      description: '클릭 (512, 384)',
      screenshot_path: 'screenshots/action_0000.png',
    },
    {
      timestamp: '2025-11-02T09:15:02',
      action_type: 'type',
      x: 0,
      y: 0,
      text: 'player01',
      description: '입력 player01',
    },
    {
      timestamp: '2025-11-02T09:15:04',
      action_type: 'key_press',
      x: 0,
      y: 0,
      key: 'enter',
      description: 'Enter',
      screenshot_path: 'screenshots/action_0002.png',
    },
    { timestamp: '2025-11-02T09:15:06', action_type: 'wait', x: 0, y: 0, description: '2.0초 대기' },
    {
      timestamp: '2025-11-02T09:15:07',
      action_type: 'click',
      x: 100,
      y: 50,
      button: 'left',
      description: '클릭 (100, 50)',
      screenshot_path: 'screenshots/missing.png',
    },
    { timestamp: '2025-11-02T09:15:08', action_type: 'double_click', x: 20, y: 30, description: '더블 클릭' },
  ],
  recorder: 'game-qa-automation 0.3',
}

const analyzer: ElementAnalyzer = {
  async analyzeElementAt(_img, x, y) {
    return {
      element: {
        type: 'button',
        text: '로그인',
        boundingBox: { x: x - 40, y: y - 20, width: 80, height: 40 },
        confidence: 0.9,
      },
      screenState: 'login',
    }
  },
  inferIntent: () => 'click_button',
}

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qa-enrich-'))
  await writeFileAtomic(join(dir, 'screenshots/action_0000.png'), await encodePng(solidFrame(1024, 768, [10, 20, 30])))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const PRESERVED = [
  'timestamp',
  'actionType',
  'x',
  'y',
  'button',
  'description',
  'screenshotPath',
  'text',
  'key',
  'extra',
] as const

describe('enrichDesktopCase', () => {
  it('enriches the legacy fixture, skips missing screenshots, keeps every existing field', async () => {
    const { testCase: legacy } = parseTestCase(LEGACY)
    expect(isLegacyTestCase(legacy)).toBe(true)
    const { testCase, result, notes } = await enrichDesktopCase(legacy, { analyzer, caseDir: dir })
    expect(result).toEqual({ totalActions: 6, enrichedCount: 1, skippedCount: 2, failedCount: 0, version: '3.2' })
    expect(testCase.actions.map((a) => a.enrichmentStatus ?? null)).toEqual([
      'enriched',
      null,
      null,
      null,
      'skipped',
      'skipped',
    ])
    expect(testCase.actions[0]?.semanticInfo?.targetElement?.text).toBe('로그인')
    expect(notes.map((n) => n.reason)).toEqual([
      'screenshot screenshots/missing.png not found',
      'no screenshot recorded',
    ])
    for (const [i, a] of legacy.actions.entries())
      for (const k of PRESERVED) expect(testCase.actions[i]?.[k]).toEqual(a[k])
    // unknown top-level fields survive a save
    expect(serializeTestCase(testCase)).toMatchObject({ recorder: 'game-qa-automation 0.3' })
    expect(testCase.enrichedAt).toBeTruthy()
  })

  it('finds screenshots in --screenshots dir by file name', async () => {
    const { testCase: legacy } = parseTestCase(LEGACY)
    const { result } = await enrichDesktopCase(legacy, {
      analyzer,
      caseDir: '/nonexistent',
      screenshotsDir: join(dir, 'screenshots'),
    })
    expect(result.enrichedCount).toBe(1)
  })

  it('marks failed when the analyzer sees nothing', async () => {
    const { testCase: legacy } = parseTestCase(LEGACY)
    const blind: ElementAnalyzer = { analyzeElementAt: async () => ({ element: null }), inferIntent: () => 'x' }
    const { result } = await enrichDesktopCase(legacy, { analyzer: blind, caseDir: dir })
    expect(result).toMatchObject({ enrichedCount: 0, skippedCount: 2, failedCount: 1 })
  })

  // enrichment only adds: it never changes an existing field (timestamp, x, y, description, screenshot_path…)
  test.prop(
    [
      fc.array(
        fc.record({
          actionType: fc.constantFrom('click', 'double_click', 'right_click', 'type', 'wait'),
          x: fc.integer({ min: 0, max: 1000 }),
          y: fc.integer({ min: 0, max: 700 }),
          description: fc.string(),
          screenshotPath: fc.option(fc.constantFrom('screenshots/action_0000.png', 'screenshots/nope.png'), {
            nil: undefined,
          }),
          uiStateHashAfter: fc.option(fc.constantFrom('ffff0000ffff0000'), { nil: undefined }),
          withInfo: fc.boolean(),
        }),
        { maxLength: 6 },
      ),
    ],
    { numRuns: 100 },
  )('existing fields are untouched and the counts add up', async (specs) => {
    const actions: Action[] = specs.map((s, i) => ({
      timestamp: `2025-01-01T00:00:${String(i).padStart(2, '0')}`,
      actionType: s.actionType,
      x: s.x,
      y: s.y,
      description: s.description,
      ...(s.screenshotPath ? { screenshotPath: s.screenshotPath } : {}),
      ...(s.uiStateHashAfter ? { uiStateHashAfter: s.uiStateHashAfter } : {}),
      ...(s.withInfo ? { semanticInfo: { intent: 'kept', targetElement: { type: 'icon', text: 'old' } } } : {}),
    }))
    const tc: TestCase = { name: 'p5', version: '3.0', platform: 'desktop', actions }
    const before = structuredClone(tc)
    const { testCase, result } = await enrichDesktopCase(tc, { analyzer, caseDir: dir })
    expect(tc).toEqual(before) // input not mutated
    for (const [i, a] of before.actions.entries()) {
      const b = testCase.actions[i] as Action
      for (const [k, v] of Object.entries(a)) if (k !== 'enrichmentStatus') expect(b[k as keyof Action]).toEqual(v)
    }
    const skipped = actions.filter(
      (a) =>
        ['click', 'double_click', 'right_click'].includes(a.actionType) &&
        !a.semanticInfo &&
        a.screenshotPath !== 'screenshots/action_0000.png',
    ).length
    expect(result.skippedCount).toBe(skipped)
    expect(result.enrichedCount + result.skippedCount + result.failedCount).toBeLessThanOrEqual(result.totalActions)
  })
})
