import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { type Action, parseReplayReport, type VerificationResult } from '@qa/model'
import { beforeAll, describe, expect } from 'vitest'
import { cloneFrame, paintRect, syntheticFrame, toPng } from './__tests__/images'
import { fakeReverifier } from './fake-reverifier'
import { createReplayVerifier } from './replay-verifier'
import { renderJsonReport } from './reports/json-report'

const dir = mkdtempSync(join(tmpdir(), 'qa-verifier-replay-'))
const expected = syntheticFrame(40, 30, 21)
const slightly = cloneFrame(expected)
paintRect(slightly, 0, 0, 40, 6, [0, 0, 0])
const very = cloneFrame(expected)
paintRect(very, 0, 0, 40, 18, [0, 0, 0])

beforeAll(async () => {
  writeFileSync(join(dir, 'after.png'), await toPng(expected))
})

type Kind = 'no-screenshot' | 'capture-fails' | 'same' | 'slightly' | 'very'
const arbKind = fc.constantFrom<Kind>('no-screenshot', 'capture-fails', 'same', 'slightly', 'very')

function action(kind: Kind, i: number): Action {
  return {
    timestamp: i,
    actionType: 'click',
    x: i,
    y: i,
    description: `클릭 ${i}`,
    screenshotPath: kind === 'no-screenshot' ? null : 'after.png',
  }
}

function actualFor(kind: Kind) {
  if (kind === 'capture-fails') return () => Promise.reject(new Error('capture failed'))
  return kind === 'slightly' ? slightly : kind === 'very' ? very : cloneFrame(expected)
}

const arbVerdicts = fc.array(fc.constantFrom<VerificationResult['finalResult']>('pass', 'fail', 'warning'), {
  maxLength: 30,
})
const resultOf = (finalResult: VerificationResult['finalResult'], i: number): VerificationResult => ({
  actionIndex: i,
  actionDescription: `step ${i}`,
  screenshotMatch: finalResult === 'pass',
  screenshotSimilarity: finalResult === 'pass' ? 1 : 0.5,
  visionVerified: false,
  visionMatch: false,
  finalResult,
})

