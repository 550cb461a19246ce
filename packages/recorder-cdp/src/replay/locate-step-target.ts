import {
  describeAttempts,
  type LocateResult,
  locate,
  recordedTargetObjection,
  WEB_STRATEGIES,
  type WebStrategy,
} from '@qa/matcher'
import { type Action, isClickLike, type ReplayResult } from '@qa/model'
import { resolve } from 'node:path'
import type { Frame, Locator } from 'playwright-core'
import { type DevtoolsSelector, recordedDevtoolsSelectors } from '../devtools'
import { type DevtoolsSelectorKind, type GroupOutcome, resolveRecordedSelectors } from '../devtools-selectors'
import { WebError } from '../errors'
import { settle } from '../browser/settle'
import { targetLabel } from '../record/target-label'
import { decodeFrame } from '../browser/visual'
import { actOn, clickAt, dragBetween, rememberSecretField, secretOrText } from './act-on-target'
import { type PlaywrightCandidate, playwrightCandidateSource } from './candidate-source'
import type { StepContext } from './step-context'

/** Steps that act on an element: an imported one resolves the recording's selectors first. */
const ELEMENT_STEPS = new Set<Action['actionType']>(['click', 'double_click', 'right_click', 'hover', 'type', 'select'])

/** The recording's selectors of an imported step and what each group named at the last look. */
interface RecordedSelectors {
  selectors: DevtoolsSelector[]
  frame: number[]
  lastOutcomes: GroupOutcome[]
}

/** What each selector group named, for a failing step's reason. */
function describeGroups(outcomes: readonly GroupOutcome[]): string {
  if (outcomes.length === 0) return 'the recording names it by no selector'
  return outcomes
    .map((o) =>
      o.error
        ? `${o.selector} could not be evaluated (${o.error})`
        : o.count === 0
          ? `${o.selector} names nothing`
          : o.count > 1
            ? `${o.selector} names ${o.count} elements, the first not visible`
            : `${o.selector} names one element, not visible`,
    )
    .join('; ')
}

const methodOfKind = (kind: DevtoolsSelectorKind): ReplayResult['method'] =>
  kind === 'aria' ? 'role' : kind === 'xpath' ? 'xpath' : kind === 'text' ? 'text' : 'css'

/** At most this many strategies are set aside in one step because their element could not be acted on. */
const MAX_FAILED_STRATEGIES = 4

const isWebStrategy = (s: string): s is WebStrategy => (WEB_STRATEGIES as readonly string[]).includes(s)

/** The found element's box as a key (the same element answered by two strategies has one box), or null. */
function boxKey(found: LocateResult<PlaywrightCandidate>): string | null {
  const b = found.coordinateFallback ? null : found.element?.boundingBox
  return b ? `${Math.round(b.x)},${Math.round(b.y)},${Math.round(b.width)},${Math.round(b.height)}` : null
}

/**
 * Why the input on a found element failed, when that is the element's failure (Playwright could not click, fill
 * or hover it: not visible, not enabled, detached, covered, not fillable); null for our own refusals (a covered
 * target in a closed shadow root, a missing drop target), which fail the step.
 */
function actionFailure(error: unknown): string | null {
  if (error instanceof WebError) return null
  if (!(error instanceof Error)) return null
  return error.message.split('\n')[0] ?? error.message
}

/** Found by the first strategy the identity allows, exactly as recorded: nothing to heal. */
function foundAtOnce(found: LocateResult<PlaywrightCandidate>): boolean {
  if (found.status !== 'found') return false
  const first = found.attempts.find((a) => a.outcome !== 'skipped')
  return first !== undefined && first.outcome === 'matched' && first.strategy === found.strategy
}

/**
 * A step on an element (click, type, select, hover, drag): located by the recording's own selectors for an
 * imported step, else by the cascade over the live DOM (once more on the settled page when not found at once),
 * then acted on; an element that cannot be acted on sets its strategy aside and the cascade goes on. A step
 * recorded without a target is replayed at its recorded point. Returns how the target was located; throws when the
 * step cannot run.
 */
