import { constants } from 'node:fs'
import { access, mkdtemp, readdir, realpath, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import type { ReplayReport } from '@qa/model'
import { ACTION_ASSET_FIELDS, type LoadedTestCase } from '@qa/model/node'
import { readConfigFiles } from './config'
import { UsageError } from './usage-error'

/**
 * The one rule for every `qa` command that writes: resolve every output before any work,
 * refuse an output that is, or lies inside, one of the inputs (a case, its screenshots and their folder, a
 * report, an image), refuse an existing output without `--force`. The writes themselves are atomic
 * (`writeFileAtomic` of @qa/model/node).
 */

/** A file or folder the command reads, and how to name it in a message ("the test case"). */
export interface GuardInput {
  path: string
  what: string
}

/** A file the command writes, and the flag that named it. */
export interface GuardOutput {
  path: string
  flag: string
  /** A folder the command fills (recorded screenshots): refused when it exists and is not empty, unless forced. */
  folder?: boolean
  /** A folder the command adds files to beside others (reports): checked against the inputs only, may exist. */
  shared?: boolean
}

export interface OutputConflict {
  output: GuardOutput
  /** The input it would write over, or the other output it collides with. */
  input?: GuardInput
  other?: GuardOutput
}

const isInside = (child: string, parent: string): boolean => {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/**
 * Pure: the first output that equals or lies inside an input, or that two flags both name. Paths must be
 * absolute and canonical (see `canonicalPath`).
 */
export function findOutputConflict(
  outputs: readonly GuardOutput[],
  inputs: readonly GuardInput[],
): OutputConflict | null {
  for (const [i, output] of outputs.entries()) {
    const input = inputs.find((inp) => isInside(output.path, inp.path))
    if (input) return { output, input }
    const other = outputs.slice(0, i).find((o) => o.path === output.path)
    if (other) return { output, other }
  }
  return null
}

/** An absolute path with symlinks of its existing part resolved, so `a/../b` and links compare equal. */
export async function canonicalPath(path: string): Promise<string> {
  const full = resolve(path)
  let head = full
  const tail: string[] = []
  for (;;) {
    try {
      return join(await realpath(head), ...tail.reverse())
    } catch {
      const parent = dirname(head)
      if (parent === head) return full
      tail.push(basename(head))
      head = parent
    }
  }
}

type Unset = null | undefined | false | ''

/**
 * Checks every output of a command before it does any work; throws a UsageError (exit 2) naming the flag, the
 * path and what to do. Returns nothing: the command keeps writing to the paths it was given.
 */
export async function guardOutputs(opts: {
  /** Falsy entries (an unset flag: `this.junit && {…}`) are skipped. */
  outputs: ReadonlyArray<GuardOutput | Unset>
  inputs: ReadonlyArray<GuardInput | Unset>
  force: boolean
  /** What is not done when refused, for the message: "nothing was recorded". */
  nothing: string
}): Promise<void> {
  const outputs = await Promise.all(
    opts.outputs.filter((o): o is GuardOutput => !!o).map(async (o) => ({ ...o, path: await canonicalPath(o.path) })),
  )
  // the config file the command read is an input too: `--out qa.config.json --force` never replaces it
  const configs = readConfigFiles().map((path) => ({ path, what: 'the config file this command read' }))
  const inputs = await Promise.all(
    [...opts.inputs.filter((i): i is GuardInput => !!i), ...configs].map(async (i) => ({
      ...i,
      path: await canonicalPath(i.path),
    })),
  )
  const conflict = findOutputConflict(outputs, inputs)
  if (conflict?.input) {
    const same = conflict.input.path === conflict.output.path
    throw new UsageError(
      `${conflict.output.flag} ${conflict.output.path} ${same ? `is ${conflict.input.what}` : `lies inside ${conflict.input.what} (${conflict.input.path})`}; qa never writes over its input.`,
      `Choose another ${conflict.output.flag} path; ${opts.nothing}.`,
    )
  }
  if (conflict?.other) {
    throw new UsageError(
      `${conflict.output.flag} and ${conflict.other.flag} both name ${conflict.output.path}.`,
      `Give each its own file; ${opts.nothing}.`,
    )
  }
  for (const output of outputs) {
    await assertWritable(output.path, output.flag, opts.nothing)
    if (output.shared) continue
    const info = await stat(output.path).catch(() => null)
    if (!info) continue
    if (output.folder) {
      if (!info.isDirectory()) {
        throw new UsageError(
          `${output.path} is a file, and ${output.flag} needs a folder there for its screenshots.`,
          `Choose another ${output.flag} path; ${opts.nothing}.`,
        )
      }
      if (!opts.force && (await readdir(output.path)).length > 0) {
        throw new UsageError(
          `${output.path}/ (the screenshot folder of ${output.flag}) already exists and is not empty; ${opts.nothing}.`,
          `Pass --force to replace its screenshots, or choose another ${output.flag} path.`,
        )
      }
      continue
    }
    if (info.isDirectory()) {
      throw new UsageError(
        `${output.flag} ${output.path} is a folder; expected a file path.`,
        `Name a file, e.g. ${join(output.path, 'out')}…; ${opts.nothing}.`,
      )
    }
    if (!opts.force) {
      throw new UsageError(
        `${output.flag} ${output.path} already exists; ${opts.nothing}.`,
        `Pass --force to replace it, or choose another ${output.flag} path.`,
      )
    }
  }
}

/**
 * Refuses an output that cannot be written before any work: the nearest folder of it that exists must be a folder
 * qa may write to (a read-only file system or folder is named with its reason, never a raw ENOENT or EROFS later).
 */
export async function assertWritable(path: string, flag: string, nothing: string): Promise<void> {
  let head = resolve(path)
  for (;;) {
    const info = await stat(head).catch(() => null)
    if (info) {
      // the output itself may be an existing file: it is replaced by a rename in its folder
      const folder = info.isDirectory() ? head : dirname(head)
      try {
        await access(folder, constants.W_OK)
      } catch (cause) {
        const code = (cause as NodeJS.ErrnoException).code
        const why = code === 'EROFS' ? 'is on a read-only file system' : `is not writable (${code ?? String(cause)})`
        throw new UsageError(
          `${flag} ${path}: expected a place qa can write to, but ${folder} ${why}; ${nothing}.`,
          `Choose another ${flag} path.`,
        )
      }
      return
    }
    const parent = dirname(head)
    if (parent === head) return
    head = parent
  }
}

/** A case file, every file it refers to (screenshots, crops) and the folders holding them, as guard inputs. */
export function caseInputs(loaded: LoadedTestCase): GuardInput[] {
  const inputs: GuardInput[] = [{ path: loaded.file, what: 'the test case' }]
  const folders = new Set<string>()
  for (const action of loaded.testCase.actions) {
    for (const field of ACTION_ASSET_FIELDS) {
      const p = action[field]
      if (!p) continue
      const file = loaded.resolveAsset(p)
      inputs.push({ path: file, what: 'a screenshot of the test case' })
      if (dirname(file) !== loaded.dir) folders.add(dirname(file))
    }
  }
  for (const folder of folders) inputs.push({ path: folder, what: 'the screenshot folder of the test case' })
  return inputs
}

/** A report file and the screenshots it refers to (relative to its folder), as guard inputs. */
export function reportInputs(file: string, report: ReplayReport, what = 'the report'): GuardInput[] {
  const dir = dirname(resolve(file))
  const shots = report.verificationResults.flatMap((v) =>
    [v.expectedScreenshot, v.actualScreenshot, v.diffScreenshot].filter((p): p is string => !!p),
  )
  return [{ path: file, what }, ...shots.map((p) => ({ path: resolve(dir, p), what: `a screenshot of ${what}` }))]
}

/** A replacement of an existing case made beside it (see `stageReplacement`). */
export interface StagedReplacement {
  /** Where the command writes the new case; its screenshot folder goes beside it, as usual. */
  caseFile: string
  /** Swaps the new case and its screenshot folder in place of the old ones. */
  commit(): Promise<void>
  /** Removes the staging folder: the whole new recording when the work failed, the old screenshots after a commit. */
  discard(): Promise<void>
}

/**
 * Replacing an existing case (`--force`) without losing it to a failure midway: the new case and its
 * screenshot folder are written into a hidden folder beside the old ones (same file system, so the swap is
 * two renames) and swapped in only when the work is done. Null when there is nothing to replace.
 */
export async function stageReplacement(caseFile: string): Promise<StagedReplacement | null> {
  const folder = caseFile.replace(/\.json$/i, '')
  const exists = async (path: string) => (await stat(path).catch(() => null)) !== null
  if (!(await exists(caseFile)) && !(await exists(folder))) return null
  const dir = await mkdtemp(join(dirname(caseFile), '.qa-staging-'))
  const staged = join(dir, basename(caseFile))
  const stagedFolder = staged.replace(/\.json$/i, '')
  return {
    caseFile: staged,
    async commit() {
      // the old screenshots go too: a new recording without screenshots must not keep stale ones beside it
      if (await exists(folder)) await rename(folder, join(dir, 'replaced'))
      if (await exists(stagedFolder)) await rename(stagedFolder, folder)
      await rename(staged, caseFile)
    },
    async discard() {
      await rm(dir, { recursive: true, force: true })
    },
  }
}
