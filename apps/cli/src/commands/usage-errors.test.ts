import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeDesktopClickCase } from '../__tests__/desktop-key-case'
import { qa } from '../__tests__/run-cli'

const dir = mkdtempSync(join(tmpdir(), 'qa-usage-'))
const badScript = join(dir, 'steps.json')
writeFileSync(badScript, JSON.stringify([{ type: 'click', x: '10', y: 5 }, { type: 'hover' }]))
const webCase = join(dir, 'case.json')
writeFileSync(
  webCase,
  JSON.stringify({ name: 'w', version: '3.0', platform: 'web', start_url: 'http://127.0.0.1:9/', actions: [] }),
)
const desktopCase = writeDesktopClickCase(dir)

const badConfig = join(dir, 'bad.config.json')
writeFileSync(badConfig, JSON.stringify({ verify: { passSimilarity: 3 } }))

const folder = mkdtempSync(join(tmpdir(), 'qa-usage-folder-'))
const folderCase = join(folder, 'ok.json')
writeFileSync(
  folderCase,
  JSON.stringify({
    name: 'ok',
    version: '3.0',
    platform: 'web',
    start_url: 'http://127.0.0.1:9/',
    actions: [{ timestamp: 0, action_type: 'click', x: 1, y: 1, description: 'Click 저장' }],
  }),
)

