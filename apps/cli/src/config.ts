import type { ConfigOverrides, QaConfig } from '@qa/model'
import { loadConfig as loadConfigFrom } from '@qa/runner'
import { type VisionConfig, visionConfigFromQa } from '@qa/vision'

export { CONFIG_FILE_NAME, ConfigError, readConfigFiles } from '@qa/runner'

/**
 * `qa.config.json` (or `--config`) of this process's folder, its `QA_*` environment and the flags, resolved
 * (flags > env > file > defaults) by the runner's `loadConfig`: the one loader `qa` and `qa-server` share.
 */
export function loadConfig(opts: {
  cwd?: string
  configPath?: string | undefined
  env?: Readonly<Record<string, string | undefined>>
  flags?: ConfigOverrides
}): Promise<{ config: QaConfig; file: string | null }> {
  return loadConfigFrom({ ...opts, cwd: opts.cwd ?? process.cwd(), env: opts.env ?? process.env })
}

/** The vision settings of the config in @qa/vision's terms (credentials stay with the AWS SDK). */
export function visionConfigOf(config: QaConfig, env: Readonly<Record<string, string | undefined>>): VisionConfig {
  return visionConfigFromQa(config.vision, { openaiApiKey: env.QA_OPENAI_API_KEY })
}
