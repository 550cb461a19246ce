import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { mergeEnrichment, summarizeEnrichment } from './enrich'
import { isClickLike, isLegacyTestCase } from './legacy'
import { arbAction, arbTestCase } from './testing'
import type { Action, SemanticInfo, TestCase } from './types'

const RUNS = { numRuns: 150 }
const semantic: SemanticInfo = {
  intent: 'click_button',
  targetElement: { type: 'button', text: '시작', boundingBox: { x: 1, y: 2, width: 3, height: 4 } },
}

function withAllSemantics(tc: TestCase): TestCase {
  return {
    ...tc,
    actions: tc.actions.map((a) =>
      isClickLike(a)
        ? {
            ...a,
            semanticInfo: semantic,
            identity: { tagName: 'button', boundingBox: { x: 0, y: 0, width: 1, height: 1 } },
          }
        : a,
    ),
  }
}

describe('legacy detection', () => {
  test.prop([arbTestCase()], RUNS)('a case whose click-like actions all carry semantics is not legacy', (tc) => {
    expect(isLegacyTestCase(withAllSemantics(tc))).toBe(false)
  })

  test.prop(
    [arbTestCase(), fc.nat(), fc.constantFrom<Action['semanticInfo'] | 'absent'>('absent', null, {}, { intent: 'x' })],
    RUNS,
  )('one click-like action with missing or empty semantic info makes a desktop case legacy', (tc, pick, broken) => {
    const complete = { ...withAllSemantics(tc), platform: 'desktop' as const }
    const clicks = complete.actions.flatMap((a, i) => (isClickLike(a) ? [i] : []))
    fc.pre(clicks.length > 0)
    const index = clicks[pick % clicks.length]!
    const action = { ...complete.actions[index]! }
    if (broken === 'absent') delete action.semanticInfo
    else action.semanticInfo = broken
    const actions = complete.actions.with(index, action)
    expect(isLegacyTestCase({ ...complete, actions })).toBe(true)
  })

  test.prop([arbTestCase(), fc.nat()], RUNS)(
    'one click-like action without identity makes a web case legacy',
    (tc, pick) => {
      const complete = { ...withAllSemantics(tc), platform: 'web' as const }
      const clicks = complete.actions.flatMap((a, i) => (isClickLike(a) ? [i] : []))
      fc.pre(clicks.length > 0)
      const index = clicks[pick % clicks.length]!
      const actions = complete.actions.with(index, { ...complete.actions[index]!, identity: null })
      expect(isLegacyTestCase({ ...complete, actions })).toBe(true)
    },
  )

  test.prop([arbTestCase()], RUNS)('actions that are not click-like never make a case legacy', (tc) => {
    const onlyOthers = { ...tc, actions: tc.actions.filter((a) => !isClickLike(a)) }
    expect(isLegacyTestCase(onlyOthers)).toBe(false)
  })
})

describe('enrichment merge', () => {
  const arbEnrichment = fc.record(
    {
      semanticInfo: fc.constant(semantic),
      uiStateHashBefore: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 16, maxLength: 16 }),
      enrichmentStatus: fc.constantFrom('enriched' as const, 'skipped' as const, 'failed' as const),
    },
    { requiredKeys: ['enrichmentStatus'] },
  )

  test.prop([arbAction(), arbEnrichment], RUNS)('existing fields are never changed', (action, enrichment) => {
    const before = structuredClone(action)
    const merged = mergeEnrichment(action, enrichment)
    expect(action).toEqual(before) // input untouched
    for (const [key, value] of Object.entries(before)) {
      if (key === 'enrichmentStatus') continue
      if (value !== null && value !== undefined) expect(merged[key as keyof Action]).toEqual(value)
    }
    for (const key of ['timestamp', 'x', 'y', 'description', 'screenshotPath'] as const)
      expect(merged[key]).toEqual(before[key])
    expect(merged.enrichmentStatus).toBe(enrichment.enrichmentStatus)
  })

  test.prop([arbAction(), arbEnrichment], RUNS)('absent fields are filled', (action, enrichment) => {
    const bare = { ...action }
    delete bare.semanticInfo
    const merged = mergeEnrichment(bare, enrichment)
    if (enrichment.semanticInfo) expect(merged.semanticInfo).toEqual(enrichment.semanticInfo)
  })

  test.prop([fc.array(fc.constantFrom('enriched' as const, 'skipped' as const, 'failed' as const, null))], RUNS)(
    'enrichment counts never exceed the total',
    (statuses) => {
      const r = summarizeEnrichment(statuses, '3.0')
      expect(r.totalActions).toBe(statuses.length)
      expect(r.enrichedCount + r.skippedCount + r.failedCount).toBe(statuses.filter((s) => s !== null).length)
    },
  )
})
