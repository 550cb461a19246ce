import { spawn } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import { delimiter, join, resolve } from 'node:path'
import { DEFAULT_CONFIG, type ReplayReport } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import type {
  AppWindow,
  DesktopReplayOutcome,
  DesktopSession,
  DesktopStepEvent,
  GameButton,
  SampleGameServer,
} from '@qa/recorder-desktop'
import type { ReportFormat } from '@qa/verifier'
import { replayCase } from '@qa/runner/replay-case'
import type { VisionConfig } from '@qa/vision'
import { UsageError } from '../usage-error'
import { type DemoStepSummary, summarizeDemoSteps } from './web-demo'
import { resetDemoFolder } from './demo-folder'

export interface DesktopDemoOptions {
  /** Folder for the recorded case, its screenshots and the reports (replaced on every run). */
  outDir: string
  /** Chromium that shows the game (default QA_CHROMIUM, else /usr/bin/chromium). */
  executablePath?: string
  /** The X display to run on (from `desktopDemoDisplay`). */
  display: string
  /** Environment for the replay (secrets) and the private-display marker (default process.env). */
  env?: Record<string, string | undefined>
  onProgress?: (line: string) => void
  onStep?: (event: DesktopStepEvent) => void
}

export interface DesktopDemoResult {
  caseFile: string
  reportFiles: Partial<Record<ReportFormat, string>>
  report: ReplayReport
  steps: DemoStepSummary[]
  passed: boolean
  recordMs: number
  replayMs: number
  /** The X display the demo ran on, and whether the demo started (and stopped) it itself. */
  display: string
  privateDisplay: boolean
}

/** What the demo needs when there is no display: said the same way by the error and the docs. */
export const DESKTOP_DEMO_DISPLAY_HINT =
  'Install Xvfb (`sudo apt-get install xvfb`) and run `qa demo --desktop` again — it starts its own virtual display — ' +
  'or run it under one: `xvfb-run -a qa demo --desktop`.'

/** Offline vision: Tesseract for the text of clicked elements and the OCR strategy; no LLM, no credentials. */
const OFFLINE_VISION: VisionConfig = { provider: 'ocr', fallback: [] }

/** Time between the recorder's settle (its after-screenshot) and the next input. */
const SETTLE_MS = 400
const STEP_GAP_MS = 550

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The absolute path of an executable found on `pathVar` (PATH), or null. Exported for tests. */
export function findExecutable(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (!dir) continue
    const file = join(dir, name)
    try {
      accessSync(file, constants.X_OK)
      return file
    } catch {
      // not here
    }
  }
  return null
}

/** The Chromium that shows the game: `path` (QA_CHROMIUM), else /usr/bin/chromium; a usage error when missing. */
export function assertChromium(path: string | undefined): string {
  const chromium = path ?? '/usr/bin/chromium'
  if (!existsSync(chromium))
    throw new UsageError(
      `The desktop demo shows the sample game in Chromium, which was not found at ${chromium}.`,
      'Install it (`sudo apt-get install chromium`) or set QA_CHROMIUM to its path.',
    )
  return chromium
}

/** Set in the re-run under a private Xvfb: the display the parent started (for the summary). */
const PRIVATE_DISPLAY_ENV = 'QA_DEMO_PRIVATE_DISPLAY'

/**
 * Checks Chromium, then where the desktop demo can run: DISPLAY when it names an X server that answers (a string), or `null` when there
 * is none but Xvfb is installed (run the demo under a private one: `rerunUnderPrivateXvfb`). Without either, a
 * usage error (exit 2) that says how to get one. Loads nothing native.
 */
export async function desktopDemoDisplay(
  env: Record<string, string | undefined>,
  log: (line: string) => void = () => undefined,
): Promise<string | null> {
  assertChromium(env.QA_CHROMIUM)
  const { assertDisplay } = await import('@qa/recorder-desktop')
  let why = 'DISPLAY is not set'
  if (env.DISPLAY?.trim()) {
    try {
      return await assertDisplay(env)
    } catch (error) {
      why = error instanceof Error ? error.message.replace(/\.$/, '') : String(error)
      if (findExecutable('Xvfb', env.PATH)) log(`${why}; using a private Xvfb instead.`)
    }
  }
  if (!findExecutable('Xvfb', env.PATH))
    throw new UsageError(
      `The desktop demo needs an X display: ${/^[A-Z][a-z]/.test(why) ? why.charAt(0).toLowerCase() + why.slice(1) : why}, and Xvfb is not installed.`,
      DESKTOP_DEMO_DISPLAY_HINT,
    )
  return null
}

