import { countMatches, type LocateOptions, type LocateResult, locate } from '@qa/matcher'
import {
  type Action,
  type Assertion,
  type AssertionCheck,
  type AssertionObservation,
  checkAssertion,
  hasAssertionTarget,
  type JsonValue,
} from '@qa/model'
import type { Frame, Locator, Page } from 'playwright-core'
import { type PlaywrightCandidate, playwrightCandidateSource } from './candidate-source'
import { recordedDevtoolsSelectors } from '../devtools'
import { resolveRecordedSelectors } from '../devtools-selectors'

/** Looks at the page once for an assertion (the port `pollAssertion` drives; a fake in unit tests). */
export interface AssertionProbe {
  observe(): Promise<AssertionObservation>
}

export interface PollAssertionOptions {
  timeoutMs: number
  /** Waits between looks, as Playwright's `expect` polls (the last one repeats). Default 100, 250, 500, 1000. */
  intervalsMs?: readonly number[]
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

export interface PolledAssertion extends AssertionCheck {
  observation: AssertionObservation
  /** How many times the page was looked at. */
  looks: number
}

const DEFAULT_INTERVALS = [100, 250, 500, 1000]

/**
 * Looks at the page until the assertion holds or the timeout passes (at least once, and once more at the
 * deadline), as Playwright's `expect` does: a page still updating from the last step gets its time.
 */
export async function pollAssertion(
  assertion: Assertion,
  probe: AssertionProbe,
  opts: PollAssertionOptions,
): Promise<PolledAssertion> {
  const now = opts.now ?? (() => performance.now())
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const intervals = opts.intervalsMs ?? DEFAULT_INTERVALS
  const deadline = now() + opts.timeoutMs
  let looks = 0
  for (;;) {
    const observation = await probe.observe().catch(
      (e: unknown): AssertionObservation => ({
        found: false,
        error: e instanceof Error ? (e.message.split('\n')[0] ?? String(e)) : String(e),
      }),
    )
    looks++
    const check = checkAssertion(assertion, observation)
    const left = deadline - now()
    if (check.holds || left <= 0) return { ...check, observation, looks }
    await sleep(Math.min(intervals[Math.min(looks - 1, intervals.length - 1)] ?? 1000, left))
  }
}

export interface PageAssertionProbeOptions {
  locate?: LocateOptions
}

/** What the page probe last located (for the report's strategy and coordinates). */
export interface PageAssertionProbe extends AssertionProbe {
  readonly located: LocateResult<PlaywrightCandidate> | null
  /** The exact key that counted elements (count/hidden). */
  readonly countedBy: string | null
}

const READ_TIMEOUT_MS = 1_000

async function readElement(kind: Assertion['kind'], handle: Locator): Promise<AssertionObservation> {
  const visible = await handle.isVisible()
  switch (kind) {
    case 'text':
      // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees is what is asserted
      return { found: true, visible, text: await handle.innerText({ timeout: READ_TIMEOUT_MS }) }
    case 'value': {
      const value = await handle
        .inputValue({ timeout: READ_TIMEOUT_MS })
        .catch(() => handle.evaluate((el) => (el as HTMLElement).getAttribute('value') ?? el.textContent ?? ''))
      return { found: true, visible, value }
    }
    case 'checked':
      return { found: true, visible, checked: await handle.isChecked({ timeout: READ_TIMEOUT_MS }) }
    default:
      return { found: true, visible }
  }
}

/** Runs in the page: the expression's truthiness and its value as JSON (or as a string when it has none). */
const EXPRESSION_WRAPPER = (expression: string) =>
  `(async () => { const v = await (${expression}); let json; try { json = JSON.stringify(v) } catch { json = undefined } return { truthy: !!v, json: json === undefined ? String(v) : json } })()`

function parsedOr<T>(json: string, fallback: T): JsonValue | T {
  try {
    return JSON.parse(json) as JsonValue
  } catch {
    return fallback
  }
}

/**
 * The live page as an assertion probe: the target is located by the healing cascade (visible, text, value,
 * checked) or counted by its exact keys (count, hidden); the URL and in-page expressions are read directly.
 */
export function pageAssertionProbe(
  page: () => Page,
  action: Action,
  opts: PageAssertionProbeOptions = {},
): PageAssertionProbe {
  const assertion = action.assertion as Assertion
  const identity = action.identity
  let located: LocateResult<PlaywrightCandidate> | null = null
  let countedBy: string | null = null
  const source = () => playwrightCandidateSource(page(), { framePath: identity?.framePath ?? null })
  return {
    get located() {
      return located
    },
    get countedBy() {
      return countedBy
    },
    async observe() {
      const p = page()
      switch (assertion.kind) {
        case 'url': {
          // `equals "/cart"` (a path) compares with the page's path, query and hash
          const expected = String(assertion.expected ?? '')
          const here = new URL(p.url())
          const url =
            expected.startsWith('/') && (assertion.op ?? 'equals') === 'equals'
              ? `${here.pathname}${here.search}${here.hash}`
              : p.url()
          return { found: true, url }
        }
        case 'expression': {
          const r = (await p.evaluate(EXPRESSION_WRAPPER(String(assertion.expected ?? '')))) as {
            truthy: boolean
            json: string
          }
          const value = parsedOr(r.json, r.truthy ? r.json : null)
          return { found: true, expressionValue: r.truthy && !value ? r.json : value }
        }
        default:
          break
      }
      if (!identity || !hasAssertionTarget(assertion.kind))
        return { found: false, error: 'the assert step has no recorded target' }
      if (assertion.kind === 'count' || assertion.kind === 'hidden') {
        const counted = await countMatches(identity, source(), { selectors: action.selectors ?? null })
        countedBy = counted.strategy
        if (assertion.kind === 'hidden')
          return { found: counted.visibleByAnyKey > 0 || counted.count > 0, visible: counted.visibleByAnyKey > 0 }
        return { found: counted.count > 0, count: counted.count }
      }
      // imported from DevTools: a selector of the recording that names exactly one element is that element
      const recorded = recordedDevtoolsSelectors(action)
      if (recorded) {
        let frame: Frame | undefined = p.mainFrame()
        for (const i of recorded.frame) frame = frame?.childFrames()[i]
        const { hit } = frame
          ? await resolveRecordedSelectors(p, frame, recorded.selectors).catch(() => ({ hit: null }))
          : { hit: null }
        if (hit) {
          const box = await hit.handle.boundingBox().catch(() => null)
          located = {
            status: 'found',
            strategy: 'css',
            confidence: 1,
            coordinateFallback: false,
            ...(box ? { point: { x: box.x + box.width / 2, y: box.y + box.height / 2 } } : {}),
            element: { handle: hit.handle as unknown as Locator, ...(box ? { boundingBox: box } : {}) },
            attempts: [{ strategy: 'devtools_selectors', outcome: 'matched', candidates: 1, confidence: 1 }],
          }
          return readElement(assertion.kind, hit.handle as unknown as Locator)
        }
      }
      // a located element may be re-rendered between looks: locate it again each time
      const found = await locate(identity, source(), {
        selectors: action.selectors ?? null,
        coordinates: { x: action.x, y: action.y },
        ...opts.locate,
      })
      located = found
      const handle = found.status === 'found' && !found.coordinateFallback ? found.element?.handle : undefined
      if (!handle) {
        // not found as an actionable element: is it there, but hidden?
        const counted = await countMatches(identity, source(), { selectors: action.selectors ?? null })
        if (counted.count > 0 && counted.visible === 0) return { found: true, visible: false }
        return { found: false }
      }
      return readElement(assertion.kind, handle)
    },
  }
}
