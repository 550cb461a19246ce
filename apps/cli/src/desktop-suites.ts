import type { QaConfig } from '@qa/model'
import { desktopReplaySettingsOf } from '@qa/recorder-desktop'
import { type DesktopSuiteReplayFn, desktopReplayer } from '@qa/runner'
import { visionConfigOf } from './config'

/**
 * The desktop replayer of a folder, a shard, `qa serve`, `qa mcp` and `qa worker --tags desktop`: the same
 * config keys as `qa replay <desktop case>` (`desktopReplaySettingsOf`: thresholds, masks, match threshold,
 * allowCoordinates; and vision), one display
 * (`--display`, default DISPLAY), one suite at a time. Opening the display waits for the first desktop suite, so
 * a web-only folder never needs one.
 */
export function desktopSuitesOf(
  config: QaConfig,
  run: { verify: boolean; display?: string | undefined },
): DesktopSuiteReplayFn {
  // the native capture, input and hook open the process's DISPLAY (they take no display name): a worker that owns
  // `--display` makes it this process's display
  if (run.display) process.env.DISPLAY = run.display
  return desktopReplayer({
    vision: visionConfigOf(config, process.env),
    verify: run.verify,
    ...desktopReplaySettingsOf(config),
    env: process.env,
    ...(run.display ? { display: run.display } : {}),
  })
}
