import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startXvfb } from '@qa/recorder-desktop'
import { parse as parseJunit, type TestSuites } from 'junit2json'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { validateJunit } from '../__tests__/junit'
import { qaAsync } from '../__tests__/run-cli'

/**
 * A flag left at its default never overrides the file or the environment. `--report-dir` used
 * to default to qa-reports inside the flag parser, so `replay.reportDir` and QA_REPORT_DIR never took effect.
 * Here the same case is replayed with the report folder named by the file, by the environment over the file,
 * and by the flag over both; `record.*` keys reach `qa record desktop` the same way.
 */
let server: Server
let url: string
const dir = mkdtempSync(join(tmpdir(), 'qa-one-config-e2e-'))
const caseFile = join(dir, 'cases', 'save.json')
const env = { QA_VISION: 'none' }

beforeAll(async () => {
  server = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        '<!doctype html><meta charset="utf-8"><title>저장</title><button style="position:absolute;left:20px;top:20px;width:120px;height:40px">저장</button>',
      ),
  )
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const script = join(dir, 'steps.json')
  writeFileSync(script, JSON.stringify([{ type: 'click', x: 80, y: 40 }]))
  const rec = await qaAsync(['record', 'web', url, '--script', script, '--out', caseFile, '--viewport', '800x600'], {
    env,
  })
  expect(rec.code, rec.stderr).toBe(0)
  writeFileSync(join(dir, 'qa.config.json'), JSON.stringify({ replay: { reportDir: 'from-file' } }))
})
afterAll(async () => {
  await new Promise((done) => server.close(done))
})

const reportsIn = (folder: string) =>
  existsSync(join(dir, folder)) ? readdirSync(join(dir, folder)).filter((f) => f.endsWith('.json')) : []

describe('the report folder: file < environment < flag, and no flag default in between', () => {
  it.each([
    ['replay.reportDir in qa.config.json', {}, [], 'from-file'],
    ['QA_REPORT_DIR over the file', { QA_REPORT_DIR: 'from-env' }, [], 'from-env'],
    ['--report-dir over both', { QA_REPORT_DIR: 'from-env-2' }, ['--report-dir', 'from-flag'], 'from-flag'],
  ])('%s (single case)', async (_name, extraEnv, flags, folder) => {
    const r = await qaAsync(['replay', caseFile, ...flags], { cwd: dir, env: { ...env, ...extraEnv } })
    expect(r.code, r.stderr).toBe(0)
    expect(reportsIn(folder)).toHaveLength(1)
    expect(existsSync(join(dir, 'qa-reports'))).toBe(false)
  })

  it('a folder of cases writes its reports where QA_REPORT_DIR says', async () => {
    const r = await qaAsync(['replay', join(dir, 'cases')], { cwd: dir, env: { ...env, QA_REPORT_DIR: 'folder-env' } })
    expect(r.code, r.stderr).toBe(0)
    expect(reportsIn('folder-env').length).toBeGreaterThan(0)
    expect(existsSync(join(dir, 'qa-reports'))).toBe(false)
  })
})

describe('qa replay <case> --junit', () => {
  it('writes one suite with one testcase for the case, valid against the Jenkins XSD', async () => {
    const junit = join(dir, 'junit-single.xml')
    const r = await qaAsync(['replay', caseFile, '--verify', '--junit', junit], { cwd: dir, env })
    expect(r.code, r.stderr).toBe(0)
    const xml = readFileSync(junit, 'utf8')
    expect(await validateJunit(xml)).toEqual({ valid: true, errors: [] })
    const parsed = (await parseJunit(xml)) as TestSuites
    expect(parsed).toMatchObject({ tests: 1, failures: 0 })
    const testcases = parsed.testsuite?.flatMap((s) => s.testcase ?? []) ?? []
    expect(testcases).toHaveLength(1)
    expect(testcases[0]?.['system-out']?.[0]).toMatch(/\[PASS\] step 1 Click/)
  })
})

describe('record.* keys reach qa record desktop', () => {
  it('record.stopHotkey of the file is the stop key; --stop-key beats it', async () => {
    const xvfb = await startXvfb({ width: 800, height: 600 })
    try {
      const sub = mkdtempSync(join(dir, 'record-'))
      writeFileSync(join(sub, 'qa.config.json'), JSON.stringify({ record: { stopHotkey: 'F9', settleMs: 200 } }))
      const fromFile = await qaAsync(['record', 'desktop', '--duration-ms', '800', '--out', join(sub, 'a.json')], {
        cwd: sub,
        env: { DISPLAY: xvfb.display },
      })
      expect(fromFile.code, fromFile.stderr).toBe(0)
      expect(fromFile.stderr).toContain('Press F9 (or Ctrl+C) to stop.')
      const fromFlag = await qaAsync(
        ['record', 'desktop', '--stop-key', 'f8', '--duration-ms', '800', '--out', join(sub, 'b.json')],
        { cwd: sub, env: { DISPLAY: xvfb.display } },
      )
      expect(fromFlag.code, fromFlag.stderr).toBe(0)
      expect(fromFlag.stderr).toContain('Press F8 (or Ctrl+C) to stop.')
    } finally {
      await xvfb.stop()
    }
  })
})
