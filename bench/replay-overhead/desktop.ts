/**
 * The desktop replay's cost per click, against the screen grab it cannot do without. Run from the repo root after
 * `pnpm build` (needs Xvfb and Chromium, as `qa demo --desktop`):
 *   node --import tsx bench/replay-overhead/desktop.ts      # --reps N (default 3) --json <file>
 *
 * The sample game (v1) in a Chromium window on a private Xvfb, recorded once with the real desktop recorder and
 * real XTest input (the demo's flow: start, type a name, back, settings, sound, close, back on the menu), then replayed `--reps`
 * times through `replayCase` (what `qa replay --verify` runs) on the unchanged game and on v2 (every button moved,
 * resized and recoloured: the template and OCR strategies run), with the display's ports
 * wrapped to time every screen grab and window lookup. Per click step: the whole step, the grabs it took (how many,
 * how long), the window lookup, and each locating strategy (`strategiesTried[].durationMs`: template, OCR, …), each
 * also as a ratio to one grab. Every step should pass (a fast figure of a failing replay would mean nothing): the
 * bench says how many did.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { argv } from 'node:process'
import { DEFAULT_CONFIG, isClickLike } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import {
  buttonCentre,
  type DesktopReplayOutcome,
  type DesktopSession,
  GAME_HEIGHT,
  GAME_WIDTH,
  type GameButton,
  gameButtons,
  openAppWindow,
  openDesktop,
  runDesktopRecord,
  SAMPLE_GAME_FLOW,
  startSampleGame,
  startXvfb,
} from '@qa/recorder-desktop'
import { replayCase } from '@qa/runner/replay-case'

const opt = (name: string): string | null => {
  const i = argv.indexOf(name)
  return i >= 0 ? (argv[i + 1] ?? null) : null
}
const REPS = Number(opt('--reps') ?? 3)
const JSON_OUT = opt('--json')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1]! : Number.NaN)

/** Time spent in calls of one kind, and how many, since the last `take()`. */
function meter() {
  let ms = 0
  let calls = 0
  return {
    async time<T>(f: () => Promise<T>): Promise<T> {
      const t = performance.now()
      try {
        return await f()
      } finally {
        ms += performance.now() - t
        calls++
      }
    },
    take(): { ms: number; calls: number } {
      const out = { ms, calls }
      ms = 0
      calls = 0
      return out
    },
  }
}

