import { describeAttempts, type LocateOptions, type LocateResult, locate, recordedTargetObjection } from '@qa/matcher'
import type { Action, ElementIdentity, Selectors, StrategyAttempt } from '@qa/model'
import {
  type PlaywrightCandidate,
  pageAssertionProbe,
  playwrightCandidateSource,
  pollAssertion,
  resolveFrameScope,
  settle,
  decodeFrame,
  maskedScreenshot,
} from '@qa/recorder-cdp'
import { resolve } from 'node:path'
import type { FrameLocator, Locator, Page } from 'playwright-core'
import { PlaywrightQaError } from './errors'
import { rememberActedStep } from './internal/step-memory'
import { type CaseRef, loadRecordedCase, recordedAction } from './recorded-case'
import { attachJson, inStep } from './test-info'

/** What a heal attachment (`qa-heal`) holds: which strategy found the element, how sure, and every try. */
export interface HealRecord {
  /** `button "로그인"` */
  target: string
  caseFile: string | null
  actionIndex: number | null
  strategy: string
  confidence: number
  /** True when the first strategy the identity allows did not find it: the page changed and we healed. */
  healed: boolean
  /** The Playwright locator handed out (`getByRole('button', { name: '로그인하기', exact: true })`). */
  locator: string
  /** False when no unique role/test-id/CSS locator pointed at the element: it is re-located before every action. */
  stable: boolean
  attempts: StrategyAttempt[]
}

export interface HealOptions {
  /** Options of the matcher's cascade (floors, weights). */
  locate?: LocateOptions
  /** How long to keep looking while the page is still rendering (default 5000 ms). */
  timeoutMs?: number
  /** Attach each heal to the running test as `qa-heal` (default true). */
  attach?: boolean
}

export interface IdentityOptions {
  selectors?: Selectors | null
  /** Where the element was at recording (the coordinates prior; default: the identity's box centre). */
  coordinates?: { x: number; y: number } | null
}

type Scope = Page | FrameLocator
type Role = Parameters<Page['getByRole']>[0]

interface Target {
  identity: ElementIdentity
  selectors: Selectors | null
  coordinates: { x: number; y: number } | null
  elementCropPath: string | null
  caseFile: string | null
  actionIndex: number | null
  action: Action | null
}

function labelOf(identity: ElementIdentity): string {
  const name = identity.axName || identity.ariaLabel || identity.textContent || identity.placeholder || identity.name
  return `${identity.axRole || identity.tagName}${name ? ` "${name.slice(0, 60)}"` : ''}`
}

/** Found by the first strategy the identity allows: nothing was healed. */
function foundAtOnce(found: LocateResult<PlaywrightCandidate>): boolean {
  if (found.status !== 'found') return false
  const first = found.attempts.find((a) => a.outcome !== 'skipped')
  return first !== undefined && first.outcome === 'matched' && first.strategy === found.strategy
}

