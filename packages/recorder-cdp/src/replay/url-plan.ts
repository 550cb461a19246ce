import type { JsonObject, TestCase } from '@qa/model'

/**
 * Where a replay goes: the start URL and every later recorded URL (navigate steps), given the options a person
 * passes. Pure, so the rules are property-tested:
 *
 * - `url` (`qa replay case.json --url …`, one case): the start URL, exactly as given (path, query, hash).
 *   Later recorded URLs on the recorded start's origin move onto the given URL's origin, keeping their own
 *   path, query and hash; URLs of other origins stay as recorded.
 * - `baseUrl` (`--base-url`, many cases at once, Playwright's word): every recorded URL on the case's recorded
 *   origin, the start included, moves onto the base: its origin, and its path as a prefix when it has one
 *   (`http://h:4000/app/` + recorded `/login?x` → `http://h:4000/app/login?x`).
 * - Both: the start is `url`; later URLs move onto the base.
 * - Neither: everything as recorded.
 */

export interface UrlPlanOptions {
  /** The case's recorded `start_url`, if any. */
  recordedStart?: string | null
  /** Start URL of this one case, used exactly as given. */
  url?: string | null
  /** Base URL that every recorded URL on the recorded origin moves onto. */
  baseUrl?: string | null
}

export interface UrlPlan {
  /** The URL the replay opens first, or null when there is none (no start_url, no --url, no --base-url). */
  start: string | null
  /** Where a recorded URL (a navigate step's, resolved against the recorded start) goes on this replay. */
  rebase(recorded: string): string
}

const parse = (u: string | null | undefined, base?: string): URL | null => {
  if (!u) return null
  try {
    return new URL(u, base)
  } catch {
    return null
  }
}

/** `recorded` moved onto `base`: base origin, base path as prefix, recorded path, query and hash. */
function onto(recorded: URL, base: URL): string {
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`
  const path = prefix === '/' ? recorded.pathname : `${prefix}${recorded.pathname.replace(/^\/+/, '')}`
  return `${base.origin}${path}${recorded.search}${recorded.hash}`
}

export function planUrls(opts: UrlPlanOptions): UrlPlan {
  const recordedStart = parse(opts.recordedStart)
  const base = parse(opts.baseUrl)
  const override = parse(opts.url)
  // The origin recorded URLs are recognised by: the recorded start's (a case without one has nothing to move).
  const recordedOrigin = recordedStart?.origin ?? null
  const rebase = (recorded: string): string => {
    const u = parse(recorded, recordedStart?.href)
    if (!u || !recordedOrigin || u.origin !== recordedOrigin) return recorded
    if (base) return onto(u, base)
    if (override) return `${override.origin}${u.pathname}${u.search}${u.hash}`
    return recorded
  }
  let start: string | null = null
  if (opts.url) start = opts.url
  else if (opts.recordedStart) start = rebase(opts.recordedStart)
  else if (opts.baseUrl) start = opts.baseUrl
  return { start, rebase }
}

/**
 * The older one-function form: a recorded URL moved to the override's origin when it is on the recorded
 * start's origin. Kept for callers of the 0.x API; `planUrls` is the rule.
 */
export function rebaseUrl(
  recorded: string,
  recordedStart: string | null | undefined,
  override: string | undefined,
): string {
  return planUrls({ recordedStart: recordedStart ?? recorded, url: override ?? null }).rebase(recorded)
}

/**
 * A case whose URLs follow the plan (for `qa import devtools --url/--base-url`, which writes the case for another
 * environment): `start_url` becomes the plan's start, and every other recorded URL on the recorded origin is
 * rebased: navigate steps, exact URL assertions, and what a DevTools step kept (the popup page it runs in, its
 * `target`; the URL of a step kept whole; asserted navigation events).
 */
export function rebaseCaseUrls(testCase: TestCase, opts: Omit<UrlPlanOptions, 'recordedStart'>): TestCase {
  if (!opts.url && !opts.baseUrl) return testCase
  const plan = planUrls({ recordedStart: testCase.startUrl ?? null, ...opts })
  const out = structuredClone(testCase)
  if (plan.start) out.startUrl = plan.start
  const absolute = (v: unknown): v is string => typeof v === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(v)
  for (const action of out.actions) {
    if (action.actionType === 'navigate' && action.url) action.url = plan.rebase(action.url)
    const assertion = action.assertion
    if (assertion?.kind === 'url' && (assertion.op ?? 'equals') === 'equals' && absolute(assertion.expected))
      assertion.expected = plan.rebase(assertion.expected)
    const kept = action.extra?.devtools
    if (!isObject(kept)) continue
    // `main` names the page the case started in; any other target is the URL of the popup the step runs in
    if (absolute(kept.target)) kept.target = plan.rebase(kept.target)
    const step = kept.step
    if (isObject(step)) {
      if (absolute(step.target)) step.target = plan.rebase(step.target)
      if (absolute(step.url)) step.url = plan.rebase(step.url)
      rebaseEvents(step.assertedEvents, plan)
    }
    rebaseEvents(kept.assertedEvents, plan)
  }
  return out
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** DevTools asserted events (`{ type: 'navigation', url, title }`): their URLs move too. */
function rebaseEvents(events: unknown, plan: UrlPlan): void {
  if (!Array.isArray(events)) return
  for (const e of events) if (isObject(e) && typeof e.url === 'string' && e.url) e.url = plan.rebase(e.url)
}
