// `qa accept` and `qa replay --update-baselines` on bad input: exit 2, a message naming the file and field, and
// nothing written; and the write itself on real PNGs: the case updated, the old baseline kept, the report untouched.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { type ReplayReport, serializeReplayReport, stringifyDocument } from '@qa/model'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { joinOptionalFlagValues } from '../argv'
import { writeDesktopClickCase } from '../__tests__/desktop-key-case'
import { encodePng, solidRgba } from '../__tests__/png'
import { replayReportOf } from '../__tests__/report-fixture'
import { ensureBuilt, qa } from '../__tests__/run-cli'

beforeAll(() => ensureBuilt(), 600_000)

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex')
const png = (rgb: [number, number, number]) => encodePng(40, 30, solidRgba(40, 30, rgb))

/** A web case of three clicks with recorded screenshots, and a report of its replay: step 1 passed, 2 healed and failed, 3 not found. */
function fixture(name = 'flow') {
  const root = mkdtempSync(join(tmpdir(), 'qa-accept-'))
  const cases = join(root, 'cases')
  mkdirSync(join(cases, name), { recursive: true })
  const actions = [0, 1, 2].map((i) => {
    writeFileSync(join(cases, name, `step-00${i}-after.png`), png([10, 10, 10]))
    writeFileSync(join(cases, name, `step-00${i}-before.png`), png([20, 20, 20]))
    return {
      timestamp: 0,
      action_type: 'click',
      x: 10 + i,
      y: 10,
      description: `Click button "저장 ${i}"`,
      screenshot_path: `${name}/step-00${i}-after.png`,
      screenshot_before_path: `${name}/step-00${i}-before.png`,
      identity: {
        tag_name: 'button',
        ax_role: 'button',
        ax_name: `저장 ${i}`,
        bounding_box: { x: 0, y: 0, width: 20, height: 20 },
      },
      selectors: { css: `#s${i}` },
    }
  })
  const caseFile = join(cases, `${name}.json`)
  const caseText = JSON.stringify(
    { name, version: '3.0', platform: 'web', start_url: 'http://127.0.0.1:9/', actions },
    null,
    2,
  )
  writeFileSync(caseFile, caseText)
  const reportDir = join(root, 'reports')
  mkdirSync(join(reportDir, 'artifacts'), { recursive: true })
  const step = (i: number) => {
    const after = png([200, 100 + i, 50])
    const before = png([190, 90 + i, 40])
    writeFileSync(join(reportDir, 'artifacts', `step-00${i}-actual.png`), after)
    writeFileSync(join(reportDir, 'artifacts', `step-00${i}-before.png`), before)
    return {
      actionIndex: i,
      screenshotAfter: `artifacts/step-00${i}-actual.png`,
      screenshotAfterSha256: sha(after),
      screenshotBefore: `artifacts/step-00${i}-before.png`,
      screenshotBeforeSha256: sha(before),
      elementBox: { x: 5, y: 5, width: 12, height: 10 },
      actualCoords: { x: 11, y: 10 },
    }
  }
  const report: ReplayReport = {
    ...replayReportOf(name, ['pass', 'fail', 'fail']),
    platform: 'web',
    replayResults: [0, 1, 2].map((i) => ({
      actionId: `action-00${i}`,
      actionIndex: i,
      success: i !== 2,
      method: i === 2 ? ('failed' as const) : ('role' as const),
      originalCoords: { x: 10, y: 10 },
      matchConfidence: i === 2 ? 0 : 1,
      screenTransitionVerified: false,
      errorMessage: i === 2 ? 'Element not found: button "저장 2"' : '',
    })),
    acceptance: {
      caseFile: relative(reportDir, caseFile),
      caseSha256: sha(caseText),
      steps: [
        { ...step(0), verdict: 'pass' },
        {
          ...step(1),
          verdict: 'fail',
          identity: {
            tagName: 'button',
            axRole: 'button',
            axName: '보관',
            boundingBox: { x: 5, y: 5, width: 12, height: 10 },
          },
          selectors: { css: '#keep' },
          healing: { healedAt: '2026-01-01T00:00:00.000Z', strategy: 'similarity', confidence: 0.8, verified: false },
        },
      ],
    },
  }
  const reportFile = join(reportDir, 'replay_flow.json')
  const write = (r: ReplayReport) => writeFileSync(reportFile, stringifyDocument(serializeReplayReport(r)))
  write(report)
  /** Every file under the root with its hash: "nothing was written" is this map unchanged. */
  const snapshot = () => {
    const out: Record<string, string> = {}
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name)
        if (e.isDirectory()) walk(p)
        else out[relative(root, p)] = sha(readFileSync(p))
      }
    }
    walk(root)
    return out
  }
  return { root, caseFile, caseText, reportDir, reportFile, report, write, snapshot }
}

