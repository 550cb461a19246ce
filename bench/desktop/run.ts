// Desktop fast-path overhead: per replay step, capture the 1920×1080 screen + check the recorded crop at the
// recorded place (NCC) + click, against a plain coordinate click (no capture, no check), side by side, under Xvfb
// with the canvas sample game in Chromium. Run from the repo root: node --import tsx bench/desktop/run.ts [--runs N]
import { locateOnScreen, templateScoreAt } from '@qa/matcher'
import {
  boxAround,
  buttonCentre,
  cropFrame,
  gameButtons,
  nutInput,
  nutScreen,
  openAppWindow,
  startSampleGame,
  startXvfb,
  closeNut,
} from '@qa/recorder-desktop'

const runsArg = process.argv.indexOf('--runs')
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 30
const W = 1920
const H = 1080
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}
const fmt = (v: number) => v.toFixed(2)

const xvfb = await startXvfb({ width: W, height: H })
process.env.DISPLAY = xvfb.display
const game = await startSampleGame({ version: 1 })
const win = await openAppWindow({ url: game.url, display: xvfb.display, width: 1280, height: 720 })
try {
  await game.waitForScene('menu', 60_000)
  const screen = nutScreen()
  const input = nutInput(xvfb.display)
  // the ranking button does nothing when clicked: every step sees the same screen
  const target = gameButtons(1, 'menu').find((b) => b.id === 'ranking')
  if (!target) throw new Error('no ranking button')
  const p = buttonCentre(target)
  const first = await screen.capture()
  if (first.width !== W || first.height !== H) throw new Error(`screen is ${first.width}×${first.height}`)
  const box = boxAround(p.x, p.y, 96, 40, first)
  const crop = cropFrame(first, box)
  for (let i = 0; i < 3; i++) await input.click(p.x, p.y) // warm up

  const rows = {
    plain: [] as number[],
    capture: [] as number[],
    check: [] as number[],
    fast: [] as number[],
    cascade: [] as number[],
  }
  let direct = 0
  for (let i = 0; i < RUNS; i++) {
    // baseline: a plain coordinate click
    let t = performance.now()
    await input.click(p.x, p.y)
    rows.plain.push(performance.now() - t)
    // fast path, split: capture, crop check, click
    t = performance.now()
    const frame = await screen.capture()
    const t1 = performance.now()
    const score = templateScoreAt(frame, crop, box.x, box.y)
    const t2 = performance.now()
    if (score >= 0.95) await input.click(p.x, p.y)
    const t3 = performance.now()
    rows.capture.push(t1 - t)
    rows.check.push(t2 - t1)
    rows.fast.push(t3 - t)
    // the same through locateOnScreen (what the replayer runs)
    t = performance.now()
    const r = await locateOnScreen({ original: p, crop, cropBox: box }, { capture: () => screen.capture() })
    if (r.strategy === 'direct') direct++
    if (r.point) await input.click(r.point.x, r.point.y)
    rows.cascade.push(performance.now() - t)
  }
  const base = median(rows.plain)
  console.log(
    `Desktop fast path on a ${W}×${H} Xvfb screen, ${RUNS} runs each, medians (ms); direct hits ${direct}/${RUNS}`,
  )
  console.log('| step | median ms | vs plain click |')
  console.log('| --- | --- | --- |')
  console.log(`| plain coordinate click (baseline) | ${fmt(base)} | 1.00× |`)
  console.log(`| capture 1920×1080 (nut-js worker, RGBA) | ${fmt(median(rows.capture))} | — |`)
  console.log(`| crop check (NCC at the recorded place) | ${fmt(median(rows.check))} | — |`)
  console.log(`| fast path: capture + check + click | ${fmt(median(rows.fast))} | ${fmt(median(rows.fast) / base)}× |`)
  console.log(
    `| locateOnScreen (direct) + click | ${fmt(median(rows.cascade))} | ${fmt(median(rows.cascade) / base)}× |`,
  )
  console.log(`overhead per step of the fast path: ${fmt(median(rows.fast) - base)} ms`)
} finally {
  await closeNut()
  await win.close()
  await game.close()
  await xvfb.stop({ deferToExit: true })
}
process.exit(0)
