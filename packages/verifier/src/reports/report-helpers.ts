import type { ReplayReport, ReplayResult, ScreenSizeChange, VerificationResult } from '@qa/model'

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

export const VERDICT_LABEL = { pass: 'PASS', fail: 'FAIL', warning: 'WARN' } as const

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
