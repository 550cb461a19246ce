import { join, resolve } from 'node:path'
import { loadTestCase } from '@qa/model/node'
import { type ReportFormat, type VerdictPolicy, writeReports } from '@qa/verifier'
import type { VisionConfig } from '@qa/vision'
import { type DesktopReplayOutcome, type DesktopStepEvent, replayDesktopCase } from './desktop-replayer'
import { desktopVision } from './desktop-vision'
import { type DesktopSession, openDesktop } from './open-desktop'

export interface RunDesktopReplayOptions {
  casePath: string
  vision: VisionConfig
  verify?: boolean
  reportDir?: string
  formats?: ReportFormat[]
  policy?: VerdictPolicy
  /** Click the recorded point when no strategy finds the target (legacy coordinate-only cases; default false). */
  allowCoordinates?: boolean
  env?: Record<string, string | undefined>
  /** An already open desktop (tests, demo); else `openDesktop(env)`. */
  desktop?: DesktopSession
  onStep?: (step: DesktopStepEvent) => void
  onProgress?: (line: string) => void
}

export interface RunDesktopReplayResult extends DesktopReplayOutcome {
  reportFiles: Partial<Record<ReportFormat, string>>
  exitCode: 0 | 1
}

/** `qa replay <desktop case>`: opens the desktop, replays with the cascade, verifies, writes reports. */
export async function runDesktopReplay(opts: RunDesktopReplayOptions): Promise<RunDesktopReplayResult> {
  const env = opts.env ?? process.env
  const loaded = await loadTestCase(opts.casePath)
  const own = !opts.desktop
  const desktop = opts.desktop ?? (await openDesktop(env))
  const vision = desktopVision(opts.vision)
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
      verify: opts.verify ?? false,
      allowCoordinates: opts.allowCoordinates ?? false,
      reverifier: vision.reverifier,
      ...(opts.policy ? { policy: opts.policy } : {}),
      artifactDir: join(reportDir, 'artifacts'),
      env,
      visionUsage: () => vision.usage(),
      ...(opts.onStep ? { onStep: opts.onStep } : {}),
    })
    for (const w of outcome.warnings) opts.onProgress?.(`Warning: ${w}`)
    const reportFiles = await writeReports(outcome.report, reportDir, opts.formats ?? ['json', 'txt', 'html'], {
      baseDir: loaded.dir,
    })
    return { ...outcome, reportFiles, exitCode: outcome.passed ? 0 : 1 }
  } finally {
    await vision.close()
    if (own) await desktop.close()
  }
}
