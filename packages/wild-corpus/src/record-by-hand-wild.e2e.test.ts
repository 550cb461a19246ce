/**
 * Recording by hand: `qa record web <url>` in a visible Chromium on a virtual display of its own, driven
 * by real X input (xdotool: mouse moves, quick clicks with no hold, typing, Enter, Ctrl-C to the command's process
 * group as a terminal sends it), on the sample app and on two pages of the wild corpus. Every click is judged by
 * the page's own listeners (the sample app's truth events, the corpus truth log), never by what the recorder says;
 * the saved case must replay on the unchanged page and heal on a changed one. Then every way out (the toolbar's
 * Stop, Ctrl-C, closing the window, killing the browser) must leave a valid case with the steps so far.
 *
 * This file: wild corpus pages, and --cdp in the person's own browser.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type SampleApp, startSampleApp } from '@qa/sample-app'
import { chromium, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOwnChromium, startRecordingByHand } from './__tests__/hand-input'
import { askTruth, type MutationOp } from './page-script'
import { type CorpusServer, startCorpusServer } from './start-corpus-server'
import {
  CHROMIUM,
  CLI,
  centre,
  dir,
  hand,
  probe,
  qa,
  readCase,
  sleep,
  started,
  startRecording,
  useHandSession,
  VIEWPORT,
  xvfb,
} from './__tests__/by-hand-session'

useHandSession()

describe('qa record web by hand on wild corpus pages (real X input)', () => {
  let corpus: CorpusServer
  beforeAll(async () => {
    corpus = await startCorpusServer()
  })
  afterAll(async () => {
    await corpus?.close()
  })

  /** `atOnce`: the typing follows the click with no pause (a person who does not wait for the page). */
  type Target = { find: (page: Page) => Locator; type?: string; atOnce?: boolean }
  interface Recorded {
    caseFile: string
    truths: string[]
  }

  /**
   * Finds each target in a probe copy of the page and acts on it there (later targets may appear only after a
   * click), then does the same by hand, with X input, in the window of `qa record web`.
   */
  async function recordByHand(pageId: string, name: string, targets: Target[]): Promise<Recorded> {
    const page = await probe.newPage({ viewport: VIEWPORT })
    await page.goto(corpus.pageUrl(pageId), { waitUntil: 'load' })
    const plan: { at: { x: number; y: number }; type?: string; atOnce?: boolean }[] = []
    const truths: string[] = []
    for (const t of targets) {
      const el = t.find(page)
      const at = await centre(el)
      truths.push(await el.evaluate(askTruth))
      plan.push({ at, ...(t.type ? { type: t.type } : {}), ...(t.atOnce ? { atOnce: true } : {}) })
      await page.mouse.click(at.x, at.y)
      if (t.type) await page.keyboard.type(t.type)
      await page.waitForTimeout(300)
    }
    await page.close()
    const rec = await corpus.variant({ ops: [], name: `hand-${name}` })
    const caseFile = join(dir, `${name}.json`)
    const recording = await startRecording(rec.pageUrl(pageId), caseFile)
    for (const step of plan) {
      await hand.clickAt(step.at, step.atOnce ? 0 : 700)
      if (step.type) await hand.typeText(step.type)
    }
    recording.interrupt()
    expect(await recording.exited, recording.stderr()).toBe(0)
    // the person's clicks reached the intended elements (the corpus page's own listeners say so)
    const downs = rec.truth.events().filter((e) => e.kind === 'pointerdown')
    expect(downs.length).toBe(truths.length)
    truths.forEach((t, k) => {
      expect(downs[k]?.chain).toContain(t)
    })
    await rec.close()
    return { caseFile, truths }
  }

  async function replay(rec: Recorded, pageId: string, ops: MutationOp[]) {
    const v = await corpus.variant({ ops })
    const res = await qa(['replay', rec.caseFile, '--url', v.pageUrl(pageId), '--json', '--report-dir', 'reports'])
    await sleep(300)
    const events = v.truth.events()
    await v.close()
    // what failed, for the assertion message: each step's outcome as the report says it
    const steps = (() => {
      try {
        const report = JSON.parse(res.stdout) as {
          replay_results: { success: boolean; method: string; error_message?: string }[]
        }
        return report.replay_results
          .map((x, k) => `${k + 1}: ${x.success ? 'ok' : 'FAIL'} ${x.method} ${x.error_message ?? ''}`)
          .join('\n')
      } catch {
        return res.stdout.slice(0, 2000)
      }
    })()
    return {
      code: res.code,
      why: `${steps}\n${res.stderr}`,
      events,
      downs: events.filter((e) => e.kind === 'pointerdown'),
    }
  }

  it('sb-admin login: type an email, tick "Remember Password"; replays unchanged and with renamed ids and classes', async () => {
    const page = 'sb-admin/dist/login.html'
    const rec = await recordByHand(page, 'admin', [
      { find: (p) => p.getByLabel('Email address'), type: 'qa@example.com' },
      { find: (p) => p.getByRole('checkbox', { name: 'Remember Password' }) },
    ])
    const saved = await readCase(rec.caseFile)
    expect(saved.actions.map((a) => a.action_type)).toEqual(['click', 'type', 'click'])
    for (const ops of [[], ['renamed-ids', 'renamed-classes', 'layout-shift']] as MutationOp[][]) {
      const r = await replay(rec, page, ops)
      expect(r.code, `${ops.join('+')}: ${r.why}`).toBe(0)
      expect(r.downs).toHaveLength(2)
      r.downs.forEach((d, k) => {
        expect(d.chain, `ops ${ops.join('+')} click ${k}`).toContain(rec.truths[k])
      })
      expect(
        r.events.some((e) => e.kind === 'input' && e.truth === rec.truths[0] && e.value === 'qa@example.com'),
      ).toBe(true)
    }
  })

  // the click's after-screenshot was taken while the person already typed, so the unchanged
  // page failed the click; typing steps had no screenshots and were never verified
  it('sneat login: clicks into fields, each followed at once by typing; replay --verify on the unchanged page passes every step', async () => {
    const page = 'sneat/html/auth-login-basic.html'
    const rec = await recordByHand(page, 'at-once', [
      { find: (p) => p.getByLabel('Email or Username'), type: 'qa@example.com', atOnce: true },
      { find: (p) => p.locator('#password'), type: 'Pw-4-qa', atOnce: true },
      { find: (p) => p.getByRole('checkbox', { name: 'Remember Me' }) },
    ])
    const saved = await readCase(rec.caseFile)
    expect(saved.actions.map((a) => a.action_type)).toEqual(['click', 'type', 'click', 'type', 'click'])
    const secret = saved.actions[3]?.secret_env as string
    expect(secret).toMatch(/^QA_SECRET_/)
    const v = await corpus.variant({ ops: [] })
    const res = await qa(
      ['replay', rec.caseFile, '--url', v.pageUrl(page), '--verify', '--json', '--report-dir', 'reports-at-once'],
      { [secret]: 'Pw-4-qa' },
    )
    await v.close()
    const report = JSON.parse(res.stdout) as { verification_results: { final_result: string; reason: string }[] }
    const verdicts = report.verification_results.map((r) => `${r.final_result}: ${r.reason}`)
    expect(verdicts, res.stderr).toEqual(report.verification_results.map((r) => `pass: ${r.reason}`))
    expect(verdicts).toHaveLength(5)
    expect(res.code, res.stderr).toBe(0)
    // typing carries its evidence like a click
    for (const a of saved.actions) expect([a.screenshot_before_path, a.screenshot_path]).not.toContain(undefined)
  })

  // "Try it out" becomes "Cancel" on the click: the element pressed is the one the page described at pointer-down
  // (the reporter's pointerdown reaches Node only after the page reacted)
  it('swagger-ui (a React SPA): expand an operation, "Try it out", type a parameter; replays unchanged and reworded', async () => {
    const page = 'swagger-ui/index.html'
    const rec = await recordByHand(page, 'spa', [
      { find: (p) => p.locator('.opblock-summary-control').first() },
      { find: (p) => p.getByRole('button', { name: 'Try it out' }) },
      { find: (p) => p.getByPlaceholder('q', { exact: true }), type: 'sword' },
    ])
    const saved = await readCase(rec.caseFile)
    expect(saved.actions.map((a) => a.action_type)).toEqual(['click', 'click', 'click', 'type'])
    for (const ops of [[], ['extra-wrappers', 'reworded-labels']] as MutationOp[][]) {
      const r = await replay(rec, page, ops)
      expect(r.code, `${ops.join('+')}: ${r.why}`).toBe(0)
      expect(r.downs).toHaveLength(3)
      r.downs.forEach((d, k) => {
        expect(d.chain, `ops ${ops.join('+')} click ${k}`).toContain(rec.truths[k])
      })
      expect(r.events.some((e) => e.kind === 'input' && e.truth === rec.truths[2] && e.value === 'sword')).toBe(true)
    }
  })
})

