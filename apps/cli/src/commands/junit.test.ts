import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReplayReport } from '@qa/model'
import { parse as parseJunit, type TestSuites } from 'junit2json'
import { describe, expect, test } from 'vitest'
import { validateJunit } from '../__tests__/junit'
import { replayReportOf, writeReportFile } from '../__tests__/report-fixture'
import { qa } from '../__tests__/run-cli'

/** `qa report merge --junit` and `qa report --format junit` give one testcase per case. */
const dir = mkdtempSync(join(tmpdir(), 'qa-junit-cli-'))
const report = (name: string, verdicts: Array<'pass' | 'fail'>) =>
  replayReportOf(name, verdicts, (i) => `버튼 ${i} 클릭`)
const write = (rel: string, r: ReplayReport) => writeReportFile(dir, rel, r)

describe('JUnit from the CLI', () => {
  const a = write('shard-1/report.json', report('로그인', ['pass', 'pass']))
  const b = write('shard-2/report.json', report('검색', ['pass', 'fail', 'pass']))

  test('qa report merge --junit: valid against the Jenkins XSD, one test per case, the failing step named', async () => {
    const junit = join(dir, 'merged', 'junit.xml')
    const r = qa(['report', 'merge', a, b, '--out', join(dir, 'merged', 'all.json'), '--junit', junit])
    expect(r.code, r.stderr).toBe(0)
    const xml = readFileSync(junit, 'utf8')
    expect(await validateJunit(xml)).toEqual({ valid: true, errors: [] })
    const parsed = (await parseJunit(xml)) as TestSuites
    expect(parsed).toMatchObject({ tests: 2, failures: 1 })
    const cases = parsed.testsuite?.[0]?.testcase ?? []
    expect(cases.map((c) => [c.name, c.failure?.[0]?.message ?? null])).toEqual([
      ['로그인', null],
      ['검색', '1 of 3 steps failed: step 2 버튼 1 클릭: 저장 대화상자가 열리지 않았습니다'],
    ])
    // the attachment is the failed step's screenshot, absolute, next to the shard it came from
    expect(cases[1]?.['system-out']?.[0]).toContain(`[[ATTACHMENT|${join(dir, 'shard-2', 'artifacts', '검색-1.png')}]]`)
  })

  test('qa report merge refuses an existing --junit file before merging, and takes it with --force', () => {
    const junit = join(dir, 'taken.xml')
    writeFileSync(junit, 'keep')
    const out = join(dir, 'merged-2.json')
    const r = qa(['report', 'merge', a, b, '--out', out, '--junit', junit])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--junit .*taken\.xml already exists/)
    expect(readFileSync(junit, 'utf8')).toBe('keep')
    expect(qa(['report', 'merge', a, b, '--out', out, '--junit', junit, '--force']).code).toBe(0)
    expect(readFileSync(junit, 'utf8')).toContain('<testsuites')
  })

  test('qa report <one report> --format junit: one suite, one testcase', async () => {
    const r = qa(['report', b, '--format', 'junit'])
    expect(r.code, r.stderr).toBe(0)
    expect(await validateJunit(r.stdout)).toEqual({ valid: true, errors: [] })
    const parsed = (await parseJunit(r.stdout)) as TestSuites
    expect(parsed.testsuite?.map((s) => [s.name, s.testcase?.length])).toEqual([['검색', 1]])
  })
})