/**
 * Starts a private Xvfb (the game's size, RECORD on for the input hook), runs `qa <args>` again in a child process
 * on it, and stops the Xvfb once that child has exited — like `xvfb-run`. The child, not this process, loads the
 * native input hook: libuiohook keeps its X connection open until the process ends, and Xlib ends a process whose
 * X server goes away first. Returns the child's exit code; its output goes straight to this process's stdout/stderr.
 */
export async function rerunUnderPrivateXvfb(opts: {
  args: string[]
  env?: Record<string, string | undefined>
  log?: (line: string) => void
  /** The `qa` entry script (default: the one running, process.argv[1]). */
  script?: string
}): Promise<number> {
  const log = opts.log ?? (() => undefined)
  const { GAME_HEIGHT, GAME_WIDTH, startXvfb } = await import('@qa/recorder-desktop')
  const xvfb = await startXvfb({ width: GAME_WIDTH, height: GAME_HEIGHT })
  log(`Started a private Xvfb on ${xvfb.display} (${GAME_WIDTH}×${GAME_HEIGHT}, RECORD on); it stops after the demo.`)
  const script = opts.script ?? (process.argv[1] as string)
  const child = spawn(process.execPath, [...process.execArgv, script, ...opts.args], {
    stdio: 'inherit',
    env: { ...(opts.env ?? process.env), DISPLAY: xvfb.display, [PRIVATE_DISPLAY_ENV]: xvfb.display },
  })
  // Ctrl-C reaches the child through the terminal (same process group), so this process only waits for it; a
  // SIGTERM sent to this process alone is passed on. Either way the Xvfb is stopped after the child has exited.
  const waitForChild = () => undefined
  const forward = () => child.kill('SIGTERM')
  process.on('SIGINT', waitForChild)
  process.on('SIGTERM', forward)
  try {
    return await new Promise<number>((resolveCode) => {
      child.once('error', (error) => {
        log(`The demo could not be started under Xvfb: ${error.message}`)
        resolveCode(2)
      })
      child.once('exit', (code, signal) => resolveCode(code ?? (signal === 'SIGINT' ? 130 : 1)))
    })
  } finally {
    process.off('SIGINT', waitForChild)
    process.off('SIGTERM', forward)
    await xvfb.stop()
  }
}

/**
 * `qa demo --desktop`: shows the canvas sample game (v1) in Chromium's app mode on an X display (DISPLAY, or a
 * private Xvfb), records a scripted flow with real synthetic input (XTest) through the real desktop recorder,
 * switches the game to v2 (every button moved, resized and recoloured), replays offline with the desktop cascade
 * (direct → template → OCR → coordinates) and verification, and writes the reports.
 */
