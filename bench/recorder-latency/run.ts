/**
 * Recorder latency: the timings that tests must not assert on, measured here instead. Run from the repo
 * root after `pnpm build`: `node --import tsx bench/recorder-latency/run.ts` (options: --rounds N, default 10).
 *
 * What the tests used to time, measured here instead:
 * - record-by-hand "back with Alt+Left" paused 1 s after a click that opens page B, then went back: the recorder
 *   had to have taken page B's navigation by then. Measured: from the person's input (a trusted CDP click on a
 *   link, then the browser's Back) until the recorder reports the step (`listen({ onStep })`).
 * - recording-intent "a case whose target is the covered input … clicks its label, at once" asserted the replay
 *   took < 4 s (a click sent to the covered input waits out the 5 s timeout). Measured: the replay time of that
 *   step, for the old case (target: the covered input) and for the case as recorded now (the label).
 * Baselines, side by side in the same process: a plain click (no navigation) until its step, and the replay of
 * the label case.
 */
import { createServer } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { argv } from 'node:process'
import type { Action, TestCase } from '@qa/model'
import { createWebRecorder, openBrowser, replayWebCase } from '@qa/recorder-cdp'

const arg = (name: string, def: number) => {
  const i = argv.indexOf(name)
  return i >= 0 ? Number(argv[i + 1]) : def
}
const ROUNDS = arg('--rounds', 10)

const PAGE_A = `<!doctype html><title>A</title><body style="margin:0;font:16px sans-serif">
<a id="to-b" href="/b" style="position:absolute;left:20px;top:20px;width:200px;height:60px;background:#cde">To B</a>
<button id="check" style="position:absolute;left:20px;top:120px;width:200px;height:60px">Check</button>
<div style="position:absolute;left:20px;top:220px">
  <input type="checkbox" id="remember" style="position:absolute;left:0;top:0;z-index:-1;opacity:0">
  <label for="remember" style="display:inline-block;padding:12px 12px 12px 36px;background:#eee">Remember me</label>
</div></body>`
const PAGE_B = '<!doctype html><title>B</title><body><p>Page B</p></body>'

const ms = (v: number) => `${v.toFixed(0)} ms`
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? ((s[(s.length - 1) >> 1] as number) + (s[s.length >> 1] as number)) / 2 : Number.NaN
}
const row = (what: string, xs: number[]) =>
  `${what.padEnd(58)} ${ms(median(xs)).padStart(8)} ${ms(Math.min(...xs)).padStart(8)} ${ms(Math.max(...xs)).padStart(8)}`

