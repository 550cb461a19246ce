import { type RunRequest, ServerError, type SuiteInfo } from '@qa/runner'

const KEYS = ['all', 'index', 'name'] as const

const describe = (v: unknown): string => {
  if (v === undefined) return 'missing'
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v)
  if (Array.isArray(v)) return 'an array'
  if (v === null) return 'null'
  return typeof v === 'object' ? 'an object' : String(v)
}

/**
 * Pure: validates a `POST /api/runs` body (`{all:true}` | `{index}` | `{name}`, exactly one) and picks the suites.
 * Throws SERVER_BAD_REQUEST on a malformed body, SERVER_SUITE_NOT_FOUND (with the suite names) on an unknown one.
 */
export function parseRunRequest(
  body: unknown,
  suites: readonly SuiteInfo[],
): { request: RunRequest; suites: SuiteInfo[] } {
  const hint = 'Send one of {"all":true}, {"index":0} or {"name":"<exact suite name>"} as JSON.'
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServerError('SERVER_BAD_REQUEST', `The run request must be a JSON object, got ${describe(body)}.`, {
      hint,
    })
  }
  const record = body as Record<string, unknown>
  const unknownKeys = Object.keys(record).filter((k) => !(KEYS as readonly string[]).includes(k))
  if (unknownKeys.length > 0) {
    throw new ServerError('SERVER_BAD_REQUEST', `Unknown field(s) in the run request: ${unknownKeys.join(', ')}.`, {
      hint,
    })
  }
  const given = KEYS.filter((k) => record[k] !== undefined)
  if (given.length !== 1) {
    throw new ServerError(
      'SERVER_BAD_REQUEST',
      given.length === 0
        ? 'The run request names nothing to run.'
        : `The run request has ${given.join(' and ')}; give exactly one.`,
      { hint },
    )
  }
  const names = suites.map((s) => s.name)
  if (given[0] === 'all') {
    if (record.all !== true) {
      throw new ServerError('SERVER_BAD_REQUEST', `all: expected true, got ${describe(record.all)}.`, { hint })
    }
    return { request: { all: true }, suites: [...suites] }
  }
  if (given[0] === 'index') {
    const index = record.index
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
      throw new ServerError('SERVER_BAD_REQUEST', `index: expected an integer ≥ 0, got ${describe(index)}.`, { hint })
    }
    const suite = suites[index]
    if (!suite) {
      throw new ServerError(
        'SERVER_SUITE_NOT_FOUND',
        `No suite has index ${index}; there are ${suites.length} (0–${Math.max(0, suites.length - 1)}).`,
        { hint: 'GET /api/suites lists them.', details: { names } },
      )
    }
    return { request: { index }, suites: [suite] }
  }
  const name = record.name
  if (typeof name !== 'string' || name.length === 0) {
    throw new ServerError('SERVER_BAD_REQUEST', `name: expected a non-empty string, got ${describe(name)}.`, { hint })
  }
  const suite = suites.find((s) => s.name === name)
  if (!suite) {
    throw new ServerError(
      'SERVER_SUITE_NOT_FOUND',
      `No suite is named ${describe(name)} (names match exactly). Suites: ${names.map((n) => JSON.stringify(n)).join(', ') || 'none'}.`,
      { hint: 'Use one of the listed names exactly, or {"index":n}.', details: { names } },
    )
  }
  return { request: { name }, suites: [suite] }
}
