import type { Action, ReplayResult } from '@qa/model'
import { afterAll, describe, expect, test } from 'vitest'
import type { ReplayPage } from '../replay-page'

/**
 * The page every `ReplayPage` of the contract shows at its start URL. An adapter over a real browser serves it (and
 * `/next`, a second page the link leads to, and `/data`, any answer); a scripted one plays what these controls do:
 * "Save" writes "Saved" into the page, "Warn" opens an alert, "Load" starts a request, "Next" navigates.
 */
export const CONTRACT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>contract</title></head>
<body style="margin:0;font:16px sans-serif;background:#fff">
  <button style="position:absolute;left:20px;top:20px;width:120px;height:40px" onclick="document.getElementById('out').textContent = 'Saved'">Save</button>
  <button style="position:absolute;left:160px;top:20px;width:120px;height:40px" onclick="alert('Careful')">Warn</button>
  <button style="position:absolute;left:300px;top:20px;width:120px;height:40px" onclick="fetch('/data')">Load</button>
  <a href="/next" style="position:absolute;left:20px;top:80px">Next</a>
  <p id="out" style="position:absolute;left:20px;top:120px;width:300px;height:30px;margin:0;background:#eee"></p>
</body></html>`

/** The page `/next` of the contract (where the link leads). */
export const CONTRACT_NEXT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>next</title></head>
<body style="margin:0;font:16px sans-serif"><h1>Next page</h1></body></html>`

const button = (name: string, left: number, top = 20) => ({
  axRole: 'button',
  axName: name,
  tagName: 'button',
  boundingBox: { x: left, y: top, width: 120, height: 40 },
})

/** The steps of the contract, each recorded on `CONTRACT_PAGE` (its element's role, name, tag and box). */
export const CONTRACT_STEPS = {
  save: {
    timestamp: 0,
    actionType: 'click',
    x: 80,
    y: 40,
    description: 'Click button "Save"',
    identity: button('Save', 20),
  },
  warn: {
    timestamp: 0,
    actionType: 'click',
    x: 220,
    y: 40,
    description: 'Click button "Warn"',
    identity: button('Warn', 160),
    dialog: { type: 'alert', message: 'Careful', accept: true },
  },
  load: {
    timestamp: 0,
    actionType: 'click',
    x: 360,
    y: 40,
    description: 'Click button "Load"',
    identity: button('Load', 300),
  },
  next: {
    timestamp: 0,
    actionType: 'click',
    x: 35,
    y: 90,
    description: 'Click link "Next"',
    identity: { axRole: 'link', axName: 'Next', tagName: 'a', boundingBox: { x: 20, y: 80, width: 34, height: 18 } },
  },
  /** A button no page of the contract has. */
  missing: {
    timestamp: 0,
    actionType: 'click',
    x: 80,
    y: 320,
    description: 'Click button "Delete"',
    identity: button('Delete', 20, 300),
  },
  tab: { timestamp: 0, actionType: 'key_press', x: 0, y: 0, key: 'Tab', description: 'Press Tab' },
  /** The browser's renderer dies during this step (as an out-of-memory tab would). */
  crash: { timestamp: 0, actionType: 'navigate', x: 0, y: 0, url: 'chrome://crash', description: 'Crash' },
} satisfies Record<string, Action>

export type ContractStep = keyof typeof CONTRACT_STEPS

/**
 * How a contract test gets its page: a fresh `ReplayPage` for one scenario, and the URL `open` is given. `steps`
 * are the steps the test will start, in order (a scripted page plays them; a real one ignores them). Scenario
 * `unreachable`: nothing answers at the URL.
 */
export interface ReplayPageHarness {
  make(scenario: { steps: readonly ContractStep[]; unreachable?: boolean }): Promise<{ page: ReplayPage; url: string }>
  /** Called once after the suite (close the browser, stop the server). */
  cleanup?: () => Promise<void> | void
}

const newResult = (action: Action): ReplayResult => ({
  actionId: 'action-000',
  success: false,
  method: 'none',
  originalCoords: { x: action.x, y: action.y },
  matchConfidence: 0,
  screenTransitionVerified: false,
  errorMessage: '',
})

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian). */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  return { width: view.getUint32(16), height: view.getUint32(20) }
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i])

/**
 * The shared contract every `ReplayPage` passes (the scripted `fakeReplayPage`, the Playwright adapter over real
 * Chromium): what `open`, `settle`, `screenshot`, the browser-health calls and each step's `run`, `navigated`,
 * `requested`, `requestsIdle` and `end` return and throw, so the replay loop may count on it whatever drives it.
 */
