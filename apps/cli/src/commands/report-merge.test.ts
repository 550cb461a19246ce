import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseReplayReport, type ReplayReport } from '@qa/model'
import { beforeAll, describe, expect, test } from 'vitest'
import { replayReportOf, writeReportFile } from '../__tests__/report-fixture'
import { ensureBuilt, qa } from '../__tests__/run-cli'

const dir = mkdtempSync(join(tmpdir(), 'qa-merge-'))
const report = replayReportOf
const write = (rel: string, r: ReplayReport) => writeReportFile(dir, rel, r)

beforeAll(() => ensureBuilt(), 180_000)

describe('qa report merge', () => {
  test('combines shard reports: counts add up, success rate recomputed, paths relative to --out', () => {
    const a = write('shard-1/shard-1-of-2.json', report('로그인', ['pass', 'warning']))
    const b = write('shard-2/shard-2-of-2.json', report('검색', ['pass', 'fail', 'pass']))
    const out = join(dir, 'merged', 'all.json')
    const r = qa(['report', 'merge', a, b, '--out', out])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/FAILED — 1\/2 cases passed, 3 passed, 1 failed, 1 warning of 5 steps \(80\.0%\)/)
    const merged = parseReplayReport(JSON.parse(readFileSync(out, 'utf8')))
    expect([merged.totalActions, merged.passedCount, merged.failedCount, merged.warningCount]).toEqual([5, 3, 1, 1])
    expect(merged.successRate).toBeCloseTo(0.8)
    expect(merged.passed).toBe(false)
    expect(merged.verificationResults[2]?.actualScreenshot).toBe('../shard-2/artifacts/검색-0.png')
    expect(merged.verificationResults[2]?.actionDescription).toBe('검색: step 0')
  })

  test('refuses to overwrite without --force, and names an unreadable report', () => {
    const a = write('x.json', report('a', ['pass']))
    const out = join(dir, 'once.json')
    expect(qa(['report', 'merge', a, '--out', out]).code).toBe(0)
    const again = qa(['report', 'merge', a, '--out', out])
    expect(again.code).toBe(2)
    expect(qa(['report', 'merge', a, '--out', out, '--force']).code).toBe(0)
    writeFileSync(join(dir, 'bad.json'), '{"nope": 1}')
    const bad = qa(['report', 'merge', join(dir, 'bad.json'), '--out', join(dir, 'z.json')])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/bad\.json/)
    expect(bad.stderr).not.toMatch(/\s+at .+\.js:\d+/)
  })
})

describe('qa report merge, the same report twice', () => {
  test('one file named twice, or a copy of it, is refused: its cases would count twice', () => {
    const a = write('twice/a.json', report('로그인', ['pass', 'fail']))
    const copy = join(dir, 'twice', 'copy.json')
    writeFileSync(copy, readFileSync(a))
    for (const second of [a, copy]) {
      const out = join(dir, 'twice', `merged-${second === a ? 'same' : 'copy'}.json`)
      const r = qa(['report', 'merge', a, second, '--out', out])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`${second} is the same report as ${a}`)
      expect(r.stderr).toContain('nothing was merged')
    }
  })
})

describe('qa replay --shard (no browser needed)', () => {
  test('a bad shard or a shard of a file is a usage error', () => {
    const caseFile = join(dir, 'case.json')
    writeFileSync(caseFile, JSON.stringify({ name: 'a', version: '3.0', platform: 'web', actions: [] }))
    const bad = qa(['replay', dir, '--shard', '5/4'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--shard: expected k\/n with 1 ≤ k ≤ n, got "5\/4"/)
    const file = qa(['replay', caseFile, '--shard', '1/2'])
    expect(file.code).toBe(2)
    expect(file.stderr).toMatch(/--shard needs a folder of cases/)
  })

  test('a shard without cases (more shards than cases) replays nothing and passes', () => {
    const one = mkdtempSync(join(tmpdir(), 'qa-shard-one-'))
    writeFileSync(
      join(one, 'only.json'),
      JSON.stringify({
        name: 'only',
        version: '3.0',
        platform: 'web',
        start_url: 'http://127.0.0.1:9/',
        actions: [{ timestamp: 0, action_type: 'wait', x: 0, y: 0, duration_ms: 1, description: 'wait' }],
      }),
    )
    const r = qa(['replay', one, '--shard', '2/3', '--report-dir', join(one, 'reports')])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/Shard 2\/3 has no cases/)
  })
})
