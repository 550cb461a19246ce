// One web case and one desktop case give the same report through every route that replays
// them — one case, a folder, a shard, `qa serve` (the built CLI as a process, over HTTP), `qa mcp` (the built CLI
// over stdio, JSON-RPC) and a queued `qa worker` (real Redis) — with the same flags and config keys honoured:
// --verify, --threshold, --viewport and the config file's ignore-masks (--config), each of which changes the web
// report when it is left out (the controls below). Real Chromium, Xvfb for the desktop case.
// @qa/playwright's routes — `replayCase` and a test that acts through `heal()` and checks
// each step with `toMatchRecordedStep` — give the same verdict as `qa replay` step for step, on this case and on
// a changed build whose step changes little of the screen (a status badge in another colour and wording).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { parseReplayReport, type ReplayReport, type VerificationResult } from '@qa/model'
import { heal, loadRecordedCase, replayCase, verifyRecordedStep } from '@qa/playwright'
import { type BrowserSession, openBrowser } from '@qa/recorder-cdp'
import { startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestRedis, type TestRedis } from '@qa/runner/testing'
import { writeDesktopKeyCase } from '../__tests__/desktop-key-case'
import { runAllAndWait } from '../__tests__/run-all'
import { bin, ensureBuilt, qaAsync } from '../__tests__/run-cli'

/**
 * What must not depend on the route: the counts, each step's verdict, method and region similarity, the
 * assertion's actual value (the viewport the page saw) and whether the case passed.
 */
const facts = (r: ReplayReport) => ({
  total: r.totalActions,
  passed: r.passedCount,
  failed: r.failedCount,
  warning: r.warningCount,
  verdicts: r.verificationResults.map((v) => v.finalResult),
  regionSimilarity: r.verificationResults.map((v) =>
    v.regionSimilarity == null ? null : Math.round(v.regionSimilarity * 1000) / 1000,
  ),
  assertionActual: r.verificationResults.map(
    (v) => (v.details?.assertion as { actual?: unknown } | undefined)?.actual ?? null,
  ),
  methods: (r.replayResults ?? []).map((x) => x.method),
  ok: r.passed,
})

/**
 * The web page: a button that shows a panel with two boxes whose colour changes between recording and replay.
 * The config's mask covers the left box; the right box alone keeps the step's expected region at about 92 %
 * similar, a warning at the default threshold (0.95, no vision: QA_VISION=none) and a pass at --threshold 0.9.
 * Without the mask the region is about 56 % similar: a fail. `#vw` shows the viewport the page is shown in.
 */
const MASKED_BOX = { x: 220, y: 120, width: 260, height: 360 }
let boxColour = '#1565c0'
const page = () => `<!doctype html><html><head><meta charset="utf-8"><title>parity</title></head>
<body style="margin:0;background:#fff;font:16px sans-serif">
<button id="go" style="position:absolute;left:20px;top:20px;width:140px;height:40px" onclick="document.getElementById('panel').style.display='block'">보기</button>
<output id="vw" style="position:absolute;left:200px;top:30px"></output>
<div id="panel" style="display:none;position:absolute;left:200px;top:100px;width:600px;height:400px;background:#2e7d32">
 <div style="position:absolute;left:20px;top:20px;width:260px;height:360px;background:${boxColour}"></div>
 <div style="position:absolute;left:320px;top:20px;width:120px;height:100px;background:${boxColour}"></div>
</div>
<script>const vw = document.getElementById('vw'); const show = () => { vw.textContent = innerWidth + 'x' + innerHeight }; show(); addEventListener('resize', show)</script>
</body></html>`

/**
 * The changed build: a click shows a status badge that reads "Saved" on green when recorded and "Failed to save"
 * on red now. The badge is about 1 % of the screen: the whole screen stays over 99 % alike while the step's
 * expected region (the badge and the button) differs, so the step fails.
 */
let badgeBuild: 'recorded' | 'changed' = 'recorded'
const badgePage = () => {
  const [colour, text] = badgeBuild === 'changed' ? ['#c62828', 'Failed to save'] : ['#2e7d32', 'Saved']
  return `<!doctype html><html><head><meta charset="utf-8"><title>badge</title></head>
<body style="margin:0;background:#fff;font:16px sans-serif">
<button id="save" style="position:absolute;left:20px;top:20px;width:140px;height:40px" onclick="document.getElementById('badge').style.display='block'">저장</button>
<div id="badge" style="display:none;position:absolute;left:200px;top:20px;width:160px;height:40px;color:#fff;background:${colour}">${text}</div>
</body></html>`
}

