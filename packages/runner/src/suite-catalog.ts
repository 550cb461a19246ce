import { readdir, stat } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { type Platform, parseJsonText, type TestCase } from '@qa/model'
import { loadTestCase, readTextFile } from '@qa/model/node'
import { ServerError } from './errors'
import { testBotAction } from './testbot-results'

/** One runnable suite: a test case file found under the case folder. */
export interface SuiteInfo {
  /** Order index (`data-testbot-index`): position in the sorted list of case files. */
  index: number
  /** The case's name (`data-testbot-suite`); `runByName` matches it exactly. */
  name: string
  /** Path of the case file relative to the case folder, with `/` separators. */
  file: string
  /** Absolute path of the case file. */
  path: string
  platform: Platform
  tags: string[]
  /** The planned steps, shown as `pending` rows before a run. */
  steps: Array<{ action: string; detail: string }>
}

/** A JSON file that looks like a case (it has `actions`) but does not load. */
export interface InvalidCase {
  file: string
  code: string
  message: string
}

export interface SuiteCatalogSnapshot {
  dir: string
  suites: SuiteInfo[]
  invalid: InvalidCase[]
  scannedAt: number
}

export interface SuiteCatalog {
  readonly dir: string
  /** The suites, rescanned when the last scan is older than `maxAgeMs` (concurrent callers share one scan). */
  list(opts?: { maxAgeMs?: number }): Promise<SuiteCatalogSnapshot>
  /** The last scan, without touching the disk (empty before the first scan). */
  cached(): SuiteCatalogSnapshot
}

export interface SuiteCatalogOptions {
  /** Folders never scanned (the report folder). Dot folders and node_modules are always skipped. */
  excludeDirs?: readonly string[]
  /** Files larger than this are not read (default 20 MB). */
  maxFileBytes?: number
  /** At most this many case files (default 5000). */
  maxFiles?: number
}

/** Case files sort by path, so indexes are stable between scans of an unchanged folder. */
export function compareCasePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** A short description of a planned step. */
export function plannedStep(testCase: TestCase, index: number): { action: string; detail: string } {
  const a = testCase.actions[index]
  if (!a) return { action: 'error', detail: '' }
  return { action: testBotAction(a.actionType), detail: a.description || `${a.actionType} at (${a.x}, ${a.y})` }
}

async function walk(dir: string, exclude: ReadonlySet<string>, found: string[], limit: number): Promise<void> {
  let entries: import('node:fs').Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return
  }
  entries.sort((x, y) => compareCasePaths(x.name, y.name))
  for (const e of entries) {
    if (found.length >= limit) return
    const full = join(dir, e.name)
    if (e.isDirectory()) {
      if (e.name.startsWith('.') || e.name === 'node_modules' || exclude.has(full)) continue
      await walk(full, exclude, found, limit)
    } else if (e.isFile() && e.name.endsWith('.json') && !e.name.startsWith('.')) {
      found.push(full)
    }
  }
}

/**
 * Scans `dir` once: every `*.json` with an `actions` array is a case; other JSON is ignored; a file that is not
 * JSON (or not UTF-8) at all is listed in `invalid`, as is a case that does not load.
 */
export async function scanSuites(dir: string, opts: SuiteCatalogOptions = {}): Promise<SuiteCatalogSnapshot> {
  const root = resolve(dir)
  const info = await stat(root).catch(() => null)
  if (!info?.isDirectory()) {
    throw new ServerError('SERVER_DIR_NOT_FOUND', `The case folder ${root} does not exist.`, {
      hint: 'Pass the folder holding your recorded *.json cases with --dir, or try --demo.',
    })
  }
  const exclude = new Set((opts.excludeDirs ?? []).map((d) => resolve(d)))
  const files: string[] = []
  await walk(root, exclude, files, opts.maxFiles ?? 5000)
  files.sort(compareCasePaths)
  const maxBytes = opts.maxFileBytes ?? 20 * 1024 * 1024
  const suites: SuiteInfo[] = []
  const invalid: InvalidCase[] = []
  for (const path of files) {
    const file = relative(root, path).split(sep).join('/')
    const size = (await stat(path).catch(() => null))?.size ?? 0
    if (size > maxBytes) {
      // too big to read: listed as a case that cannot run, never dropped silently
      invalid.push({
        file,
        code: 'MODEL_FILE_TOO_LARGE',
        message: `${file} is ${(size / 1024 / 1024).toFixed(1)} MiB; a case file may be at most ${(maxBytes / 1024 / 1024).toFixed(0)} MiB, so it was not read.`,
      })
      continue
    }
    let looksLikeCase = false
    try {
      const doc = parseJsonText(await readTextFile(path, 'test case'), { file })
      looksLikeCase = typeof doc === 'object' && doc !== null && Array.isArray((doc as { actions?: unknown }).actions)
    } catch (error) {
      // A file that does not even parse may be a damaged case: listed, never dropped silently.
      const e = error as { code?: string; message?: string }
      invalid.push({ file, code: e.code ?? 'UNEXPECTED', message: e.message ?? String(error) })
      continue
    }
    if (!looksLikeCase) continue
    try {
      const loaded = await loadTestCase(path)
      const tc = loaded.testCase
      suites.push({
        index: suites.length,
        name: tc.name,
        file,
        path,
        platform: tc.platform,
        tags: tc.tags ?? [],
        steps: tc.actions.map((_, i) => plannedStep(tc, i)),
      })
    } catch (error) {
      const e = error as { code?: string; message?: string }
      invalid.push({ file, code: e.code ?? 'UNEXPECTED', message: e.message ?? String(error) })
    }
  }
  return { dir: root, suites, invalid, scannedAt: Date.now() }
}

/** A cached, coalescing view of the suites under a folder. */
export function createSuiteCatalog(dir: string, opts: SuiteCatalogOptions = {}): SuiteCatalog {
  const root = resolve(dir)
  let last: SuiteCatalogSnapshot = { dir: root, suites: [], invalid: [], scannedAt: 0 }
  let inflight: Promise<SuiteCatalogSnapshot> | null = null
  return {
    dir: root,
    cached: () => last,
    async list({ maxAgeMs = 1000 } = {}) {
      if (last.scannedAt > 0 && Date.now() - last.scannedAt <= maxAgeMs) return last
      inflight ??= scanSuites(root, opts).then(
        (snap) => {
          last = snap
          inflight = null
          return snap
        },
        (error) => {
          inflight = null
          throw error
        },
      )
      return inflight
    },
  }
}