describe('ReplayVerifier', () => {
  // One verdict per action whatever the capture does (the success rate itself is tested on the real
  // replayer: packages/recorder-desktop/src/desktop-replayer.test.ts)
  // actions without screenshot_path are not compared (skipped), and
  // the report names them once (`unverified_steps`, the summary) instead of a warning per step
  test.prop([fc.array(arbKind, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean()], { numRuns: 100 })(
    'every action gets a result, in order, whatever fails; no screenshot_path → named once in the report',
    async (kinds, coordinate, visionMatches) => {
      const v = createReplayVerifier({
        testCaseName: 'login',
        baseDir: dir,
        reverifier: fakeReverifier({ match: visionMatches }),
      })
      for (const [i, kind] of kinds.entries()) {
        const a = action(kind, i)
        if (coordinate) await v.verifyCoordinateAction(i, a, actualFor(kind))
        else await v.verifyAction(i, a, actualFor(kind))
      }
      const report = v.buildReport()
      expect(report.verificationResults.map((r) => r.actionIndex)).toEqual(kinds.map((_, i) => i))
      expect(report.totalActions).toBe(kinds.length)
      kinds.forEach((kind, i) => {
        const r = report.verificationResults[i] as VerificationResult
        const want = {
          'no-screenshot': 'pass',
          'capture-fails': 'fail',
          same: 'pass',
          slightly: visionMatches ? 'warning' : 'fail',
          very: visionMatches ? 'warning' : 'fail',
        }[kind]
        expect(r.finalResult).toBe(want)
        if (kind === 'no-screenshot') expect(r.details).toMatchObject({ skipped: true })
      })
      const unverified = kinds.flatMap((k, i) => (k === 'no-screenshot' ? [i] : []))
      expect(report.unverifiedSteps ?? []).toEqual(unverified)
      if (unverified.length) expect(report.summary).toContain(unverified.map((i) => `#${i + 1}`).join(', '))
      else expect(report.summary).not.toMatch(/without a recorded screenshot/)
    },
  )

  // passed + failed + warning = total; success_rate = (passed + warning) / total
  // the test fails iff some action failed
  test.prop([arbVerdicts], { numRuns: 200 })('report counts, success rate and the test result', (verdicts) => {
    const v = createReplayVerifier({ testCaseName: 't', sessionId: 's1' })
    for (const [i, f] of verdicts.entries()) v.recordResult(resultOf(f, i))
    const r = v.buildReport()
    expect(r.passedCount + r.failedCount + r.warningCount).toBe(r.totalActions)
    expect(r.totalActions).toBe(verdicts.length)
    expect(r.passedCount).toBe(verdicts.filter((x) => x === 'pass').length)
    expect(r.successRate).toBeCloseTo(verdicts.length === 0 ? 0 : (r.passedCount + r.warningCount) / r.totalActions, 12)
    const passed = !verdicts.includes('fail')
    expect(v.determineTestResult()).toBe(passed)
    expect(r.passed).toBe(passed)
    expect(r.summary).toContain(passed ? 'PASSED' : 'FAILED')
  })

  // every action in the report has action_index, final_result and screenshot_similarity
  // required fields of VerificationResult and ReplayReport are present in the saved JSON
  test.prop([arbVerdicts], { numRuns: 100 })('the saved report is complete and loads back unchanged', (verdicts) => {
    const v = createReplayVerifier({ testCaseName: '회원가입', sessionId: 's2', now: () => new Date(0) })
    for (const [i, f] of verdicts.entries()) v.recordResult(resultOf(f, i))
    const report = v.buildReport()
    const json = JSON.parse(renderJsonReport(report)) as Record<string, unknown>
    for (const k of [
      'total_actions',
      'passed_count',
      'failed_count',
      'warning_count',
      'success_rate',
      'session_id',
      'summary',
    ]) {
      expect(json).toHaveProperty(k)
    }
    const steps = json.verification_results as Record<string, unknown>[]
    expect(steps).toHaveLength(verdicts.length)
    for (const s of steps) {
      for (const k of ['action_index', 'final_result', 'screenshot_similarity', 'vision_match'])
        expect(s).toHaveProperty(k)
    }
    expect(parseReplayReport(json)).toEqual(report)
  })

  test('replay results give accuracy statistics; the report names the session and times', () => {
    let t = 0
    const v = createReplayVerifier({ testCaseName: 't', sessionId: 'abc', now: () => new Date(1_000 * t++) })
    v.recordResult(resultOf('pass', 0))
    v.recordReplayResult({
      actionId: 'a0',
      actionIndex: 0,
      success: true,
      method: 'role',
      originalCoords: { x: 1, y: 1 },
      matchConfidence: 0.9,
      screenTransitionVerified: true,
      errorMessage: '',
    })
    const r = v.buildReport()
    expect(r).toMatchObject({
      sessionId: 'abc',
      startTime: '1970-01-01T00:00:00.000Z',
      endTime: '1970-01-01T00:00:01.000Z',
    })
    expect(r.accuracyStats).toMatchObject({ totalActions: 1, semanticMatchCount: 1, byMethod: { role: 1 } })
    expect(createReplayVerifier({ testCaseName: 'x' }).sessionId).toMatch(/^\d{8}_\d{6}_[0-9a-f]{8}$/)
  })
})

// A typing step acts on the target the click before it focused (a digit typed into the sudoku cell just clicked):
// its effect lies inside that target's box, which for other steps is masked as "the previous target's hover".
describe('ReplayVerifier: typing into the element the previous step clicked', () => {
  const before = syntheticFrame(120, 80, 5)
  const typed = cloneFrame(before)
  paintRect(typed, 50, 30, 8, 14, [10, 10, 10]) // the digit, inside the clicked cell's box
  const cellBox = { x: 40, y: 20, width: 30, height: 30 }
  const tdir = mkdtempSync(join(tmpdir(), 'qa-verifier-typing-'))
  beforeAll(async () => {
    writeFileSync(join(tdir, 'clicked.png'), await toPng(before))
    writeFileSync(join(tdir, 'typed.png'), await toPng(typed))
  })
  const click: Action = {
    timestamp: 0,
    actionType: 'click',
    x: 55,
    y: 35,
    description: 'click the cell',
    elementCropBox: cellBox,
    screenshotPath: 'clicked.png',
  }
  const type: Action = {
    timestamp: 1,
    actionType: 'type',
    x: 0,
    y: 0,
    text: '7',
    description: 'type 7',
    screenshotPath: 'typed.png',
  }

  test.prop([fc.boolean()], { numRuns: 100 })(
    'the digit that appeared passes; a digit that did not appear fails as a missing change',
    async (digitShown) => {
      const v = createReplayVerifier({ testCaseName: 'sudoku', baseDir: tdir })
      const r = await v.verifyAction(1, type, digitShown ? cloneFrame(typed) : cloneFrame(before), {
        previousAction: click,
        actualBefore: cloneFrame(before),
      })
      expect(r.finalResult).toBe(digitShown ? 'pass' : 'fail')
      if (!digitShown) expect(r.details?.reason ?? JSON.stringify(r)).toMatch(/expected change did not happen/)
    },
  )
})

// A game screen with a sprite that moves by itself: the recorder learnt its region (`animated_regions`); what it
// shows at the replay's moment is not evidence, the step's own effect still is.
describe('ReplayVerifier: animated regions are not evidence', () => {
  const before = syntheticFrame(160, 100, 9)
  const spriteAt = (f: ReturnType<typeof syntheticFrame>, x: number) => {
    const out = cloneFrame(f)
    paintRect(out, x, 70, 12, 12, [250, 220, 40])
    return out
  }
  const clicked = cloneFrame(before)
  paintRect(clicked, 20, 20, 30, 14, [200, 40, 40]) // the click's effect: the button turned red
  const recordedBefore = spriteAt(before, 100)
  const recordedAfter = spriteAt(clicked, 110)
  const adir = mkdtempSync(join(tmpdir(), 'qa-verifier-animated-'))
  beforeAll(async () => {
    writeFileSync(join(adir, 'before.png'), await toPng(recordedBefore))
    writeFileSync(join(adir, 'after.png'), await toPng(recordedAfter))
  })
  const step = (animated: boolean): Action => ({
    timestamp: 0,
    actionType: 'click',
    x: 35,
    y: 27,
    description: 'click the button',
    elementCropBox: { x: 15, y: 15, width: 40, height: 24 },
    screenshotBeforePath: 'before.png',
    screenshotPath: 'after.png',
    ...(animated ? { animatedRegions: [{ x: 96, y: 64, width: 48, height: 32 }] } : {}),
  })

  test.prop([fc.integer({ min: 96, max: 132 }), fc.boolean()], { numRuns: 30 })(
    'the sprite anywhere in its region: the effect passes, a missing effect fails; without the region a sprite elsewhere fails it',
    async (spriteX, effectShown) => {
      const actualBefore = spriteAt(before, 100)
      const actual = spriteAt(effectShown ? clicked : before, spriteX)
      const v = createReplayVerifier({ testCaseName: 'game', baseDir: adir })
      const r = await v.verifyAction(0, step(true), cloneFrame(actual), { actualBefore })
      expect(r.finalResult).toBe(effectShown ? 'pass' : 'fail')
      expect(r.details?.animated_regions).toEqual([{ x: 96, y: 64, width: 48, height: 32 }])
      if (effectShown && Math.abs(spriteX - 110) >= 12) {
        const plain = createReplayVerifier({ testCaseName: 'game', baseDir: adir })
        const p = await plain.verifyAction(0, step(false), cloneFrame(actual), { actualBefore })
        expect(p.finalResult).not.toBe('pass')
      }
    },
  )
})
