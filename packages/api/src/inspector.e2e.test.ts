/// <reference lib="dom" />
import { request as httpRequest } from 'node:http'
import { createServer } from 'node:net'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createWebRecorder, openBrowser } from '@qa/recorder-cdp'
import { type SampleApp, startSampleApp } from '@qa/sample-app'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from '@qa/runner/testing'
import { type RunningServer, startServer } from './start-server'
import type { TestBotResults } from '@qa/runner'

const CHROMIUM = process.env.QA_CHROMIUM ?? '/usr/bin/chromium'
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
const SETTINGS = '설정: 알림 받기 저장'
const LIST = '목록: 전설의 검 상세'
const REMOVED = '설정: 사라진 저장 버튼'
const DOWN = '앱 꺼짐: 설정'

declare global {
  // In the page, globalThis is window.
  var __TESTBOT__: {
    runAll(): Promise<void>
    runSuite(i: number): Promise<void>
    runByName(name: string): Promise<void>
    getResults(): TestBotResults
    isRunning(): boolean
    listSuites(): string[]
  }
  var __pending: Promise<void> | undefined
}

let app: SampleApp
let server: RunningServer
let browser: Browser
let page: Page
let caseDir: string
let reportDir: string

async function centre(l: Locator): Promise<[number, number]> {
  await l.waitFor({ state: 'visible' })
  const b = (await l.boundingBox())!
  return [b.x + b.width / 2, b.y + b.height / 2]
}

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const port = (s.address() as { port: number }).port
  await new Promise((r) => s.close(r))
  return port
}

async function recordCases() {
  const session = await openBrowser({ executablePath: CHROMIUM })
  try {
    const p = session.page
    const settings = await createWebRecorder(p, { caseFile: join(caseDir, 'settings.json'), name: SETTINGS })
    await settings.start(`${app.url}/settings`)
    await settings.click(...(await centre(p.getByLabel('알림 받기'))))
    const [sx, sy] = await centre(p.getByRole('button', { name: '저장', exact: true }))
    await settings.click(sx, sy)
    // an assertion (an `expect` row): the 저장 button is still there
    await settings.assert({ kind: 'visible', x: sx, y: sy })
    await settings.save({ overwrite: true })
    await settings.close()

    const list = await createWebRecorder(p, { caseFile: join(caseDir, 'list.json'), name: LIST })
    await list.start(`${app.url}/list`)
    await list.click(...(await centre(p.getByRole('searchbox'))))
    await list.type('검')
    await list.click(...(await centre(p.locator('button').filter({ hasText: '전설의 검' }).first())))
    await list.save({ overwrite: true })
    await list.close()
  } finally {
    await session.close()
  }
  // The same recording against the app with the 저장 button removed (fails), and against a port that is down.
  const doc = JSON.parse(readFileSync(join(caseDir, 'settings.json'), 'utf8'))
  writeFileSync(
    join(caseDir, 'y-removed.json'),
    JSON.stringify({ ...doc, name: REMOVED, start_url: `${app.url}/settings?m=removal` }),
  )
  writeFileSync(
    join(caseDir, 'z-down.json'),
    JSON.stringify({ ...doc, name: DOWN, start_url: `http://127.0.0.1:${await deadPort()}/settings` }),
  )
}

beforeAll(async () => {
  app = await startSampleApp({ version: 'v1', requireLogin: false })
  caseDir = tempDir('qa-server-cases-')
  reportDir = tempDir('qa-server-reports-')
  await recordCases()
  server = await startServer({ dir: caseDir, reportDir, port: 0, concurrency: 2, executablePath: CHROMIUM })
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.goto(`${server.url}/`)
  await page.waitForFunction(() => globalThis.__TESTBOT__ !== undefined)
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await app?.close()
})

const results = () => page.evaluate(() => globalThis.__TESTBOT__.getResults())