async function main() {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    res.end(req.url === '/b' ? PAGE_B : PAGE_A)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const port = (server.address() as { port: number }).port
  const url = `http://127.0.0.1:${port}`
  const dir = await mkdtemp(join(tmpdir(), 'qa-bench-recorder-latency-'))
  const session = await openBrowser({ viewport: { width: 800, height: 600 } })
  const { page } = session
  try {
    const rec = await createWebRecorder(page, { caseFile: join(dir, 'case.json'), screenshots: false })
    await rec.start(`${url}/a`)
    // every step the recorder reports, with the time it was reported
    let waiting: { test: (a: Action) => boolean; done: (a: Action) => void } | null = null
    const listening = await rec.listen({
      onStep: ({ action }) => {
        if (waiting?.test(action)) {
          const w = waiting
          waiting = null
          w.done(action)
        }
      },
    })
    /** Runs the person's input and resolves with the time until the recorder reports a step that passes `test`. */
    const untilStep = (input: () => Promise<unknown>, test: (a: Action) => boolean) =>
      new Promise<{ ms: number; action: Action }>((resolve, reject) => {
        const t = performance.now()
        const timer = setTimeout(() => reject(new Error('no step within 30 s')), 30_000)
        waiting = {
          test,
          done: (action) => {
            clearTimeout(timer)
            resolve({ ms: performance.now() - t, action })
          },
        }
        input().catch(reject)
      })
    const centre = async (selector: string) => {
      const b = await page.locator(selector).boundingBox()
      if (!b) throw new Error(`${selector} has no box`)
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 }
    }
    const clickAt = async (selector: string) => {
      const p = await centre(selector)
      await page.mouse.click(p.x, p.y)
    }
    /** A click on `selector` by the person, and the time until the recorder reports its click step. */
    const clickStep = async (selector: string) =>
      (
        await untilStep(
          () => clickAt(selector),
          (a) => a.actionType === 'click',
        )
      ).ms
    const plain: number[] = []
    const covered: number[] = []
    const link: number[] = []
    const back: number[] = []
    const isBack = (a: Action) => a.actionType === 'navigate' && /^Go back/.test(a.description)
    // a round not counted (warm-up), which also finds how to go back: a headless browser may leave Alt+Left to its
    // (absent) window, and then it goes back the way the Back button does
    let backBy = 'Alt+ArrowLeft'
    await clickStep('#to-b')
    await page.waitForURL(/\/b$/)
    await untilStep(async () => {
      await page.keyboard.press('Alt+ArrowLeft')
      const moved = await page.waitForURL(/\/a$/, { timeout: 3_000 }).then(
        () => true,
        () => false,
      )
      if (!moved) {
        backBy = 'page.goBack()'
        await page.goBack()
      }
    }, isBack)
    const goBack = () => (backBy === 'Alt+ArrowLeft' ? page.keyboard.press('Alt+ArrowLeft') : page.goBack())
    for (let r = 0; r < ROUNDS; r++) {
      await page.waitForURL(/\/a$/)
      plain.push(await clickStep('#check'))
      covered.push(await clickStep('label[for=remember]'))
      link.push(await clickStep('#to-b'))
      await page.waitForURL(/\/b$/)
      const step = await untilStep(goBack, isBack)
      back.push(step.ms)
    }
    await listening.stop()
    const recorded: TestCase = rec.testCase()
    await rec.close()

    // the covered checkbox replayed: as recorded now (the label) and as older cases have it (the covered input)
    const labelStep = recorded.actions.find((a) => a.actionType === 'click' && a.operates) as Action | undefined
    if (!labelStep) throw new Error('the label click was not recorded with the control it operates')
    const asRecorded: TestCase = { ...recorded, actions: [labelStep] }
    const old: Action = { ...labelStep, identity: labelStep.operates ?? null, selectors: { css: '#remember' } }
    delete old.operates
    const asOlder: TestCase = { ...recorded, actions: [old] }
    const replayLabel: number[] = []
    const replayInput: number[] = []
    const replayOnce = async (tc: TestCase) => {
      const t = performance.now()
      const out = await replayWebCase(tc, { page, caseDir: dir, url: `${url}/a`, actionTimeoutMs: 5_000 })
      const took = performance.now() - t
      if (!out.passed) throw new Error(`the replay failed: ${out.replayResults[0]?.errorMessage}`)
      return { took, step: out.replayResults[0]?.durationMs ?? took }
    }
    for (let r = 0; r < ROUNDS; r++) {
      replayLabel.push((await replayOnce(asRecorded)).step)
      replayInput.push((await replayOnce(asOlder)).step)
    }

    console.log(`Recorder latency, ${ROUNDS} rounds (median, min, max)`)
    console.log(`${''.padEnd(58)} ${'median'.padStart(8)} ${'min'.padStart(8)} ${'max'.padStart(8)}`)
    console.log('From the input until the recorder reports the step:')
    console.log(row('  baseline: a click on a button (no navigation)', plain))
    console.log(row('  a click on the label of a covered checkbox', covered))
    console.log(row('  a click on a link to page B', link))
    console.log(row(`  back to page A by ${backBy}`, back))
    console.log('Replay of the covered checkbox click (the step):')
    console.log(row('  baseline: the case as recorded (the label)', replayLabel))
    console.log(row('  an older case (the covered input; a wrong retry: 5 s)', replayInput))
    if (backBy !== 'Alt+ArrowLeft')
      console.log('Back went by page.goBack(): this headless browser does not handle Alt+Left (no window).')
  } finally {
    await session.close()
    await new Promise((done) => server.close(done))
    await rm(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
