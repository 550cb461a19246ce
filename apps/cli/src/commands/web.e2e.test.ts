import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSampleApp } from '@qa/sample-app'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findOnPage } from '../__tests__/probe-page'
import { qaAsync } from '../__tests__/run-cli'

let app: Awaited<ReturnType<typeof startSampleApp>>
beforeAll(async () => {
  app = await startSampleApp({ version: 'v1', requireLogin: false })
})
afterAll(async () => {
  await app.close()
})

describe('qa demo', () => {
  it('--json: records, heals on v2, every verdict is pass or warning, and the HTML report shows the steps', async () => {
    const out = mkdtempSync(join(tmpdir(), 'qa-demo-'))
    const r = await qaAsync(['demo', '--json', '--out-dir', join(out, 'demo')])
    expect(r.stderr).toBe('')
    const summary = JSON.parse(r.stdout)
    expect(r.code).toBe(0)
    expect(summary.passed).toBe(true)
    const healed = summary.steps.filter(
      (s: { healed: boolean; method: string }) => s.healed && s.method !== 'coordinate',
    )
    expect(healed.length).toBeGreaterThan(0)
    for (const s of summary.steps) expect(['pass', 'warning']).toContain(s.verdict)

    const browser = await chromium.launch({
      executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox'],
    })
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      await page.goto(`file://${summary.reports.html}`)
      const steps = page.locator('[data-step], .step, section.step, article')
      expect(await page.locator('body').textContent()).toContain('로그인')
      expect(await steps.count()).toBeGreaterThanOrEqual(summary.steps.length)
      const images = await page
        .locator('img')
        .evaluateAll((imgs) => imgs.filter((i) => (i as unknown as { naturalWidth: number }).naturalWidth > 0).length)
      expect(images).toBeGreaterThanOrEqual(summary.steps.length)
      const shot = await page.screenshot({ path: join(out, 'report.png') })
      expect(shot.length).toBeGreaterThan(10_000)
    } finally {
      await browser.close()
    }
  })
})

