/**
 * The example Playwright Test project (examples/playwright-test), run the way a team runs it — `npx playwright
 * test` — on the spec `qa export playwright` wrote from a case recorded on v1: it passes on the redesigned v2
 * with the heals in Playwright's own JSON report, and fails on the variant where the targets were removed
 * and only look-alikes remain.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const example = fileURLToPath(new URL('../../../examples/playwright-test/', import.meta.url))

function playwrightTest(variant: 'v2' | 'removal', port: number) {
  const out = mkdtempSync(join(tmpdir(), `qa-pw-${variant}-`))
  const r = spawnSync('npx', ['playwright', 'test', 'tests/exported'], {
    cwd: example,
    encoding: 'utf8',
    timeout: 240_000,
    env: {
      ...process.env,
      CI: '1',
      QA_EXAMPLE_VARIANT: variant,
      QA_EXAMPLE_OUT: out,
      QA_EXAMPLE_SAMPLE_PORT: String(port),
      QA_EXAMPLE_CORPUS_PORT: String(port + 1),
    },
  })
  return { code: r.status, output: `${r.stdout}\n${r.stderr}`, out }
}

interface JsonReport {
  suites: {
    suites?: JsonReport['suites']
    specs?: { tests: { results: { status: string; attachments: { name: string; body?: string }[] }[] }[] }[]
  }[]
}
function results(report: JsonReport['suites']): { status: string; attachments: { name: string; body?: string }[] }[] {
  return report.flatMap((s) => [
    ...(s.specs ?? []).flatMap((sp) => sp.tests.flatMap((t) => t.results)),
    ...results(s.suites ?? []),
  ])
}

describe('the example Playwright Test project', () => {
  it('passes the exported spec on v2 with every heal attached in Playwright’s report', () => {
    const run = playwrightTest('v2', 4274)
    expect(run.output).toContain('1 passed')
    expect(run.code).toBe(0)
    const report = JSON.parse(readFileSync(join(run.out, 'playwright-report/results.json'), 'utf8')) as JsonReport
    const [result] = results(report.suites)
    expect(result?.status).toBe('passed')
    const heals = (result?.attachments ?? [])
      .filter((a) => a.name === 'qa-heal')
      .map((a) => JSON.parse(Buffer.from(a.body ?? '', 'base64').toString('utf8')))
    expect(heals.map((h) => h.actionIndex)).toEqual([0, 1, 2, 3, 4, 7])
    // the v2 login button is "로그인하기" behind a decoy: not found by role+name, healed by another strategy
    const login = heals.find((h) => h.actionIndex === 4)
    expect(login.healed).toBe(true)
    expect(login.strategy).not.toBe('role')
    expect(login.attempts.length).toBeGreaterThan(1)
    const qaIndex = readFileSync(join(run.out, 'qa-report/index.html'), 'utf8')
    expect(qaIndex).toContain('로그인')
  })

  it('fails the run when the target was removed and only a look-alike is left', () => {
    const run = playwrightTest('removal', 4284)
    expect(run.code).toBe(1)
    expect(run.output).toContain('1 failed')
    expect(run.output).toMatch(/No element matches button "로그인"/)
  })
})
