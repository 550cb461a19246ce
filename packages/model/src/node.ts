/**
 * `@qa/model/node`: file IO for test cases and reports — loading with path-relative asset resolution, and
 * atomic writes (temp file + rename) that never leave a half-written file and never overwrite the input
 * unless asked.
 */
export {
  checkInputFile,
  type InputFileRule,
  isPathInside,
  MAX_IMAGE_FILE_BYTES,
  MAX_TEXT_FILE_BYTES,
  readInputFile,
} from './input-file'
import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, mkdir, open, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { invalidError, parseJsonText, parseReplayReport, serializeReplayReport, stringifyDocument } from './codecs'
import { ModelError } from './errors'
import { checkInputFile, MAX_IMAGE_FILE_BYTES, MAX_TEXT_FILE_BYTES, readInputFile } from './input-file'
import { type ParsedTestCase, parseTestCase, serializeTestCase, validateTestCase } from './test-case'
import type { ReplayReport, TestCase } from './types'

export interface LoadedTestCase extends ParsedTestCase {
  /** Absolute path of the case file. */
  file: string
  /** Folder of the case file; asset paths in the case are relative to it. */
  dir: string
  /** Absolute path of an asset path stored in the case (screenshots, crops). */
  resolveAsset(path: string): string
}

/** The offset of the first byte that is not part of well-formed UTF-8 (RFC 3629), or -1. */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i] as number
    if (b < 0x80) {
      i++
      continue
    }
    const [n, lo, hi] =
      b >= 0xc2 && b <= 0xdf
        ? [1, 0x80, 0xbf]
        : b === 0xe0
          ? [2, 0xa0, 0xbf]
          : b === 0xed
            ? [2, 0x80, 0x9f]
            : b >= 0xe1 && b <= 0xef
              ? [2, 0x80, 0xbf]
              : b === 0xf0
                ? [3, 0x90, 0xbf]
                : b === 0xf4
                  ? [3, 0x80, 0x8f]
                  : b >= 0xf1 && b <= 0xf3
                    ? [3, 0x80, 0xbf]
                    : [0, 0, 0]
    if (n === 0) return i
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k]
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i
    }
    i += n + 1
  }
  return -1
}

/**
 * Reads a text file of ours (case, report, config, script, recording) as strict UTF-8: bytes that are not UTF-8
 * are an error naming the file and where, never silently replaced by U+FFFD (a later save would lose them).
 */
export async function readTextFile(file: string, what: string): Promise<string> {
  const bytes = await readInputFile(file, { what: `${what} file`, maxBytes: MAX_TEXT_FILE_BYTES })
  const bad = firstInvalidUtf8Byte(bytes)
  if (bad >= 0) {
    const before = bytes.subarray(0, bad)
    const line = before.filter((b) => b === 0x0a).length + 1
    const column = Buffer.from(before.subarray(before.lastIndexOf(0x0a) + 1)).toString('utf8').length + 1
    throw new ModelError(
      'MODEL_INVALID_ENCODING',
      `${file} is not UTF-8 text: byte 0x${(bytes[bad] as number).toString(16).toUpperCase().padStart(2, '0')} at line ${line}, column ${column} (offset ${bad}).`,
      { file, hint: `Save the ${what} file as UTF-8 (it may be Latin-1 or UTF-16); it was not changed.` },
    )
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
}

export function resolveAssetPath(caseDir: string, path: string): string {
  return isAbsolute(path) ? path : resolve(caseDir, path)
}

/** Loads a test case of any supported version; migrates it in memory (the file is not touched). */
export async function loadTestCase(path: string): Promise<LoadedTestCase> {
  const file = resolve(path)
  const text = await readTextFile(file, 'test case')
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

/**
 * Saves a test case in the current format version, atomically. A case that would not load again (a screenshot
 * path outside its folder, a value of the wrong type) is refused before anything is written.
 */
export async function saveTestCase(path: string, testCase: TestCase, opts: WriteOptions = {}): Promise<void> {
  const doc = serializeTestCase(testCase)
  const issues = validateTestCase(doc)
  if (issues.length > 0) throw invalidError('test case', issues, path)
  await writeFileAtomic(path, stringifyDocument(doc), opts)
}

/** The folder a web case's screenshots go in, beside it: `cases/login.json` → `cases/login`. */
export function screenshotFolderOf(caseFile: string): string {
  return join(dirname(caseFile), basename(caseFile).replace(/\.json$/i, ''))
}

/** The fields of an action that name a file relative to the case's folder. */
export const ACTION_ASSET_FIELDS = ['screenshotBeforePath', 'screenshotPath', 'elementCropPath'] as const

/**
 * Saves a case loaded from `fromDir` at `path`, atomically, so that it loads and replays from where it is saved: in
 * another folder its screenshots would no longer resolve, so each one is copied into the new case's screenshot
 * folder (`screenshotFolderOf(path)`) and its path rewritten (`login/step-000-after.png` →
 * `login.healed/step-000-after.png`). Every source is checked, and the case validated, before anything is written;
 * the case is written last, so it never names a screenshot that is not there.
 */
export async function saveTestCaseCopy(
  path: string,
  testCase: TestCase,
  opts: WriteOptions & { fromDir: string },
): Promise<void> {
  const target = resolve(path)
  const fromDir = resolve(opts.fromDir)
  if (dirname(target) === fromDir) return saveTestCase(path, testCase, opts)
  const folder = screenshotFolderOf(target)
  const sources = [
    ...new Set(testCase.actions.flatMap((a) => ACTION_ASSET_FIELDS.map((f) => a[f]).filter((p): p is string => !!p))),
  ]
  // the recorder's own folder name gives way to the new one; paths that would then collide keep their whole path
  const short = sources.map((p) => [basename(folder), ...p.split('/').slice(p.includes('/') ? 1 : 0)].join('/'))
  const unique = new Set(short).size === short.length
  const moved = new Map(sources.map((p, i) => [p, unique ? (short[i] as string) : `${basename(folder)}/${p}`]))
  const copy = structuredClone(testCase)
  for (const action of copy.actions)
    for (const field of ACTION_ASSET_FIELDS) {
      const p = action[field]
      if (p) action[field] = moved.get(p) as string
    }
  const issues = validateTestCase(serializeTestCase(copy))
  if (issues.length > 0) throw invalidError('test case', issues, path)
  const rule = { what: 'screenshot file', maxBytes: MAX_IMAGE_FILE_BYTES }
  for (const p of sources) await checkInputFile(resolveAssetPath(fromDir, p), rule)
  for (const [from, to] of moved)
    await writeFileAtomic(
      join(dirname(target), ...to.split('/')),
      await readInputFile(resolveAssetPath(fromDir, from), rule),
      {
        overwrite: opts.overwrite ?? false,
      },
    )
  await saveTestCase(path, copy, opts)
}

export async function loadReplayReport(path: string): Promise<ReplayReport> {
  const text = await readTextFile(resolve(path), 'report')
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
