/**
 * Recording by hand: `qa record web <url>` in a visible Chromium on a virtual display of its own, driven
 * by real X input (xdotool: mouse moves, quick clicks with no hold, typing, Enter, Ctrl-C to the command's process
 * group as a terminal sends it), on the sample app and on two pages of the wild corpus. Every click is judged by
 * the page's own listeners (the sample app's truth events, the corpus truth log), never by what the recorder says;
 * the saved case must replay on the unchanged page and heal on a changed one. Then every way out (the toolbar's
 * Stop, Ctrl-C, closing the window, killing the browser) must leave a valid case with the steps so far.
 *
 * This file: nested cross-origin frames, and every way out of a recording.
 */
import type { ChildProcess } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { type SampleApp, startSampleApp } from '@qa/sample-app'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HandRecording } from './__tests__/hand-input'
import {
  centre,
  dir,
  hand,
  probe,
  qa,
  readCase,
  run,
  sleep,
  startRecording,
  toolbarLayout,
  useHandSession,
  VIEWPORT,
} from './__tests__/by-hand-session'

useHandSession()

describe('nested cross-origin frames, recorded by hand (real X input) and replayed', () => {
  // The top page on one site (127.0.0.1), a frame from another (localhost) inside it, and inside that a frame from
  // a third (127.0.0.2): each site in its own renderer process. The innermost frame's page logs what it hears to
  // its own server; that log, not the recorder, says what happened.
  const OUTER = { x: 40, y: 60 }
  const INNER = { x: 60, y: 80 }
  /** A point of the innermost frame in the top page's viewport. */
  const inner = (x: number, y: number) => ({ x: OUTER.x + INNER.x + x, y: OUTER.y + INNER.y + y })
  const TOTAL = inner(150, 40)
  const NOTE = inner(140, 108)
  const SEND = inner(80, 170)
  let sites: Server[] = []
  let topUrl: string
  let seen: string[] = []
  beforeAll(async () => {
    const ports: number[] = []
    const page = (path: string, query: URLSearchParams) => {
      const n = encodeURIComponent(query.get('n') ?? '')
      if (path === '/top')
        return `<!doctype html><html><head><meta charset="utf-8"><title>Top</title></head><body style="margin:0">
          <iframe id="outer" src="http://localhost:${ports[0]}/outer?n=${n}" style="position:absolute;left:${OUTER.x}px;top:${OUTER.y}px;width:700px;height:500px;border:0"></iframe></body></html>`
      if (path === '/outer')
        return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#eef;font:16px sans-serif">
          <p style="margin:8px">Shop frame</p>
          <iframe id="inner" src="http://127.0.0.2:${ports[1]}/inner?n=${n}" style="position:absolute;left:${INNER.x}px;top:${INNER.y}px;width:560px;height:360px;border:0"></iframe></body></html>`
      if (path === '/inner')
        return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#efe;font:20px sans-serif">
          <h2 id="total" style="position:absolute;left:20px;top:20px;width:260px;height:40px;margin:0">3 items</h2>
          <input id="note" aria-label="Note" style="position:absolute;left:20px;top:90px;width:240px;height:36px;font:inherit">
          <button id="send" type="button" style="position:absolute;left:20px;top:150px;width:120px;height:40px;font:inherit">Send</button>
          <script>
            const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
            const n = new URLSearchParams(location.search).get('n')
            if (n) document.getElementById('total').textContent = n + ' items'
            const note = document.getElementById('note')
            addEventListener('pointerdown', (e) => log('down:' + (e.target.id || e.target.localName)))
            document.getElementById('send').addEventListener('click', (e) => log('send:' + note.value + ':' + e.isTrusted))
          </script></body></html>`
      return null
    }
    for (const host of ['127.0.0.1', '127.0.0.2']) {
      const server = createServer((req, res) => {
        const u = new URL(req.url ?? '/', 'http://x')
        if (u.pathname === '/log') {
          seen.push(u.searchParams.get('e') ?? '')
          res.end('ok')
          return
        }
        const html = page(u.pathname, u.searchParams)
        res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found')
      })
      await new Promise<void>((r) => server.listen(0, host, r))
      sites.push(server)
      ports.push((server.address() as AddressInfo).port)
    }
    // localhost is served by the 127.0.0.1 server: another site to the browser, on the same port
    topUrl = `http://127.0.0.1:${ports[0]}/top`
  })
  afterAll(async () => {
    await Promise.all(sites.map((server) => new Promise((r) => server.close(r))))
    sites = []
  })

  it('clicks, typing (Hangul) and assertions in the innermost frame; Ctrl-C with the editor open keeps that assertion as edited; replayed', async () => {
    const { buttons, editor } = await toolbarLayout()
    // each frame is out of process (its own CDP target): the top page's scripts reach neither
    const look = await probe.newPage({ viewport: VIEWPORT })
    await look.goto(topUrl)
    await expect.poll(() => look.frames().length).toBe(3)
    const browserSession = await probe.newBrowserCDPSession()
    const { targetInfos } = await browserSession.send('Target.getTargets')
    await browserSession.detach()
    await look.close()
    expect(
      targetInfos
        .filter((t) => t.type === 'iframe')
        .map((t) => new URL(t.url).host.replace(/:\d+$/, ''))
        .sort(),
    ).toEqual(['127.0.0.2', 'localhost'])
    const file = join(dir, 'nested-frames.json')
    seen = []
    const rec = await startRecording(topUrl, file)
    await sleep(1000)
    await hand.clickAt(NOTE)
    await hand.typeText('주문 42')
    await hand.clickAt(SEND)
    // assert text of the heading in the innermost frame: the editor opens with "3 items", added with Enter
    await hand.clickAt(buttons['Assert text']!)
    await hand.clickAt(TOTAL)
    await sleep(1000)
    await hand.pressKey('Return')
    // assert value of the field: the editor opens with "주문 42"; the person types "42" over it and picks
    // "contains", and presses Ctrl-C in the terminal before adding it
    await hand.clickAt(buttons['Assert value']!)
    await hand.clickAt(NOTE)
    await sleep(1000)
    await hand.typeText('42')
    await hand.clickAt(editor.contains!)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    // the innermost page heard the two clicks on it, and nothing of the two picks
    expect(seen, rec.stdout() + rec.stderr()).toEqual(['down:note', 'down:send', 'send:주문 42:true'])
    const out = rec.stdout()
    expect(out).toMatch(/Stopped: recording was interrupted from the terminal/)
    // the open edit is not lost silently: the live list shows it with its warning, and the summary says it again
    expect(out).toMatch(
      / {2}5\. Assert value of [^\n]*contains "42"[^\n]*\n\s+warning: not confirmed: recording stopped while its editor was open/,
    )
    expect(out).toMatch(/Step 5 was recorded with a warning: not confirmed/)
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: {
        action_type: string
        text?: string
        warning?: string
        assertion?: { kind: string; op?: string; expected?: string }
        identity?: { tag_name?: string; frame_path?: string[] }
      }[]
    }
    const path = ['#outer', '#inner']
    expect(
      saved.actions.map((a) => [
        a.action_type,
        a.text ?? a.assertion ?? null,
        a.identity?.tag_name ?? null,
        a.identity?.frame_path ?? null,
      ]),
    ).toEqual([
      ['click', null, 'input', path],
      ['type', '주문 42', 'input', path],
      ['click', null, 'button', path],
      ['assert', { kind: 'text', expected: '3 items' }, 'h2', path],
      ['assert', { kind: 'value', op: 'contains', expected: '42' }, 'input', path],
    ])
    expect(saved.actions[4]?.warning).toMatch(/not confirmed/)
    expect(saved.actions.slice(0, 4).map((a) => a.warning ?? null)).toEqual([null, null, null, null])
    // replayed into the innermost frame: the same two clicks and the typing reach it, both assertions hold
    seen = []
    const r = await qa(['replay', file, '--url', topUrl, '--json', '--report-dir', 'reports-nested'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen.filter((e) => e.startsWith('send:'))).toEqual(['send:주문 42:true'])
    // where the innermost frame shows 4 items, the text assertion fails there with expected and actual
    // (in --json, in the JUnit file and in the HTML report)
    const junit = join(dir, 'nested-4.xml')
    const changed = await qa([
      'replay',
      file,
      '--url',
      `${topUrl}?n=4`,
      '--json',
      '--report-dir',
      'reports-nested-4',
      '--junit',
      junit,
    ])
    expect(changed.code, changed.stdout + changed.stderr).toBe(1)
    const report = JSON.parse(changed.stdout) as { verification_results: { final_result: string; reason: string }[] }
    expect(report.verification_results.map((v) => v.final_result)).toEqual(['pass', 'pass', 'pass', 'fail', 'pass'])
    expect(report.verification_results[3]?.reason).toMatch(/expected .*3 items.*actual .*4 items/)
    expect(await readFile(junit, 'utf8')).toMatch(
      /<failure [^>]*expected text equals &quot;3 items&quot;[\s\S]*actual: &quot;4 items&quot;/,
    )
    const htmlFile = (await readdir(join(dir, 'reports-nested-4'))).find((f) => f.endsWith('.html'))
    const html = await readFile(join(dir, 'reports-nested-4', htmlFile ?? 'missing.html'), 'utf8')
    expect(html).toContain('<dd class="assertion-expected">text equals &quot;3 items&quot;</dd>')
    expect(html).toContain('<dd class="assertion-actual">&quot;4 items&quot;</dd>')
  })
})

