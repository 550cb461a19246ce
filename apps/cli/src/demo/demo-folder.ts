import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { isAbsolute, join, parse, relative } from 'node:path'
import { canonicalPath } from '../output-guard'
import { UsageError } from '../usage-error'

/** The file `qa demo` leaves in its folder: a folder holding it is the demo's own and is replaced by the next run. */
export const DEMO_FOLDER_MARKER = '.qa-demo'

/** What a demo writes; a folder holding nothing else was made by an earlier `qa demo` (before the marker). */
const DEMO_OUTPUTS: ReadonlySet<string> = new Set([
  'reports',
  'sample-app-flow',
  'sample-app-flow.json',
  'sample-game-flow',
  'sample-game-flow.json',
])

const holds = (parent: string, child: string): boolean => {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/**
 * Checked before the demo does anything: `--out-dir` is replaced by every run, so it must be a folder the demo
 * made (it holds `.qa-demo`, or only what a demo writes), an empty folder or a new path. Any other folder is refused (exit 2) unless
 * `--force`, and even then never the file-system root, the home folder, the current folder or a folder holding
 * one of them. Returns the folder's canonical path.
 */
export async function checkDemoFolder(outDir: string, force: boolean): Promise<string> {
  const dir = await canonicalPath(outDir)
  const info = await stat(dir).catch(() => null)
  if (!info) return dir
  if (!info.isDirectory())
    throw new UsageError(
      `--out-dir ${dir} is a file; the demo needs a folder there. Nothing was run.`,
      'Choose another --out-dir path.',
    )
  // the demo's own folder holds nothing but what a demo writes (a marker beside other files proves nothing)
  const entries = await readdir(dir)
  if (entries.every((e) => e === DEMO_FOLDER_MARKER || DEMO_OUTPUTS.has(e))) return dir
  const protectedFolders = [parse(dir).root, homedir(), process.cwd()]
  if (protectedFolders.some((p) => holds(dir, p)))
    throw new UsageError(
      `--out-dir ${dir} holds the ${dir === parse(dir).root ? 'file-system root' : 'home or current folder'} and is not a demo folder; the demo replaces its folder, so it never takes this one. Nothing was run.`,
      'Choose a new folder, e.g. --out-dir qa-demo.',
    )
  if (!force)
    throw new UsageError(
      `--out-dir ${dir} holds files qa demo did not write (${entries
        .filter((e) => e !== DEMO_FOLDER_MARKER && !DEMO_OUTPUTS.has(e))
        .slice(0, 3)
        .join(', ')}); the demo replaces its folder. Nothing was run.`,
      'Choose a new or empty folder, or pass --force to write the demo beside them (only what a demo writes is replaced).',
    )
  return dir
}

/**
 * Removes what an earlier demo wrote in its folder (checked by `checkDemoFolder` first) and marks it as the
 * demo's own. Only the demo's outputs are removed: any other file stays.
 */
export async function resetDemoFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  for (const entry of [...DEMO_OUTPUTS, DEMO_FOLDER_MARKER])
    await rm(join(dir, entry), { recursive: true, force: true })
  await writeFile(join(dir, DEMO_FOLDER_MARKER), 'Made by `qa demo`; the next `qa demo` run replaces this folder.\n')
}
