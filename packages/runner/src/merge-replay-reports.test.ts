import { fc, test } from '@fast-check/vitest'
import { parseReplayReport, type ReplayReport, serializeReplayReport } from '@qa/model'
import { arbReplayReport } from '@qa/model/testing'
import { describe, expect } from 'vitest'
import { mergeReplayReports } from './merge-replay-reports'

const reports = fc.array(arbReplayReport(), { minLength: 1, maxLength: 6 })

describe('mergeReplayReports', () => {
  // the success rate ( = (passed + warning) / total) and the verdict-count invariant, on merges.
  test.prop([reports], { numRuns: 100 })('counts add up and the success rate is recomputed', (rs) => {
    const m = mergeReplayReports(rs)
    expect(m.passedCount + m.failedCount + m.warningCount).toBe(m.totalActions)
    expect(m.totalActions).toBe(rs.reduce((t, r) => t + r.verificationResults.length, 0))
    expect(m.successRate).toBeCloseTo(m.totalActions ? (m.passedCount + m.warningCount) / m.totalActions : 0, 12)
    // the merge fails when any step failed or any input failed.
    const anyFail = rs.some((r) => r.passed === false || r.verificationResults.some((v) => v.finalResult === 'fail'))
    expect(m.passed).toBe(!anyFail)
    // step numbers stay unique when they were unique inside each input
    const unique = (xs: number[]) => new Set(xs).size === xs.length
    if (rs.every((r) => unique(r.verificationResults.map((v) => v.actionIndex))))
      expect(unique(m.verificationResults.map((v) => v.actionIndex))).toBe(true)
    // the merged document is a valid report (round-trips through the codec)
    expect(parseReplayReport(serializeReplayReport(m)).totalActions).toBe(m.totalActions)
  })

  // Sharding: merging shard merges gives the same counts and case list as merging all the cases at once.
  test.prop([reports, fc.integer({ min: 1, max: 4 })], { numRuns: 100 })(
    'merging shard reports equals merging every case',
    (rs, n) => {
      const shards: ReplayReport[] = []
      for (let k = 0; k < n; k++) {
        const part = rs.filter((_, i) => i % n === k)
        if (part.length) shards.push(mergeReplayReports(part))
      }
      const a = mergeReplayReports(shards)
      const b = mergeReplayReports(rs.filter((_, i) => i % n === 0).concat(rs.filter((_, i) => i % n !== 0)))
      expect([a.totalActions, a.passedCount, a.failedCount, a.warningCount, a.passed]).toEqual([
        b.totalActions,
        b.passedCount,
        b.failedCount,
        b.warningCount,
        b.passed,
      ])
      const names = (r: ReplayReport) =>
        ((r.extra as { merged: Array<{ testCaseName: string }> }).merged ?? []).map((c) => c.testCaseName).sort()
      expect(names(a)).toEqual(names(b))
      expect(names(a)).toHaveLength(rs.length)
    },
  )

  test('rebases screenshot paths and prefixes steps with the case name', () => {
    const base = (name: string): ReplayReport => ({
      testCaseName: name,
      sessionId: name,
      startTime: '2026-01-01T00:00:00.000Z',
      endTime: '2026-01-01T00:00:01.000Z',
      totalActions: 1,
      passedCount: 1,
      failedCount: 0,
      warningCount: 0,
      successRate: 1,
      passed: true,
      verificationResults: [
        {
          actionIndex: 0,
          actionDescription: '저장 클릭',
          screenshotMatch: true,
          screenshotSimilarity: 1,
          visionVerified: false,
          visionMatch: false,
          finalResult: 'pass',
          actualScreenshot: 'artifacts/a.png',
        },
      ],
      summary: '',
    })
    const m = mergeReplayReports([base('로그인'), base('검색')], { rebasePath: (p, i) => `shard-${i}/${p}` })
    expect(m.verificationResults.map((v) => [v.actionIndex, v.actionDescription, v.actualScreenshot])).toEqual([
      [0, '로그인: 저장 클릭', 'shard-0/artifacts/a.png'],
      [1, '검색: 저장 클릭', 'shard-1/artifacts/a.png'],
    ])
    expect(m.summary).toMatch(/PASSED — 2\/2 cases passed/)
  })

  test('no reports is a clear error', () => {
    expect(() => mergeReplayReports([])).toThrow(/no reports to merge/)
  })
})