let redis: TestRedis
let xvfb: VirtualDisplay
let pageServer: Server
let appUrl = ''
let web = ''
/** The folder of the changed-build case (`badge.json`). */
let changed = ''
let desktop = ''
let maskConfig = ''
let noMaskConfig = ''
const children: ChildProcess[] = []

beforeAll(async () => {
  ensureBuilt()
  pageServer = createServer((req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(req.url?.startsWith('/badge') ? badgePage() : page()),
  )
  ;[redis, xvfb] = await Promise.all([
    startTestRedis(),
    startXvfb({ width: 800, height: 600 }),
    new Promise<void>((done) => pageServer.listen(0, '127.0.0.1', done)),
  ])
  appUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`

  web = mkdtempSync(join(tmpdir(), 'qa-parity-web-'))
  changed = mkdtempSync(join(tmpdir(), 'qa-parity-changed-'))
  const script = join(mkdtempSync(join(tmpdir(), 'qa-parity-script-')), 'steps.json')
  writeFileSync(
    script,
    JSON.stringify([
      { type: 'click', x: 90, y: 40 },
      { type: 'assert', kind: 'text', selector: '#vw' },
    ]),
  )
  const caseFile = join(web, 'parity.json')
  boxColour = '#1565c0'
  const rec = await qaAsync(
    ['record', 'web', appUrl, '--script', script, '--out', caseFile, '--viewport', '1000x700'],
    { env: { QA_VISION: 'none' } },
  )
  expect(rec.code, rec.stderr).toBe(0)
  // a case that recorded no viewport (attached over CDP): its viewport comes from --viewport alone
  const recorded = JSON.parse(readFileSync(caseFile, 'utf8')) as Record<string, unknown>
  delete recorded.viewport
  writeFileSync(caseFile, JSON.stringify(recorded))
  boxColour = '#ef6c00'

  const badgeScript = join(mkdtempSync(join(tmpdir(), 'qa-parity-script-')), 'steps.json')
  writeFileSync(badgeScript, JSON.stringify([{ type: 'click', x: 90, y: 40 }]))
  badgeBuild = 'recorded'
  const badgeRec = await qaAsync(
    ['record', 'web', `${appUrl}badge`, '--script', badgeScript, '--out', join(changed, 'badge.json')].concat([
      '--viewport',
      '1000x700',
    ]),
    { env: { QA_VISION: 'none' } },
  )
  expect(badgeRec.code, badgeRec.stderr).toBe(0)
  badgeBuild = 'changed'

  const configs = mkdtempSync(join(tmpdir(), 'qa-parity-config-'))
  maskConfig = join(configs, 'masked.json')
  writeFileSync(maskConfig, JSON.stringify({ verify: { masks: [MASKED_BOX] } }))
  noMaskConfig = join(configs, 'plain.json')
  writeFileSync(noMaskConfig, JSON.stringify({ verify: { masks: [] } }))

  desktop = mkdtempSync(join(tmpdir(), 'qa-parity-desktop-'))
  writeDesktopKeyCase(desktop, 'keys.json', '키')
}, 300_000)

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM')
  await new Promise((done) => pageServer?.close(done))
  await redis?.stop()
  await xvfb?.stop({ deferToExit: true })
})

const env = () => ({ DISPLAY: xvfb.display, QA_VISION: 'none' })

/** The flags every route gets: the same for the CLI, the server, MCP and the worker. */
const webOptions = () => ['--verify', '--threshold', '0.9', '--viewport', '1000x700', '--config', maskConfig]
const desktopOptions = () => ['--verify', '--threshold', '0.9']

async function viaCli(args: string[], expectedCode = 0): Promise<ReplayReport> {
  const r = await qaAsync([...args, '--json'], { env: env() })
  expect(r.code, r.stderr).toBe(expectedCode)
  return parseReplayReport(JSON.parse(r.stdout))
}

/** Starts the built `qa` with these arguments and resolves once its stdout shows `ready`. */
async function startCli(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let log = ''
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = (d: Buffer) => {
      log += d.toString()
      const m = ready.exec(log)
      if (m) resolve(m)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (d: Buffer) => {
      log += d.toString()
    })
    child.once('exit', (code) => reject(new Error(`qa ${args[0]} exited ${code}: ${log}`)))
  })
  return { child, match }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/**
 * `qa serve` as a process: every suite run over the HTTP API, the report read from its report folder. With
 * `queue`, the server queues the suites on Redis and a `qa worker` process (the same flags) replays them.
 */
async function viaServe(dir: string, options: string[], urlFlag: string[], queue: boolean): Promise<ReplayReport> {
  const reportDir = mkdtempSync(join(tmpdir(), 'qa-parity-reports-'))
  let worker: ChildProcess | null = null
  try {
    if (queue) {
      // the worker reads the cases from its --artifacts, which is this server's report folder
      worker = (
        await startCli(
          ['worker', '--queue', redis.url, '--tags', 'web,desktop', '--display', xvfb.display]
            .concat(['--artifacts', reportDir])
            .concat(urlFlag, options),
          /serving/,
        )
      ).child
    }
    const server = await startCli(
      ['serve', '--port', '0', '--dir', dir, '--report-dir', reportDir]
        .concat(queue ? ['--queue', redis.url] : [])
        .concat(urlFlag, options),
      /Runner Inspector: (http:\/\/127\.0\.0\.1:\d+)\//,
    )
    try {
      const url = server.match[1] as string
      type Run = { status: string; suites: Array<{ error?: string | null; reports: { json?: string } }> }
      const done = await runAllAndWait<Run>(url)
      const json = done.suites[0]?.reports.json
      expect(json, done.suites[0]?.error ?? done.status).toBeTruthy()
      return parseReplayReport(JSON.parse(readFileSync(join(reportDir, json as string), 'utf8')))
    } finally {
      await stop(server.child)
    }
  } finally {
    if (worker) await stop(worker)
  }
}

/** `qa mcp` as a process: the MCP SDK client over stdio runs the suite and reads its JSON report. */
async function viaMcp(dir: string, options: string[], urlFlag: string[]): Promise<ReplayReport> {
  const reportDir = mkdtempSync(join(tmpdir(), 'qa-parity-mcp-'))
  let stderr = ''
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--dir', dir, '--report-dir', reportDir, ...urlFlag, ...options],
    env: { ...(process.env as Record<string, string>), NO_COLOR: '1', ...env() },
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (d) => {
    stderr += d
  })
  const client = new Client({ name: 'qa-route-parity', version: '1.0.0' })
  await client.connect(transport)
  try {
    type Answer = { content: Array<{ type: string; text: string }>; isError?: boolean }
    const call = async (name: string, args: Record<string, unknown>) => {
      const res = (await client.callTool({ name, arguments: args }, undefined, { timeout: 240_000 })) as Answer
      expect(res.isError, `${res.content[0]?.text}\n${stderr}`).not.toBe(true)
      return JSON.parse(res.content[0]?.text ?? 'null')
    }
    await call('run_suite', { index: 0 })
    const report = await call('get_report', { index: 0, format: 'json' })
    return parseReplayReport(report.content)
  } finally {
    await client.close()
  }
}

describe('the web case honours --verify, --threshold, --viewport and masks on one case (controls)', () => {
  test('each option left out changes the report', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'qa-parity-controls-'))
    const base = ['replay', join(web, 'parity.json'), '--base-url', appUrl, '--verify', '--report-dir', reports]
    const all = await viaCli([...base, '--threshold', '0.9', '--viewport', '1000x700', '--config', maskConfig])
    expect(facts(all).verdicts).toEqual(['pass', 'pass'])
    expect(facts(all).assertionActual).toEqual([null, '"1000x700"'])
    // without --threshold 0.9: the region (about 92 %) is under the default 0.95 → a warning
    const noThreshold = await viaCli([...base, '--viewport', '1000x700', '--config', maskConfig])
    expect(facts(noThreshold).verdicts).toEqual(['warning', 'pass'])
    // without the mask: the changed box counts → a fail
    const noMask = await viaCli([...base, '--threshold', '0.9', '--viewport', '1000x700', '--config', noMaskConfig], 1)
    expect(facts(noMask).verdicts[0]).toBe('fail')
    // without --viewport: the page is shown in the browser's default viewport, and the assertion sees it
    const noViewport = await viaCli([...base, '--threshold', '0.9', '--config', maskConfig], 1)
    expect(facts(noViewport).verdicts[1]).toBe('fail')
    expect(facts(noViewport).assertionActual[1]).not.toBe('"1000x700"')
  }, 600_000)
})

describe.each([
  ['web', () => web, 'parity.json', () => ['--base-url', appUrl], webOptions],
  ['desktop', () => desktop, 'keys.json', () => [], desktopOptions],
] as const)('%s case: the same report through every route', (_platform, dirOf, file, urlOf, optionsOf) => {
  test('single, folder, shard, qa serve, qa mcp and a queued qa worker agree', async () => {
    const dir = dirOf()
    const url = urlOf()
    const options = optionsOf()
    const single = await viaCli(['replay', join(dir, file), ...url, ...options, '--report-dir', join(dir, 'r-single')])
    const routes: Record<string, ReplayReport> = {
      folder: await viaCli(['replay', dir, ...url, ...options, '--report-dir', join(dir, 'r-folder')]),
      shard: await viaCli(['replay', dir, '--shard', '1/1', ...url, ...options, '--report-dir', join(dir, 'r-shard')]),
      serve: await viaServe(dir, options, url, false),
      mcp: await viaMcp(dir, options, url),
      worker: await viaServe(dir, options, url, true),
    }
    expect(facts(single).total).toBeGreaterThan(1)
    expect(facts(single).ok).toBe(true)
    for (const [route, report] of Object.entries(routes))
      expect({ route, ...facts(report) }).toEqual({ route, ...facts(single) })
  }, 900_000)
})

/**
 * The Playwright routes, in this process on real Chromium with the same options the CLI got: the viewport, the
 * threshold as the pass similarity and the config's mask as an ignore region.
 */
describe('@qa/playwright and qa replay agree step for step', () => {
  let browser: BrowserSession
  beforeAll(async () => {
    browser = await openBrowser({ headless: true })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
  })
  const policy = { passSimilarity: 0.9 }
  const ignore = [MASKED_BOX]
  const newPage = () =>
    browser.context.newPage().then(async (p) => {
      await p.setViewportSize({ width: 1000, height: 700 })
      return p
    })

  /** `replayCase(page, file)`: its report, as `qa replay --json` prints one. */
  async function viaReplayCase(file: string): Promise<ReplayReport> {
    const page = await newPage()
    try {
      const outcome = await replayCase(page, file, { baseUrl: appUrl, policy, ignore, throwOnFailure: false })
      return outcome.report
    } finally {
      await page.close()
    }
  }

  /**
   * A Playwright test written from the case: each step done through `heal(page).fromCase(file, i)`, then
   * `toMatchRecordedStep(file, i)` (its verdict: `verifyRecordedStep`).
   */
  async function viaMatcher(file: string): Promise<VerificationResult[]> {
    const page = await newPage()
    try {
      const recorded = await loadRecordedCase(file)
      const start = new URL(recorded.testCase.startUrl ?? '/', appUrl)
      await page.goto(new URL(`${start.pathname}${start.search}`, appUrl).href)
      const results: VerificationResult[] = []
      for (const [i, action] of recorded.testCase.actions.entries()) {
        if (action.actionType === 'click') await heal(page).fromCase(file, i).click()
        else if (action.actionType !== 'assert') throw new Error(`no Playwright step for ${action.actionType}`)
        results.push(await verifyRecordedStep(page, file, i, { policy, ignore }))
      }
      return results
    } finally {
      await page.close()
    }
  }

  const stepFacts = (results: readonly VerificationResult[]) =>
    results.map((v) => ({
      verdict: v.finalResult,
      region: v.regionSimilarity == null ? null : Math.round(v.regionSimilarity * 100) / 100,
      assertionActual: (v.details?.assertion as { actual?: unknown } | undefined)?.actual ?? null,
    }))

  test.each([
    ['the recorded build (masked change)', () => join(web, 'parity.json'), 0, ['pass', 'pass']],
    ['a changed build (the step’s badge)', () => join(changed, 'badge.json'), 1, ['fail']],
  ] as const)(
    '%s',
    async (_name, fileOf, code, verdicts) => {
      const file = fileOf()
      const reports = mkdtempSync(join(tmpdir(), 'qa-parity-pw-'))
      const single = await viaCli(
        ['replay', file, '--base-url', appUrl, ...webOptions(), '--report-dir', reports],
        code,
      )
      expect(facts(single).verdicts).toEqual(verdicts)
      const fromReplayCase = await viaReplayCase(file)
      expect({ route: 'replayCase', ...facts(fromReplayCase) }).toEqual({ route: 'replayCase', ...facts(single) })
      const fromMatcher = await viaMatcher(file)
      expect({ route: 'toMatchRecordedStep', steps: stepFacts(fromMatcher) }).toEqual({
        route: 'toMatchRecordedStep',
        steps: stepFacts(single.verificationResults),
      })
      if (code === 1) {
        // the false pass this guards against: the whole screen is alike, the step's region is not
        expect(single.verificationResults[0]?.screenshotSimilarity).toBeGreaterThan(0.95)
        expect(fromMatcher[0]?.screenshotSimilarity).toBeGreaterThan(0.95)
      }
    },
    600_000,
  )
})