export async function runElementStep(
  ctx: StepContext,
  action: Action,
  result: ReplayResult,
): Promise<LocateResult<PlaywrightCandidate> | null> {
  const { page, opts, state, adaptive } = ctx
  const text = action.actionType === 'type' ? secretOrText(ctx, action) : null
  // A DevTools import: a selector of the recording that still names exactly one element is that element (the
  // person's own words outrank any similarity); the cascade heals only when none does
  const kept = ELEMENT_STEPS.has(action.actionType) ? recordedDevtoolsSelectors(action) : null
  const recorded: RecordedSelectors | null = kept ? { ...kept, lastOutcomes: [] } : null
  if (recorded) {
    const hit = await recordedTarget(ctx, action, recorded, result, { untilTimeout: false })
    if (hit) return actOn(ctx, action, result, hit, text)
  }
  // A recorded body/html (or an empty identity) matches any page: no strategy may answer for it.
  const notATarget = action.identity ? recordedTargetObjection(action.identity) : null
  if (recorded && (!action.identity || notATarget) && !opts.allowCoordinates) {
    // an imported step is never replayed at the recorded offset instead (that point is inside the element,
    // not on the page): it fails with what each selector of the recording named
    result.method = 'failed'
    throw new WebError(
      'WEB_ELEMENT_NOT_FOUND',
      `Element not found: ${targetLabel(action)}: ${describeGroups(recorded.lastOutcomes)}; no coordinate fallback for an imported step.`,
      {
        hint: 'Check the page; `qa replay --allow-coordinates` clicks the recorded point instead (reported as a warning).',
      },
    )
  }
  if (!action.identity || notATarget) {
    // A legacy step (only coordinates were recorded), a step recorded with no interactive element under the
    // point, or a recorded target that was not a real target: coordinates, and the report says why.
    const why = notATarget ?? action.warning
    if (why) result.warning = `${why}; replayed by coordinates`
    result.method = 'coordinate'
    result.actualCoords = { x: action.x, y: action.y }
    result.coordinateChange = { x: 0, y: 0 }
    // an imported step replayed by its point (asked for): an effect that went nowhere fails
    if (recorded && (isClickLike(action) || action.actionType === 'hover')) {
      const under = await page
        .evaluate(
          ([x, y]) => document.elementFromPoint(x as number, y as number)?.localName ?? null,
          [action.x, action.y],
        )
        .catch(() => null)
      if (under === null || under === 'html' || under === 'body') {
        result.method = 'failed'
        throw new WebError(
          'WEB_ELEMENT_NOT_FOUND',
          `Element not found: ${targetLabel(action)}: ${describeGroups(recorded.lastOutcomes)}; the recorded point (${action.x}, ${action.y}) is on ${under ? `<${under}>` : 'nothing'}, the page itself, so the step was not done.`,
        )
      }
    }
    if (action.actionType === 'drag') await dragBetween(ctx, action, { x: action.x, y: action.y })
    else if (isClickLike(action) || action.actionType === 'hover') await clickAt(ctx, action, action.x, action.y)
    else if (action.actionType === 'type') {
      if (recorded && !(await page.evaluate(focusedFieldTakesText).catch(() => false))) {
        result.method = 'failed'
        throw new WebError(
          'WEB_ELEMENT_NOT_FOUND',
          `Element not found: ${targetLabel(action)}: ${describeGroups(recorded.lastOutcomes)}; no field has the focus, so typing would change nothing.`,
        )
      }
      await page.keyboard.type(text ?? '')
    }
    await rememberSecretField(ctx, action)
    return null
  }
  const cropPath = action.elementCropPath ? resolve(opts.caseDir, action.elementCropPath) : null
  const loadElementCrop = cropPath ? () => decodeFrame(cropPath).catch(() => null) : null
  const identity = action.identity
  /** Strategies whose element could not be acted on in this step, with why (each is that strategy's failure). */
  const failed = new Map<WebStrategy, string>()
  /** The boxes of those elements: another strategy answering with the same element is not tried on it again. */
  const failedBoxes: string[] = []
  const locateHere = () =>
    locate(
      identity,
      playwrightCandidateSource(page, {
        framePath: identity.framePath ?? null,
        shadowPath: identity.shadowPath ?? null,
        loadElementCrop,
      }),
      {
        selectors: action.selectors ?? null,
        coordinates: { x: action.x, y: action.y },
        ...opts.locate,
        ...(failed.size ? { failed } : {}),
      },
    )
  for (let round = 0; ; round++) {
    let found = await locateHere()
    if (failed.size === 0 && adaptive && !state.quick && !foundAtOnce(found)) {
      // Not the recorded element at once: the page may still be changing from the last step. Heal (or give
      // up) only on the settled page.
      await settle(page, opts.settleQuietMs)
      found = await locateHere()
    }
    if (found.status !== 'found' && action.operates && !recordedTargetObjection(action.operates)) {
      // The clicked label or styled part is gone: the control it operates stands in (clicked as a person would).
      const control = action.operates
      const viaControl = await locate(
        control,
        playwrightCandidateSource(page, {
          framePath: control.framePath ?? null,
          shadowPath: control.shadowPath ?? null,
        }),
        {
          coordinates: null,
          ...opts.locate,
        },
      )
      if (viaControl.status === 'found') {
        found = {
          ...viaControl,
          attempts: [
            ...found.attempts,
            ...viaControl.attempts.map((a) => ({ ...a, detail: `operated control: ${a.detail ?? a.outcome}` })),
          ],
        }
        result.warning = `the clicked ${targetLabel(action)} was not found; clicked the control it operates`
      }
    }
    result.strategiesTried = found.attempts
    result.matchConfidence = found.confidence
    if ((found.status !== 'found' || !found.point) && recorded && round === 0) {
      // nothing healed: the recording's selectors get the step's whole timeout, as in the reference
      const late = await recordedTarget(ctx, action, recorded, result, { untilTimeout: true })
      if (late) return actOn(ctx, action, result, late, text)
    }
    if (found.status !== 'found' || !found.point) {
      result.method = 'failed'
      throw new WebError(
        'WEB_ELEMENT_NOT_FOUND',
        `Element not found: ${targetLabel(action)} (tried ${describeAttempts(found.attempts)}).`,
      )
    }
    const box = boxKey(found)
    if (box !== null && failedBoxes.includes(box) && isWebStrategy(found.strategy) && !failed.has(found.strategy)) {
      // another strategy answered with the element that could not be acted on: its failure too
      const [first, why] = [...failed.entries()][0] ?? ['an earlier strategy', 'it could not be acted on']
      failed.set(found.strategy, `the element the ${first} strategy found, which ${why.replace(/^its element /, '')}`)
      continue
    }
    try {
      return await actOn(ctx, action, result, { ...found, point: found.point }, text)
    } catch (error) {
      const why = actionFailure(error)
      if (why === null || page.isClosed() || found.coordinateFallback || !isWebStrategy(found.strategy)) throw error
      if (failed.has(found.strategy) || failed.size >= MAX_FAILED_STRATEGIES) throw error
      // the element this strategy matched could not be acted on: the cascade goes on with the next strategy
      failed.set(found.strategy, `its element could not be acted on: ${why}`)
      if (box !== null) failedBoxes.push(box)
    }
  }
}