describe('qa record web --cdp: in the tab the person is on, in their own running browser', () => {
  let app: SampleApp
  let own: ChildProcess
  let profile: string
  let port: number
  beforeAll(async () => {
    app = await startSampleApp({ port: 0, version: 'v1' })
    profile = await mkdtemp(join(tmpdir(), 'qa-own-chrome-'))
    port = 9300 + Math.floor(Math.random() * 500)
    // the person's browser: their own window and profile, two tabs, the second one in front
    own = (
      await startOwnChromium({
        executablePath: CHROMIUM,
        display: xvfb.display,
        profile,
        port,
        urls: ['about:blank', `${app.url}/login`],
        started,
      })
    ).child
  })
  afterAll(async () => {
    if (own?.exitCode === null) {
      own.kill('SIGTERM')
      await new Promise((r) => own.once('exit', r))
    }
    await app?.close()
    if (profile) await rm(profile, { recursive: true, force: true })
  })

  it('records the front tab without opening a page, and leaves the browser and its tabs as they were', async () => {
    const cdpUrl = `http://127.0.0.1:${port}`
    // the person's front tab, as the test drives it (real input events over CDP, no hold)
    const person = await chromium.connectOverCDP(cdpUrl)
    const tab = person
      .contexts()
      .flatMap((c) => c.pages())
      .find((p) => p.url().endsWith('/login'))
    expect(tab).toBeDefined()
    await tab?.waitForLoadState('load')
    // the person switches to the login tab (the other one stays open behind it)
    await tab?.bringToFront()
    const user = await centre(tab!.getByRole('textbox', { name: '아이디' }))
    app.clearEvents()
    const file = join(dir, 'own.json')
    const rec = await startRecordingByHand(CLI, ['web', '--cdp', cdpUrl, '--out', file], { cwd: dir, started })
    expect(rec.stderr()).toMatch(/Recording in the browser window: http:\/\/127\.0\.0\.1:\d+\/login/)
    await sleep(500)
    await tab!.mouse.click(user.x, user.y)
    await sleep(500)
    await tab!.keyboard.type('own-tab', { delay: 40 })
    await sleep(800)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(rec.stdout()).toMatch(/ {2}1\. Click textbox "아이디"/)
    const saved = await readCase(file)
    expect(saved.actions.map((a) => [a.action_type, a.text ?? null])).toEqual([
      ['click', null],
      ['type', 'own-tab'],
    ])
    expect(JSON.parse(saved.json).start_url).toBe(`${app.url}/login`)
    expect(
      app
        .events()
        .filter((e) => e.type === 'click' && e.trusted)
        .map((e) => e.truth),
    ).toEqual(['login.username'])
    // the person's browser runs on with both tabs; the toolbar is gone from theirs and no page was added
    expect(own.exitCode).toBeNull()
    const pages = person.contexts().flatMap((c) => c.pages())
    expect(pages.map((p) => p.url()).sort()).toEqual(['about:blank', `${app.url}/login`].sort())
    expect(await tab!.evaluate((tag) => document.getElementsByTagName(tag).length, 'qa-recorder-toolbar')).toBe(0)
    await person.close()
  })

  // A file input opens the browser's native file dialog, which cannot be driven reliably by X input: the person's
  // pick is made over the test's own CDP connection to their browser (the chooser intercepted there), the click
  // that opens it is real X input, and the recorder learns the names from the page as it would from a real pick.
  it('a file upload: the chosen names are recorded, and a replay gives the files of those names from --files-dir', async () => {
    const UPLOAD = `<!doctype html><html><head><title>Upload</title></head><body style="margin:0">
      <input id="attach" type="file" multiple aria-label="Attachments"
        style="position:absolute;left:200px;top:200px;width:300px;height:80px;font:20px sans-serif">
      <script>
        document.getElementById('attach').addEventListener('change', async (e) => {
          for (const f of e.target.files) await fetch('/log?e=' + encodeURIComponent(f.name + ':' + f.size))
        })
      </script></body></html>`
    const seen: string[] = []
    const server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x')
      if (u.pathname === '/log') {
        seen.push(u.searchParams.get('e') ?? '')
        res.end('ok')
        return
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(UPLOAD)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const uploadUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`
    const picked = join(dir, 'picked')
    const replayFiles = join(dir, 'replay-files')
    const empty = join(dir, 'no-files')
    await mkdir(picked, { recursive: true })
    await mkdir(replayFiles, { recursive: true })
    await mkdir(empty, { recursive: true })
    await writeFile(join(picked, 'report.txt'), 'hello world')
    await writeFile(join(picked, '보고서.txt'), '한글')
    await writeFile(join(replayFiles, 'report.txt'), 'replayed!')
    await writeFile(join(replayFiles, '보고서.txt'), '다시 재생')
    const cdpUrl = `http://127.0.0.1:${port}`
    const person = await chromium.connectOverCDP(cdpUrl)
    try {
      const tab = person
        .contexts()
        .flatMap((c) => c.pages())
        .find((p) => p.url().endsWith('/login'))!
      await tab.goto(uploadUrl)
      await tab.bringToFront()
      // where this window's viewport is on the screen: one calibration click, before recording
      await tab.evaluate(() => {
        addEventListener('pointerdown', (e) => {
          ;(window as unknown as { hit: number[] }).hit = [e.screenX - e.clientX, e.screenY - e.clientY]
        })
      })
      const guess = await tab.evaluate(() => ({
        x: screenX + (outerWidth - innerWidth) / 2 + 40,
        y: screenY + outerHeight - innerHeight + 40,
      }))
      await hand.xdo('mousemove', '--sync', String(Math.round(guess.x)), String(Math.round(guess.y)))
      await hand.xdo('click', '1')
      await sleep(300)
      const hit = await tab.evaluate(() => (window as unknown as { hit?: number[] }).hit)
      expect(hit).toBeDefined()
      const saved = hand.origin
      const file = join(dir, 'upload.json')
      const rec = await startRecordingByHand(CLI, ['web', '--cdp', cdpUrl, '--out', file], {
        cwd: dir,
        display: xvfb.display,
        started,
      })
      expect(rec.stderr()).toMatch(/Recording in the browser window/)
      await sleep(500)
      const chooser = tab.waitForEvent('filechooser', { timeout: 10_000 })
      try {
        hand.origin = { x: hit![0] as number, y: hit![1] as number }
        await hand.clickAt({ x: 350, y: 240 })
      } finally {
        hand.origin = saved
      }
      await (await chooser).setFiles([join(picked, 'report.txt'), join(picked, '보고서.txt')])
      await sleep(1000)
      rec.interrupt()
      expect(await rec.exited, rec.stderr()).toBe(0)
      const out = rec.stdout()
      expect([...seen].sort()).toEqual(['report.txt:11', '보고서.txt:6'].sort())
      const recorded = JSON.parse(await readFile(file, 'utf8')) as {
        actions: { action_type: string; files?: string[]; description: string }[]
      }
      expect(recorded.actions.map((a) => [a.action_type, a.files])).toEqual([['click', ['report.txt', '보고서.txt']]])
      expect(out).toMatch(/ {2}1\. Click /)
      expect(recorded.actions[0]?.description).toMatch(/ and choose "report\.txt", "보고서\.txt"$/)

      // the replay gives the files of the folder it is told (their own contents: another size than recorded)
      seen.length = 0
      const r = await qa([
        'replay',
        file,
        '--url',
        uploadUrl,
        '--files-dir',
        replayFiles,
        '--json',
        '--report-dir',
        'reports-upload',
      ])
      expect(r.code, r.stdout + r.stderr).toBe(0)
      await sleep(300)
      expect([...seen].sort()).toEqual(['report.txt:9', '보고서.txt:13'].sort())
      // a folder without them: the step fails naming the file, and nothing is clicked
      seen.length = 0
      const missing = await qa([
        'replay',
        file,
        '--url',
        uploadUrl,
        '--files-dir',
        empty,
        '--json',
        '--report-dir',
        'reports-upload-missing',
      ])
      expect(missing.code, missing.stdout + missing.stderr).toBe(1)
      const report = JSON.parse(missing.stdout) as { replay_results: { success: boolean; error_message?: string }[] }
      expect(report.replay_results[0]?.success).toBe(false)
      expect(report.replay_results[0]?.error_message).toMatch(
        /The file "report\.txt" the step chooses is not in .*no-files/,
      )
      expect(seen).toEqual([])
      // a folder that does not exist is bad input, refused before the browser starts
      const nowhere = await qa(['replay', file, '--url', uploadUrl, '--files-dir', join(dir, 'nowhere'), '--json'])
      expect(nowhere.code).toBe(2)
      expect(nowhere.stderr).toMatch(/--files-dir .*nowhere is not a folder/)
    } finally {
      await person.close()
      await new Promise((r) => server.close(r))
    }
  })
})
