import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import type { Action, TestCase } from '@qa/model'
import { saveTestCase, writeFileAtomic } from '@qa/model/node'
import type { DesktopHeal } from './desktop-replayer'
import { DesktopError } from './errors'
import { encodePng } from './frame'

/** The folder beside a healed case that holds its new crops: `login.healed.json` → `login.healed_heals`. */
export const healsFolderOf = (outPath: string): string => `${outPath.replace(/\.json$/i, '')}_heals`

/**
 * The case with its verified heals applied: each healed click gets its new point, its new crop (`cropPathOf`)
 * and a healing_history entry; every other step is unchanged. Pure.
 */
export function healedDesktopCase(
  tc: TestCase,
  heals: readonly DesktopHeal[],
  cropPathOf: (heal: DesktopHeal) => string | null,
): TestCase {
  const actions: Action[] = tc.actions.map((a) => ({ ...a }))
  for (const heal of heals) {
    const a = actions[heal.index]
    if (!a) continue
    a.x = heal.point.x
    a.y = heal.point.y
    const path = heal.crop ? cropPathOf(heal) : null
    if (path && heal.cropBox) {
      a.elementCropPath = path
      a.elementCropBox = { ...heal.cropBox }
    }
    a.healingHistory = [...(a.healingHistory ?? []), heal.record]
  }
  return { ...tc, actions }
}

/** A path of the case (relative to `fromDir`) as seen from `toDir`; it must stay inside `toDir`. */
function rebase(path: string | null | undefined, fromDir: string, toDir: string): string | null | undefined {
  if (!path || isAbsolute(path)) return path
  const moved = relative(toDir, resolve(fromDir, path)).split('\\').join('/')
  if (moved.startsWith('../') || moved === '..')
    throw new DesktopError(
      'DESKTOP_BAD_OPTION',
      `The healed case would point at ${path} outside its own folder (${toDir}); a case's screenshots live in or under its folder.`,
      { hint: "Save the heals in the case's folder: --save-heals <case folder>/<name>.healed.json." },
    )
  return moved
}

/**
 * `qa replay <desktop case> --verify --save-heals <out.json>`: writes the healed case to `outPath` (a new file;
 * the input is never touched) and the new crops into `healsFolderOf(outPath)`; the case's other screenshot paths
 * are rebased so they still point at the recording's files. Returns how many heals were written.
 */
export async function saveDesktopHeals(opts: {
  testCase: TestCase
  caseDir: string
  heals: readonly DesktopHeal[]
  outPath: string
  overwrite?: boolean
}): Promise<number> {
  const outDir = dirname(resolve(opts.outPath))
  const folder = healsFolderOf(resolve(opts.outPath))
  // every path the case keeps must still resolve from the new file's folder: checked before anything is written
  for (const a of opts.testCase.actions)
    for (const p of [a.screenshotPath, a.screenshotBeforePath, a.elementCropPath]) rebase(p, opts.caseDir, outDir)
  const written = new Map<number, string>()
  for (const heal of opts.heals) {
    if (!heal.crop) continue
    const file = join(folder, `action_${String(heal.index).padStart(4, '0')}_crop.png`)
    await writeFileAtomic(file, await encodePng(heal.crop), { overwrite: opts.overwrite ?? false })
    written.set(heal.index, `${basename(folder)}/${basename(file)}`)
  }
  const healed = healedDesktopCase(opts.testCase, opts.heals, (h) => written.get(h.index) ?? null)
  const rebased: TestCase = {
    ...healed,
    actions: healed.actions.map((a, i) => {
      const keep = written.has(i)
      const out = { ...a }
      if (a.screenshotPath) out.screenshotPath = rebase(a.screenshotPath, opts.caseDir, outDir) as string
      if (a.screenshotBeforePath)
        out.screenshotBeforePath = rebase(a.screenshotBeforePath, opts.caseDir, outDir) as string
      if (!keep && a.elementCropPath) out.elementCropPath = rebase(a.elementCropPath, opts.caseDir, outDir) as string
      return out
    }),
  }
  await saveTestCase(opts.outPath, rebased, { overwrite: opts.overwrite ?? false })
  return opts.heals.length
}
