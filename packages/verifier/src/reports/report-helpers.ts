import type { ReplayReport, ReplayResult, ScreenSizeChange, StrategyAttempt, VerificationResult } from '@qa/model'

export const percent = (x: number, digits = 2) => `${(x * 100).toFixed(digits)}%`

/** The replay result (healing method) of a verification result: by actionIndex, else by position. */
export function replayResultFor(
  report: ReplayReport,
  v: VerificationResult,
  position: number,
): ReplayResult | undefined {
  const list = report.replayResults ?? []
  return (
    list.find((r) => r.actionIndex === v.actionIndex) ??
    (list.every((r) => r.actionIndex == null) ? list[position] : undefined)
  )
}

export function healingLabel(r: ReplayResult | undefined): string | undefined {
  if (!r) return undefined
  const conf = Number.isFinite(r.matchConfidence) ? `, confidence ${percent(r.matchConfidence, 0)}` : ''
  return `${r.method}${r.success ? '' : ' (not located)'}${conf}${r.warning ? `; warning: ${r.warning}` : ''}`
}

export const VERDICT_LABEL = { pass: 'PASS', fail: 'FAIL', warning: 'WARNING' } as const

/** The expected and actual of an assert step (`details.assertion`, written by the replayers), if any. */
export function assertionOf(v: VerificationResult): { expected: string; actual: string } | undefined {
  const a = v.details?.assertion
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return undefined
  const { expected, actual } = a as { expected?: unknown; actual?: unknown }
  if (typeof expected !== 'string' || typeof actual !== 'string') return undefined
  return { expected, actual }
}

/** `region 12.5% of 96×40 at (250, 249) → (370, 319)`: the expected-region figure of a step, or null. */
export function regionLabel(v: VerificationResult): string | null {
  if (v.regionSimilarity == null) return null
  const e = v.expectedRegion
  const a = v.actualRegion
  const box = (b: NonNullable<typeof e>) =>
    `${Math.round(b.width)}×${Math.round(b.height)} at (${Math.round(b.x)}, ${Math.round(b.y)})`
  const where = e
    ? ` of ${box(e)}${a && (a.x !== e.x || a.y !== e.y) ? ` → (${Math.round(a.x)}, ${Math.round(a.y)})` : ''}`
    : ''
  return `${percent(v.regionSimilarity)}${where}`
}

/** `1600×900 now, 1280×720 when recorded (×1.25 wide, ×1.25 high): <message>`. */
export function screenSizeLabel(c: ScreenSizeChange): string {
  const ratio = (a: number, b: number) => `×${(a / b).toFixed(2)}`
  return `${c.replayed.width}×${c.replayed.height} now, ${c.recorded.width}×${c.recorded.height} when recorded (${ratio(c.replayed.width, c.recorded.width)} wide, ${ratio(c.replayed.height, c.recorded.height)} high): ${c.message}`
}

/** The step number people read: `step` when the report has it, else action index + 1. */
export const stepOf = (v: Pick<VerificationResult, 'actionIndex' | 'step'>): number => v.step ?? v.actionIndex + 1

/** What a heal is made of: the recorded name → the found one, the strategy, and the strategies tried first. */
export interface HealInfo {
  recordedName: string | null
  foundName: string | null
  strategy: string
  /** The strategies that ran before the one that found the element, with why they did not take it. */
  triedFirst: StrategyAttempt[]
}

const NOT_LOCATED = new Set(['coordinate', 'none', 'failed'])

/**
 * The heal of a located step, or null: the first strategy that ran did not match (another one found the element),
 * or the element found has another name than the recorded one.
 */
export function healOf(r: ReplayResult | undefined): HealInfo | null {
  if (!r?.success || NOT_LOCATED.has(r.method)) return null
  const ran = (r.strategiesTried ?? []).filter((a) => a.outcome !== 'skipped')
  const winner = ran.findIndex((a) => a.outcome === 'matched' && a.strategy === r.method)
  const triedFirst = winner > 0 ? ran.slice(0, winner) : []
  const renamed = !!r.recordedName && !!r.foundName && r.recordedName !== r.foundName
  if (triedFirst.length === 0 && !renamed) return null
  return { recordedName: r.recordedName ?? null, foundName: r.foundName ?? null, strategy: r.method, triedFirst }
}

/** `role: none (0 candidates)`, `css: below_threshold — the best scored 0.41`: one tried strategy for people. */
export function attemptLabel(a: StrategyAttempt): string {
  const n = a.candidates != null ? ` (${a.candidates} candidate${a.candidates === 1 ? '' : 's'})` : ''
  const outcome = a.outcome.replace(/_/g, ' ')
  return `${a.strategy}: ${outcome}${n}${a.detail ? ` — ${a.detail}` : ''}`
}

/** `"Login" → "Sign in"` (or just the strategy when a name is missing). */
export function healLine(h: HealInfo): string {
  const names =
    h.recordedName && h.foundName ? `${h.recordedName} → ${h.foundName}` : (h.foundName ?? h.recordedName ?? '')
  return `${names}${names ? ', ' : ''}found by ${h.strategy}`
}

/** A step that ran and whose screen was compared: only those have a similarity (not a step that did not run). */
export function wasCompared(v: VerificationResult, r: ReplayResult | undefined): boolean {
  if (v.notRun) return false
  if (r && !r.success) return false
  // judged by the step after it (a click that opened a native list, or put the caret in a field typed into next):
  // its screenshots are kept for the reviewer, but nothing of it was compared
  if (typeof v.details?.judged_by_action_index === 'number') return false
  return !!v.actualScreenshot || v.screenshotSimilarity > 0 || v.regionSimilarity != null
}

/** `1.24 s` / `420 ms`. */
export function durationLabel(ms: number | null | undefined): string | null {
  if (ms == null || !Number.isFinite(ms)) return null
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`
}

/** A path as one shell word (POSIX quoting when it holds anything but safe characters). */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/** `qa accept <report.json> --steps N`: the command that accepts a step's new look (a failed or healed step). */
export function acceptCommand(reportJsonPath: string, step: number): string {
  return `qa accept ${shellWord(reportJsonPath)} --steps ${step}`
}

/** A step that can be accepted: it ran and its element was located (a not-found or not-run step cannot be). */
export function acceptable(
  v: VerificationResult,
  r: ReplayResult | undefined,
  acceptance?: ReplayReport['acceptance'],
): boolean {
  if (v.notRun || (r && !r.success)) return false
  // `qa accept` works from the evidence the replay kept: a step without it cannot be accepted, so no command
  if (acceptance !== undefined && !acceptance?.steps.some((s) => s.actionIndex === v.actionIndex)) return false
  return v.finalResult === 'fail' || healOf(r) !== null
}
