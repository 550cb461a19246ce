import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createReplayVerifier, writeReports } from '@qa/verifier'
import { beforeAll, describe, expect, test } from 'vitest'
import { encodePng, solidRgba } from '../__tests__/png'
import { replayReportOf, writeReportFile } from '../__tests__/report-fixture'
import { ensureBuilt, runBuilt } from '../__tests__/run-cli'

const dir = mkdtempSync(join(tmpdir(), 'qa-cli-report-'))
let jsonPath = ''

beforeAll(async () => {
  ensureBuilt()
  const v = createReplayVerifier({ testCaseName: '장바구니', sessionId: 'cli-1' })
  const frame = { width: 2, height: 2, channels: 4 as const, data: new Uint8Array(16).fill(255) }
  await v.verifyAction(0, { timestamp: 0, actionType: 'click', x: 0, y: 0, description: '담기' }, frame)
  await v.verifyAction(
    1,
    { timestamp: 1, actionType: 'click', x: 0, y: 0, description: '결제', screenshotPath: 'gone.png' },
    frame,
  )
  jsonPath = (await writeReports(v.buildReport(), dir, ['json'])).json as string
}, 180_000)

describe('qa report', () => {
  test('junit to stdout: one testcase for the case, the failure with the failing step and its reason', async () => {
    const r = await runBuilt(['report', jsonPath, '--format', 'junit'])
    expect(r.code).toBe(0)
    expect(r.stdout.match(/<testcase /g)).toHaveLength(1)
    expect(r.stdout).toMatch(
      /<failure message="1 of 2 steps failed: step 2 결제: The screenshots could not be compared: [^"]*gone\.png: no such screenshot file/,
    )
  }, 60_000)

  test('txt and html to a file; an existing file needs --force', async () => {
    const txt = await runBuilt(['report', jsonPath, '--format', 'txt'])
    expect(txt.stdout).toContain('Result:        FAILED')
    const out = join(dir, 'r.html')
    expect((await runBuilt(['report', jsonPath, '--format', 'html', '--out', out])).code).toBe(0)
    expect(readFileSync(out, 'utf8')).toContain('<h1>장바구니</h1>')
    expect((await runBuilt(['report', jsonPath, '--format', 'html', '--out', out])).code).toBe(2)
    expect((await runBuilt(['report', jsonPath, '--format', 'html', '--out', out, '--force'])).code).toBe(0)
  }, 60_000)

  test('txt shows terminal escapes from case content escaped, Hangul kept', async () => {
    const ESC = String.fromCharCode(0x1b)
    const BEL = String.fromCharCode(0x07)
    const hostile = createReplayVerifier({ testCaseName: `장바구니${ESC}]0;pwned${BEL}`, sessionId: 'cli-2' })
    const frame = { width: 2, height: 2, channels: 4 as const, data: new Uint8Array(16).fill(255) }
    const description = `담기${ESC}[2J\rFAKE: PASSED\nResult:        PASSED`
    await hostile.verifyAction(0, { timestamp: 0, actionType: 'click', x: 0, y: 0, description }, frame)
    const file = (await writeReports(hostile.buildReport(), mkdtempSync(join(tmpdir(), 'qa-esc-')), ['json'])).json
    const r = await runBuilt(['report', file as string, '--format', 'txt'])
    expect(r.code).toBe(0)
    for (let i = 0; i < r.stdout.length; i++) {
      const c = r.stdout.charCodeAt(i)
      expect(c === 0x0a || c === 0x09 || (c >= 0x20 && c !== 0x7f)).toBe(true)
    }
    expect(r.stdout).toContain('장바구니\\x1b]0;pwned\\x07')
    expect(r.stdout).toContain('담기\\x1b[2J\\x0dFAKE: PASSED\\x0aResult:        PASSED')
    // the forged line stays inside the step's line
    expect(r.stdout.split('\n').filter((l) => l.startsWith('Result:'))).toEqual(['Result:        PASSED'])
  }, 60_000)

  test('bad input exits 2 with a message', async () => {
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"total_actions": "x"}')
    for (const args of [
      ['report', join(dir, 'missing.json'), '--format', 'txt'],
      ['report', bad, '--format', 'txt'],
      ['report', jsonPath, '--format', 'pdf'],
    ]) {
      const r = await runBuilt(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(/^qa: /)
    }
  }, 60_000)
})

describe('qa report embeds only the images in the report folder', () => {
  test('../, absolute and symlinked paths out of the folder are refused and named; the image inside is embedded', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qa-cli-report-root-'))
    const secret = join(root, 'private', 'secret.png')
    mkdirSync(join(root, 'private'))
    writeFileSync(secret, encodePng(2, 2, solidRgba(2, 2, [1, 2, 3])))
    mkdirSync(join(root, 'rep', 'artifacts'), { recursive: true })
    writeFileSync(join(root, 'rep', 'artifacts', 'ok.png'), encodePng(2, 2, solidRgba(2, 2, [200, 10, 10])))
    symlinkSync(secret, join(root, 'rep', 'artifacts', 'link.png'))
    const paths = ['artifacts/ok.png', '../private/secret.png', secret, 'artifacts/link.png']
    const report = replayReportOf('hostile', ['pass', 'pass', 'pass', 'pass'])
    report.verificationResults.forEach((v, i) => {
      v.actualScreenshot = paths[i] as string
    })
    const file = writeReportFile(root, 'rep/report.json', report)
    const out = join(root, 'rep', 'report.html')
    const r = await runBuilt(['report', file, '--format', 'html', '--out', out])
    expect(r.code, r.stderr).toBe(0)
    const html = readFileSync(out, 'utf8')
    expect(html.match(/<img class="actual-image"/g)).toHaveLength(1)
    expect(html).toContain('alt="actual screenshot of step 1"')
    for (const p of paths.slice(1)) {
      const shown = p.startsWith('/') ? p : join(root, 'rep', p)
      expect(r.stderr).toContain(
        `Image not embedded: ${shown} is outside the report's folder (${join(root, 'rep')}); only a screenshot file inside it is read.`,
      )
    }
  }, 60_000)
})
