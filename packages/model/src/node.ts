/**
 * `@qa/model/node`: file IO for test cases and reports — loading with path-relative asset resolution, and
 * atomic writes (temp file + rename) that never leave a half-written file and never overwrite the input
 * unless asked.
 */
import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { parseJsonText, parseReplayReport, serializeReplayReport, stringifyDocument } from './codecs'
import { ModelError } from './errors'
import { type ParsedTestCase, parseTestCase, serializeTestCase } from './test-case'
import type { ReplayReport, TestCase } from './types'

export interface LoadedTestCase extends ParsedTestCase {
  /** Absolute path of the case file. */
  file: string
  /** Folder of the case file; asset paths in the case are relative to it. */
  dir: string
  /** Absolute path of an asset path stored in the case (screenshots, crops). */
  resolveAsset(path: string): string
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code
    if (code === 'ENOENT') {
      throw new ModelError('MODEL_FILE_NOT_FOUND', `${file}: no such ${what} file.`, {
        file,
        cause,
        hint: 'Check the path; relative paths are resolved from the current folder.',
      })
    }
    if (code === 'EISDIR') {
      throw new ModelError('MODEL_FILE_UNREADABLE', `${file} is a folder, not a ${what} file.`, { file, cause })
    }
    throw new ModelError('MODEL_FILE_UNREADABLE', `${file}: cannot read the ${what} file (${code ?? String(cause)}).`, {
      file,
      cause,
    })
  }
}

export function resolveAssetPath(caseDir: string, path: string): string {
  return isAbsolute(path) ? path : resolve(caseDir, path)
}

/** Loads a test case of any supported version; migrates it in memory (the file is not touched). */
export async function loadTestCase(path: string): Promise<LoadedTestCase> {
  const file = resolve(path)
  const text = await readText(file, 'test case')
  const parsed = parseTestCase(parseJsonText(text, { file: path }), { file: path })
  const dir = dirname(file)
  return { ...parsed, file, dir, resolveAsset: (p) => resolveAssetPath(dir, p) }
}

export interface WriteOptions {
  /** Replace an existing file. Without it, writing over an existing file is refused (MODEL_WOULD_OVERWRITE). */
  overwrite?: boolean
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK)
    return true
  } catch {
    return false
  }
}

/**
 * Writes a file atomically: the data goes to a temp file in the same folder, is flushed to disk, then renamed
 * over the target. A crash leaves either the old file or the new one, never half of either.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, opts: WriteOptions = {}): Promise<void> {
  const target = resolve(path)
  if (!opts.overwrite && (await exists(target))) {
    throw new ModelError('MODEL_WOULD_OVERWRITE', `${path} already exists; it was not overwritten.`, {
      file: path,
      hint: 'Choose another output path, or pass the overwrite option (--force in the CLI).',
    })
  }
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  try {
    await mkdir(dirname(target), { recursive: true })
    const handle = await open(temp, 'wx')
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, target)
  } catch (cause) {
    await rm(temp, { force: true }).catch(() => undefined)
    if (cause instanceof ModelError) throw cause
    throw new ModelError('MODEL_WRITE_FAILED', `${path}: could not be written (${(cause as Error).message}).`, {
      file: path,
      cause,
    })
  }
}

/** Saves a test case in the current format version, atomically. */
export async function saveTestCase(path: string, testCase: TestCase, opts: WriteOptions = {}): Promise<void> {
  await writeFileAtomic(path, stringifyDocument(serializeTestCase(testCase)), opts)
}

export async function loadReplayReport(path: string): Promise<ReplayReport> {
  const text = await readText(resolve(path), 'report')
  return parseReplayReport(parseJsonText(text, { file: path }), { file: path })
}

export async function saveReplayReport(path: string, report: ReplayReport, opts: WriteOptions = {}): Promise<void> {
  await writeFileAtomic(path, stringifyDocument(serializeReplayReport(report)), opts)
}

export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}