/** Every subcommand's usage errors: exit 2 and a message that says what to do. */
describe.each([
  [
    'demo --desktop with no display and no Xvfb',
    ['demo', '--desktop'],
    /needs an X display: DISPLAY is not set, and Xvfb is not installed\.\nhint: Install Xvfb \(`sudo apt-get install xvfb`\).*`xvfb-run -a qa demo --desktop`/,
    // no DISPLAY, nothing on PATH (no Xvfb); any existing file stands in for Chromium, which is checked first
    { DISPLAY: '', PATH: '/nonexistent', QA_CHROMIUM: process.execPath },
  ],
  [
    'demo with an unknown flag',
    ['demo', '--bogus'],
    /Unsupported option name \("--bogus"\)[\s\S]*hint: run `qa --help`/,
  ],
  [
    'record web by hand with no display',
    ['record', 'web', 'http://127.0.0.1:9/', '--out', join(dir, 'by-hand.json')],
    /opens a browser window, but there is no display \(DISPLAY is not set\); nothing was recorded\.\nhint: .*`xvfb-run -a qa record web http:\/\/127\.0\.0\.1:9\/ …`.*--cdp http:\/\/127\.0\.0\.1:9222/,
    { DISPLAY: '', WAYLAND_DISPLAY: '' },
  ],
  ['record web without a URL', ['record', 'web', '--script', badScript], /Nothing to record: give the URL to start at/],
  [
    'record web with a URL that is not one',
    ['record', 'web', 'localhost:3000', '--script', badScript],
    /<url>: expected a URL like http:\/\/127\.0\.0\.1:3000\/, got "localhost:3000"/,
  ],
  [
    'record web by hand in an attached browser with --viewport',
    ['record', 'web', '--cdp', 'http://127.0.0.1:9', '--viewport', '800x600'],
    /--viewport cannot be used with --cdp when recording by hand/,
  ],
  [
    'record web with a bad viewport',
    ['record', 'web', 'http://x/', '--script', badScript, '--viewport', 'big'],
    /--viewport: expected WIDTHxHEIGHT like 1280x720, got "big"/,
  ],
  [
    'record web with a missing script',
    ['record', 'web', 'http://x/', '--script', join(dir, 'nope.json')],
    /nope\.json: cannot read the script file/,
  ],
  [
    'record web with an invalid script',
    ['record', 'web', 'http://x/', '--script', badScript],
    /steps\.json: \[0\]\.x: expected number ≥ 0, got "10"[\s\S]*\[1\]\.type: expected one of "click"/,
  ],
  ['replay without a case', ['replay'], /Not enough positional arguments/],
  ['replay a missing case', ['replay', join(dir, 'missing.json')], /missing\.json: no such test case file/],
  [
    'replay with a bad threshold',
    ['replay', webCase, '--threshold', '2'],
    /--threshold: expected a number from 0 to 1, got "2"/,
  ],
  [
    'replay --save-heals without --verify',
    ['replay', webCase, '--save-heals', join(dir, 'h.json')],
    /--save-heals needs --verify/,
  ],
  [
    'replay a desktop case with no display',
    ['replay', desktopCase],
    /No (display is available|X server is running)[\s\S]*hint: .*xvfb-run -a/,
  ],
  [
    'replay a folder with --junit naming one of its cases (checked before any work)',
    ['replay', folder, '--junit', folderCase],
    /--junit .*ok\.json is the test case ok\.json; qa never writes over its input\.[\s\S]*nothing was replayed/,
  ],
  [
    'replay a shard with --save-heals (one case only, not silently ignored)',
    ['replay', dir, '--shard', '1/2', '--verify', '--save-heals', join(dir, 'h.json')],
    /--save-heals works with one case, not with a folder or --shard .*nothing was replayed/,
  ],
  [
    'replay a folder with an unreadable --config (the folder route reads the config too)',
    ['replay', folder, '--config', join(dir, 'missing.config.json')],
    /missing\.config\.json/,
  ],
  ['replay with a bad timeout', ['replay', webCase, '--timeout=0'], /--timeout: expected a positive integer, got "0"/],
  ['verify with one image', ['verify', 'a.png'], /Not enough positional arguments/],
  ['report of a missing file', ['report', 'r.json', '--format', 'html'], /r\.json: no such report file/],
  ['validate without files', ['validate'], /Not enough positional arguments/],
  ['worker without a queue', ['worker'], /qa worker <--queue[\s\S]*hint: run `qa --help`/],
  [
    'worker with a non-Redis queue',
    ['worker', '--queue', 'http://x'],
    /--queue: expected redis:\/\/host:port, got "http:\/\/x"[\s\S]*hint: For example/,
  ],
  ['enrich without a case', ['enrich'], /Not enough positional arguments[\s\S]*hint: run `qa --help`/],
  [
    'record desktop with a flag missing its value',
    ['record', 'desktop', '--frame-interval-ms'],
    /Not enough arguments to option --frame-interval-ms/,
  ],
  ['doctor with an unknown flag', ['doctor', '--fast'], /Unsupported option name \("--fast"\)/],
  ['serve with a missing folder', ['serve', '--dir', join(dir, 'no-such-folder')], /no-such-folder/],
  [
    'serve with a bad viewport',
    ['serve', '--port', '0', '--dir', folder, '--viewport', 'wide'],
    /--viewport: expected WIDTHxHEIGHT like 1280x720, got "wide"/,
  ],
  ['mcp with a bad viewport', ['mcp', '--dir', folder, '--viewport', '1280'], /--viewport: expected WIDTHxHEIGHT/],
  [
    'worker with a bad viewport',
    ['worker', '--queue', 'redis://127.0.0.1:9', '--viewport', '0x'],
    /--viewport: expected WIDTHxHEIGHT like 1280x720, got "0x"/,
  ],
  [
    'serve with a missing config file',
    ['serve', '--port', '0', '--dir', folder, '--config', join(dir, 'no-such-config.json')],
    /no-such-config\.json: no such config file/,
  ],
  ['mcp with a config that is not valid', ['mcp', '--dir', folder, '--config', badConfig], /verify\.passSimilarity/],
  ['report merge without reports', ['report', 'merge'], /Not enough positional arguments|at least/],
  [
    'import devtools of a missing file',
    ['import', 'devtools', join(dir, 'nope.json')],
    /nope\.json: no such recording file/,
  ],
  [
    'export devtools of a missing case',
    ['export', 'devtools', join(dir, 'nope.json')],
    /nope\.json: no such test case file/,
  ],
] as [string, string[], RegExp, Record<string, string>?][])('%s', (_name, args, message, env) => {
  it('exits 2 and says what to do', () => {
    const r = qa(args, env ? { env } : {})
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/)
  })
})

describe('qa record web by hand with no display', () => {
  it('writes nothing: no case, no screenshot folder', () => {
    const out = mkdtempSync(join(tmpdir(), 'qa-no-display-'))
    const r = qa(['record', 'web', 'http://127.0.0.1:9/', '--out', join(out, 'flow.json')], {
      env: { DISPLAY: '', WAYLAND_DISPLAY: '' },
    })
    expect(r.code).toBe(2)
    expect(readdirSync(out)).toEqual([])
  })
})
