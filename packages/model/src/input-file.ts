/**
 * The one rule for reading a file that an input names (a case, a screenshot, a report, a config, a script): only a
 * regular file of at most a given size is read, and, when a root is given, only one that lies in that folder once
 * symlinks are resolved. A device (`/dev/zero`), a pipe, a folder, a huge file or a path leading out of the root is
 * refused before a byte is read, with a message naming the file and what was expected.
 */
import { constants } from 'node:fs'
import { type FileHandle, open, realpath } from 'node:fs/promises'
import { isAbsolute, relative } from 'node:path'
import { ModelError } from './errors'

export interface InputFileRule {
  /** What the file is, for messages: "test case file", "screenshot file". */
  what: string
  /** The largest file read, in bytes; a bigger one is refused before it is read. */
  maxBytes: number
  /** When given, the file must lie in this folder (symlinks resolved); a path leading out of it is refused. */
  root?: string
  /** The root as the person knows it, for messages: "the report's folder". Default: the root's path. */
  rootLabel?: string
}

/**
 * The largest text file of ours that is read (20 MiB): a case, report, config, script or recording. A bigger one,
 * or a device or FIFO given as one (`/dev/zero`), is refused before it is read, never read into memory unbounded.
 */
export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024

/** The largest screenshot file read (100 MiB; an 8K PNG is a tenth of it). */
export const MAX_IMAGE_FILE_BYTES = 100 * 1024 * 1024

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

/** True when `path` is `folder` or lies in it (both absolute and resolved). */
export function isPathInside(path: string, folder: string): boolean {
  const rel = relative(folder, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** The open file when it passes the rule (the caller closes it), else a ModelError. */
async function openInputFile(file: string, rule: InputFileRule): Promise<{ handle: FileHandle; size: number }> {
  const { what } = rule
  let handle: FileHandle | undefined
  try {
    let path = file
    if (rule.root !== undefined) {
      const [realRoot, realFile] = await Promise.all([realpath(rule.root), realpath(file)])
      if (!isPathInside(realFile, realRoot))
        throw new ModelError(
          'MODEL_FILE_OUTSIDE_ROOT',
          `${file} is outside ${rule.rootLabel ?? rule.root}${rule.rootLabel ? ` (${rule.root})` : ''}; only a ${what} inside it is read.`,
          {
            file,
            hint: `Keep the ${what} inside ${rule.rootLabel ?? 'that folder'} and name it by a path relative to it.`,
          },
        )
      path = realFile
    }
    // O_NONBLOCK: opening a FIFO never waits for a writer; it is then refused as not a regular file
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
    const info = await handle.stat()
    if (info.isDirectory())
      throw new ModelError('MODEL_FILE_UNREADABLE', `${file} is a folder, not a ${what}.`, { file })
    if (!info.isFile())
      throw new ModelError('MODEL_FILE_UNREADABLE', `${file} is not a regular file; a ${what} was expected.`, {
        file,
        hint: `Pass the path of a ${what} (a device, pipe or socket is never read).`,
      })
    if (info.size > rule.maxBytes)
      throw new ModelError(
        'MODEL_FILE_TOO_LARGE',
        `${file} is ${mib(info.size)} MiB; a ${what} may be at most ${rule.maxBytes / 1024 / 1024} MiB, so it was not read.`,
        { file, hint: `Check that this is the ${what} you meant.` },
      )
    return { handle, size: info.size }
  } catch (cause) {
    await handle?.close().catch(() => undefined)
    if (cause instanceof ModelError) throw cause
    const code = (cause as NodeJS.ErrnoException).code
    if (code === 'ENOENT')
      throw new ModelError('MODEL_FILE_NOT_FOUND', `${file}: no such ${what}.`, {
        file,
        cause,
        hint: 'Check the path; relative paths are resolved from the current folder.',
      })
    if (code === 'EISDIR')
      throw new ModelError('MODEL_FILE_UNREADABLE', `${file} is a folder, not a ${what}.`, { file, cause })
    throw new ModelError('MODEL_FILE_UNREADABLE', `${file}: cannot read the ${what} (${code ?? String(cause)}).`, {
      file,
      cause,
    })
  }
}

/**
 * Reads a file an input names, by the rule above. Throws ModelError: MODEL_FILE_NOT_FOUND, MODEL_FILE_UNREADABLE
 * (a folder, device, pipe, no permission), MODEL_FILE_TOO_LARGE, MODEL_FILE_OUTSIDE_ROOT.
 */
export async function readInputFile(file: string, rule: InputFileRule): Promise<Buffer> {
  const { handle } = await openInputFile(file, rule)
  try {
    return await handle.readFile()
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code
    throw new ModelError('MODEL_FILE_UNREADABLE', `${file}: cannot read the ${rule.what} (${code ?? String(cause)}).`, {
      file,
      cause,
    })
  } finally {
    await handle.close().catch(() => undefined)
  }
}

/** Checks a file an input names by the same rule, reading none of it (`qa validate`). Returns its size. */
export async function checkInputFile(file: string, rule: InputFileRule): Promise<number> {
  const { handle, size } = await openInputFile(file, rule)
  await handle.close().catch(() => undefined)
  return size
}
