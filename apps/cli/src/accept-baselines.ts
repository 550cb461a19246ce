import { createHash } from 'node:crypto'
import { copyFile, mkdir, rm } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import {
  type AcceptanceStep,
  type AcceptedFiles,
  applyAcceptance,
  parseJsonText,
  parseStepList,
  parseTestCase,
  planAcceptance,
  type RefusedStep,
  type ReplayReport,
  type TestCase,
  isQaError,
} from '@qa/model'
import {
  MAX_IMAGE_FILE_BYTES,
  MAX_TEXT_FILE_BYTES,
  readInputFile,
  saveTestCase,
  screenshotFolderOf,
  writeFileAtomic,
} from '@qa/model/node'
import { saveElementCrop } from '@qa/recorder-cdp'
import { EXIT_PASS, EXIT_TEST_FAILED } from './exit-codes'
import { UsageError } from './usage-error'

/**
 * Accepting a replay's look as a case's new baseline, the IO around @qa/model's pure `planAcceptance` and
 * `applyAcceptance` (`qa accept`, `qa replay --update-baselines`). Every check comes before the first write; the
 * previous baseline (the case file and every screenshot it refers to) is copied into
 * `.<case>.history/<time>/` beside the case's screenshot folder; the new images get new names in the screenshot
 * folder; the case is then replaced in one rename, and the old images it no longer refers to are removed (their
 * copies stay in the history folder).
 */

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/** The folder that keeps a case's previous baselines: `cases/login.json` → `cases/.login.history`. */
export function historyFolderOf(caseFile: string): string {
  return join(dirname(caseFile), `.${basename(caseFile).replace(/\.json$/i, '')}.history`)
}

/** `--update-baselines` / `--steps`: nothing or `true` means "every step that changed", else a step list from 1. */
export function requestedSteps(value: string | boolean | undefined, flag: string): number[] | 'changed' {
  if (value === undefined || value === true || value === '') return 'changed'
  if (value === false) return 'changed'
  const r = parseStepList(value)
  if (!r.ok)
    throw new UsageError(`${flag}: ${r.error}.`, `For example ${flag} 3,5 (step numbers as the report shows them).`)
  return r.steps
}

/** Checks a step list against the case's length (before any work). */
export function checkStepsExist(requested: number[] | 'changed', total: number, flag: string, file: string): void {
  if (requested === 'changed') return
  const past = requested.filter((n) => n > total)
  if (past.length)
    throw new UsageError(
      `${flag}: step ${past.join(', ')} does not exist in ${file}: it has ${total} step${total === 1 ? '' : 's'} (numbered 1–${total}); nothing was accepted.`,
    )
}

export interface AcceptOptions {
  report: ReplayReport
  /** The report JSON file (named in messages; relative paths in `acceptance` are relative to its folder). */
  reportFile: string
  requested: number[] | 'changed'
  /** The flag that named the steps, for messages (`--steps`, `--update-baselines`). */
  flag: string
  now?: Date
  log: (line: string) => void
}

export interface AcceptOutcome {
  caseFile: string
  /** Step numbers from 1. */
  accepted: number[]
  refused: RefusedStep[]
  /** The folder that holds the previous baseline, or null when nothing was written. */
  historyDir: string | null
  exitCode: number
}

const pad = (n: number) => String(n).padStart(3, '0')
const stampOf = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '-').replace('.', '-').replace('Z', '')
const toCaseRelative = (caseDir: string, file: string) => relative(caseDir, file).split('\\').join('/')

interface ReadImage {
  path: string
  bytes: Buffer
}

/**
 * Accepts the steps of a replay report into its case. Bad input (a report without acceptance evidence, a desktop
 * report, a case that changed since the replay, an image that is missing or was overwritten, every requested
 * step refused) is a UsageError (exit 2) thrown before anything is written.
 */