describe('qa accept: bad input is exit 2 and writes nothing', () => {
  it('a missing report names the file', () => {
    const f = fixture()
    const r = qa(['accept', join(f.reportDir, 'nope.json')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('nope.json')
  })

  it.each([
    [
      'a report without acceptance evidence',
      (r: ReplayReport) => ({ ...r, acceptance: null }),
      /acceptance: expected the evidence/,
    ],
    [
      'a desktop report',
      (r: ReplayReport) => ({ ...r, platform: 'desktop' as const }),
      /desktop replay report; accepting new baselines works for web cases only/,
    ],
    [
      'a report of a case that changed since',
      (r: ReplayReport) => ({ ...r, acceptance: { ...r.acceptance!, caseSha256: 'f'.repeat(64) } }),
      /flow\.json changed since the replay of .*replay_flow\.json \(acceptance\.case_sha256/,
    ],
    [
      'a case that is gone',
      (r: ReplayReport) => ({ ...r, acceptance: { ...r.acceptance!, caseFile: '../cases/gone.json' } }),
      /acceptance\.case_file: .*gone\.json: no such test case file\. Nothing was written/,
    ],
    [
      'a report naming a device as its case',
      (r: ReplayReport) => ({ ...r, acceptance: { ...r.acceptance!, caseFile: '/dev/zero' } }),
      /acceptance\.case_file: \/dev\/zero is not a regular file; a test case file was expected\. Nothing was written/,
    ],
    [
      'an image overwritten by a later replay',
      (r: ReplayReport) => ({
        ...r,
        acceptance: {
          ...r.acceptance!,
          steps: r.acceptance!.steps.map((s) => ({ ...s, screenshotAfterSha256: '0'.repeat(64) })),
        },
      }),
      /acceptance\.steps\[action_index=1\]\.screenshot_after: the image .*step-001-actual\.png changed since the replay/,
    ],
  ])('%s', (_, change, message) => {
    const f = fixture()
    f.write(change(f.report))
    const before = f.snapshot()
    const r = qa(['accept', f.reportFile])
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toMatch(/Nothing was written|nothing was written/)
    expect(f.snapshot()).toEqual(before)
  })

  it.each([
    ['0', /--steps: step numbers start at 1/],
    ['two', /--steps: expected step numbers from 1 like "3,5" or "2-4", got "two"/],
    ['2,9', /--steps: step 9 does not exist in .*flow\.json: it has 3 steps \(numbered 1–3\)/],
  ])('--steps %s', (steps, message) => {
    const f = fixture()
    const before = f.snapshot()
    const r = qa(['accept', f.reportFile, '--steps', steps])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(f.snapshot()).toEqual(before)
  })

  it('refusing every requested step (not found) is exit 2 with the reason, nothing written', () => {
    const f = fixture()
    const before = f.snapshot()
    const r = qa(['accept', f.reportFile, '--steps', '3'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('step 3: not accepted: its element was not found')
    expect(r.stderr).toContain('none of the requested steps can be accepted (3); nothing was written')
    expect(f.snapshot()).toEqual(before)
  })
})

describe('qa accept writes the new baseline', () => {
  it('accepts the changed steps into the case, keeps the old baseline, refuses the not-found one (exit 1)', () => {
    const f = fixture()
    const reportFiles = Object.entries(f.snapshot()).filter(([p]) => p.startsWith('reports'))
    // from another folder, with a relative path to the report
    const cwd = mkdtempSync(join(tmpdir(), 'qa-accept-cwd-'))
    const r = qa(['accept', relative(cwd, f.reportFile)], { cwd })
    expect(r.code, r.stderr).toBe(1)
    expect(r.stderr).toContain('step 3: not accepted: its element was not found')
    expect(r.stderr).toMatch(/Accepted step 2 into .*flow\.json; the previous baseline is kept in .*\.flow\.history/)
    const tc = JSON.parse(readFileSync(f.caseFile, 'utf8'))
    const healed = tc.actions[1]
    expect(healed.identity.ax_name).toBe('보관')
    expect(healed.selectors).toEqual({ css: '#keep' })
    expect(healed.healing_history[0]).toMatchObject({ strategy: 'similarity', accepted_at: expect.any(String) })
    expect([healed.x, healed.y]).toEqual([11, 10])
    expect(healed.screenshot_path).toMatch(/^flow\/step-001-after\.\d{8}-\d{6}-\d{3}\.png$/)
    expect(readFileSync(join(f.root, 'cases', healed.screenshot_path))).toEqual(
      readFileSync(join(f.reportDir, 'artifacts', 'step-001-actual.png')),
    )
    expect(healed.element_crop_path).toMatch(/^flow\/step-001-element\./)
    // the passed step 1 is left as it was
    expect(tc.actions[0].screenshot_path).toBe('flow/step-000-after.png')
    // the previous baseline: the case as it was and every screenshot it referred to
    const history = join(f.root, 'cases', '.flow.history')
    const [stamp] = readdirSync(history)
    expect(readFileSync(join(history, stamp!, 'flow.json'), 'utf8')).toBe(f.caseText)
    expect(existsSync(join(history, stamp!, 'flow', 'step-001-after.png'))).toBe(true)
    expect(existsSync(join(f.root, 'cases', 'flow', 'step-001-after.png'))).toBe(false)
    // the report and its images are untouched
    const after = f.snapshot()
    for (const [p, h] of reportFiles) expect(after[p]).toBe(h)
  })

  it('--steps 1 accepts a passed step when asked (exit 0)', () => {
    const f = fixture()
    const r = qa(['accept', f.reportFile, '--steps', '1'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(readFileSync(f.caseFile, 'utf8')).actions[0].screenshot_path).toMatch(/step-000-after\.\d/)
  })
})

describe('qa replay --update-baselines: refused before any work', () => {
  it('without --verify, on a folder, on a desktop case, or with a step past the case', () => {
    const f = fixture()
    const noVerify = qa(['replay', f.caseFile, '--update-baselines'])
    expect(noVerify.code).toBe(2)
    expect(noVerify.stderr).toContain('--update-baselines needs --verify')
    const folder = qa(['replay', join(f.root, 'cases'), '--verify', '--update-baselines'])
    expect(folder.code).toBe(2)
    expect(folder.stderr).toContain('--update-baselines works with one case, not with a folder')
    const desktop = qa(['replay', writeDesktopClickCase(f.root), '--verify', '--update-baselines', '1'])
    expect(desktop.code).toBe(2)
    expect(desktop.stderr).toContain('--update-baselines works for web cases')
    // `--update-baselines 9` (a list after the flag, not a second case path)
    const past = qa(['replay', f.caseFile, '--verify', '--update-baselines', '9'])
    expect(past.code).toBe(2)
    expect(past.stderr).toMatch(/--update-baselines: step 9 does not exist in .*flow\.json: it has 3 steps/)
    const bad = qa(['replay', f.caseFile, '--verify', '--update-baselines=x'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--update-baselines: expected step numbers from 1')
  })
})

describe('joinOptionalFlagValues', () => {
  it('joins a step list to --update-baselines, leaves a case path and everything after -- alone', () => {
    expect(joinOptionalFlagValues(['replay', 'c.json', '--update-baselines', '3,5', '--verify'])).toEqual([
      'replay',
      'c.json',
      '--update-baselines=3,5',
      '--verify',
    ])
    expect(joinOptionalFlagValues(['replay', '--update-baselines', 'c.json'])).toEqual([
      'replay',
      '--update-baselines',
      'c.json',
    ])
    expect(joinOptionalFlagValues(['x', '--', '--update-baselines', '3'])).toEqual([
      'x',
      '--',
      '--update-baselines',
      '3',
    ])
  })
  it('an argument list without the flag is unchanged (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string().filter((s) => s !== '--update-baselines')), (argv) => {
        expect(joinOptionalFlagValues(argv)).toEqual(argv)
      }),
      { numRuns: 200 },
    )
  })
})
