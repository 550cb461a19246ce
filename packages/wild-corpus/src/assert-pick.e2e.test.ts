/**
 * Assert mode by hand on a page nobody here wrote: Stisla's Bootstrap 4 modal page, recorded with
 * `qa record web --cdp` in a visible Chromium on a virtual display of its own, driven by real X input (xdotool).
 * While an assert mode waits, the element under the pointer is outlined with the name the assertion will use; the
 * highlight is read over CDP from the toolbar's closed shadow root (never by a page script). A pick on the modal's
 * title asserts the heading, not the dialog around it, and no recorded screenshot shows the highlight.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { decodeFrame, TOOLBAR_TAG } from '@qa/recorder-cdp'
import { startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { type Browser, type CDPSession, chromium, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHandInput, type HandInput, startOwnChromium, startRecordingByHand } from './__tests__/hand-input'
import { runCli } from './run-cli'
import { type CorpusServer, startCorpusServer } from './start-corpus-server'

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../../apps/cli/bin/qa.js')
const CHROMIUM = process.env.QA_CHROMIUM ?? '/usr/bin/chromium'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** The highlight's outline colour (#1a73e8): no recorded screenshot may carry it around the picked elements. */
const HIGHLIGHT_RGB = [0x1a, 0x73, 0xe8] as const

type Box = { x: number; y: number; width: number; height: number }

let xvfb: VirtualDisplay
let dir: string
let corpus: CorpusServer
let own: ChildProcess
let profile: string
let person: Browser
let tab: Page
let cdp: CDPSession
let cdpUrl: string
/** Real X input; its origin is where the tab's viewport (0, 0) is on the screen. */
let hand: HandInput
const started: ChildProcess[] = []
const centreOf = (b: Box) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 })
const boxOf = async (l: Locator): Promise<Box> => {
  const b = await l.boundingBox()
  if (!b) throw new Error('a target is not visible')
  return b
}

interface DomNode {
  nodeId: number
  nodeName: string
  nodeValue?: string
  attributes?: string[]
  children?: DomNode[]
  shadowRoots?: DomNode[]
}
/** The toolbar's closed shadow root, as CDP sees it (it pierces closed roots; the page's scripts cannot). */
async function toolbarRoot(): Promise<DomNode | null> {
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode }
  const find = (n: DomNode): DomNode | null => {
    if (n.nodeName.toLowerCase() === TOOLBAR_TAG) return n.shadowRoots?.[0] ?? null
    for (const c of [...(n.children ?? []), ...(n.shadowRoots ?? [])]) {
      const f = find(c)
      if (f) return f
    }
    return null
  }
  return find(root)
}
const all = (n: DomNode): DomNode[] => [n, ...(n.children ?? []).flatMap(all)]
const attr = (n: DomNode, name: string) => {
  const a = n.attributes ?? []
  for (let i = 0; i < a.length; i += 2) if (a[i] === name) return a[i + 1] as string
  return null
}
const textOf = (n: DomNode): string =>
  all(n)
    .map((c) => (c.nodeName === '#text' ? (c.nodeValue ?? '') : ''))
    .join('')
