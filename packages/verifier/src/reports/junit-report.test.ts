import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { ReplayReport } from '@qa/model'
import { parse as parseJunit, type TestSuites } from 'junit2json'
import { beforeAll, describe, expect, test } from 'vitest'
import { validateXML } from 'xmllint-wasm'
import { threeStepRun } from '../__tests__/three-step-run'
import { casesOfReport, renderJunitReport, renderJunitXml } from './junit-report'

/**
 * The JUnit XSD Jenkins uses (dtkit junit-4.xsd), as shipped by the npm package junit-processor
 * (schemas/jenkins-junit.xsd; its header names the source).
 */
const JENKINS_XSD = readFileSync(
  createRequire(import.meta.url).resolve('junit-processor/schemas/jenkins-junit.xsd'),
  'utf8',
)
const validate = async (xml: string) => {
  const r = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [JENKINS_XSD] })
  return { valid: r.valid, errors: r.errors.map((e) => e.message) }
}

const passingCase: ReplayReport = {
  testCaseName: '회원 가입',
  sessionId: 's-pass',
  startTime: '2026-01-01T00:00:00.000Z',
  endTime: '2026-01-01T00:00:03.000Z',
  totalActions: 2,
  passedCount: 2,
  failedCount: 0,
  warningCount: 0,
  successRate: 1,
  passed: true,
  summary: 'Test PASSED',
  testCasePath: 'cases/signup.json',
  verificationResults: [0, 1].map((i) => ({
    actionIndex: i,
    actionDescription: i === 0 ? 'Click button "가입"' : 'Type "홍길동" into 이름',
    screenshotMatch: true,
    screenshotSimilarity: 0.99,
    visionVerified: false,
    visionMatch: false,
    finalResult: 'pass' as const,
    durationMs: 1200,
  })),
}

let run: { dir: string; report: ReplayReport }
beforeAll(async () => {
  run = await threeStepRun()
})

describe('JUnit as CI reads it: one testcase per case, not per step', () => {
  test('a single case is one suite with one testcase; its failure names the failing step and why', async () => {
    const xml = renderJunitReport(run.report, { baseDir: run.dir })
    expect(xml.match(/<testsuite /g)).toHaveLength(1)
    expect(xml.match(/<testcase /g)).toHaveLength(1)
    expect(xml).toMatch(/<testcase classname="[^"]*" name="로그인 흐름" time="/)
    expect(xml).toMatch(
      /<failure message="1 of 3 steps failed: step 3 설정 열기: [^"]*설정 화면 대신 오류 대화상자가 보입니다[^"]*" type="verification">/,
    )
    const out = xml.slice(xml.indexOf('<system-out>'), xml.indexOf('</system-out>'))
    expect(out).toContain('[PASS] step 1 홈 버튼 클릭')
    expect(out).toContain('[WARNING] step 2 이름 입력')
    expect(out).toContain('[FAIL] step 3 설정 열기')
    expect(out).toContain('located by: similarity')
    // the failed step's screenshots as attachments, absolute paths of files that exist
    const attachments = [...out.matchAll(/\[\[ATTACHMENT\|([^\]]+)\]\]/g)].map((m) => m[1] as string)
    expect(attachments.some((p) => p.endsWith('step-002-diff.png'))).toBe(true)
    for (const p of attachments) {
      expect(p.startsWith('/')).toBe(true)
      expect(existsSync(p), p).toBe(true)
    }
    expect(await validate(xml)).toEqual({ valid: true, errors: [] })
  })

  test('a run of two cases validates against the Jenkins JUnit XSD and parses with one test per case', async () => {
    const xml = renderJunitXml([{ name: 'cases/', reports: [run.report, passingCase] }], { baseDir: run.dir })
    expect(await validate(xml)).toEqual({ valid: true, errors: [] })
    const parsed = (await parseJunit(xml)) as TestSuites
    expect(parsed).toMatchObject({ tests: 2, failures: 1 })
    const suites = parsed.testsuite ?? []
    expect(suites).toHaveLength(1)
    expect(suites[0]).toMatchObject({ name: 'cases/', tests: 2, failures: 1 })
    const cases = suites[0]?.testcase ?? []
    expect(cases.map((c) => c.name)).toEqual(['로그인 흐름', '회원 가입'])
    expect(cases[0]?.failure?.[0]?.message).toContain('step 3 설정 열기')
    expect(cases[1]?.failure).toBeUndefined()
    expect(cases[1]).toMatchObject({ classname: 'cases/signup.json', time: 2.4 })
    expect(cases[1]?.['system-out']?.[0]).toContain('[PASS] step 2 Type "홍길동" into 이름')
  })

  test('a merged report (qa report merge) is one testcase per case it merged', async () => {
    // the shape mergeReplayReports writes: steps appended and prefixed with their case, extra.merged lists cases
    const merged: ReplayReport = {
      ...passingCase,
      testCaseName: '2 cases merged',
      sessionId: 'merged',
      totalActions: 5,
      passedCount: 3,
      failedCount: 1,
      warningCount: 1,
      passed: false,
      verificationResults: [
        ...run.report.verificationResults.map((v) => ({
          ...v,
          actionDescription: `로그인 흐름: ${v.actionDescription}`,
        })),
        ...passingCase.verificationResults.map((v) => ({
          ...v,
          actionIndex: v.actionIndex + 3,
          actionDescription: `회원 가입: ${v.actionDescription}`,
        })),
      ],
      extra: {
        merged: [
          {
            testCaseName: '로그인 흐름',
            sessionId: 'run-1',
            passed: false,
            totalActions: 3,
            passedCount: 1,
            failedCount: 1,
            warningCount: 1,
          },
          {
            testCaseName: '회원 가입',
            sessionId: 's-pass',
            passed: true,
            totalActions: 2,
            passedCount: 2,
            failedCount: 0,
            warningCount: 0,
          },
        ],
      },
    }
    expect(casesOfReport(merged).map((c) => [c.testCaseName, c.verificationResults.length, c.passed])).toEqual([
      ['로그인 흐름', 3, false],
      ['회원 가입', 2, true],
    ])
    const xml = renderJunitReport(merged)
    expect(await validate(xml)).toEqual({ valid: true, errors: [] })
    const cases = ((await parseJunit(xml)) as TestSuites).testsuite?.[0]?.testcase ?? []
    expect(cases.map((c) => [c.name, c.failure ? 'failed' : 'passed'])).toEqual([
      ['로그인 흐름', 'failed'],
      ['회원 가입', 'passed'],
    ])
    expect(cases[1]?.['system-out']?.[0]).toContain('[PASS] step 1 Click button "가입"')
  })

  test('the validator can say no: a testcase without a name, or a step element, is invalid', async () => {
    const noName = '<testsuites><testsuite name="s" tests="1"><testcase/></testsuite></testsuites>'
    expect((await validate(noName)).valid).toBe(false)
    const stepElement = renderJunitReport(passingCase).replace('<system-out>', '<step/><system-out>')
    expect((await validate(stepElement)).valid).toBe(false)
  })
})
