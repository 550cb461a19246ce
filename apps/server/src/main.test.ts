import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from './main'

const lines = () => {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } }
}

describe('qa-server', () => {
  it('serves the cases of --dir on loopback and stops cleanly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-server-'))
    writeFileSync(
      join(dir, '로그인.json'),
      JSON.stringify({
        name: '로그인',
        version: '3.0',
        platform: 'web',
        created_at: '2026-01-01T00:00:00Z',
        actions: [{ timestamp: 0, action_type: 'click', x: 1, y: 2, description: 'Click 저장' }],
      }),
    )
    const { out, err, io } = lines()
    let names: string[] = []
    const code = await main(['--dir', dir, '--report-dir', join(dir, 'reports'), '--port', '0'], {
      ...io,
      until: async (server) => {
        const res = await fetch(`${server.url}/api/suites`)
        names = ((await res.json()) as { suites: Array<{ name: string }> }).suites.map((s) => s.name)
      },
    })
    expect(err).toEqual([])
    expect(code).toBe(0)
    expect(out[0]).toMatch(/^Runner Inspector: http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(names).toEqual(['로그인'])
  })

  it('refuses an unknown flag and a bad port with exit code 2 before starting anything', async () => {
    const a = lines()
    expect(await main(['--prot', '80'], a.io)).toBe(2)
    expect(a.err[0]).toMatch(/--prot/)
    const b = lines()
    expect(await main(['--port', '70000'], b.io)).toBe(2)
    expect(b.err[0]).toMatch(/--port: expected an integer from 0 to 65535, got "70000"/)
  })

  it('refuses to bind off loopback without a token (exit 2)', async () => {
    const { err, io } = lines()
    expect(await main(['--host', '0.0.0.0', '--port', '0'], io)).toBe(2)
    expect(err.join('\n')).toMatch(/refusing without a token/)
  })
})

describe('qa-server loads the config as qa serve does', () => {
  const serveOnce = async (argv: string[], cwd: string, env: Record<string, string | undefined>) => {
    const { out, err, io } = lines()
    let reportDir = ''
    const code = await main([...argv, '--port', '0'], {
      ...io,
      cwd,
      env,
      until: async (server) => {
        reportDir = server.services.reportDir
      },
    })
    return { code, out, err, reportDir }
  }

  it('reads ./qa.config.json, then the QA_* environment over it, then the flags over both', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'qa-server-config-'))
    const fromFile = join(cwd, 'reports-of-the-file')
    const fromEnv = join(cwd, 'reports-of-the-env')
    const fromFlag = join(cwd, 'reports-of-the-flag')
    writeFileSync(join(cwd, 'qa.config.json'), JSON.stringify({ replay: { reportDir: fromFile } }))
    const dir = ['--dir', cwd]
    expect((await serveOnce(dir, cwd, {})).reportDir).toBe(fromFile)
    expect((await serveOnce(dir, cwd, { QA_REPORT_DIR: fromEnv })).reportDir).toBe(fromEnv)
    const flagged = await serveOnce([...dir, '--report-dir', fromFlag], cwd, { QA_REPORT_DIR: fromEnv })
    expect(flagged.err).toEqual([])
    expect(flagged.reportDir).toBe(fromFlag)
    // --config names another file, relative to the folder it runs in
    const other = join(cwd, 'other')
    writeFileSync(join(cwd, 'other.json'), JSON.stringify({ replay: { reportDir: other } }))
    expect((await serveOnce([...dir, '--config', 'other.json'], cwd, {})).reportDir).toBe(other)
  })

  it('refuses a config with a bad key, a missing --config and a bad --threshold with exit code 2', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'qa-server-config-'))
    writeFileSync(join(cwd, 'qa.config.json'), JSON.stringify({ verify: { passSimilarity: 3 } }))
    const bad = await serveOnce(['--dir', cwd], cwd, {})
    expect(bad.code).toBe(2)
    expect(bad.err.join('\n')).toMatch(/qa\.config\.json[\s\S]*verify\.passSimilarity/)
    const missing = await serveOnce(['--dir', cwd, '--config', 'nowhere.json'], cwd, {})
    expect(missing.code).toBe(2)
    expect(missing.err.join('\n')).toMatch(/nowhere\.json: no such config file/)
    const threshold = await serveOnce(['--dir', cwd, '--threshold', '1.5'], cwd, {})
    expect(threshold.code).toBe(2)
    expect(threshold.err[0]).toMatch(/--threshold: expected a number from 0 to 1, got "1\.5"/)
  })
})