async function borderBox(nodeId: number): Promise<Box> {
  const { model } = await cdp.send('DOM.getBoxModel', { nodeId })
  const q = model.border
  return { x: q[0] as number, y: q[1] as number, width: model.width, height: model.height }
}
/** The toolbar's buttons by their text, centres in viewport pixels. */
async function toolbarButtons(): Promise<Record<string, { x: number; y: number }>> {
  const root = await toolbarRoot()
  const out: Record<string, { x: number; y: number }> = {}
  for (const b of all(root as DomNode).filter((n) => n.nodeName === 'BUTTON' && attr(n, 'hidden') === null)) {
    const box = await borderBox(b.nodeId).catch(() => null)
    if (box && box.width > 0) out[textOf(b).trim()] = centreOf(box)
  }
  return out
}
/** The highlight as it is drawn now: its outline's box and its label, or null when hidden. */
async function highlight(): Promise<{ box: Box; label: string } | null> {
  const root = await toolbarRoot()
  const ps = all(root as DomNode).filter((n) => n.nodeName === 'P')
  const outline = ps.find((n) => attr(n, 'class') === 'hl')
  const label = ps.find((n) => attr(n, 'class') === 'hl-label')
  if (!outline || !label || attr(outline, 'hidden') !== null || attr(label, 'hidden') !== null) return null
  return { box: await borderBox(outline.nodeId), label: textOf(label) }
}
/** Waits (by polling, no time limit of its own) until the highlight shows `label`. */
async function highlightShowing(label: string): Promise<{ box: Box; label: string }> {
  for (;;) {
    const h = await highlight()
    if (h?.label === label) return h
    await sleep(100)
  }
}
const expectSameBox = (a: Box, b: Box) => {
  for (const k of ['x', 'y', 'width', 'height'] as const)
    expect(Math.abs(a[k] - b[k]), `${k}: ${a[k]} vs ${b[k]}`).toBeLessThan(2)
}

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1400, height: 1000 })
  dir = await mkdtemp(join(tmpdir(), 'qa-assert-pick-'))
  corpus = await startCorpusServer()
  profile = await mkdtemp(join(tmpdir(), 'qa-assert-pick-chrome-'))
  const port = 9300 + Math.floor(Math.random() * 500)
  // the person's browser, one window, one tab
  const chrome = await startOwnChromium({
    executablePath: CHROMIUM,
    display: xvfb.display,
    profile,
    port,
    urls: ['about:blank'],
    args: ['--window-position=0,0', '--window-size=1280,900'],
    maxWaitMs: Number.POSITIVE_INFINITY,
    started,
  })
  own = chrome.child
  cdpUrl = chrome.cdpUrl
  person = await chromium.connectOverCDP(cdpUrl)
  tab = person.contexts().flatMap((c) => c.pages())[0] as Page
  // calibrate: where the viewport is on the screen (a listener in the blank tab, gone with the navigation)
  hand = createHandInput({ display: xvfb.display, travel: { stepMs: 60 } })
  await hand.measureOrigin(tab, Number.POSITIVE_INFINITY)
  cdp = await tab.context().newCDPSession(tab)
})

afterAll(async () => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null && child.pid)
      try {
        process.kill(child === own ? child.pid : -child.pid, 'SIGKILL')
      } catch {
        // gone already
      }
  await person?.close().catch(() => undefined)
  await corpus?.close()
  await xvfb?.stop()
  for (const d of [dir, profile]) if (d) await rm(d, { recursive: true, force: true })
})