const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`

/** Locators that name the element the way the winning strategy did, most readable first. */
function namedLocators(scope: Scope, found: LocateResult<PlaywrightCandidate>): Locator[] {
  const el = found.element
  if (!el) return []
  const byRole = el.axRole && el.axName ? scope.getByRole(el.axRole as Role, { name: el.axName, exact: true }) : null
  const byTestId = el.dataTestId ? scope.getByTestId(el.dataTestId) : null
  const byId = el.id ? scope.locator(`[id=${quote(el.id)}]`) : null
  const byName = el.name ? scope.locator(`${el.tagName || ''}[name=${quote(el.name)}]`) : null
  const byLabel = !byRole && el.ariaLabel ? scope.locator(`[aria-label=${quote(el.ariaLabel)}]`) : null
  const order =
    found.strategy === 'test_id'
      ? [byTestId, byRole, byId, byName]
      : found.strategy === 'css' || found.strategy === 'xpath'
        ? [byId, byTestId, byRole, byName]
        : found.strategy === 'name'
          ? [byName, byRole, byTestId, byId]
          : [byRole, byTestId, byId, byName]
  return [...order, byLabel].filter((l): l is Locator => l !== null)
}

/** Does `candidate` resolve to exactly the element `target` holds? */
async function isExactly(candidate: Locator, target: Locator): Promise<boolean> {
  if ((await candidate.count().catch(() => 0)) !== 1) return false
  const handle = await target.elementHandle({ timeout: 1_000 }).catch(() => null)
  if (!handle) return false
  try {
    return await candidate.evaluate((a, b) => a === b, handle)
  } catch {
    return false
  } finally {
    await handle.dispose().catch(() => undefined)
  }
}

/**
 * An element found by qa's healing cascade, with a Playwright locator for it. The locator is built from the
 * strategy that won (getByRole, getByTestId, a CSS id/name selector) whenever that is unique, so it keeps
 * pointing at the element when the page re-renders; actions re-run the cascade when it no longer resolves to
 * exactly one element.
 */
export class HealedStep {
  #page: Page
  #target: Target
  #opts: HealOptions
  #result: LocateResult<PlaywrightCandidate>
  #locator: Locator
  #stable: boolean

  /** @internal use `heal(page).fromCase(…)` or `heal(page).identity(…)` */
  constructor(page: Page, target: Target, opts: HealOptions, found: Located) {
    this.#page = page
    this.#target = target
    this.#opts = opts
    this.#result = found.result
    this.#locator = found.locator
    this.#stable = found.stable
  }

  /** The Playwright locator for the element (use it with `expect(step.locator).toBeVisible()` and the like). */
  get locator(): Locator {
    return this.#locator
  }
  /** The strategy that found the element (`role`, `test_id`, `css`, `similarity`, …). */
  get strategy(): string {
    return this.#result.strategy
  }
  /** 0–1. */
  get confidence(): number {
    return this.#result.confidence
  }
  get attempts(): StrategyAttempt[] {
    return this.#result.attempts
  }
  get result(): LocateResult<PlaywrightCandidate> {
    return this.#result
  }
  /** True when the first strategy did not find the element: the page changed and the element was healed. */
  get healed(): boolean {
    return !foundAtOnce(this.#result)
  }
  /** False when only a positional locator pointed at the element: it is located again before every action. */
  get stable(): boolean {
    return this.#stable
  }

  /** The locator, located again first when it no longer resolves to exactly one element (or was positional). */
  async current(): Promise<Locator> {
    if (this.#stable && (await this.#locator.count().catch(() => 0)) === 1) return this.#locator
    const again = await locateTarget(this.#page, this.#target, this.#opts)
    this.#result = again.result
    this.#locator = again.locator
    this.#stable = again.stable
    return this.#locator
  }

  /**
   * Runs an action on the current locator. For a step of a case, the screen just before it and where the element
   * is now are kept for `toMatchRecordedStep`, which then verifies the step as the replay does.
   */
  async #act(run: (locator: Locator) => Promise<void>): Promise<void> {
    const locator = await this.current()
    const { caseFile, actionIndex } = this.#target
    const before = caseFile && actionIndex !== null ? await maskedScreenshot(this.#page).catch(() => null) : null
    await run(locator)
    if (!caseFile || actionIndex === null) return
    const box = this.#result.element?.boundingBox ?? null
    const then = this.#target.identity.boundingBox
    rememberActedStep(this.#page, {
      caseFile,
      actionIndex,
      before,
      box,
      displacement: box && then ? { x: Math.round(box.x - then.x), y: Math.round(box.y - then.y) } : { x: 0, y: 0 },
    })
  }

  async click(opts?: Parameters<Locator['click']>[0]): Promise<void> {
    await this.#act((l) => l.click(opts))
  }
  async dblclick(opts?: Parameters<Locator['dblclick']>[0]): Promise<void> {
    await this.#act((l) => l.dblclick(opts))
  }
  async fill(value: string, opts?: Parameters<Locator['fill']>[1]): Promise<void> {
    await this.#act((l) => l.fill(value, opts))
  }
  async check(opts?: Parameters<Locator['check']>[0]): Promise<void> {
    await this.#act((l) => l.check(opts))
  }
  async hover(opts?: Parameters<Locator['hover']>[0]): Promise<void> {
    await this.#act((l) => l.hover(opts))
  }
  async press(key: string, opts?: Parameters<Locator['press']>[1]): Promise<void> {
    await this.#act((l) => l.press(key, opts))
  }
  async selectOption(values: Parameters<Locator['selectOption']>[0]): Promise<void> {
    await this.#act(async (l) => {
      await l.selectOption(values)
    })
  }

  /** The heal as attached to the test (`qa-heal`). */
  toRecord(): HealRecord {
    return healRecord(this.#target, this.#result, this.#locator, this.#stable)
  }
}

function healRecord(
  target: Target,
  result: LocateResult<PlaywrightCandidate>,
  locator: Locator | null,
  stable: boolean,
): HealRecord {
  return {
    target: labelOf(target.identity),
    caseFile: target.caseFile,
    actionIndex: target.actionIndex,
    strategy: result.strategy,
    confidence: result.confidence,
    healed: !foundAtOnce(result),
    locator: locator ? String(locator) : '',
    stable,
    attempts: result.attempts,
  }
}

interface Located {
  result: LocateResult<PlaywrightCandidate>
  locator: Locator
  stable: boolean
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

function locateTarget(page: Page, target: Target, opts: HealOptions): Promise<Located> {
  return inStep(`heal ${labelOf(target.identity)}`, () => locateTargetNow(page, target, opts))
}

async function locateTargetNow(page: Page, target: Target, opts: HealOptions): Promise<Located> {
  const identity = target.identity
  const cropPath = target.elementCropPath
  const run = () =>
    locate(
      identity,
      playwrightCandidateSource(page, {
        framePath: identity.framePath ?? null,
        loadElementCrop: cropPath ? () => decodeFrame(cropPath).catch(() => null) : null,
      }),
      {
        selectors: target.selectors,
        coordinates: target.coordinates,
        ...opts.locate,
        // never the recorded point: a look-alike under it is worse than "not found"
        allowCoordinateFallback: false,
      },
    )
  const deadline = performance.now() + (opts.timeoutMs ?? 5_000)
  let found = await run()
  if (!foundAtOnce(found)) {
    // the page may still be changing: heal (or give up) only on a settled page
    await settle(page).catch(() => undefined)
    found = await run()
  }
  while (found.status !== 'found' && performance.now() < deadline) {
    await sleep(250)
    found = await run()
  }
  const handle = found.element?.handle
  if (found.status !== 'found' || !handle || found.coordinateFallback) {
    if (opts.attach !== false) await attachJson('qa-heal', healRecord(target, found, null, false))
    throw new PlaywrightQaError(
      'PW_ELEMENT_NOT_FOUND',
      `No element matches ${labelOf(identity)}${target.caseFile ? ` (${target.caseFile}, actions[${target.actionIndex}])` : ''} (tried ${describeAttempts(found.attempts)}).`,
      { hint: 'The element is gone or changed beyond recognition; nothing was clicked. Record the step again.' },
    )
  }
  const scope = await resolveFrameScope(page, identity.framePath ?? [])
  let locator = handle
  let stable = false
  for (const named of namedLocators(scope, found)) {
    if (await isExactly(named, handle)) {
      locator = named
      stable = true
      break
    }
  }
  if (opts.attach !== false) await attachJson('qa-heal', healRecord(target, found, locator, stable))
  return { result: found, locator, stable }
}

/** A step being located: await it for the `HealedStep`, or act on it at once (`await heal(page).fromCase(c, 2).click()`). */
export interface PendingStep extends Promise<HealedStep> {
  click(opts?: Parameters<Locator['click']>[0]): Promise<void>
  dblclick(opts?: Parameters<Locator['dblclick']>[0]): Promise<void>
  fill(value: string, opts?: Parameters<Locator['fill']>[1]): Promise<void>
  check(opts?: Parameters<Locator['check']>[0]): Promise<void>
  hover(opts?: Parameters<Locator['hover']>[0]): Promise<void>
  press(key: string, opts?: Parameters<Locator['press']>[1]): Promise<void>
  selectOption(values: Parameters<Locator['selectOption']>[0]): Promise<void>
  /** The locator of the located element. */
  locator(): Promise<Locator>
  /**
   * A recorded `assert` step: the target located by the same cascade, the condition polled until `timeoutMs`
   * (default 5000); throws with expected and actual when it does not hold.
   */
  assert(opts?: { timeoutMs?: number }): Promise<void>
}

function pending(step: Promise<HealedStep>, assert: PendingStep['assert']): PendingStep {
  // the promise is observed by whichever method is used; unhandled rejections surface through it
  return Object.assign(step, {
    click: (o?: Parameters<Locator['click']>[0]) => step.then((s) => s.click(o)),
    dblclick: (o?: Parameters<Locator['dblclick']>[0]) => step.then((s) => s.dblclick(o)),
    fill: (v: string, o?: Parameters<Locator['fill']>[1]) => step.then((s) => s.fill(v, o)),
    check: (o?: Parameters<Locator['check']>[0]) => step.then((s) => s.check(o)),
    hover: (o?: Parameters<Locator['hover']>[0]) => step.then((s) => s.hover(o)),
    press: (k: string, o?: Parameters<Locator['press']>[1]) => step.then((s) => s.press(k, o)),
    selectOption: (v: Parameters<Locator['selectOption']>[0]) => step.then((s) => s.selectOption(v)),
    locator: () => step.then((s) => s.current()),
    assert,
  })
}

export interface Healer {
  /** The element of a recorded step: `actions[index]` (0-based) of a case file (path relative to the spec file). */
  fromCase(ref: CaseRef, index: number): PendingStep
  /** The element an identity describes (as stored in a case file's `identity`, in camelCase). */
  identity(identity: ElementIdentity, opts?: IdentityOptions): PendingStep
}

async function targetFromCase(ref: CaseRef, index: number): Promise<Target> {
  const recorded = await loadRecordedCase(ref)
  const action = recordedAction(recorded, index)
  const identity = action.identity
  const objection = identity ? recordedTargetObjection(identity) : 'the step has no element identity'
  if (!identity || objection) {
    throw new PlaywrightQaError(
      'PW_NO_IDENTITY',
      `${recorded.file}: actions[${index}] (${action.actionType}) cannot be healed: ${objection}.`,
      { hint: 'Enrich the case (`qa enrich`) or record the step again with `qa record web`.' },
    )
  }
  return {
    identity,
    selectors: action.selectors ?? null,
    coordinates: { x: action.x, y: action.y },
    elementCropPath: action.elementCropPath ? resolve(recorded.dir, action.elementCropPath) : null,
    caseFile: recorded.file,
    actionIndex: index,
    action,
  }
}

/**
 * qa's self-healing inside a Playwright test: `await heal(page).fromCase('cases/login.json', 3).click()`.
 * The element is found by the same cascade `qa replay` uses (role+name → aria-label → name → test id →
 * CSS/XPath → text → similarity → visual), never by the recorded coordinates; a step whose element is gone
 * throws PW_ELEMENT_NOT_FOUND rather than clicking a look-alike. Each heal is attached to the test (`qa-heal`).
 */
export function heal(page: Page, opts: HealOptions = {}): Healer {
  return {
    fromCase(ref, index) {
      const target = targetFromCase(ref, index)
      const step = target.then(async (t) => new HealedStep(page, t, opts, await locateTarget(page, t, opts)))
      return pending(step, async (o) => {
        const t = await target
        const action = t.action
        if (action?.actionType !== 'assert' || !action.assertion) {
          throw new PlaywrightQaError(
            'PW_NO_ASSERTION',
            `${t.caseFile}: actions[${t.actionIndex}] is a ${action?.actionType} step, not an assertion.`,
          )
        }
        await step.catch(() => undefined) // the assertion locates on its own (a hidden target is not found)
        await assertRecorded(page, action, o?.timeoutMs ?? opts.timeoutMs ?? 5_000, opts.locate)
      })
    },
    identity(identity, o = {}) {
      const box = identity.boundingBox
      const target: Target = {
        identity,
        selectors: o.selectors ?? null,
        coordinates: o.coordinates ?? (box ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : null),
        elementCropPath: null,
        caseFile: null,
        actionIndex: null,
        action: null,
      }
      const step = locateTarget(page, target, opts).then((found) => new HealedStep(page, target, opts, found))
      return pending(step, async () => {
        throw new PlaywrightQaError('PW_NO_ASSERTION', 'heal(page).identity(…) has no recorded assertion to check.', {
          hint: 'Use expect(step.locator) with a Playwright assertion.',
        })
      })
    },
  }
}

/** Polls a recorded assertion on the page (the replayer's own probe); throws with expected and actual. */
export async function assertRecorded(
  page: Page,
  action: Action,
  timeoutMs: number,
  locateOptions?: LocateOptions,
): Promise<void> {
  const assertion = action.assertion
  if (!assertion) throw new PlaywrightQaError('PW_NO_ASSERTION', `${action.description}: the step has no assertion.`)
  const probe = pageAssertionProbe(() => page, action, locateOptions ? { locate: locateOptions } : {})
  const polled = await pollAssertion(assertion, probe, { timeoutMs })
  if (!polled.holds) {
    throw new PlaywrightQaError(
      'PW_CASE_FAILED',
      `Recorded assertion failed (${action.description}): expected ${polled.expected}, actual ${polled.actual}.`,
    )
  }
}
