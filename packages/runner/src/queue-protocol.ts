import { isCaseRelativePath, type Platform } from '@qa/model'
import { ServerError } from './errors'
import type { ReportKind, SuiteRun } from './run-types'
import type { SuiteInfo } from './suite-catalog'
import type { TestBotStep } from './testbot-results'

/** BullMQ key prefix of every queue and the cancel flags. */
export const QUEUE_KEY_PREFIX = 'qa'

/** One queue per platform (`qa worker --tags web,desktop` picks the queues it serves). */
export const queueNameFor = (platform: Platform | string): string => `suites-${platform}`

/** A run's suite job id: deterministic, so the same suite of a run is never queued twice. */
export const jobIdFor = (runId: string, suiteIndex: number): string =>
  `${runId}.s${String(suiteIndex).padStart(4, '0')}`

/** Redis key a worker polls to stop a canceled run's jobs. */
export const cancelKeyFor = (runId: string): string => `${QUEUE_KEY_PREFIX}:cancel:${runId}`

/** What a suite job carries: no paths of the server's disk, only keys of the artifact store. */
export interface SuiteJobData {
  runId: string
  suite: Omit<SuiteInfo, 'path'>
  /** Store prefix of the case file and the screenshots it references (`runs/<id>/<suite>/case/`). */
  inputPrefix: string
  /** Name of the case file under `inputPrefix`. */
  caseFileName: string
  /** Store prefix of this suite's reports; each attempt writes to `<outputPrefix>attempt-<n>/`. */
  outputPrefix: string
  /** Attempts in all, crashes and retried failures together. */
  maxAttempts: number
  /** Retry a suite whose steps failed (a pass on retry is reported as flaky). */
  retryFailed: boolean
  suiteTimeoutMs: number
  /**
   * Where the app under test is, as the server knows it (its `--base-url`, or the sample app `--demo` started):
   * a worker started without a `--base-url` of its own replays web cases against it. Only http(s) URLs.
   */
  baseUrl?: string | null
}

/** The job's base URL when it is an http(s) URL, else null (a forged job names no other scheme). Pure. */
export function jobBaseUrl(data: Pick<SuiteJobData, 'baseUrl'>): string | null {
  const value = data.baseUrl
  if (typeof value !== 'string' || value.length > 2_000) return null
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

/** The outcome of one attempt, as the worker reports it (also the job's return value). */
export interface SuiteJobResult {
  attempt: number
  workerId: string
  passed: boolean
  steps: TestBotStep[]
  totalSteps: number
  error: string | null
  /** Report keys in the artifact store. */
  reports: Partial<Record<ReportKind, string>>
  startedAt: string
  finishedAt: string
}

/** Job progress messages (BullMQ `job.updateProgress`) → the server's event stream. */
export type WorkerProgress =
  | { type: 'attempt-started'; attempt: number; workerId: string; at: string; totalSteps: number }
  | { type: 'step-done'; attempt: number; stepIndex: number; total: number; step: TestBotStep }
  | { type: 'attempt-finished'; result: SuiteJobResult }

/** Parses a progress payload (BullMQ may hand it over as a string); null for anything else. */
export function parseWorkerProgress(data: unknown): WorkerProgress | null {
  let v = data
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v)
    } catch {
      return null
    }
  }
  const t = (v as { type?: unknown } | null)?.type
  return t === 'attempt-started' || t === 'step-done' || t === 'attempt-finished' ? (v as WorkerProgress) : null
}

/** Parses a job return value; null when it is not a suite result. */
export function parseJobResult(value: unknown): SuiteJobResult | null {
  let v = value
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v)
    } catch {
      return null
    }
  }
  const r = v as SuiteJobResult | null
  return r && typeof r === 'object' && typeof r.attempt === 'number' && Array.isArray(r.steps) ? r : null
}

const LOST = 'The worker stopped answering (killed, crashed or cut off) and its lock expired; the suite was retried.'

/**
 * Records that attempt `attempt` started (pure, idempotent): an earlier attempt still `running` was lost (its
 * worker died), so it is closed as `lost`. Returns false when the message is stale (an older attempt).
 */
export function recordAttemptStart(suite: SuiteRun, msg: { attempt: number; workerId: string; at: string }): boolean {
  suite.attempts ??= []
  const attempts = suite.attempts
  const latest = attempts.reduce((m, a) => Math.max(m, a.attempt), 0)
  if (msg.attempt < latest) return false
  for (const a of attempts) {
    if (a.outcome === 'running' && a.attempt < msg.attempt) {
      a.outcome = 'lost'
      a.error = LOST
      a.finishedAt = msg.at
    }
  }
  if (!attempts.some((a) => a.attempt === msg.attempt)) {
    attempts.push({
      attempt: msg.attempt,
      workerId: msg.workerId,
      startedAt: msg.at,
      finishedAt: null,
      outcome: 'running',
      error: null,
      failedSteps: [],
      reports: {},
    })
  }
  return true
}

