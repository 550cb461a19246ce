import type { AcceptanceStep, Action, ReplayReport, TestCase } from './types'

/**
 * Accepting a replay's look as a case's new baseline (`qa accept`, `qa replay --update-baselines`): which steps
 * can be accepted, the step list people type, and the case with the accepted steps' new evidence. Pure; the CLI
 * does the IO (copies the images, keeps the old baseline, writes the case atomically).
 */

/** A step list as people type it: step numbers from 1, `3,5` or `2-4,7`. */
export type StepListResult = { ok: true; steps: number[] } | { ok: false; error: string }

/**
 * Parses `3,5` / `2-4,7` (step numbers from 1, as people read them) into sorted, distinct step numbers.
 * With `total`, a number past the case's last step is an error. Whitespace around items is allowed.
 */
export function parseStepList(text: string, total?: number): StepListResult {
  const items = text.split(',').map((s) => s.trim())
  if (items.length === 0 || items.every((s) => s === ''))
    return { ok: false, error: `expected step numbers from 1 like "3,5" or "2-4", got ${JSON.stringify(text)}` }
  const steps = new Set<number>()
  for (const item of items) {
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(item)
    if (!m)
      return {
        ok: false,
        error: `expected step numbers from 1 like "3,5" or "2-4", got ${JSON.stringify(item)} in ${JSON.stringify(text)}`,
      }
    const from = Number(m[1])
    const to = m[2] === undefined ? from : Number(m[2])
    if (from < 1 || to < 1)
      return { ok: false, error: `step numbers start at 1 (as the report shows them), got ${JSON.stringify(item)}` }
    if (to < from) return { ok: false, error: `the range ${JSON.stringify(item)} runs backwards; write ${to}-${from}` }
    if (total !== undefined && to > total)
      return {
        ok: false,
        error: `step ${to} does not exist: the case has ${total} step${total === 1 ? '' : 's'} (numbered 1–${total})`,
      }
    if (to - from > 100_000) return { ok: false, error: `the range ${JSON.stringify(item)} is too long` }
    for (let n = from; n <= to; n++) steps.add(n)
  }
  return { ok: true, steps: [...steps].sort((a, b) => a - b) }
}

/** A step that cannot be accepted, and why (for people). */
export interface RefusedStep {
  /** Step number from 1. */
  step: number
  reason: string
}

export interface AcceptancePlan {
  /** The steps to accept, with their evidence, in step order. */
  accept: AcceptanceStep[]
  /** Requested steps that cannot be accepted. */
  refused: RefusedStep[]
  /** Steps left as they are because they passed unhealed (only when no list was given). */
  unchanged: number[]
}

/**
 * Which steps of a replay can be accepted. A step can when it ran and was located (the report holds its
 * evidence) and, when the case compares it with a recorded screenshot, the replay kept one to put in its place.
 * `requested`: step numbers from 1; `'changed'` (no list given): every step that failed, healed, or was a warning
 * on a compared screen — a step that did not run is then refused; the others are left as they are.
 */
export function planAcceptance(
  testCase: TestCase,
  report: Pick<ReplayReport, 'acceptance' | 'verificationResults' | 'replayResults'>,
  requested: readonly number[] | 'changed',
): AcceptancePlan {
  const evidence = new Map((report.acceptance?.steps ?? []).map((s) => [s.actionIndex, s]))
  const verdictOf = (i: number) =>
    report.verificationResults.find((v) => v.actionIndex === i)?.finalResult ?? evidence.get(i)?.verdict ?? null
  const steps =
    requested === 'changed'
      ? testCase.actions
          .map((_, i) => i)
          .filter((i) => {
            const v = verdictOf(i)
            const e = evidence.get(i)
            // a warning counts when its screen was compared (a vision "same meaning"); one for a step with no
            // recorded screenshot (nothing compared) is not a look to accept
            return v === 'fail' || Boolean(e?.healing) || (v === 'warning' && Boolean(e?.screenshotAfter))
          })
          .map((i) => i + 1)
      : [...requested]
  const plan: AcceptancePlan = { accept: [], refused: [], unchanged: [] }
  if (requested === 'changed') plan.unchanged = testCase.actions.map((_, i) => i + 1).filter((n) => !steps.includes(n))
  for (const step of steps) {
    const i = step - 1
    const action = testCase.actions[i]
    if (!action) {
      plan.refused.push({ step, reason: `the case has no step ${step} (it has ${testCase.actions.length})` })
      continue
    }
    const e = evidence.get(i)
    if (!e) {
      const r = report.replayResults?.find((x) => (x.actionIndex ?? Number(x.actionId.replace(/\D/g, ''))) === i)
      const why = r
        ? /not found/i.test(r.errorMessage)
          ? 'its element was not found'
          : `it did not run${r.errorMessage ? ` (${r.errorMessage})` : ''}`
        : 'it was not replayed'
      plan.refused.push({ step, reason: `${why}; only a step that was replayed and located can be accepted` })
      continue
    }
    if (action.screenshotPath && !e.screenshotAfter) {
      plan.refused.push({
        step,
        reason: 'the replay kept no screenshot of it to put in place of the recorded one (replay it with --verify)',
      })
      continue
    }
    if (!e.screenshotAfter && !e.elementBox && !e.identity) {
      plan.refused.push({ step, reason: 'the replay holds nothing new for it (no screenshot, no element)' })
      continue
    }
    plan.accept.push(e)
  }
  return plan
}

/** Where the new files of one accepted step were put: paths relative to the case's folder. */
export interface AcceptedFiles {
  screenshotBeforePath?: string | null
  screenshotPath?: string | null
  elementCropPath?: string | null
}

/**
 * The case with the accepted steps' new evidence: screenshots, element crop, the element's box and the input's
 * point, and for a heal its new identity, selectors and a `healing_history` entry (marked `accepted_at`). The
 * recorded state hashes of a step whose screenshots were replaced are dropped (they described the old images).
 * The input is not changed.
 */
export function applyAcceptance(
  testCase: TestCase,
  accepted: readonly { evidence: AcceptanceStep; files: AcceptedFiles }[],
  acceptedAt: string,
): TestCase {
  const out: TestCase = structuredClone(testCase)
  for (const { evidence: e, files } of accepted) {
    const a: Action | undefined = out.actions[e.actionIndex]
    if (!a) continue
    if (files.screenshotPath) {
      a.screenshotPath = files.screenshotPath
      delete a.uiStateHashAfter
    }
    if (files.screenshotBeforePath) {
      a.screenshotBeforePath = files.screenshotBeforePath
      delete a.uiStateHashBefore
    }
    if (files.elementCropPath) a.elementCropPath = files.elementCropPath
    if (e.actualCoords) {
      a.x = Math.round(e.actualCoords.x)
      a.y = Math.round(e.actualCoords.y)
    }
    if (e.identity) a.identity = structuredClone(e.identity)
    if (e.selectors) a.selectors = structuredClone(e.selectors)
    if (e.elementBox && a.identity) a.identity.boundingBox = { ...e.elementBox }
    if (e.healing) {
      const record = structuredClone(e.healing)
      record.extra = { ...(record.extra ?? {}), accepted_at: acceptedAt }
      a.healingHistory = [...(a.healingHistory ?? []), record]
    }
  }
  return out
}
