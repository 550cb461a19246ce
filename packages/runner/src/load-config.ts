import { join, resolve } from 'node:path'
import {
  type ConfigOverrides,
  formatIssue,
  isQaError,
  ModelError,
  parseJsonText,
  type QaConfig,
  QaError,
  resolveConfig,
} from '@qa/model'
import { isDirectory, readTextFile } from '@qa/model/node'

export class ConfigError extends QaError<'CONFIG_INVALID'> {
  override get name(): string {
    return 'ConfigError'
  }
}

export const CONFIG_FILE_NAME = 'qa.config.json'

/** The config files this process read (one command per process): inputs no output may write over. */
const configFilesRead = new Set<string>()

/** The config files `loadConfig` read so far (absolute paths). */
export function readConfigFiles(): string[] {
  return [...configFilesRead]
}

/**
 * Reads `qa.config.json` (or `--config`), the `QA_*` environment and the flags, and resolves them
 * (flags > env > file > defaults). Every problem is reported at once, naming the key.
 */
export async function loadConfig(opts: {
  /** The folder a relative `configPath` and the default `qa.config.json` are found from (the app's cwd). */
  cwd: string
  configPath?: string | undefined
  /** The environment its `QA_*` variables are read from (the app passes its own). */
  env: Readonly<Record<string, string | undefined>>
  flags?: ConfigOverrides
}): Promise<{ config: QaConfig; file: string | null }> {
  const file = resolve(opts.cwd, opts.configPath ?? CONFIG_FILE_NAME)
  let raw: unknown
  let used: string | null = null
  let text: string | undefined
  try {
    // only a regular file of at most 20 MiB is read (a config named /dev/zero, a pipe, a huge file: refused)
    text = await readTextFile(file, 'config')
    configFilesRead.add(file)
  } catch (error) {
    if (!isQaError(error)) throw error
    if (error.code === 'MODEL_FILE_NOT_FOUND' && opts.configPath)
      throw new ModelError('MODEL_FILE_NOT_FOUND', `${opts.configPath}: no such config file.`, {
        file,
        hint: 'Check the --config path.',
      })
    if (error.code !== 'MODEL_FILE_NOT_FOUND' && (await isDirectory(file)))
      throw new ModelError(
        'MODEL_FILE_UNREADABLE',
        `${opts.configPath ? `--config ${opts.configPath}` : file} is a folder, not a config file.`,
        { file, hint: `Name the JSON file itself, e.g. --config ${join(opts.configPath ?? '.', CONFIG_FILE_NAME)}.` },
      )
    if (error.code !== 'MODEL_FILE_NOT_FOUND') throw error
  }
  if (text !== undefined) {
    raw = parseJsonText(text, { file })
    used = file
  }
  const { config, issues } = resolveConfig(raw, opts.env, opts.flags ?? {})
  if (issues.length > 0) {
    const where = used ?? 'the environment'
    throw new ConfigError(
      'CONFIG_INVALID',
      `The configuration is not valid (${where}):\n${issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`,
      { hint: `Fix the keys above in ${used ?? CONFIG_FILE_NAME} or the environment variables named.` },
    )
  }
  return { config, file: used }
}