/** Marks every running attempt lost (BullMQ reported the job stalled). Pure. */
export function recordStalled(suite: SuiteRun, at: string): void {
  for (const a of suite.attempts ?? []) {
    if (a.outcome === 'running') {
      a.outcome = 'lost'
      a.error = LOST
      a.finishedAt = at
    }
  }
}

/** Records the outcome of an attempt (pure, idempotent). */
export function recordAttemptResult(suite: SuiteRun, r: SuiteJobResult): void {
  suite.attempts ??= []
  const attempts = suite.attempts
  let a = attempts.find((x) => x.attempt === r.attempt)
  if (!a) {
    a = {
      attempt: r.attempt,
      workerId: r.workerId,
      startedAt: r.startedAt,
      finishedAt: null,
      outcome: 'running',
      error: null,
      failedSteps: [],
      reports: {},
    }
    attempts.push(a)
    attempts.sort((x, y) => x.attempt - y.attempt)
  }
  a.finishedAt = r.finishedAt
  a.outcome = r.passed ? 'passed' : 'failed'
  a.error = r.error
  a.failedSteps = r.steps.flatMap((s, i) => (s.passed ? [] : [i]))
  a.reports = r.reports
}

/**
 * The final state of a suite from its last attempt's result (pure). A suite that passes after a failed attempt
 * is flaky: `flaky` is set and `flakySteps` lists the steps that failed before and pass now — never silently green.
 */
export function finalSuitePatch(suite: SuiteRun, r: SuiteJobResult): Partial<SuiteRun> {
  const earlier = (suite.attempts ?? []).filter((a) => a.attempt < r.attempt && a.outcome === 'failed')
  const flakySteps = r.passed
    ? [...new Set(earlier.flatMap((a) => a.failedSteps))].filter((i) => r.steps[i]?.passed).sort((x, y) => x - y)
    : []
  const flaky = r.passed && earlier.length > 0
  return {
    passed: r.passed,
    steps: r.steps,
    totalSteps: r.totalSteps,
    error: r.error,
    reports: r.reports,
    flaky,
    flakySteps,
    ...(flaky
      ? {
          error: `Flaky: failed on attempt ${earlier.map((a) => a.attempt).join(', ')}, passed on attempt ${r.attempt}${flakySteps.length ? ` (steps ${flakySteps.map((i) => i + 1).join(', ')})` : ''}.`,
        }
      : {}),
  }
}

/** Should a worker throw (so BullMQ retries) after this attempt? Pure. */
export function shouldRetry(r: SuiteJobResult, data: Pick<SuiteJobData, 'maxAttempts' | 'retryFailed'>): boolean {
  if (r.passed || r.attempt >= data.maxAttempts) return false
  return data.retryFailed || r.error !== null
}

/** Connection options of a `redis://[user:pass@]host:port[/db]` or `rediss://` URL (pure). */
export function parseRedisUrl(url: string): {
  host: string
  port: number
  db: number
  username?: string
  password?: string
  tls?: Record<string, never>
} {
  let u: URL | null = null
  try {
    u = new URL(url)
  } catch {
    u = null
  }
  if (!u || (u.protocol !== 'redis:' && u.protocol !== 'rediss:') || !u.hostname) {
    throw new ServerError('SERVER_BAD_OPTION', `--queue: expected redis://host:port, got "${url}".`, {
      hint: 'For example --queue redis://127.0.0.1:6379 (rediss:// for TLS).',
    })
  }
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0
  if (!Number.isInteger(db) || db < 0) {
    throw new ServerError('SERVER_BAD_OPTION', `--queue ${url}: the database "${u.pathname.slice(1)}" is not a number.`)
  }
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : 6379,
    db,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  }
}

/** Reconnect delay after `times` failed tries: exponential from 100 ms, capped at 5 s (ioredis retryStrategy). */
export const reconnectDelayMs = (times: number): number => Math.min(100 * 2 ** Math.min(times, 6), 5000)

/**
 * The files a case document references relative to its folder (screenshots, element crops): every string value
 * that is a relative image path inside the folder (@qa/model's `isCaseRelativePath`, the rule case validation
 * applies). Pure; paths with `..`, absolute paths and URLs are left out.
 */
export function referencedFiles(doc: unknown): string[] {
  const found = new Set<string>()
  const visit = (v: unknown) => {
    if (typeof v === 'string') {
      const p = v.replace(/\\/g, '/')
      if (/\.(png|jpe?g|webp|gif|bmp)$/i.test(p) && isCaseRelativePath(p) && !p.split('/').includes(''))
        found.add(p.replace(/^(\.\/)+/, ''))
    } else if (Array.isArray(v)) v.forEach(visit)
    else if (v && typeof v === 'object') Object.values(v).forEach(visit)
  }
  visit(doc)
  return [...found].sort()
}