describe('assert mode by hand on a wild-corpus modal (real X input)', () => {
  it('highlights the element under the pointer with the name the assertion will use; a pick on the modal title asserts the heading; no screenshot shows the highlight', async () => {
    const url = `${corpus.url}/stisla/bootstrap-modal.html`
    const file = join(dir, 'modal.json')
    const rec = await startRecordingByHand(CLI, ['web', '--cdp', cdpUrl, url, '--out', file], {
      cwd: dir,
      maxWaitMs: Number.POSITIVE_INFINITY,
      started,
    })
    expect(rec.stderr(), rec.stdout()).toMatch(/Recording in the browser window/)
    await tab.waitForLoadState('load')
    await sleep(800)

    // the person scrolls to the demo with the wheel and opens the modal (a click the page hears)
    const open = tab.getByRole('button', { name: 'Aw, yeah!' })
    const height = await tab.evaluate(() => innerHeight)
    await hand.moveTo({ x: 640, y: 300 })
    while ((await boxOf(open)).y + 60 > height) {
      await hand.xdo('click', '5')
      await sleep(300)
    }
    await sleep(800)
    await hand.clickAt(centreOf(await boxOf(open)))
    const modal = tab.locator('#exampleModal')
    await modal.locator('.modal-title').waitFor({ state: 'visible' })
    // the fade-in ends: the title stops moving
    let title = await boxOf(modal.locator('.modal-title'))
    for (;;) {
      await sleep(200)
      const now = await boxOf(modal.locator('.modal-title'))
      if (now.y === title.y && now.x === title.x) break
      title = now
    }
    const save = await boxOf(modal.getByRole('button', { name: 'Save changes' }))
    const body = await boxOf(modal.locator('.modal-body p'))
    const buttons = await toolbarButtons()
    expect(Object.keys(buttons)).toEqual(['Assert visible', 'Assert text', 'Assert value', 'Stop'])
    expect(await highlight()).toBeNull()

    // Assert visible: hovering the title outlines the heading (not the dialog) with the name the step will use
    await hand.clickAt(buttons['Assert visible']!)
    await hand.moveTo(centreOf(title))
    const onTitle = await highlightShowing('heading "Modal title"')
    expectSameBox(onTitle.box, title)
    // on the Save button: the button
    await hand.moveTo(centreOf(save))
    expectSameBox((await highlightShowing('button "Save changes"')).box, save)
    // back on the title, the pick: the highlight goes with the mode
    await hand.moveTo(centreOf(title))
    await highlightShowing('heading "Modal title"')
    await hand.xdo('click', '1')
    while ((await highlight()) !== null) await sleep(100)
    await sleep(700)

    // Assert text on the body's words: the paragraph, edited as it is and added with Enter
    await hand.clickAt(buttons['Assert text']!)
    await hand.moveTo(centreOf(body))
    const onBody = await highlightShowing('paragraph "Modal body text goes here."')
    expectSameBox(onBody.box, body)
    await hand.xdo('click', '1')
    // the editor opens with the paragraph's text; the person adds it as it is
    let editor = await toolbarButtons()
    while (!editor.Add) {
      await sleep(100)
      editor = await toolbarButtons()
    }
    await hand.clickAt(editor.Add)
    while ((await toolbarButtons())['Assert text'] === undefined) await sleep(100)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    const out = rec.stdout()

    // the case: the click that opened the modal, then the heading and the paragraph, never the dialog
    expect(out).toMatch(
      / {2}\d+\. Click button "Aw, yeah!".*\n {2}\d+\. Assert heading "Modal title" is visible.*\n {2}\d+\. Assert text of paragraph "Modal body text goes here\." equals "Modal body text goes here\."/,
    )
    expect(out).not.toMatch(/warning/)
    expect(out).not.toMatch(/Assert (document|dialog)/)
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: {
        action_type: string
        identity?: { tag_name?: string; ax_role?: string; ax_name?: string; text_content?: string }
        screenshot_before_path?: string
        screenshot_path?: string
      }[]
    }
    expect(
      saved.actions
        .filter((a) => a.action_type !== 'scroll')
        .map((a) => [
          a.action_type,
          a.identity?.tag_name,
          a.identity?.ax_role,
          a.identity?.ax_name ?? a.identity?.text_content,
        ]),
    ).toEqual([
      ['click', 'button', 'button', 'Aw, yeah!'],
      ['assert', 'h5', 'heading', 'Modal title'],
      ['assert', 'p', 'paragraph', 'Modal body text goes here.'],
    ])

    // no recorded image carries the highlight's outline or label around the elements it was drawn on
    const shots = (await readdir(join(dir, 'modal'))).filter((f) => f.endsWith('.png') && !f.includes('element'))
    expect(shots.length).toBeGreaterThanOrEqual(4)
    for (const shot of shots) {
      const f = await decodeFrame(join(dir, 'modal', shot))
      const scale = f.width / (tab.viewportSize()?.width ?? f.width)
      let blue = 0
      for (const b of [title, save, body]) {
        // the outline's ring and the label's place above the element
        const x0 = Math.max(0, Math.floor((b.x - 6) * scale))
        const y0 = Math.max(0, Math.floor((b.y - 30) * scale))
        const x1 = Math.min(f.width, Math.ceil((b.x + b.width + 6) * scale))
        const y1 = Math.min(f.height, Math.ceil((b.y + b.height + 6) * scale))
        for (let y = y0; y < y1; y++)
          for (let x = x0; x < x1; x++) {
            const i = (y * f.width + x) * 4
            if (
              Math.abs((f.data[i] as number) - HIGHLIGHT_RGB[0]) < 24 &&
              Math.abs((f.data[i + 1] as number) - HIGHLIGHT_RGB[1]) < 24 &&
              Math.abs((f.data[i + 2] as number) - HIGHLIGHT_RGB[2]) < 24
            )
              blue++
          }
      }
      expect(blue, `${shot} shows the highlight`).toBe(0)
    }

    // the recorded case replays on the page: the modal opens, both assertions hold
    const r = await runCli(CLI, ['replay', file, '--json', '--report-dir', join(dir, 'r1')], dir)
    expect(r.code, r.stdout + r.stderr).toBe(0)
  })
})