export function describeReplayPage(label: string, harness: ReplayPageHarness): void {
  describe(`ReplayPage contract: ${label}`, () => {
    const opened: ReplayPage[] = []
    afterAll(async () => {
      for (const page of opened) await page.dispose().catch(() => undefined)
      await harness.cleanup?.()
    })
    const start = async (...steps: ContractStep[]): Promise<ReplayPage> => {
      const { page, url } = await harness.make({ steps })
      opened.push(page)
      await page.open(url)
      await page.settle()
      return page
    }

    test('open rejects with an error naming the URL when nothing answers there', async () => {
      const { page, url } = await harness.make({ steps: [], unreachable: true })
      opened.push(page)
      const error = await page.open(url).then(
        () => null,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toContain(url)
    })

    test('an open page is not lost, settles, and shows a PNG screenshot; it does not change by itself', async () => {
      const page = await start()
      expect(page.lost()).toBeNull()
      expect(page.gone()).toBe(false)
      expect(await page.checkLost()).toBeNull()
      const png = await page.screenshot()
      expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE)
      const size = pngSize(png)
      expect(size.width).toBeGreaterThan(0)
      expect(size.height).toBeGreaterThan(0)
      if (page.fingerprint) {
        const first = await page.fingerprint()
        expect(typeof first).toBe('string')
        expect(await page.fingerprint()).toBe(first)
      }
    })

    test('a click on a recorded button still there: found by role and name, done, the page changed', async () => {
      const page = await start('save')
      const before = await page.screenshot()
      const fingerprint = await page.fingerprint?.()
      const step = page.startStep(CONTRACT_STEPS.save)
      expect(step.assertion).toBeNull()
      expect(step.healedIdentity).toBeNull()
      const result = newResult(CONTRACT_STEPS.save)
      const located = await step.run(result)
      expect(result.method).toBe('role')
      expect(located?.status).toBe('found')
      expect(located?.strategy).toBe('role')
      expect(located?.coordinateFallback).toBe(false)
      const box = located?.element?.boundingBox
      expect(box?.width).toBeGreaterThan(0)
      expect(box?.height).toBeGreaterThan(0)
      expect(step.navigated()).toBe(false)
      expect(step.end()).toEqual({ dialogSeen: false })
      await page.settle()
      expect(sameBytes(await page.screenshot(), before)).toBe(false)
      if (page.fingerprint) expect(await page.fingerprint()).not.toBe(fingerprint)
    })

    test('a click on a button that is on no page: run rejects naming it, the method is "failed", the page lives on', async () => {
      const page = await start('missing')
      const step = page.startStep(CONTRACT_STEPS.missing)
      const result = newResult(CONTRACT_STEPS.missing)
      const error = await step.run(result).then(
        () => null,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toContain('Delete')
      expect(result.method).toBe('failed')
      expect(step.end()).toEqual({ dialogSeen: false })
      expect(page.lost()).toBeNull()
      expect(page.gone()).toBe(false)
    })

    test('a key press has no target: run resolves null with the method "none"', async () => {
      const page = await start('tab')
      const step = page.startStep(CONTRACT_STEPS.tab)
      const result = newResult(CONTRACT_STEPS.tab)
      expect(await step.run(result)).toBeNull()
      expect(result.method).toBe('none')
      expect(step.end()).toEqual({ dialogSeen: false })
    })

    test('a click that follows a link: the step navigated', async () => {
      const page = await start('next')
      const step = page.startStep(CONTRACT_STEPS.next)
      expect(step.navigated()).toBe(false)
      await step.run(newResult(CONTRACT_STEPS.next))
      await page.settle()
      expect(step.navigated()).toBe(true)
      step.end()
    })

    test('a click that opens the recorded alert: end says a dialog was seen', async () => {
      const page = await start('warn')
      const step = page.startStep(CONTRACT_STEPS.warn)
      await step.run(newResult(CONTRACT_STEPS.warn))
      await page.settle()
      expect(step.end()).toEqual({ dialogSeen: true })
    })

    test('a click that starts a request: the step requested, and its requests end', async () => {
      const page = await start('load')
      const step = page.startStep(CONTRACT_STEPS.load)
      expect(step.requested()).toBe(false)
      await step.run(newResult(CONTRACT_STEPS.load))
      await step.requestsIdle()
      expect(step.requested()).toBe(true)
      expect(step.navigated()).toBe(false)
      step.end()
    })

    // (a screenshot of a crashed page is not asked for: the loop takes none once the page is gone)
    test('a step during which the browser crashes: run rejects, and the page says why it is lost', async () => {
      const page = await start('crash')
      const step = page.startStep(CONTRACT_STEPS.crash)
      const error = await step.run(newResult(CONTRACT_STEPS.crash)).then(
        () => null,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(Error)
      step.end()
      const why = await page.checkLost()
      expect(typeof why).toBe('string')
      expect(why?.length).toBeGreaterThan(0)
      expect(page.lost()).toBe(why)
      expect(page.gone()).toBe(true)
    })
  })
}
