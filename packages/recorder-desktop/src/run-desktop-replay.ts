import { join, resolve } from 'node:path'
import { loadTestCase } from '@qa/model/node'
import { type ReportFormat, type VerdictPolicy, writeReports } from '@qa/verifier'
import type { VisionConfig } from '@qa/vision'
import { type DesktopReplaySettings, desktopReplayOptionsOf } from './desktop-replay-settings'
import { type DesktopReplayOutcome, type DesktopStepEvent, replayDesktopCase } from './desktop-replayer'
import { saveDesktopHeals } from './desktop-heals'
import { desktopVision } from './desktop-vision'
import { type DesktopSession, openDesktop } from './open-desktop'

export interface RunDesktopReplayOptions extends DesktopReplaySettings {
  casePath: string
  vision: VisionConfig
  verify?: boolean
  reportDir?: string
  formats?: ReportFormat[]
  /** The verdict thresholds (passSimilarity / fallbackSimilarity of the settings win when set). */
  policy?: VerdictPolicy
  /** The environment (the app passes its own): DISPLAY to open the desktop, the values of `secret_env` steps. */
  env: Readonly<Record<string, string | undefined>>
  /**
   * Write the case with its verified heals to this new file (`--save-heals`; needs `verify`), new crops in the
   * `<name>_heals` folder beside it. Checked for collisions by the caller before the replay.
   */
  saveHeals?: string
  /** Replace an existing saveHeals file and crops. */
  overwrite?: boolean
  /** An already open desktop (tests, demo); else `openDesktop(env)`. */
  desktop?: DesktopSession
  onStep?: (step: DesktopStepEvent) => void
  onProgress?: (line: string) => void
}

export interface RunDesktopReplayResult extends DesktopReplayOutcome {
  reportFiles: Partial<Record<ReportFormat, string>>
  exitCode: 0 | 1
  /** Heals written to `saveHeals` (0 without it). */
  healsSaved: number
}

/** The settings of the options, `policy` filling in the thresholds they leave unset. Pure. */
function settingsOf(opts: RunDesktopReplayOptions): DesktopReplaySettings {
  const passSimilarity = opts.passSimilarity ?? opts.policy?.passSimilarity
  const fallbackSimilarity = opts.fallbackSimilarity ?? opts.policy?.fallbackSimilarity
  return {
    ...(passSimilarity !== undefined ? { passSimilarity } : {}),
    ...(fallbackSimilarity !== undefined ? { fallbackSimilarity } : {}),
    ...(opts.masks ? { masks: opts.masks } : {}),
    ...(opts.matchThreshold !== undefined ? { matchThreshold: opts.matchThreshold } : {}),
    allowCoordinates: opts.allowCoordinates ?? false,
    ...(opts.maxFailures ? { maxFailures: opts.maxFailures } : {}),
  }
}

/** `qa replay <desktop case>`: opens the desktop, replays with the cascade, verifies, writes reports. */
export async function runDesktopReplay(opts: RunDesktopReplayOptions): Promise<RunDesktopReplayResult> {
  const env = opts.env
  const loaded = await loadTestCase(opts.casePath)
  const own = !opts.desktop
  const desktop = opts.desktop ?? (await openDesktop(env))
  const vision = desktopVision(opts.vision)
  const windows = await desktop.windows()
  const reportDir = resolve(opts.reportDir ?? 'qa-reports')
  try {
    opts.onProgress?.(
      `Replaying ${loaded.testCase.name} (${loaded.testCase.actions.length} steps) on ${desktop.display}${opts.verify ? ' with verification' : ''}`,
    )
    const outcome = await replayDesktopCase(loaded.testCase, {
      caseDir: loaded.dir,
      caseFile: loaded.file,
      screen: desktop.screen,
      input: desktop.input,
      analyze: vision.analyze,
      ocr: vision.ocr,
      findWindow: windows ? (recorded) => windows.find(recorded) : null,
      verify: opts.verify ?? false,
      learnHeals: opts.saveHeals !== undefined && opts.verify === true,
      allowCoordinates: false,
      reverifier: vision.reverifier,
      ...desktopReplayOptionsOf(settingsOf(opts)),
      artifactDir: join(reportDir, 'artifacts'),
      env,
      visionUsage: () => vision.usage(),
      ...(opts.onStep ? { onStep: opts.onStep } : {}),
    })
    for (const w of outcome.warnings) opts.onProgress?.(`Warning: ${w}`)
    const reportFiles = await writeReports(outcome.report, reportDir, opts.formats ?? ['json', 'txt', 'html'], {
      baseDir: loaded.dir,
    })
    const healsSaved = opts.saveHeals
      ? await saveDesktopHeals({
          testCase: loaded.testCase,
          caseDir: loaded.dir,
          heals: outcome.heals,
          outPath: opts.saveHeals,
          overwrite: opts.overwrite ?? false,
        })
      : 0
    return { ...outcome, reportFiles, exitCode: outcome.passed ? 0 : 1, healsSaved }
  } finally {
    await vision.close()
    if (own) await desktop.close()
  }
}
