import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { encodePng, solidRgba } from '../__tests__/png'
import { bin, ensureBuilt, qa as runQa } from '../__tests__/run-cli'

/**
 * "Nothing leaks, nothing is lost": every command that writes checks its outputs before any work,
 * never writes over an input, and bad input is exit 2 naming the file, the field and what was expected.
 */

const NO_BROWSER = { QA_CHROMIUM: '/nonexistent/chromium' }
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), `qa-safety-${prefix}-`))
/** The built `qa`, run in a scratch folder (reports it may write never land in the repository). */
const qa = (args: string[], opts: { env?: Record<string, string> } = {}) => runQa(args, { cwd: tmp('cwd'), ...opts })

/** A 4×4 PNG of one colour. */
const png = (rgb: [number, number, number]): Buffer => encodePng(4, 4, solidRgba(4, 4, rgb))

const PAGE = 'data:text/html,<button style="width:300px;height:200px">Save</button>'

/** A recorded web case with its baseline screenshots in `<name>/`, as `qa record web` writes it. */
function webCase(dir: string, name = 'login', actions = 1): string {
  mkdirSync(join(dir, name), { recursive: true })
  const file = join(dir, `${name}.json`)
  const list = Array.from({ length: actions }, (_, i) => {
    writeFileSync(join(dir, name, `step-00${i}-after.png`), png([200, 10, 10]))
    return {
      timestamp: i,
      action_type: 'click',
      x: 20,
      y: 20,
      description: 'Click button "Save"',
      screenshot_path: `${name}/step-00${i}-after.png`,
      identity: {
        ax_role: 'button',
        ax_name: 'Save',
        tag_name: 'button',
        bounding_box: { x: 0, y: 0, width: 300, height: 200 },
      },
    }
  })
  writeFileSync(
    file,
    JSON.stringify({ name, version: '3.0', platform: 'web', start_url: PAGE, actions: list }, null, 2),
  )
  return file
}

function reportJson(dir: string, name: string): string {
  const file = join(dir, `${name}.json`)
  writeFileSync(
    file,
    JSON.stringify({
      test_case_name: name,
      session_id: name,
      start_time: '2026-01-01T00:00:00.000Z',
      end_time: '2026-01-01T00:00:01.000Z',
      total_actions: 1,
      passed_count: 1,
      failed_count: 0,
      warning_count: 0,
      success_rate: 1,
      passed: true,
      verification_results: [
        {
          action_index: 0,
          action_description: 'click',
          screenshot_match: true,
          screenshot_similarity: 1,
          vision_verified: false,
          vision_match: false,
          final_result: 'pass',
        },
      ],
      summary: `${name}: PASSED`,
    }),
  )
  return file
}

beforeAll(() => {
  ensureBuilt()
}, 180_000)

describe('finding 4: screenshot paths must stay inside the case folder', () => {
  it.each([
    ['screenshot_path', '../../etc/passwd'],
    ['screenshot_before_path', '/home/u/secret.png'],
  ])(
    '%s "%s": qa validate and qa replay are exit 2 naming the file, the field and what was expected',
    (field, value) => {
      const dir = tmp('escape')
      const file = join(dir, 'escape.json')
      writeFileSync(
        file,
        JSON.stringify({
          name: 'escape',
          version: '3.0',
          platform: 'web',
          start_url: PAGE,
          actions: [{ timestamp: 0, action_type: 'click', x: 1, y: 1, description: 'c', [field]: value }],
        }),
      )
      const expected = new RegExp(
        `escape\\.json: actions\\[0\\]\\.${field}: expected a relative path inside the case's folder[^\\n]*, got "${value.replace(/[./]/g, '\\$&')}"`,
      )
      const validate = qa(['validate', file])
      expect(validate.code).toBe(2)
      expect(validate.stderr).toMatch(expected)
      const replay = qa(['replay', file], { env: NO_BROWSER })
      expect(replay.code).toBe(2)
      expect(replay.stderr).toMatch(expected)
    },
  )
})

