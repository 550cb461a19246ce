import { dirname, resolve } from 'node:path'
import { type QaConfig, serializeReplayReport } from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import { desktopReplaySettingsOf, runDesktopReplay } from '@qa/recorder-desktop'
import { renderReport } from '@qa/verifier'
import { visionConfigOf } from './config'
import { EXIT_PASS, EXIT_TEST_FAILED } from './exit-codes'
import { reportLine } from './report-line'
import { firstCauseLine, replayStepLine } from './step-line'

/** `qa replay <desktop case>`: the desktop cascade with nut-js input, verification and reports. */
export async function replayDesktopFromCli(opts: {
  casePath: string
  /** The resolved configuration (`loadConfig`): vision, thresholds, masks, match threshold. */
  config: QaConfig
  verify: boolean
  /** Click the recorded point when no strategy finds the target (`--allow-coordinates`). */
  allowCoordinates?: boolean
  reportDir: string
  json: boolean
  junit?: string
  /** Write the case with its verified heals here (`--save-heals`, checked before the replay by the caller). */
  saveHeals?: string
  /** Replace an existing --junit / --save-heals file (checked before the replay by the caller). */
  force?: boolean
  out: (line: string) => void
  err: (line: string) => void
}): Promise<number> {
  const log = (line: string) => {
    if (!opts.json) opts.err(line)
  }
  let firstCause: number | null = null
  const r = await runDesktopReplay({
    casePath: opts.casePath,
    vision: visionConfigOf(opts.config, process.env),
    verify: opts.verify,
    // the same settings a folder, a shard, the server and a worker use (desktopSuitesOf)
    ...desktopReplaySettingsOf(opts.config),
    allowCoordinates: opts.allowCoordinates ?? opts.config.replay.allowCoordinates,
    reportDir: opts.reportDir,
    formats: opts.config.replay.reportFormats,
    env: process.env,
    ...(opts.saveHeals ? { saveHeals: opts.saveHeals, overwrite: opts.force ?? false } : {}),
    onProgress: log,
    onStep: ({ index, total, action, result, verification }) => {
      if (firstCause === null && verification?.finalResult === 'fail' && !verification.notRun) firstCause = index
      log(replayStepLine({ index, total, description: action.description, result, verification, firstCause }))
    },
  })
  if (opts.junit)
    await writeFileAtomic(
      opts.junit,
      await renderReport(r.report, 'junit', { baseDir: dirname(resolve(opts.casePath)) }),
      { overwrite: opts.force ?? false },
    )
  if (opts.saveHeals) log(`Learnt ${r.healsSaved} verified heal(s) into ${opts.saveHeals}`)
  if (opts.json) opts.out(JSON.stringify(serializeReplayReport(r.report)))
  else {
    const cause = firstCauseLine(r.report)
    if (cause) opts.out(cause)
    opts.out(r.report.summary)
    if (r.report.visionUsage) opts.out(`Vision calls: ${r.report.visionUsage.calls} (${r.report.visionUsage.provider})`)
    opts.out(reportLine(r.reportFiles))
  }
  return r.passed ? EXIT_PASS : EXIT_TEST_FAILED
}
