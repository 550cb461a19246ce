import { serializeTestCase, type TestCase as QaTestCase } from '@qa/model'
import type { FullConfig, TestCase, TestResult } from '@playwright/test/reporter'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HealRecord } from './heal'
import QaReporter from './reporter'

const heal: HealRecord = {
  target: 'button "로그인"',
  caseFile: '/cases/login.json',
  actionIndex: 4,
  strategy: 'similarity',
  confidence: 0.83,
  healed: true,
  locator: "getByRole('button', { name: '로그인하기', exact: true })",
  stable: true,
  attempts: [
    { strategy: 'role', outcome: 'none', candidates: 0 },
    { strategy: 'similarity', outcome: 'matched', confidence: 0.83 },
  ],
}
const healedCase: QaTestCase = {
  name: '로그인',
  version: '3.1',
  platform: 'web',
  createdAt: '2026-11-23T00:00:00.000Z',
  actions: [],
}

function fakeTest(title: string): TestCase {
  return {
    titlePath: () => ['', 'login.spec.ts', title],
    location: { file: '/x/login.spec.ts', line: 1, column: 1 },
  } as unknown as TestCase
}
function result(status: TestResult['status'], caseFile: string): TestResult {
  const json = (v: unknown) => Buffer.from(JSON.stringify(v))
  return {
    status,
    attachments: [
      { name: 'qa-heal', contentType: 'application/json', body: json(heal) },
      {
        name: 'qa-healed-case',
        contentType: 'application/json',
        body: json({ caseFile, testCase: serializeTestCase(healedCase) }),
      },
    ],
  } as unknown as TestResult
}

describe('QaReporter', () => {
  it('adds a readable heal summary to the test, writes heals.json and index.html, and saves heals only of passed tests', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qa-reporter-'))
    const reporter = new QaReporter({ saveHeals: 'healed' })
    reporter.onBegin({ configFile: join(root, 'playwright.config.ts'), rootDir: root } as FullConfig)
    const failed = result('failed', join(root, 'cases/failed.json'))
    reporter.onTestEnd(fakeTest('fails'), failed)
    const passed = result('passed', join(root, 'cases/login.json'))
    reporter.onTestEnd(fakeTest('passes'), passed)
    await reporter.onEnd()

    const summary = passed.attachments.find((a) => a.name === 'qa-heals')
    expect(summary?.body?.toString('utf8')).toBe(
      `actions[4] button "로그인" → similarity 0.83 (healed) as getByRole('button', { name: '로그인하기', exact: true }) [role: none, similarity: matched]\n`,
    )
    expect(existsSync(join(root, 'healed/login.healed.json'))).toBe(true)
    expect(existsSync(join(root, 'healed/failed.healed.json'))).toBe(false)
    const saved = JSON.parse(readFileSync(join(root, 'healed/login.healed.json'), 'utf8'))
    expect(saved.name).toBe('로그인')
    const heals = JSON.parse(readFileSync(join(root, 'qa-report/heals.json'), 'utf8'))
    expect(heals.tests.map((t: { title: string; status: string }) => [t.title, t.status])).toEqual([
      ['login.spec.ts › fails', 'failed'],
      ['login.spec.ts › passes', 'passed'],
    ])
    expect(readFileSync(join(root, 'qa-report/index.html'), 'utf8')).toContain('button &quot;로그인&quot;')
  })

  it('keeps an existing healed file unless force is set', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qa-reporter-'))
    for (const name of ['first', 'second']) {
      const reporter = new QaReporter({ saveHeals: 'healed' })
      reporter.onBegin({ configFile: join(root, 'playwright.config.ts'), rootDir: root } as FullConfig)
      const r = result('passed', join(root, 'cases/login.json'))
      if (name === 'second') {
        const body = JSON.parse(r.attachments[1]?.body?.toString('utf8') ?? '{}')
        body.testCase.name = 'second'
        r.attachments[1] = {
          name: 'qa-healed-case',
          contentType: 'application/json',
          body: Buffer.from(JSON.stringify(body)),
        }
      }
      reporter.onTestEnd(fakeTest(name), r)
      await reporter.onEnd()
    }
    expect(JSON.parse(readFileSync(join(root, 'healed/login.healed.json'), 'utf8')).name).toBe('로그인')
  })
})