describe('finding 6: qa record web --out <existing case> refuses before recording', () => {
  it('without --force: exit 2, and the baseline screenshots are untouched', () => {
    const dir = tmp('record')
    const file = webCase(dir)
    const shot = join(dir, 'login', 'step-000-after.png')
    const [caseHash, shotHash] = [sha(file), sha(shot)]
    const script = join(dir, 'steps.json')
    writeFileSync(script, JSON.stringify([{ type: 'click', x: 50, y: 50 }]))
    // Chromium is available here: the old code recorded (overwriting the screenshots) and refused only at the end.
    const r = qa(['record', 'web', PAGE, '--script', script, '--out', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--out .*login\.json already exists; nothing was recorded/)
    expect(r.stderr).toMatch(/--force/)
    expect(sha(shot)).toBe(shotHash)
    expect(sha(file)).toBe(caseHash)
    expect(readdirSync(join(dir, 'login'))).toEqual(['step-000-after.png'])
  })

  it('with --force, a recording that fails midway leaves the old case and its screenshots as they were', () => {
    const dir = tmp('record-force')
    const file = webCase(dir)
    const shot = join(dir, 'login', 'step-000-after.png')
    const [caseHash, shotHash] = [sha(file), sha(shot)]
    const script = join(dir, 'steps.json')
    // the first click is recorded (its screenshots written), then the navigation fails
    writeFileSync(
      script,
      JSON.stringify([
        { type: 'click', x: 50, y: 50 },
        { type: 'navigate', url: 'http://127.0.0.1:1/' },
      ]),
    )
    const r = qa(['record', 'web', PAGE, '--script', script, '--out', file, '--force'])
    expect(r.code).toBe(2)
    expect(sha(file)).toBe(caseHash)
    expect(sha(shot)).toBe(shotHash)
    expect(readdirSync(join(dir, 'login'))).toEqual(['step-000-after.png'])
    expect(readdirSync(dir).sort()).toEqual(['login', 'login.json', 'steps.json'])
    // and a recording that succeeds replaces both, leaving nothing staged behind
    writeFileSync(script, JSON.stringify([{ type: 'click', x: 50, y: 50 }]))
    const ok = qa(['record', 'web', PAGE, '--script', script, '--out', file, '--force'])
    expect(ok.code).toBe(0)
    expect(sha(file)).not.toBe(caseHash)
    expect(readdirSync(join(dir, 'login')).sort()).toEqual([
      'step-000-after.png',
      'step-000-before.png',
      'step-000-element.png',
    ])
    expect(readdirSync(dir).sort()).toEqual(['login', 'login.json', 'steps.json'])
  }, 120_000)
})

describe('finding 7: no command writes over one of its inputs, even with --force', () => {
  it('qa replay X.json --junit X.json', () => {
    const dir = tmp('junit')
    const file = webCase(dir)
    const before = sha(file)
    const r = qa(['replay', file, '--junit', file, '--force'], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--junit .*login\.json is the test case; qa never writes over its input/)
    expect(sha(file)).toBe(before)
  })

  it('qa replay --junit into a screenshot of the case', () => {
    const dir = tmp('junit-shot')
    const file = webCase(dir)
    const shot = join(dir, 'login', 'step-000-after.png')
    const r = qa(['replay', file, '--junit', shot, '--force'], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--junit .*step-000-after\.png is a screenshot of the test case/)
  })

  it.each([
    ["the case's screenshot folder", 'login', (dir: string) => join(dir, 'login')],
    ['a folder whose artifacts/ is the screenshot folder', 'artifacts', (dir: string) => dir],
  ])('qa replay --report-dir into %s: exit 2 before replaying', (_, name, reportDir) => {
    const dir = tmp('report-dir')
    const file = webCase(dir, name)
    const shots = join(dir, name)
    const before = readdirSync(shots).map((f) => [f, sha(join(shots, f))])
    const r = qa(['replay', file, '--verify', '--report-dir', reportDir(dir)], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--report-dir .* (is|lies inside) the screenshot folder of the test case/)
    expect(r.stderr).toContain('nothing was replayed')
    expect(readdirSync(shots).map((f) => [f, sha(join(shots, f))])).toEqual(before)
    expect(readdirSync(dir).filter((f) => f.startsWith('replay_'))).toEqual([])
  })

  it.each([
    ["the screenshot folder of the folder's second case", 'login', (dir: string) => join(dir, 'login')],
    ["a folder inside the second case's screenshot folder", 'login', (dir: string) => join(dir, 'login', 'reports')],
    ['a folder whose runs/ is a screenshot folder', 'runs', (dir: string) => dir],
  ])('qa replay <folder> --report-dir into %s: exit 2 before replaying any case', (_, name, reportDir) => {
    const dir = tmp('folder-report-dir')
    webCase(dir, 'about')
    webCase(dir, name)
    const shots = join(dir, name)
    const before = readdirSync(shots).map((f) => [f, sha(join(shots, f))])
    const r = qa(['replay', dir, '--verify', '--report-dir', reportDir(dir)], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      new RegExp(`--report-dir .* (is|lies inside) the screenshot folder of the test case ${name}\\.json`),
    )
    expect(r.stderr).toContain('nothing was replayed')
    expect(readdirSync(shots).map((f) => [f, sha(join(shots, f))])).toEqual(before)
    expect(readdirSync(dir).sort()).toEqual(['about', 'about.json', name, `${name}.json`].sort())
  })

  it('qa verify a.png b.png --diff b.png', () => {
    const dir = tmp('verify')
    const [a, b] = [join(dir, 'a.png'), join(dir, 'b.png')]
    writeFileSync(a, png([0, 0, 0]))
    writeFileSync(b, png([255, 255, 255]))
    const before = sha(b)
    const r = qa(['verify', a, b, '--diff', b, '--force'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--diff .*b\.png is the actual image; qa never writes over its input/)
    expect(sha(b)).toBe(before)
  })

  it('qa verify --diff over an existing file needs --force', () => {
    const dir = tmp('verify-force')
    const [a, b, d] = [join(dir, 'a.png'), join(dir, 'b.png'), join(dir, 'diff.png')]
    writeFileSync(a, png([0, 0, 0]))
    writeFileSync(b, png([255, 255, 255]))
    writeFileSync(d, 'keep me')
    const r = qa(['verify', a, b, '--diff', d])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--diff .*diff\.png already exists[\s\S]*--force/)
    expect(readFileSync(d, 'utf8')).toBe('keep me')
    expect(qa(['verify', a, b, '--diff', d, '--force']).code).toBe(1)
    expect(readFileSync(d).subarray(1, 4).toString()).toBe('PNG')
  })

  it('qa report X.json --out X.json --force', () => {
    const dir = tmp('report')
    const file = reportJson(dir, 'r')
    const before = sha(file)
    const r = qa(['report', file, '--format', 'html', '--out', file, '--force'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--out .*r\.json is the report; qa never writes over its input/)
    expect(sha(file)).toBe(before)
  })

  it('qa replay --junit qa.config.json --force: the config the command just read', () => {
    const dir = tmp('config-out')
    const file = webCase(dir)
    const config = join(dir, 'qa.config.json')
    writeFileSync(config, JSON.stringify({ verify: { passSimilarity: 0.9 } }))
    const before = sha(config)
    // the config found in the current folder, and one named with --config
    const found = runQa(['replay', file, '--junit', 'qa.config.json', '--force'], { cwd: dir, env: NO_BROWSER })
    expect(found.code).toBe(2)
    expect(found.stderr).toMatch(
      /--junit .*qa\.config\.json is the config file this command read; qa never writes over its input/,
    )
    const named = qa(['replay', file, '--config', config, '--junit', config, '--force'], { env: NO_BROWSER })
    expect(named.code).toBe(2)
    expect(named.stderr).toMatch(/--junit .*qa\.config\.json is the config file this command read/)
    expect(sha(config)).toBe(before)
  })

  it('qa report merge a.json b.json --out a.json --force', () => {
    const dir = tmp('merge')
    const [a, b] = [reportJson(dir, 'a'), reportJson(dir, 'b')]
    const before = sha(a)
    const r = qa(['report', 'merge', a, b, '--out', a, '--force'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--out .*a\.json is one of the reports; qa never writes over its input/)
    expect(sha(a)).toBe(before)
  })
})

describe('finding 8: a bad or existing output is refused before the work', () => {
  it.each([
    ['a folder', (dir: string) => `${join(dir, 'out')}/`],
    ['a path without .json', (dir: string) => join(dir, 'flow')],
  ])('qa record web --out %s: exit 2, nothing written', (_what, out) => {
    const dir = tmp('record-out')
    mkdirSync(join(dir, 'out'))
    const script = join(dir, 'steps.json')
    writeFileSync(script, JSON.stringify([{ type: 'click', x: 50, y: 50 }]))
    const r = qa(['record', 'web', PAGE, '--script', script, '--out', out(dir)])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--out: expected a \.json file to save the case to, got /)
    expect(readdirSync(dir).sort()).toEqual(['out', 'steps.json'])
    expect(readdirSync(join(dir, 'out'))).toEqual([])
  })

  it('qa enrich with <case>.enriched.json present: exit 2 before enriching, and --force is offered and works', () => {
    const dir = tmp('enrich')
    const file = webCase(dir, 'old')
    writeFileSync(join(dir, 'old.enriched.json'), 'keep me')
    // No browser: the refusal must come before one is needed.
    const r = qa(['enrich', file], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--out .*old\.enriched\.json already exists; nothing was enriched/)
    expect(r.stderr).toMatch(/hint: .*--force/)
    expect(readFileSync(join(dir, 'old.enriched.json'), 'utf8')).toBe('keep me')
    const forced = qa(['enrich', file, '--force'], { env: NO_BROWSER })
    expect(forced.stderr).not.toMatch(/Unsupported option|already exists/)
  })

  it('qa replay --save-heals <existing>: exit 2 before replaying', () => {
    const dir = tmp('heals')
    const file = webCase(dir)
    const heals = join(dir, 'healed.json')
    writeFileSync(heals, 'keep me')
    const r = qa(['replay', file, '--verify', '--save-heals', heals], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--save-heals .*healed\.json already exists; nothing was replayed[\s\S]*--force/)
    expect(readFileSync(heals, 'utf8')).toBe('keep me')
  })
})

describe('qa demo replaces only a folder it made', () => {
  it("--out-dir <a folder of the person's files>: exit 2 before any work, every file kept", () => {
    const dir = tmp('demo-out')
    writeFileSync(join(dir, 'thesis.txt'), 'keep me')
    // No browser: the refusal must come before one is needed.
    const r = qa(['demo', '--out-dir', dir], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--out-dir .* holds files qa demo did not write \(thesis\.txt\)[\s\S]*--force/)
    expect(readFileSync(join(dir, 'thesis.txt'), 'utf8')).toBe('keep me')
  })

  it('a folder of the person’s files with an empty .qa-demo in it is not the demo’s', () => {
    const dir = tmp('demo-marked')
    writeFileSync(join(dir, '.qa-demo'), '')
    writeFileSync(join(dir, 'thesis.txt'), 'keep me')
    const r = qa(['demo', '--out-dir', dir], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--out-dir .* holds files qa demo did not write \(thesis\.txt\)/)
    // with --force the demo writes beside them: only what a demo writes is replaced
    writeFileSync(join(dir, 'sample-app-flow.json'), '{"old": true}')
    qa(['demo', '--out-dir', dir, '--force'], { env: NO_BROWSER })
    expect(readFileSync(join(dir, 'thesis.txt'), 'utf8')).toBe('keep me')
  }, 120_000)

  it('--out-dir . or an ancestor of the current folder: exit 2 even with --force', () => {
    const cwd = tmp('demo-cwd')
    writeFileSync(join(cwd, 'notes.txt'), 'keep me')
    for (const out of ['.', '..']) {
      const r = runQa(['demo', '--out-dir', out, '--force'], { cwd, env: NO_BROWSER })
      expect(r.code, out).toBe(2)
      expect(r.stderr, out).toMatch(/never takes this one/)
    }
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('keep me')
  }, 120_000)

  it('an earlier demo folder (it holds .qa-demo, or only what a demo writes) is taken without --force', () => {
    const dir = tmp('demo-again')
    writeFileSync(join(dir, '.qa-demo'), '')
    writeFileSync(join(dir, 'sample-app-flow.json'), '{}')
    const r = qa(['demo', '--out-dir', dir], { env: NO_BROWSER })
    // past the folder check: it fails later, on the missing browser
    expect(r.stderr).not.toMatch(/--out-dir/)
    // a folder of an older demo, made before the marker: only what a demo writes
    const older = tmp('demo-older')
    mkdirSync(join(older, 'reports'))
    writeFileSync(join(older, 'sample-app-flow.json'), '{}')
    expect(qa(['demo', '--out-dir', older], { env: NO_BROWSER }).stderr).not.toMatch(/--out-dir/)
  }, 120_000)
})

describe('finding 9: qa replay <folder> never drops a case silently', () => {
  it('a corrupt or invalid case in the folder: exit 2 naming each, before replaying', () => {
    const dir = tmp('folder')
    webCase(dir, 'good')
    writeFileSync(join(dir, 'corrupt.json'), '{"name": "c", "actions": [')
    writeFileSync(join(dir, 'invalid.json'), JSON.stringify({ name: 'i', version: '3.0', actions: [{ x: '1' }] }))
    const r = qa(['replay', dir], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/corrupt\.json is not valid JSON/)
    expect(r.stderr).toMatch(/invalid\.json: actions\[0\]\.x: expected integer, got "1"/)
    expect(r.stderr).not.toMatch(/PASS|FAIL/)
  })

  it('a folder of only corrupt cases: exit 2', () => {
    const dir = tmp('corrupt-only')
    writeFileSync(join(dir, 'corrupt.json'), '{"name": "c", "actions": [')
    const r = qa(['replay', dir], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/corrupt\.json is not valid JSON/)
  })

  it('an empty folder: exit 2, no test case found', () => {
    const r = qa(['replay', tmp('empty')], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/No test case \(\*\.json with "actions"\) under .*qa-safety-empty-/)
  })
})

describe('finding 10: failures are not success', () => {
  it('qa enrich exits 1 when every action failed (the file is still written)', () => {
    const dir = tmp('enrich-fail')
    writeFileSync(join(dir, 'blank.png'), png([255, 255, 255]))
    const file = join(dir, 'legacy.json')
    writeFileSync(
      file,
      JSON.stringify({
        name: 'l',
        version: '1.0',
        actions: [{ timestamp: 0, action_type: 'click', x: 1, y: 1, description: 'c', screenshot_path: 'blank.png' }],
      }),
    )
    const r = qa(['enrich', file], { env: { QA_VISION: 'ocr' } })
    expect(r.stdout).toMatch(/Enriched 0, skipped 0, failed 1 of 1 actions/)
    expect(r.code).toBe(1)
    expect(existsSync(join(dir, 'legacy.enriched.json'))).toBe(true)
  })

  it('replaying a case with no actions and no page to open is exit 2, not "PASSED, success rate 0.0 %"', () => {
    // (a web case with a start URL and no action opens that page: a DevTools recording that only navigates)
    const dir = tmp('empty-case')
    for (const doc of [
      { name: 'e', version: '3.0', platform: 'web', actions: [] },
      { name: 'e', version: '3.0', platform: 'desktop', actions: [] },
    ]) {
      const file = join(dir, 'empty.json')
      writeFileSync(file, JSON.stringify(doc))
      const r = qa(['replay', file], { env: NO_BROWSER })
      expect(r.code, doc.platform).toBe(2)
      expect(r.stderr, doc.platform).toMatch(/empty\.json has no actions; there is nothing to replay/)
    }
  })

  it('a case that is not UTF-8 is invalid, naming the file and the byte', () => {
    const dir = tmp('utf8')
    const file = join(dir, 'latin1.json')
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('{"name":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('","version":"3.0","platform":"web","actions":[]}'),
      ]),
    )
    const r = qa(['validate', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/latin1\.json is not UTF-8 text: byte 0xE9 at line 1, column 13/)
  })
})

describe('finding 12: messages name the flag or the file', () => {
  it('--config <folder>', () => {
    const dir = tmp('config')
    const file = webCase(dir)
    const r = qa(['replay', file, '--config', dir], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--config .*qa-safety-config-\w+ is a folder, not a config file/)
    expect(r.stderr).not.toMatch(/EISDIR/)
  })

  it('--config naming a 600 MiB file or a device: refused before it is read, exit 2', () => {
    const dir = tmp('config-big')
    const file = webCase(dir)
    const big = join(dir, 'big.config.json')
    writeFileSync(big, '')
    truncateSync(big, 600 * 1024 * 1024) // sparse: 600 MiB on paper
    const r = qa(['replay', file, '--config', big], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${big} is 600.0 MiB; a config file may be at most 20 MiB, so it was not read.`)
    const dev = qa(['replay', file, '--config', '/dev/zero'], { env: NO_BROWSER })
    expect(dev.code).toBe(2)
    expect(dev.stderr).toContain('/dev/zero is not a regular file; a config file was expected.')
  })

  it.each([
    ['replay', '--url'],
    ['replay', '--base-url'],
    ['enrich', '--url'],
  ])('qa %s %s javascript:… names the flag', (command, flag) => {
    const dir = tmp('url')
    const file = webCase(dir)
    const r = qa([command, file, flag, 'javascript:alert(1)'], { env: NO_BROWSER })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      new RegExp(
        `${flag}: expected an http\\(s\\) URL like http://127\\.0\\.0\\.1:3000/, got "javascript:alert\\(1\\)"`,
      ),
    )
  })

  it.each([100, 2000, 50_000])(
    'qa import devtools of a recording nested %i levels: exit 2, no case written',
    (levels) => {
      const dir = tmp('deep')
      const file = join(dir, 'deep.json')
      const deep = `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
      writeFileSync(
        file,
        `{"title":"deep","steps":[{"type":"navigate","url":"http://127.0.0.1:9/"},{"type":"click","selectors":[["#b"]],"offsetX":1,"offsetY":1,"extra":${deep}}]}`,
      )
      const r = qa(['import', 'devtools', file])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/deep\.json is nested deeper than 64 levels \(at line 1, column \d+\)/)
      expect(readdirSync(dir)).toEqual(['deep.json'])
    },
  )
})

describe('raw messages replaced by the file, the field and what was expected, exit 2', () => {
  it('a 600 MB case and a case that is /dev/zero: refused before reading', () => {
    const dir = tmp('big-case')
    const big = join(dir, 'big.json')
    writeFileSync(big, '')
    truncateSync(big, 600 * 1024 * 1024) // sparse
    for (const command of ['validate', 'replay']) {
      const r = qa([command, big], { env: NO_BROWSER })
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`${big} is 600.0 MiB; a test case file may be at most 20 MiB, so it was not read.`)
    }
    const dev = qa(['replay', '/dev/zero'], { env: NO_BROWSER })
    expect(dev.code).toBe(2)
    expect(dev.stderr).toContain('/dev/zero is not a regular file; a test case file was expected.')
  })

  it('a "__proto__" key in a case or in the config names the file and its path', () => {
    const dir = tmp('proto')
    const file = webCase(dir)
    const text = readFileSync(file, 'utf8')
    const proto = join(dir, 'proto.json')
    writeFileSync(proto, text.replace('"ax_role": "button"', '"__proto__": {"polluted": true}, "ax_role": "button"'))
    const hash = sha(proto)
    const r = qa(['validate', proto])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      `${proto}: actions[0].identity.__proto__: expected no "__proto__" key (JavaScript reads it as an object's prototype), got one`,
    )
    expect(sha(proto)).toBe(hash)
    for (const [config, message] of [
      ['{"verify": {"__proto__": {"passSimilarity": 2}}}', 'verify.__proto__: expected no "__proto__" key'],
      ['{"verify": {"toString": 1}}', 'verify.toString: expected one of verify.'],
    ] as const) {
      const path = join(dir, 'qa.config.json')
      writeFileSync(path, config)
      const c = qa(['replay', file, '--config', path], { env: NO_BROWSER })
      expect(c.code).toBe(2)
      expect(c.stderr).toContain(message)
      expect(c.stderr).not.toMatch(/Cannot read properties/)
    }
  })

  // A read-only folder for real: a read-only tmpfs in a user and mount namespace (root ignores folder modes).
  const readOnlyWorks = spawnSync('unshare', ['-rm', 'true']).status === 0
  it.runIf(readOnlyWorks)('a read-only --out-dir or --report-dir: exit 2 before any work, naming the folder', () => {
    ensureBuilt()
    const dir = tmp('read-only')
    const file = webCase(dir)
    const ro = join(dir, 'ro')
    mkdirSync(ro)
    const inReadOnly = (...args: string[]) =>
      spawnSync(
        'unshare',
        [
          '-rm',
          'sh',
          '-c',
          'mount -t tmpfs -o ro tmpfs "$1" && shift && exec "$@"',
          'sh',
          ro,
          process.execPath,
          bin,
          ...args,
        ],
        { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...NO_BROWSER } },
      )
    const demo = inReadOnly('demo', '--out-dir', join(ro, 'demo'))
    expect(demo.status, demo.stderr).toBe(2)
    expect(demo.stderr).toContain(
      `--out-dir ${join(ro, 'demo')}: expected a place qa can write to, but ${ro} is on a read-only file system; nothing was run.`,
    )
    const replay = inReadOnly('replay', file, '--report-dir', join(ro, 'reports'))
    expect(replay.status, replay.stderr).toBe(2)
    expect(replay.stderr).toContain(
      `--report-dir ${join(ro, 'reports')}: expected a place qa can write to, but ${ro} is on a read-only file system; nothing was replayed.`,
    )
  })
})