export async function runDesktopDemo(opts: DesktopDemoOptions): Promise<DesktopDemoResult> {
  const env = opts.env ?? process.env
  const log = opts.onProgress ?? (() => undefined)
  const chromium = assertChromium(opts.executablePath ?? env.QA_CHROMIUM)
  const rd = await import('@qa/recorder-desktop')
  const { GAME_WIDTH, GAME_HEIGHT } = rd
  const display = opts.display
  const privateDisplay = env[PRIVATE_DISPLAY_ENV] === display

  const outDir = resolve(opts.outDir)
  const caseFile = join(outDir, 'sample-game-flow.json')
  let game: SampleGameServer | null = null
  let win: AppWindow | null = null
  let desktop: DesktopSession | null = null
  const cleanup = async () => {
    await desktop?.close().catch(() => undefined)
    await win?.close().catch(() => undefined)
    await game?.close().catch(() => undefined)
  }
  let interrupted = false
  const onSignal = () => {
    if (interrupted) return
    interrupted = true
    void cleanup().finally(() => process.exit(130))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    await resetDemoFolder(outDir)
    game = await rd.startSampleGame({ version: 1 })
    win = await rd.openAppWindow({
      url: game.url,
      display,
      width: GAME_WIDTH,
      height: GAME_HEIGHT,
      executablePath: chromium,
    })
    await game.waitForScene('menu', 60_000)
    log(`Sample game (v1) at ${game.url}, shown on ${display}`)
    desktop = await rd.openDesktop({ ...env, DISPLAY: display })
    const size = await desktop.screen.info()
    if (size.width < GAME_WIDTH || size.height < GAME_HEIGHT)
      throw new UsageError(
        `The display ${display} is ${size.width}×${size.height}; the sample game needs ${GAME_WIDTH}×${GAME_HEIGHT}.`,
        `Unset DISPLAY to let the demo start its own Xvfb, or run \`xvfb-run -a -s "-screen 0 ${GAME_WIDTH}x${GAME_HEIGHT}x24 +extension RECORD" qa demo --desktop\`.`,
      )
    const input = desktop.input

    // --- record on v1: real XTest input, seen by the global hook like a person's -----------------------------
    const recordStarted = performance.now()
    const stop = new AbortController()
    let ready!: () => void
    const started = new Promise<void>((r) => {
      ready = r
    })
    const recording = rd.runDesktopRecord({
      out: caseFile,
      name: '샘플 게임: 시작 → 이름 입력 → 뒤로 → 설정 → 소리 → 닫기',
      vision: OFFLINE_VISION,
      desktop,
      settleMs: SETTLE_MS,
      signal: stop.signal,
      overwrite: true,
      onReady: () => ready(),
    })
    await Promise.race([started, recording])
    await sleep(250)
    log('Recording on v1: 게임 시작, type a name, Back 뒤로, Settings, 소리 Sound, 닫기 …')
    for (const step of rd.SAMPLE_GAME_FLOW) {
      const button = rd.gameButtons(1, step.scene).find((b) => b.id === step.id) as GameButton
      const p = rd.buttonCentre(button)
      await input.click(p.x, p.y, 'left')
      if (step.next !== step.scene) await game.waitForScene(step.next)
      await sleep(STEP_GAP_MS)
      if (step.type) {
        await input.type(step.type)
        await sleep(STEP_GAP_MS)
      }
    }
    stop.abort()
    const recorded = await recording
    const recordMs = performance.now() - recordStarted
    const loaded = await loadTestCase(caseFile)
    log(`Recorded ${loaded.testCase.actions.length} steps into ${caseFile}`)

    // --- switch to v2 and replay offline with verification ----------------------------------------------------
    await game.setVersion(2)
    log('Switched the game to v2 (every button moved, resized ~1.25× and recoloured)')
    const replayStarted = performance.now()
    // the one replay path of `qa replay`, on the defaults (no qa.config.json: the demo is the same everywhere), on
    // the display the demo already holds
    const replayed = await replayCase(loaded, DEFAULT_CONFIG, {
      verify: true,
      env,
      vision: OFFLINE_VISION,
      desktop,
      // v2 moved, rescaled and recoloured every button: without a vision provider no pixel region can confirm
      // its scenes, so the demo keeps the whole-screen verdict (qa replay decides on the expected region)
      verifyRegion: false,
      reports: {
        dir: join(outDir, 'reports'),
        formats: ['json', 'txt', 'html', 'junit'],
        baseName: 'demo-report',
      },
      ...(opts.onStep ? { onDesktopStep: opts.onStep } : {}),
    })
    const outcome = replayed.desktop as DesktopReplayOutcome
    const replayMs = performance.now() - replayStarted
    const reportFiles = replayed.reportFiles
    const steps = summarizeDemoSteps(outcome.report, outcome.results, recorded.testCase.actions)
    return {
      caseFile,
      reportFiles,
      report: outcome.report,
      steps,
      passed: outcome.passed,
      recordMs,
      replayMs,
      display,
      privateDisplay,
    }
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await cleanup()
  }
}