describe('every way out of a recording by hand saves the steps so far (sample app)', () => {
  let app: SampleApp
  beforeAll(async () => {
    app = await startSampleApp({ port: 0, version: 'v1' })
  })
  afterAll(async () => {
    await app?.close()
  })

  /** The browser Playwright launched for the command: its child process named chromium. */
  const browserPidOf = async (cli: ChildProcess) => {
    const { stdout } = await run('ps', ['-o', 'pid=,comm=', '--ppid', String(cli.pid)])
    const line = stdout.split('\n').find((l) => /chrom/.test(l))
    return line ? Number(line.trim().split(/\s+/)[0]) : undefined
  }

  const ways: [string, RegExp, (rec: HandRecording) => Promise<void>][] = [
    [
      'the Stop button of the recorder toolbar',
      /Stopped: the Stop button of the recorder toolbar was clicked/,
      // bottom right of the viewport (right: 8px, bottom: 8px); the button is the toolbar's right end
      () => hand.clickAt({ x: VIEWPORT.width - 8 - 6 - 22, y: VIEWPORT.height - 8 - 4 - 10 }),
    ],
    ['Ctrl-C in the terminal', /Stopped: recording was interrupted from the terminal/, async (rec) => rec.interrupt()],
    [
      'closing the window',
      /Stopped: the browser window was closed/,
      () => hand.xdo('key', 'ctrl+w').then(() => undefined),
    ],
    [
      'killing the browser',
      /Stopped: the browser closed or crashed/,
      async (rec) => {
        const pid = await browserPidOf(rec.child)
        expect(pid).toBeGreaterThan(0)
        process.kill(pid as number, 'SIGKILL')
      },
    ],
  ]

  it.each(ways)('%s: exit 0, a valid case with the click and the typing', async (name, said, stop) => {
    const page = await probe.newPage({ viewport: VIEWPORT })
    await page.goto(`${app.url}/login`)
    const user = await centre(page.getByRole('textbox', { name: '아이디' }))
    await page.close()
    app.clearEvents()
    const file = join(dir, `stop-${name.replace(/\W+/g, '-')}.json`)
    const rec = await startRecording(`${app.url}/login`, file)
    await hand.clickAt(user)
    await hand.typeText('kim')
    await stop(rec)
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(rec.stdout()).toMatch(said)
    const validate = await qa(['validate', file])
    expect(validate.code, validate.stdout + validate.stderr).toBe(0)
    const saved = await readCase(file)
    expect(saved.actions.map((a) => [a.action_type, a.text ?? null])).toEqual([
      ['click', null],
      ['type', 'kim'],
    ])
    // the page saw one click (the toolbar's own click never reached it, nor the case)
    expect(
      app
        .events()
        .filter((e) => e.type === 'click' && e.trusted)
        .map((e) => e.truth),
    ).toEqual(['login.username'])
    // no screenshot file is half-written or left as a temporary file
    const assets = await readdir(file.replace(/\.json$/, ''))
    expect(assets.filter((f) => !/^step-\d{3}-(before|after|element)\.png$/.test(f))).toEqual([])
  })
})