describe('finding 13: qa mcp answers every JSON-RPC message', () => {
  /** Sends lines to `qa mcp` and collects the answers (one JSON per line) until `count` came. */
  async function mcpExchange(lines: string[], count: number): Promise<Array<Record<string, unknown>>> {
    const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, 'mcp', '--dir', tmp('mcp')], {
      env: { ...process.env, NO_COLOR: '1' },
    })
    const answers: Array<Record<string, unknown>> = []
    let buffer = ''
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${answers.length} of ${count} answers: ${buffer}`)),
          20_000,
        )
        child.stdout.on('data', (d) => {
          buffer += d
          let nl = buffer.indexOf('\n')
          while (nl >= 0) {
            answers.push(JSON.parse(buffer.slice(0, nl)))
            buffer = buffer.slice(nl + 1)
            nl = buffer.indexOf('\n')
          }
          if (answers.length >= count) {
            clearTimeout(timer)
            resolve()
          }
        })
        child.on('exit', () => reject(new Error(`qa mcp exited after ${answers.length} answers`)))
        for (const line of lines) child.stdin.write(`${line}\n`)
      })
    } finally {
      child.stdin.end()
      child.kill()
    }
    return answers
  }

  it('unparsable JSON is -32700, a message that is not JSON-RPC is -32600, bad params are -32602', async () => {
    const answers = await mcpExchange(
      [
        'not json',
        '{"foo": 1}',
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call"}',
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":42}}',
      ],
      5,
    )
    const byId = (id: unknown) => answers.filter((a) => a.id === id)
    const errorOf = (id: unknown) => (byId(id)[0]?.error ?? {}) as { code?: number; message?: string }
    const errorsWithNullId = byId(null).map((a) => (a.error as { code: number }).code)
    expect(errorsWithNullId.sort()).toEqual([-32700, -32600].sort())
    expect(byId(1)[0]?.result).toBeDefined()
    expect(errorOf(2).code).toBe(-32602)
    expect(errorOf(2).message).toMatch(/params/)
    expect(errorOf(3).code).toBe(-32602)
  }, 40_000)
})