describe('qa record web / qa replay', () => {
  it('records a scripted flow, replays it unchanged with exit 0, and exit 1 when the target is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-web-'))
    const script = join(dir, 'steps.json')
    // The settings page: the 알림 받기 checkbox, then 저장.
    const steps = await findOnPage(`${app.url}/settings`, async (page, centre) => [
      { type: 'click', ...(await centre(page.getByLabel('알림 받기'))) },
      { type: 'click', ...(await centre(page.getByRole('button', { name: '저장', exact: true }))) },
    ])
    writeFileSync(script, JSON.stringify(steps))
    const caseFile = join(dir, 'settings.json')
    const rec = await qaAsync(['record', 'web', `${app.url}/settings`, '--script', script, '--out', caseFile])
    expect(rec.code, rec.stderr).toBe(0)
    expect(rec.stdout).toMatch(/Recorded 2 steps/)

    const same = await qaAsync([
      'replay',
      caseFile,
      '--verify',
      '--report-dir',
      join(dir, 'r1'),
      '--junit',
      join(dir, 'junit.xml'),
    ])
    expect(same.code, same.stderr).toBe(0)
    // one testcase for the case, its two steps in <system-out>
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8')
    expect(junit).toMatch(/<testsuite[^>]*tests="1"[^>]*failures="0"/)
    expect(junit).toContain('<property name="steps" value="2"/>')
    expect(readdirSync(join(dir, 'r1')).some((f) => f.endsWith('.html'))).toBe(true)

    const before = createHash('sha256').update(readFileSync(caseFile)).digest('hex')
    app.setMutations(['removal'])
    try {
      const gone = await qaAsync(['replay', caseFile, '--json', '--report-dir', join(dir, 'r2')])
      expect(gone.code).toBe(1)
      const report = JSON.parse(gone.stdout)
      const failed = report.verification_results.filter((v: { final_result: string }) => v.final_result === 'fail')
      expect(failed.length).toBeGreaterThan(0)
      expect(failed[0].reason).toMatch(/Element not found: .*\(tried role: /)
      expect(report.total_actions).toBe(2) // the run went on after the failure
    } finally {
      app.setVersion('v1')
    }
    expect(createHash('sha256').update(readFileSync(caseFile)).digest('hex')).toBe(before)

    // The same case without identities (coordinates only) gets them back from `qa enrich`.
    const doc = JSON.parse(readFileSync(caseFile, 'utf8'))
    for (const a of doc.actions) {
      delete a.identity
      delete a.selectors
    }
    const legacy = join(dir, 'legacy.json')
    writeFileSync(legacy, JSON.stringify(doc))
    const enriched = await qaAsync(['enrich', legacy, '--url', `${app.url}/settings`, '--json'])
    expect(enriched.code, enriched.stderr).toBe(0)
    expect(JSON.parse(enriched.stdout)).toMatchObject({ total_actions: 2, enriched_count: 2, failed_count: 0 })
    const back = JSON.parse(readFileSync(join(dir, 'legacy.enriched.json'), 'utf8'))
    expect(back.actions.map((a: { identity: { ax_role: string } }) => a.identity.ax_role)).toEqual([
      'checkbox',
      'button',
    ])
  })

  it('--url opens exactly the URL given (another path and query); --base-url and a folder move every URL', async () => {
    // Two origins of one tiny site that logs what the browser asked for (a test of URL handling, not healing).
    const requests: string[] = []
    const page = (title: string) =>
      `<!doctype html><title>${title}</title><h1>${title}</h1><button onclick="this.textContent='done'">Go</button>`
    const servers = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<{ origin: string; close(): Promise<void> }>((resolveServer) => {
            const server = createServer((req, res) => {
              const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
              if (!req.url?.startsWith('/favicon')) requests.push(`${origin}${req.url}`)
              res.writeHead(200, { 'content-type': 'text/html' }).end(page(req.url ?? ''))
            })
            server.listen(0, '127.0.0.1', () =>
              resolveServer({
                origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
                close: () => new Promise<void>((r) => server.close(() => r())),
              }),
            )
          }),
      ),
    )
    const [recorded, other] = servers as [(typeof servers)[0], (typeof servers)[0]]
    try {
      const dir = mkdtempSync(join(tmpdir(), 'qa-url-'))
      const script = join(dir, 'steps.json')
      writeFileSync(
        script,
        JSON.stringify([
          { type: 'click', x: 30, y: 80 },
          { type: 'navigate', url: `${recorded.origin}/pages/next.html?step=2#end` },
        ]),
      )
      const cases = join(dir, 'cases')
      const caseFile = join(cases, 'login.json')
      const rec = await qaAsync([
        'record',
        'web',
        `${recorded.origin}/pages/login.html?build=1`,
        '--script',
        script,
        '--out',
        caseFile,
      ])
      expect(rec.code, rec.stderr).toBe(0)

      requests.length = 0
      const given = `${other.origin}/other/path/login.html?build=2&lang=ko#form`
      const one = await qaAsync(['replay', caseFile, '--url', given, '--report-dir', join(dir, 'r1')])
      expect(one.code, one.stderr).toBe(0)
      // The start is the URL given, byte for byte (the hash never reaches a server: it is in the page URL).
      expect(requests[0]).toBe(`${other.origin}/other/path/login.html?build=2&lang=ko`)
      // The recorded navigation keeps its own path and query, on the new origin.
      expect(requests).toContain(`${other.origin}/pages/next.html?step=2`)
      expect(requests.some((r) => r.startsWith(recorded.origin))).toBe(false)

      requests.length = 0
      const base = await qaAsync([
        'replay',
        caseFile,
        '--base-url',
        `${other.origin}/v2/`,
        '--report-dir',
        join(dir, 'r2'),
      ])
      expect(base.code, base.stderr).toBe(0)
      expect(requests[0]).toBe(`${other.origin}/v2/pages/login.html?build=1`)
      expect(requests).toContain(`${other.origin}/v2/pages/next.html?step=2`)

      requests.length = 0
      const folder = await qaAsync(['replay', cases, '--url', other.origin, '--report-dir', join(dir, 'r3')])
      expect(folder.code, folder.stderr).toBe(0)
      expect(folder.stderr.match(/--url with a folder means --base-url/g)?.length).toBe(1)
      expect(requests[0]).toBe(`${other.origin}/pages/login.html?build=1`)
      expect(requests.some((r) => r.startsWith(recorded.origin))).toBe(false)
    } finally {
      await Promise.all(servers.map((s) => s.close()))
    }
  })

  it('an unreachable URL is an input error: exit 2 with what to check', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer()
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
    const port = (probe.address() as AddressInfo).port
    await new Promise((r) => probe.close(r))
    const dir = mkdtempSync(join(tmpdir(), 'qa-web-'))
    const script = join(dir, 'steps.json')
    writeFileSync(script, '[{"type":"wait","ms":1}]')
    const r = await qaAsync([
      'record',
      'web',
      `http://127.0.0.1:${port}/`,
      '--script',
      script,
      '--out',
      join(dir, 'c.json'),
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      new RegExp(`Could not open http://127\\.0\\.0\\.1:${port}/.*\\n.*hint: Is the app running`),
    )
  })
})

describe('qa replay with reportFormats ["json"]', () => {
  it('prints the JSON report it wrote, never "Report: undefined"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-web-formats-'))
    const file = join(dir, 'one.json')
    writeFileSync(
      file,
      JSON.stringify({
        name: 'one',
        version: '3.0',
        platform: 'web',
        start_url: 'data:text/html,<button style="width:300px;height:120px">Save</button>',
        actions: [
          {
            timestamp: 0,
            action_type: 'click',
            x: 150,
            y: 60,
            description: 'Click button "Save"',
            identity: {
              ax_role: 'button',
              ax_name: 'Save',
              tag_name: 'button',
              bounding_box: { x: 8, y: 8, width: 300, height: 120 },
            },
          },
        ],
      }),
    )
    const config = join(dir, 'qa.config.json')
    writeFileSync(config, JSON.stringify({ replay: { reportFormats: ['json'] } }))
    const reports = join(dir, 'reports')
    const r = await qaAsync(['replay', file, '--config', config, '--report-dir', reports])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).not.toMatch(/undefined/)
    const line = /^Report: (.+\.json)$/m.exec(r.stdout)
    expect(line?.[1]).toBeDefined()
    expect(readdirSync(reports).filter((f) => f.endsWith('.json'))).toHaveLength(1)
  })
})