export async function acceptFromReport(opts: AcceptOptions): Promise<AcceptOutcome> {
  const { report, reportFile } = opts
  const reportDir = dirname(resolve(reportFile))
  if (report.platform && report.platform !== 'web')
    throw new UsageError(
      `${reportFile}: a ${report.platform} replay report; accepting new baselines works for web cases only (the desktop replay report does not keep each step's screens and located box). Nothing was written.`,
      'Record the desktop flow again (qa record desktop), or keep verified heals with qa replay <case> --verify --save-heals <new.json>.',
    )
  const acceptance = report.acceptance
  if (!acceptance)
    throw new UsageError(
      `${reportFile}: acceptance: expected the evidence of the replayed steps (written by qa replay <case> --verify with a report folder), found none. Nothing was written.`,
      'Replay the case again with --verify (the JSON report of that replay can be accepted), or use qa replay <case> --verify --update-baselines.',
    )
  const caseFile = isAbsolute(acceptance.caseFile) ? acceptance.caseFile : resolve(reportDir, acceptance.caseFile)
  let caseBytes: Buffer
  try {
    // a report may name any path: only a regular case file of a sane size is read (never /dev/zero)
    caseBytes = await readInputFile(caseFile, { what: 'test case file', maxBytes: MAX_TEXT_FILE_BYTES })
  } catch (cause) {
    throw new UsageError(
      `${reportFile}: acceptance.case_file: ${(cause as Error).message} Nothing was written.`,
      'Run qa accept where the case still is, or replay the case again.',
    )
  }
  if (sha256(caseBytes) !== acceptance.caseSha256)
    throw new UsageError(
      `${caseFile} changed since the replay of ${reportFile} (acceptance.case_sha256 does not match its content); accepting would mix two versions of the case. Nothing was written.`,
      `Replay the case again with --verify and accept that report (or: qa replay ${caseFile} --verify --update-baselines).`,
    )
  // a case that does not load is a ModelError naming the file and the field (exit 2)
  const testCase: TestCase = parseTestCase(parseJsonText(caseBytes.toString('utf8'), { file: caseFile }), {
    file: caseFile,
  }).testCase
  checkStepsExist(opts.requested, testCase.actions.length, opts.flag, caseFile)

  const plan = planAcceptance(testCase, report, opts.requested)
  for (const r of plan.refused) opts.log(`  step ${r.step}: not accepted: ${r.reason}.`)
  if (plan.accept.length === 0) {
    if (plan.refused.length > 0)
      throw new UsageError(
        `${reportFile}: none of the requested steps can be accepted (${plan.refused.map((r) => r.step).join(', ')}); nothing was written.`,
        'Only a step that was replayed and located can be accepted; a step whose element was not found needs the case recorded again at that step.',
      )
    opts.log(`Nothing to accept in ${reportFile}: every step passed unhealed; ${caseFile} is unchanged.`)
    return { caseFile, accepted: [], refused: [], historyDir: null, exitCode: EXIT_PASS }
  }

  // every image is read and checked before the first write
  const imageOf = async (step: AcceptanceStep, which: 'before' | 'after'): Promise<ReadImage | null> => {
    const p = which === 'before' ? step.screenshotBefore : step.screenshotAfter
    const want = which === 'before' ? step.screenshotBeforeSha256 : step.screenshotAfterSha256
    const field = `acceptance.steps[action_index=${step.actionIndex}].screenshot_${which}`
    if (!p) return null
    const path = isAbsolute(p) ? p : resolve(reportDir, p)
    let bytes: Buffer
    try {
      bytes = await readInputFile(path, { what: 'screenshot file', maxBytes: MAX_IMAGE_FILE_BYTES })
    } catch (cause) {
      const why =
        isQaError(cause) && cause.code === 'MODEL_FILE_NOT_FOUND' ? `${path} is missing.` : (cause as Error).message
      throw new UsageError(
        `${reportFile}: ${field}: ${why} Nothing was written.`,
        'Keep the report folder as the replay wrote it, or replay the case again with --verify.',
      )
    }
    if (want && sha256(bytes) !== want)
      throw new UsageError(
        `${reportFile}: ${field}: the image ${path} changed since the replay (a later replay into the same report folder writes over it). Nothing was written.`,
        'Accept the newest report of that folder, or replay the case again with --verify.',
      )
    return { path, bytes }
  }
  const inputs: { evidence: AcceptanceStep; before: ReadImage | null; after: ReadImage | null }[] = []
  for (const evidence of plan.accept)
    inputs.push({ evidence, before: await imageOf(evidence, 'before'), after: await imageOf(evidence, 'after') })

  const now = opts.now ?? new Date()
  const caseDir = dirname(caseFile)
  const shots = screenshotFolderOf(caseFile)
  const history = historyFolderOf(caseFile)
  // the previous baseline first: the case file and every screenshot it refers to, at the same relative paths
  let historyDir = join(history, stampOf(now))
  for (let n = 2; ; n++) {
    try {
      await mkdir(dirname(historyDir), { recursive: true })
      await mkdir(historyDir)
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n > 50) throw e
      historyDir = join(history, `${stampOf(now)}-${n}`)
    }
  }
  const referenced = (tc: TestCase) =>
    new Set(
      tc.actions
        .flatMap((a) => [a.screenshotPath, a.screenshotBeforePath, a.elementCropPath])
        .filter((p): p is string => typeof p === 'string' && p !== '' && !isAbsolute(p)),
    )
  await writeFileAtomic(join(historyDir, basename(caseFile)), caseBytes)
  for (const rel of referenced(testCase)) {
    const target = join(historyDir, rel)
    await mkdir(dirname(target), { recursive: true })
    await copyFile(resolve(caseDir, rel), target).catch(() => undefined)
  }

  // the new images under new names (the case refers to them only once it is replaced)
  const stamp = stampOf(now)
  const accepted: { evidence: AcceptanceStep; files: AcceptedFiles }[] = []
  for (const { evidence, before, after } of inputs) {
    const action = testCase.actions[evidence.actionIndex]!
    const stem = join(shots, `step-${pad(evidence.actionIndex)}`)
    const files: AcceptedFiles = {}
    if (after) {
      const file = `${stem}-after.${stamp}.png`
      await writeFileAtomic(file, after.bytes)
      files.screenshotPath = toCaseRelative(caseDir, file)
    }
    if (before) {
      const file = `${stem}-before.${stamp}.png`
      await writeFileAtomic(file, before.bytes)
      files.screenshotBeforePath = toCaseRelative(caseDir, file)
    }
    if (before && evidence.elementBox && (action.elementCropPath || action.identity)) {
      // the element as the step found it, cut at its box on the screen before the input (as the recorder does)
      const file = `${stem}-element.${stamp}.png`
      if (await saveElementCrop(before.bytes, evidence.elementBox, file).catch(() => false))
        files.elementCropPath = toCaseRelative(caseDir, file)
    }
    accepted.push({ evidence, files })
  }
  const updated = applyAcceptance(testCase, accepted, now.toISOString())
  await saveTestCase(caseFile, updated, { overwrite: true })

  // old images the case no longer refers to: their copies are in the history folder
  const still = referenced(updated)
  for (const rel of referenced(testCase)) {
    if (still.has(rel)) continue
    const abs = resolve(caseDir, rel)
    if (!relative(caseDir, abs).startsWith('..')) await rm(abs, { force: true })
  }
  const steps = accepted.map((a) => a.evidence.actionIndex + 1)
  opts.log(
    `Accepted step${steps.length === 1 ? '' : 's'} ${steps.join(', ')} into ${caseFile}; the previous baseline is kept in ${historyDir}.`,
  )
  return {
    caseFile,
    accepted: steps,
    refused: plan.refused,
    historyDir,
    exitCode: plan.refused.length > 0 ? EXIT_TEST_FAILED : EXIT_PASS,
  }
}