describe('Runner Inspector, driven the way an agent drives it', () => {
  it('has window.__TESTBOT__ with every suite at the load event, however slow the API answers', async () => {
    const fresh = await browser.newPage()
    try {
      // the API held back until the page has loaded: only what the page itself carries can be there at load
      let loaded = false
      fresh.on('load', () => {
        loaded = true
      })
      await fresh.route('**/api/**', async (route) => {
        while (!loaded) await new Promise((r) => setTimeout(r, 50))
        await route.continue()
      })
      await fresh.goto(`${server.url}/`, { waitUntil: 'load' })
      const atLoad = await fresh.evaluate(() => ({
        defined: globalThis.__TESTBOT__ !== undefined,
        names: globalThis.__TESTBOT__?.listSuites() ?? [],
      }))
      expect(atLoad).toEqual({ defined: true, names: [LIST, SETTINGS, REMOVED, DOWN] })
    } finally {
      await fresh.close()
    }
  })

  it('lists the suites through all three layers before any run', async () => {
    const names = await page.evaluate(() => globalThis.__TESTBOT__.listSuites())
    expect(names).toEqual([LIST, SETTINGS, REMOVED, DOWN])
    const attrs = await page.$$eval('[data-testbot-suite]', (els) =>
      els.map((e) => [
        e.getAttribute('data-testbot-suite'),
        e.getAttribute('data-testbot-index'),
        e.getAttribute('data-testbot-status'),
        e.hasAttribute('data-testbot-result'),
      ]),
    )
    expect(attrs).toEqual(names.map((n, i) => [n, String(i), 'planned', false]))
    expect(await page.locator('[data-testbot-run-all]').count()).toBe(1)
    expect(await page.locator('[data-testbot-run="2"]').getAttribute('title')).toBe(`Run '${REMOVED}'`)
    expect(await page.locator('#testbot-results-json').count()).toBe(0)
    const r = await results()
    expect(r).toEqual({
      isRunning: false,
      summary: { total: 4, pass: 0, fail: 0 },
      suites: names.map((name) => ({ name, status: 'planned', passed: false, steps: [] })),
    })
  })

  it('runAll: the down app and the removed button fail with clear errors, the others pass; 50 API calls meanwhile are all answered', async () => {
    await page.evaluate(() => {
      globalThis.__pending = globalThis.__TESTBOT__.runAll()
    })
    expect(await page.evaluate(() => globalThis.__TESTBOT__.isRunning())).toBe(true)
    await page.waitForSelector('[data-testbot-status="running"]')
    const urls = ['/api/suites', '/api/results', '/api/state', '/api/runs', '/api/health']
    const codes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fetch(`${server.url}${urls[i % urls.length]}`).then((r) => r.status)),
    )
    expect(codes.filter((c) => c !== 200)).toEqual([])
    expect(await page.locator('#testbot-results-json').count()).toBe(0) // not while running
    await page.evaluate(() => globalThis.__pending)

    const r = await results()
    expect(r.isRunning).toBe(false)
    expect(r.summary).toEqual({ total: 4, pass: 2, fail: 2 })
    const byName = Object.fromEntries(r.suites.map((s) => [s.name, s]))
    expect(byName[SETTINGS]).toMatchObject({ status: 'done', passed: true })
    expect(byName[LIST]).toMatchObject({ status: 'done', passed: true })
    expect(byName[LIST]!.steps.map((s) => s.action)).toEqual(['click', 'type', 'click'])
    expect(byName[DOWN]!.steps).toEqual([
      {
        action: 'error',
        detail: 'z-down.json',
        passed: false,
        error: expect.stringMatching(
          /Could not open http:\/\/127\.0\.0\.1:\d+\/settings.*ERR_CONNECTION_REFUSED.*Is the app running/,
        ),
      },
    ])
    const removedStep = byName[REMOVED]!.steps[1]!
    expect(removedStep.passed).toBe(false)
    expect(removedStep.error).toMatch(/Element not found: button "저장"/)

    // Failures with their errors.
    const failures = await page.evaluate(() =>
      globalThis.__TESTBOT__
        .getResults()
        .suites.filter((s) => !s.passed && s.status === 'done')
        .map((s) => ({ name: s.name, errors: s.steps.filter((st) => st.error).map((st) => st.error) })),
    )
    expect(failures.map((f) => f.name)).toEqual([REMOVED, DOWN])
    for (const f of failures) expect(f.errors.length).toBeGreaterThan(0)

    // Layer 2: the hidden JSON.
    const hidden = await page.evaluate(() => {
      const pre = document.getElementById('testbot-results-json')!
      return {
        json: JSON.parse(pre.textContent ?? ''),
        visible: getComputedStyle(pre).display,
        marked: pre.hasAttribute('data-testbot-results'),
      }
    })
    expect(hidden.visible).toBe('none')
    expect(hidden.marked).toBe(true)
    expect(hidden.json.filter((x: { passed: boolean }) => !x.passed).map((x: { name: string }) => x.name)).toEqual([
      REMOVED,
      DOWN,
    ])
    expect(hidden.json[0]).toEqual({ name: LIST, passed: true, steps: r.suites[0]!.steps })

    // Layer 1: attributes.
    expect(await page.locator('[data-testbot-result="fail"]').count()).toBe(2)
    expect(await page.locator('[data-testbot-result="pass"]').count()).toBe(2)
    const removedRows = page.locator(`[data-testbot-suite="${REMOVED}"] [data-testbot-step]`)
    expect(
      await removedRows.evaluateAll((rows) =>
        rows.map((e) => [e.getAttribute('data-testbot-action'), e.getAttribute('data-testbot-step-result')]),
      ),
    ).toEqual([
      ['click', expect.stringMatching(/pass|fail/)],
      ['click', 'fail'],
      ['expect', 'fail'],
    ])
    expect(
      await page
        .locator(`[data-testbot-suite="${REMOVED}"] [data-testbot-action="expect"] [data-testbot-error]`)
        .textContent(),
    ).toBe('Assertion failed: expected visible, actual not found.')
    const passedExpect = page.locator(`[data-testbot-suite="${SETTINGS}"] [data-testbot-action="expect"]`)
    expect(await passedExpect.getAttribute('data-testbot-step-result')).toBe('pass')
    expect(await page.locator(`[data-testbot-suite="${DOWN}"] [data-testbot-error]`).textContent()).toMatch(
      /ERR_CONNECTION_REFUSED/,
    )
    expect(await page.locator(`[data-testbot-suite="${REMOVED}"] [data-testbot-error]`).first().textContent()).toMatch(
      /저장/,
    )
  })

  it('runByName runs exactly that suite and rejects unknown names', async () => {
    const before = (await results()).suites.find((s) => s.name === SETTINGS)
    await page.evaluate((n) => globalThis.__TESTBOT__.runByName(n), LIST)
    const r = await results()
    expect(r.suites.find((s) => s.name === LIST)).toMatchObject({ status: 'done', passed: true })
    expect(r.suites.find((s) => s.name === SETTINGS)).toEqual(before)
    const err = await page.evaluate(() => {
      try {
        globalThis.__TESTBOT__.runByName('목록')
        return null
      } catch (e) {
        return (e as Error).message
      }
    })
    expect(err).toBe('Suite "목록" not found')
  })

  it('a Run button click re-runs one suite; its rows and report link follow', async () => {
    const index = await page.evaluate((n) => globalThis.__TESTBOT__.listSuites().indexOf(n), SETTINGS)
    await page.click(`[data-testbot-run="${index}"]`)
    const suite = page.locator(`[data-testbot-suite="${SETTINGS}"]`)
    await page.waitForFunction(() => globalThis.__TESTBOT__.isRunning())
    await page.waitForFunction(() => !globalThis.__TESTBOT__.isRunning(), null, { timeout: 60_000 })
    await page.waitForSelector('#testbot-results-json', { state: 'attached' })
    expect(await suite.getAttribute('data-testbot-status')).toBe('done')
    expect(await suite.getAttribute('data-testbot-result')).toBe('pass')
    expect(await suite.locator('[data-testbot-step-result="pass"]').count()).toBe(3) // two clicks and the expect row
    const href = await suite.locator('a[data-report="html"]').getAttribute('href')
    const report = await fetch(`${server.url}${href}`)
    expect(report.status).toBe(200)
    expect(await report.text()).toContain(SETTINGS)
  })

  it('path traversal on the live file routes gets 404', async () => {
    for (const path of [
      '/files/reports/../../../../etc/passwd',
      '/files/cases/..%2f..%2f..%2fetc%2fpasswd',
      '/files/reports/%2e%2e/%2e%2e/etc/hostname',
    ]) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method: 'GET' }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.end()
      })
      expect(status, path).toBe(404)
    }
  })

  it('a restarted server shows the past runs', async () => {
    const before = await results()
    await server.close()
    server = await startServer({ dir: caseDir, reportDir, port: 0, executablePath: CHROMIUM })
    const after = (await (await fetch(`${server.url}/api/results`)).json()) as TestBotResults
    expect(after).toEqual(before)
    const { runs } = (await (await fetch(`${server.url}/api/runs`)).json()) as { runs: unknown[] }
    expect(runs.length).toBeGreaterThanOrEqual(3)
  })
})