async function main(): Promise<void> {
  const xvfb = await startXvfb({ width: GAME_WIDTH, height: GAME_HEIGHT })
  // libnut's grab and libuiohook open the display of this process's environment (set before their first use)
  process.env.DISPLAY = xvfb.display
  const dir = await mkdtemp(join(tmpdir(), 'qa-bench-desktop-'))
  const game = await startSampleGame({ version: 1 })
  const win = await openAppWindow({
    url: game.url,
    display: xvfb.display,
    width: GAME_WIDTH,
    height: GAME_HEIGHT,
    executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
  })
  let desktop: DesktopSession | null = null
  try {
    await game.waitForScene('menu', 60_000)
    desktop = await openDesktop({ ...process.env, DISPLAY: xvfb.display })
    const real = desktop
    const caseFile = join(dir, 'flow.json')
    const stop = new AbortController()
    let ready!: () => void
    const started = new Promise<void>((r) => {
      ready = r
    })
    const recording = runDesktopRecord({
      out: caseFile,
      name: 'desktop cost per click',
      vision: { provider: 'ocr', fallback: [] },
      desktop: real,
      settleMs: 400,
      signal: stop.signal,
      overwrite: true,
      onReady: () => ready(),
    })
    await Promise.race([started, recording])
    await sleep(250)
    for (const step of SAMPLE_GAME_FLOW) {
      const p = buttonCentre(gameButtons(1, step.scene).find((b) => b.id === step.id) as GameButton)
      await real.input.click(p.x, p.y, 'left')
      if (step.next !== step.scene) await game.waitForScene(step.next)
      await sleep(550)
      if (step.type) {
        await real.input.type(step.type)
        await sleep(550)
      }
    }
    stop.abort()
    await recording
    const loaded = await loadTestCase(caseFile)

    const grabs = meter()
    const lookups = meter()
    const windows = await real.windows()
    const timed: DesktopSession = {
      ...real,
      screen: { capture: () => grabs.time(() => real.screen.capture()), info: () => real.screen.info() },
      windows: async () =>
        windows && {
          ...windows,
          find: (recorded) => lookups.time(() => windows.find(recorded)),
          windowAt: (x, y) => lookups.time(() => windows.windowAt(x, y)),
          focused: () => lookups.time(() => windows.focused()),
        },
    }
    type Row = {
      step: number
      ms: number
      grabs: number
      grabMs: number
      windowMs: number
      strategies: Record<string, number>
    }
    const runs: Record<string, { grab: number; rows: Row[]; passed: number; steps: number }> = {}
    for (const version of [1, 2] as const) {
      const rows: Row[] = []
      let passed = 0
      let steps = 0
      const oneGrab: number[] = []
      for (let r = 0; r < REPS; r++) {
        // the page drawn anew on its menu, as recorded (v2: every button moved, resized and recoloured)
        await game.setVersion(version)
        grabs.take()
        lookups.take()
        const replayed = await replayCase(loaded, DEFAULT_CONFIG, {
          verify: true,
          vision: { provider: 'ocr', fallback: [] },
          desktop: timed,
          // as the demo: v2 is restyled, which no pixel region can confirm without a vision provider
          verifyRegion: false,
          onDesktopStep: ({ index, action, result }) => {
            const g = grabs.take()
            const w = lookups.take()
            if (g.calls) oneGrab.push(g.ms / g.calls)
            if (!isClickLike(action)) return
            const strategies: Record<string, number> = {}
            for (const a of result.strategiesTried ?? [])
              strategies[a.strategy] = (strategies[a.strategy] ?? 0) + (a.durationMs ?? 0)
            rows.push({
              step: index,
              ms: result.durationMs ?? 0,
              grabs: g.calls,
              grabMs: g.ms,
              windowMs: w.ms,
              strategies,
            })
          },
        })
        const outcome = replayed.desktop as DesktopReplayOutcome
        passed += outcome.report.verificationResults.filter((v) => v.finalResult !== 'fail').length
        steps += outcome.report.verificationResults.length
      }
      const grab = median(oneGrab)
      runs[`v${version}`] = { grab, rows, passed, steps }
      const col = (f: (r: Row) => number) => median(rows.map(f))
      const strategyNames = [...new Set(rows.flatMap((r) => Object.keys(r.strategies)))]
      console.log(
        `\nDesktop replay cost per click step: sample game recorded on v1, replayed on v${version}${version === 1 ? ' (unchanged)' : ' (every button moved, resized, recoloured)'}, ${REPS} replays, load ${loadavg()[0]!.toFixed(2)}`,
      )
      console.log(
        `steps passed: ${passed} of ${steps}; one screen grab (${GAME_WIDTH}×${GAME_HEIGHT}): ${grab.toFixed(1)} ms`,
      )
      console.log('| part of a click step | ms (median) | × one grab |')
      console.log('| --- | --: | --: |')
      const line = (name: string, ms: number) =>
        console.log(`| ${name} | ${ms.toFixed(1)} | ${(ms / grab).toFixed(1)}× |`)
      line(
        'whole step (input, settle, locate, verify)',
        col((r) => r.ms),
      )
      line(
        `grabs taken in the step (${col((r) => r.grabs)} of them)`,
        col((r) => r.grabMs),
      )
      line(
        'window lookup',
        col((r) => r.windowMs),
      )
      // a strategy's time over the steps that ran it
      for (const s of strategyNames)
        line(
          `strategy ${s} (ran on ${rows.filter((r) => s in r.strategies).length} of ${rows.length})`,
          median(rows.filter((r) => s in r.strategies).map((r) => r.strategies[s]!)),
        )
    }
    if (JSON_OUT) await writeFile(JSON_OUT, JSON.stringify(runs, null, 2))
  } finally {
    await desktop?.close().catch(() => undefined)
    await win.close().catch(() => undefined)
    await game.close().catch(() => undefined)
    await xvfb.stop({ deferToExit: true }).catch(() => undefined)
    await rm(dir, { recursive: true, force: true })
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
