import type { Action, ReplayReport, ReplayResult, VerificationResult } from '@qa/model'
import { truncateToColumns } from './display-width'

/** A name in quotes, at most 40 terminal columns (20 Hangul syllables). */
const quote = (s: string) => `"${truncateToColumns(s, 40)}"`

/**
 * What replay will look for first, in the order of the web strategies: `role button "Save"`,
 * `aria-label "…"`, `name "…"`, `test id "…"`, `css …`; `coordinates` for a step without a target.
 */
export function strategyLabel(action: Action): string {
  const id = action.identity
  if (!id) return ['key_press', 'scroll', 'navigate', 'wait', 'assert'].includes(action.actionType) ? '' : 'coordinates'
  if (id.axRole && id.axName) return `role ${id.axRole} ${quote(id.axName)}`
  if (id.ariaLabel) return `aria-label ${quote(id.ariaLabel)}`
  if (id.name) return `name ${quote(id.name)}`
  if (id.dataTestId) return `test id ${quote(id.dataTestId)}`
  const css = action.selectors?.css
  if (css) return `css ${truncateToColumns(css, 50)}`
  return `similarity to <${id.tagName}>`
}

/** One line of the live list of a recording by hand: `  3. Click button "Save"   [role button "Save"]`. */
export function stepLine(index: number, action: Action, replaced = false): string {
  const label = strategyLabel(action)
  const number = String(index + 1).padStart(3)
  return `${number}. ${action.description}${label ? `   [${label}]` : ''}${replaced ? ' (replaces the click before)' : ''}${action.warning ? `\n     warning: ${action.warning}` : ''}`
}

/** One replayed step, as `qa replay` prints it (`replayStepLine`). */
export interface ReplayStepEvent {
  index: number
  total: number
  description: string
  result: Pick<ReplayResult, 'success' | 'method' | 'matchConfidence' | 'errorMessage' | 'warning'> &
    Partial<Pick<ReplayResult, 'coordinateChange' | 'recordedName' | 'foundName'>>
  verification?: Pick<VerificationResult, 'finalResult' | 'reason' | 'notRun'> | undefined
  /** The index of the first failed step so far, or null. */
  firstCause: number | null
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`

/**
 * One line of a replay's live list: the step number from 1, the verdict (`NOT RUN` for a step the
 * failure limit skipped), how the element was found (`Login → Sign in` for a heal), and for every failed step its
 * reason; the first failed step is marked `first cause`, the failures after it name the step they came after.
 * `verdict` colours the verdict word.
 */
export function replayStepLine(e: ReplayStepEvent, verdict: (word: string) => string = (w) => w): string {
  const v = e.verification
  const word = v?.notRun ? 'NOT RUN' : v ? VERDICT_WORD[v.finalResult] : ''
  const r = e.result
  const renamed = r.foundName && r.recordedName && r.foundName !== r.recordedName
  const how = v?.notRun
    ? 'not run'
    : r.success
      ? `${r.method}${r.matchConfidence ? ` ${pct(r.matchConfidence)}` : ''}${renamed ? ` (${quote(r.recordedName as string)} → ${quote(r.foundName as string)})` : ''}`
      : /\bnot found\b/i.test(r.errorMessage)
        ? 'not found'
        : 'did not run'
  const moved =
    r.success && r.coordinateChange && (r.coordinateChange.x || r.coordinateChange.y)
      ? ` moved (${r.coordinateChange.x}, ${r.coordinateChange.y})`
      : ''
  const failed = v?.finalResult === 'fail'
  // a failed step always says why: the step's error, else the verdict's reason (a screen that did not match)
  const why = failed ? (v?.reason ?? r.errorMessage) : r.errorMessage
  const cause =
    failed && !v?.notRun && e.firstCause !== null
      ? e.firstCause === e.index
        ? ' [first cause]'
        : ` [after step ${e.firstCause + 1} failed]`
      : ''
  const number = `[${e.index + 1}/${e.total}]`
  return `  ${number} ${verdict(word.padEnd(7))} ${e.description} — ${how}${moved}${why ? ` — ${why}` : ''}${r.warning ? ` — warning: ${r.warning}` : ''}${cause}`
}

const VERDICT_WORD = { pass: 'PASS', fail: 'FAIL', warning: 'WARNING' } as const

/** `First cause: step 5 Click button "로그인" — <reason>` after a failed replay; null when no step failed. */
export function firstCauseLine(
  report: Pick<ReplayReport, 'firstCause' | 'failedCount' | 'notRunCount'>,
): string | null {
  const c = report.firstCause
  if (!c) return null
  const later = report.failedCount - 1 - (report.notRunCount ?? 0)
  const notRun = report.notRunCount ? `; ${report.notRunCount} step(s) not run (--max-failures)` : ''
  return `First cause: step ${c.step} ${c.description} — ${c.reason}${later > 0 ? ` (${later} later failure(s) came after it${notRun})` : notRun ? ` (${notRun.slice(2)})` : ''}`
}
