import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bin, qa } from '../__tests__/run-cli'

function caseDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'qa-serve-'))
  const actions = [{ timestamp: 1, action_type: 'click', x: 1, y: 2, description: 'Click' }]
  writeFileSync(join(dir, 'a.json'), JSON.stringify({ name: '로그인', version: '3.0', platform: 'web', actions }))
  return dir
}

describe('qa serve', () => {
  it('refuses a non-loopback bind without a token: exit 2 and what to do', () => {
    const r = qa(['serve', '--host', '0.0.0.0', '--port', '0', '--dir', caseDir()])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/refusing without a token/)
    expect(r.stderr).toMatch(/hint: Pass --token/)
    expect(r.stderr).not.toMatch(/\s+at .+\.js:\d+/)
  })

  it.each([
    [['--port', '70000'], /--port: expected an integer from 0 to 65535/],
    [['--port', '1.5'], /--port: expected an integer from 0 to 65535/],
    [['--concurrency', '0'], /--concurrency: expected a positive integer/],
    [['--dir', '/nonexistent/cases'], /The case folder \/nonexistent\/cases does not exist/],
    [['--host', '0.0.0.0', '--token', 'short'], /--token is too short/],
  ])('bad input %j → exit 2', (args, message) => {
    const r = qa(['serve', '--port', '0', ...args])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
  })

  it('serves on loopback, answers the API, and stops cleanly on SIGINT', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'qa-serve-reports-'))
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--dir', caseDir(), '--report-dir', reports], {
      env: { ...process.env, NO_COLOR: '1' },
    })
    let stdout = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    const url = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no URL printed: ${stdout}`)), 20_000)
      child.stdout.on('data', () => {
        const m = /Runner Inspector: (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout)
        if (m) {
          clearTimeout(t)
          resolve(m[1] as string)
        }
      })
    })
    const suites = (await (await fetch(`${url}/api/suites`)).json()) as { suites: Array<{ name: string }> }
    expect(suites.suites.map((s) => s.name)).toEqual(['로그인'])
    const code = await new Promise<number | null>((resolve) => {
      child.on('close', resolve)
      child.kill('SIGINT')
    })
    expect(code).toBe(0)
  })
})