/** The frame a DevTools step names by indices (`frame: [0, 2]`: the first iframe's third iframe). */
function frameOf(ctx: StepContext, indices: readonly number[]): Frame | null {
  const { page } = ctx
  let f: Frame | undefined = page.mainFrame()
  for (const i of indices) f = f?.childFrames()[i]
  return f ?? null
}

/**
 * The element the recording's own selectors name (the first group naming exactly one visible element), looked
 * for now and, when none does, once more on the settled page; with `untilTimeout`, polled until the step's
 * timeout as the reference waits. A located result that `actOn` takes, or null (`recorded.lastOutcomes` says why).
 */
async function recordedTarget(
  ctx: StepContext,
  action: Action,
  recorded: RecordedSelectors,
  result: ReplayResult,
  how: { untilTimeout: boolean },
): Promise<(LocateResult<PlaywrightCandidate> & { point: { x: number; y: number } }) | null> {
  const { page, opts, timeout, state, adaptive } = ctx
  const started = performance.now()
  const deadline = Date.now() + (how.untilTimeout ? timeout : 0)
  for (let attempt = 0; ; attempt++) {
    const frame = frameOf(ctx, recorded.frame)
    const { hit, outcomes } = frame
      ? await resolveRecordedSelectors(page, frame, recorded.selectors).catch(() => ({
          hit: null,
          outcomes: [] as GroupOutcome[],
        }))
      : { hit: null, outcomes: [] as GroupOutcome[] }
    recorded.lastOutcomes = outcomes
    if (hit) {
      await hit.handle.scrollIntoViewIfNeeded({ timeout }).catch(() => undefined)
      const box = await hit.handle.boundingBox().catch(() => null)
      const point = box ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : { x: action.x, y: action.y }
      const found: LocateResult<PlaywrightCandidate> & { point: { x: number; y: number } } = {
        status: 'found',
        strategy: methodOfKind(hit.kind),
        confidence: 1,
        coordinateFallback: false,
        point,
        element: {
          handle: hit.handle as unknown as Locator,
          ...(box ? { boundingBox: box } : {}),
        },
        attempts: [
          {
            strategy: 'devtools_selectors',
            outcome: 'matched',
            candidates: 1,
            confidence: 1,
            durationMs: Math.round(performance.now() - started),
            detail: `the recording's selector ${outcomes[hit.group]?.selector ?? hit.group} names ${(outcomes[hit.group]?.count ?? 1) > 1 ? `${outcomes[hit.group]?.count} elements; the first, as @puppeteer/replay takes it, is this element` : 'exactly this element'}`,
          },
        ],
      }
      result.strategiesTried = found.attempts
      result.matchConfidence = 1
      return found
    }
    if (!how.untilTimeout) {
      if (attempt > 0 || state.quick || !adaptive) return null
      await settle(page, opts.settleQuietMs)
      continue
    }
    if (Date.now() > deadline) return null
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Page function: whether the focused element takes typed text (a text field, a textarea, an editable element). */
function focusedFieldTakesText(): boolean {
  let e: Element | null = document.activeElement
  while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement
  if (!e || e === document.body || e === document.documentElement) return false
  if (e instanceof HTMLTextAreaElement) return !e.readOnly && !e.disabled
  if (e instanceof HTMLInputElement)
    return (
      !e.readOnly &&
      !e.disabled &&
      !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color', 'hidden'].includes(e.type)
    )
  return (e as HTMLElement).isContentEditable
}
