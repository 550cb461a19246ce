import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSampleApp } from '@qa/sample-app'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { qaAsync } from '../__tests__/run-cli'

let app: Awaited<ReturnType<typeof startSampleApp>>
beforeAll(async () => {
  app = await startSampleApp({ version: 'v1', requireLogin: true })
})
afterAll(async () => {
  await app.close()
})

const SECRET = 'pw-비밀-7731'

describe('qa record web names the secret variables replay needs', () => {
  it('lists QA_SECRET_PASSWORD (names only) with the replay command, in text and --json, and that command replays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-rec-secrets-'))
    // where the login fields are, found as a person would (not by the code under test)
    const browser = await chromium.launch({
      executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox'],
    })
    const points: Record<string, { x: number; y: number }> = {}
    let passwordLabel = ''
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
      await page.goto(`${app.url}/login`)
      const password = page.locator('input[type=password]')
      passwordLabel = await password.evaluate(
        (el) => (el as unknown as { labels?: { textContent: string | null }[] }).labels?.[0]?.textContent?.trim() ?? '',
      )
      for (const [key, l] of [
        ['user', page.locator('input[autocomplete=username], input[type=text]').first()],
        ['password', password],
        ['submit', page.locator('button[type=submit], input[type=submit]').first()],
      ] as const) {
        const b = (await l.boundingBox())!
        points[key] = { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) }
      }
    } finally {
      await browser.close()
    }
    expect(passwordLabel).not.toBe('')
    const script = join(dir, 'steps.json')
    writeFileSync(
      script,
      JSON.stringify([
        { type: 'click', ...points.user },
        { type: 'type', text: '관리자' },
        { type: 'click', ...points.password },
        { type: 'type', text: SECRET },
        { type: 'click', ...points.submit },
      ]),
    )
    const caseFile = join(dir, 'login.json')
    const rec = await qaAsync(['record', 'web', `${app.url}/login`, '--script', script, '--out', caseFile])
    expect(rec.code, rec.stderr).toBe(0)
    expect(rec.stdout).toContain(
      `This case needs 1 secret: QA_SECRET_PASSWORD (typed into textbox "${passwordLabel}").`,
    )
    expect(rec.stdout).toContain(`Replay it with: QA_SECRET_PASSWORD=… qa replay ${caseFile}`)
    expect(rec.stdout + rec.stderr).not.toContain(SECRET)
    expect(readFileSync(caseFile, 'utf8')).not.toContain(SECRET)

    const json = await qaAsync([
      'record',
      'web',
      `${app.url}/login`,
      '--script',
      script,
      '--out',
      join(dir, 'login2.json'),
      '--json',
    ])
    expect(json.code, json.stderr).toBe(0)
    expect(json.stdout).not.toContain(SECRET)
    const summary = JSON.parse(json.stdout)
    expect(summary.secrets).toEqual([
      { name: 'QA_SECRET_PASSWORD', steps: [4], fields: [`textbox "${passwordLabel}"`] },
    ])
    expect(summary.replay).toBe(`QA_SECRET_PASSWORD=… qa replay ${join(dir, 'login2.json')}`)

    // the command it printed, with the variable it named, replays the case
    const withSecret = await qaAsync(['replay', caseFile, '--json', '--report-dir', join(dir, 'r1')], {
      env: { QA_SECRET_PASSWORD: SECRET },
    })
    expect(withSecret.code, withSecret.stdout + withSecret.stderr).toBe(0)
  })
})
