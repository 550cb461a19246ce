import type { QaConfig } from '@qa/model'
import type { VisionReverifier } from '@qa/verifier'
import { createUIAnalyzer } from '@qa/vision'
import { visionConfigOf } from './config'

/**
 * The vision second opinion a replay uses under --verify: the configured provider (bedrock or openai), or none.
 * One rule for one case, a folder and a shard.
 */
export function reverifierOf(config: QaConfig, verify: boolean): VisionReverifier | null {
  return verify && (config.vision.provider === 'bedrock' || config.vision.provider === 'openai')
    ? createUIAnalyzer(visionConfigOf(config, process.env))
    : null
}
