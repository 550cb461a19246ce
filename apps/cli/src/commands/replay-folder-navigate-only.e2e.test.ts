// A Chrome DevTools Recorder export that only navigates (DevTools' own e2e fixture, kept in bench/devtools/recordings
// under its licence) becomes a case with no action; `qa replay <case>` replays it (the page loading is the test, as
// in @puppeteer/replay), and so must `qa replay <folder>` and every `--shard` of it. Judged by what each
// page's own script reported to its server on load (neither the runner nor the report can see it).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LoggingSite, serveLoggingSite } from '../__tests__/logging-site'
import { ensureBuilt, qaAsync, repoRoot } from '../__tests__/run-cli'

const FIXTURE = 'Recorder should capture the initial page as the url of the first section - 1'

/** A site whose every page posts `loaded <path>` from its own script once it has loaded. */
const serve = () =>
  serveLoggingSite(
    () => `<!doctype html><html><head><meta charset="utf-8"><title></title></head><body><p>녹화</p><script>
      addEventListener('load', () => { const x = new XMLHttpRequest(); x.open('POST', '/log', false); x.send('loaded ' + location.pathname) })
    </script></body></html>`,
  )

/** The real export with its `https://localhost:<test-port>` origin moved onto `origin`, imported as a case. */
async function importAt(origin: string, dir: string, name: string): Promise<string> {
  const all = JSON.parse(
    readFileSync(join(repoRoot, 'bench/devtools/recordings/devtools-frontend-recorder_test.json'), 'utf8'),
  ) as Record<string, unknown>
  const text = JSON.stringify(all[FIXTURE]).replaceAll('https://localhost:<test-port>', origin)
  const recording = join(dir, `${name}.recording.json`)
  writeFileSync(recording, text)
  const out = join(dir, 'cases', `${name}.json`)
  const r = await qaAsync(['import', 'devtools', recording, '--out', out])
  expect(r.code, r.stderr).toBe(0)
  expect((JSON.parse(readFileSync(out, 'utf8')) as { actions: unknown[] }).actions).toEqual([])
  return out
}

const PATH = '/test/e2e/resources/recorder/recorder.html'
let a: LoggingSite
let b: LoggingSite
let dir: string

beforeAll(async () => {
  ensureBuilt()
  ;[a, b] = [await serve(), await serve()]
  dir = mkdtempSync(join(tmpdir(), 'qa-navigate-only-folder-'))
  mkdirSync(join(dir, 'cases'))
  await importAt(a.origin, dir, 'a')
  await importAt(b.origin, dir, 'b')
}, 600_000)
afterAll(async () => {
  for (const s of [a, b]) await new Promise((r) => s?.server.close(r))
})

const replay = (args: string[], reportDir: string) =>
  qaAsync(['replay', ...args, '--json', '--report-dir', join(dir, reportDir), '--timeout', '8000'])

describe('navigate-only DevTools recordings in folder and shard replays', () => {
  it('qa replay <folder> replays both, each page loads, exit 0', async () => {
    a.seen = []
    b.seen = []
    const r = await replay([join(dir, 'cases')], 'r-folder')
    expect(r.code, r.stderr).toBe(0)
    expect((JSON.parse(r.stdout) as { passed: boolean }).passed).toBe(true)
    expect(a.seen).toEqual([`loaded ${PATH}`])
    expect(b.seen).toEqual([`loaded ${PATH}`])
  })

  it('--shard 1/2 and 2/2 each replay one of them, as alone', async () => {
    const seen: string[][] = []
    for (const k of [1, 2]) {
      a.seen = []
      b.seen = []
      const r = await replay([join(dir, 'cases'), '--shard', `${k}/2`], `r-shard-${k}`)
      expect(r.code, r.stderr).toBe(0)
      seen.push([...a.seen.map((l) => `a ${l}`), ...b.seen.map((l) => `b ${l}`)])
    }
    expect(seen.map((s) => s.length)).toEqual([1, 1])
    expect(seen.flat().sort()).toEqual([`a loaded ${PATH}`, `b loaded ${PATH}`])
  })

  it('a navigate-only case whose page does not load fails the folder (exit 1)', async () => {
    const closed = await serve()
    const origin = closed.origin
    await new Promise((r) => closed.server.close(r))
    const only = join(dir, 'gone')
    mkdirSync(join(only, 'cases'), { recursive: true })
    await importAt(origin, only, 'gone')
    const r = await qaAsync([
      'replay',
      join(only, 'cases'),
      '--json',
      '--report-dir',
      join(only, 'report'),
      '--timeout',
      '4000',
    ])
    expect(r.code, r.stderr).toBe(1)
    expect((JSON.parse(r.stdout) as { passed: boolean }).passed).toBe(false)
  })

  it('a case with no action and no page to open is still refused before any work (exit 2), naming it', async () => {
    const folder = join(dir, 'empty')
    mkdirSync(folder)
    writeFileSync(
      join(folder, 'nothing.json'),
      JSON.stringify({ name: 'e', version: '3.0', platform: 'web', actions: [] }),
    )
    const r = await qaAsync(['replay', folder, '--report-dir', join(dir, 'r-empty')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/nothing\.json has no actions and no page to open; there is nothing to replay/)
  })
})
