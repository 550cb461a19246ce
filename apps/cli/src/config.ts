import type { QaConfig } from '@qa/model'
import { type VisionConfig, visionConfigFromQa } from '@qa/vision'

export { CONFIG_FILE_NAME, ConfigError, loadConfig, readConfigFiles } from '@qa/runner'

/** The vision settings of the config in @qa/vision's terms (credentials stay with the AWS SDK). */
export function visionConfigOf(config: QaConfig, env: Readonly<Record<string, string | undefined>>): VisionConfig {
  return visionConfigFromQa(config.vision, { openaiApiKey: env.QA_OPENAI_API_KEY })
}
