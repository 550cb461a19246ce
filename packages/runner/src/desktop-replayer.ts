import type { TestCase } from '@qa/model'
import type { DesktopReplayOutcome, DesktopStepEvent } from '@qa/recorder-desktop'
import type { SuiteReplayFn } from './run-types'

type Env = Readonly<Record<string, string | undefined>>

type DesktopModule = typeof import('@qa/recorder-desktop')
type DesktopSession = Awaited<ReturnType<DesktopModule['openDesktop']>>
/** The vision configuration of the desktop cascade (semantic match, OCR, re-verification). */
export type DesktopVisionConfig = Parameters<DesktopModule['desktopVision']>[0]
/** What the config decides about a desktop replay (thresholds, masks, match threshold), as `qa replay <case>`. */
export type DesktopReplaySettings = import('@qa/recorder-desktop').DesktopReplaySettings

export interface DesktopReplayerOptions extends DesktopReplaySettings {
  /** The X display this replayer owns, e.g. `:99` (default: `DISPLAY` of `env`). */
  display?: string
  vision: DesktopVisionConfig
  /** Compare each step with its recorded screenshot (default true). */
  verify?: boolean
  /** Decide a compared step on its expected region (default true); false: on the whole screen. */
  verifyRegion?: boolean
  env?: Readonly<Record<string, string | undefined>>
}

/** One desktop suite to replay. */
export interface DesktopSuiteInput {
  testCase: TestCase
  caseDir: string
  caseFile: string
  artifactDir: string | null
  signal?: AbortSignal
  onStep?: (event: DesktopStepEvent) => void
}

/**
 * Replays one desktop case, the same for one case and for the runner's desktop replayer: the cascade (fast path,
 * semantic match, template, OCR) with the config's thresholds, masks and match threshold, on the desktop given
 * (or one opened on the environment's display and closed after).
 */
export async function replayDesktopSuite(
  input: DesktopSuiteInput,
  opts: DesktopReplayerOptions & { env: Env; learnHeals?: boolean },
  open: DesktopSession | null,
  onProgress?: (line: string) => void,
): Promise<DesktopReplayOutcome> {
  const mod = await import('@qa/recorder-desktop')
  if (input.signal?.aborted) throw new Error('The run was canceled.')
  const env = { ...opts.env }
  const desktop = open ?? (await mod.openDesktop(env))
  const vision = mod.desktopVision(opts.vision)
  try {
    const windows = await desktop.windows()
    const verify = opts.verify ?? true
    onProgress?.(
      `Replaying ${input.testCase.name} (${input.testCase.actions.length} steps) on ${desktop.display}${verify ? ' with verification' : ''}`,
    )
    const { passSimilarity, fallbackSimilarity, masks, matchThreshold, allowCoordinates, maxFailures } = opts
    const outcome = await mod.replayDesktopCase(input.testCase, {
      caseDir: input.caseDir,
      caseFile: input.caseFile,
      screen: desktop.screen,
      input: desktop.input,
      analyze: vision.analyze,
      ocr: vision.ocr,
      findWindow: windows ? (recorded) => windows.find(recorded) : null,
      verify,
      ...(opts.verifyRegion === false ? { verifyRegion: false } : {}),
      ...(opts.learnHeals ? { learnHeals: true } : {}),
      reverifier: vision.reverifier,
      // the config's thresholds, masks and match threshold (`desktopReplaySettingsOf`), for every route
      ...mod.desktopReplayOptionsOf({
        passSimilarity,
        fallbackSimilarity,
        masks,
        matchThreshold,
        allowCoordinates: allowCoordinates ?? false,
        maxFailures,
      }),
      artifactDir: input.artifactDir,
      env,
      visionUsage: () => vision.usage(),
      ...(input.onStep ? { onStep: input.onStep } : {}),
    })
    for (const w of outcome.warnings) onProgress?.(`Warning: ${w}`)
    return outcome
  } finally {
    await vision.close()
    if (!open) await desktop.close()
  }
}

/** A replay function that owns a display: close it when the runner is done. */
export type DesktopSuiteReplayFn = SuiteReplayFn & { readonly display: string | undefined; close(): Promise<void> }

/**
 * The desktop replay function: @qa/recorder-desktop's cascade (fast path, semantic match, template, OCR) on one
 * display, opened on first use and kept. A display has one pointer and one keyboard, so this replayer runs one
 * suite at a time whatever the pool's concurrency: the others wait their turn (web suites of a mixed folder keep
 * running in the pool meanwhile). One replayer per display; a worker that owns `:99` passes `display: ':99'`.
 */
export function desktopReplayer(opts: DesktopReplayerOptions): DesktopSuiteReplayFn {
  const env: Record<string, string | undefined> = {
    ...opts.env,
    ...(opts.display ? { DISPLAY: opts.display } : {}),
  }
  let opened: Promise<{ mod: DesktopModule; desktop: DesktopSession }> | null = null
  const open = () => {
    opened ??= import('@qa/recorder-desktop').then(async (mod) => ({ mod, desktop: await mod.openDesktop(env) }))
    opened.catch(() => {
      opened = null // a display that was not there yet can be there for the next suite
    })
    return opened
  }
  let turn: Promise<unknown> = Promise.resolve()
  const replay: SuiteReplayFn = (input) => {
    const mine = turn.then(async () => {
      if (input.signal.aborted) throw new Error('The run was canceled.')
      const { desktop } = await open()
      const outcome = await replayDesktopSuite(input, { ...opts, env }, desktop)
      return { report: outcome.report, passed: outcome.passed }
    })
    turn = mine.catch(() => undefined)
    return mine
  }
  return Object.assign(replay, {
    display: opts.display ?? env.DISPLAY,
    async close() {
      const current = opened
      opened = null
      const session = current ? await current.catch(() => null) : null
      await session?.desktop.close().catch(() => undefined)
    },
  })
}
