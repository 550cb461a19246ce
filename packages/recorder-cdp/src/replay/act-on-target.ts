import { describeAttempts, type LocateResult, locate, recordedTargetObjection } from '@qa/matcher'
import type { Action, KeyModifier, ReplayResult } from '@qa/model'
import type { Locator } from 'playwright-core'
import { closedShadowTargetOf } from '../browser/cdp-closed-shadow'
import { createCdpIdentityReader } from '../browser/cdp-identity'
import { secretFieldsOf } from '../browser/cdp-secret-fields'
import { clickSideButton } from '../browser/cdp-side-buttons'
import { WebError } from '../errors'
import { clickAsAPerson, pointOnTheElement } from '../browser/styled-control'
import { targetLabel } from '../record/target-label'
import { type PlaywrightCandidate, playwrightCandidateSource } from './candidate-source'
import { aimAtCentre, HOVERABLE, scrollIntoViewWhenOut } from './pointer-aim'
import type { StepContext } from './step-context'

const round = (v: number) => Math.round(v)

/** Acts on the element the cascade found (the input of the step); throws when it cannot. */
export async function actOn(
  ctx: StepContext,
  action: Action,
  result: ReplayResult,
  target: LocateResult<PlaywrightCandidate> & { point: { x: number; y: number } },
  text: string | null,
): Promise<LocateResult<PlaywrightCandidate>> {
  const { page, opts, timeout, state } = ctx
  let found = target
  result.method = found.strategy
  // A verified step's target out of view is scrolled in first, and the screen before is taken again (the scroll
  // is not the step's change; the recording saw the target where the person clicked it).
  if (opts.verify && found.element?.handle && !found.coordinateFallback && found.strategy !== 'visual')
    found = await scrolledIntoView(ctx, found)
  result.actualCoords = { x: round(found.point.x), y: round(found.point.y) }
  result.coordinateChange = { x: round(found.point.x) - action.x, y: round(found.point.y) - action.y }
  if (opts.verify && !found.coordinateFallback && found.attempts[0]?.outcome !== 'matched') {
    // Capture the live identity now, before the input changes the page, in case the heal is learnt.
    state.reader ??= await createCdpIdentityReader(page)
    state.pendingIdentity = await state.reader.atPoint(found.point.x, found.point.y).catch(() => null)
  }
  const handle: Locator | undefined = found.element?.handle
  // A visual hit clicks the matched pixels: the element under them only vouches for the place, and it may be a
  // container (gentelella's segmented "Private | Team | Public" group, whose centre is "Team").
  const atThePixels = found.strategy === 'visual' && action.actionType !== 'type' && action.actionType !== 'select'
  if (action.actionType === 'drag') {
    await dragBetween(ctx, action, found.point, found.coordinateFallback || atThePixels ? undefined : handle)
    return found
  }
  if (action.actionType === 'hover') {
    if (found.coordinateFallback || !handle || atThePixels) await clickAt(ctx, action, found.point.x, found.point.y)
    else await handle.hover({ timeout, ...modifiersOf(action) })
    return found
  }
  // an element in a closed shadow root has no locator: it is clicked at its centre, checked to be what a click
  // there reaches (scrolled into view first)
  const closedShadow = found.coordinateFallback || atThePixels ? undefined : closedShadowTargetOf(found.element)
  if (closedShadow) {
    const aimed = await closedShadow.aim(targetLabel(action))
    result.actualCoords = { x: round(aimed.x), y: round(aimed.y) }
    result.coordinateChange = { x: round(aimed.x) - action.x, y: round(aimed.y) - action.y }
    await clickAt(ctx, action, aimed.x, aimed.y)
    if (text !== null) {
      // typing replaces what the field held, as `fill` does for a field a locator reaches
      await page.keyboard.press('ControlOrMeta+A')
      await page.keyboard.type(text)
    }
    await rememberSecretField(ctx, action)
    return found
  }
  if (found.coordinateFallback || !handle || atThePixels) {
    await clickAt(ctx, action, found.point.x, found.point.y)
    if (text !== null) await page.keyboard.type(text)
    await rememberSecretField(ctx, action)
    return found
  }
  if (
    opts.verify &&
    (action.actionType === 'click' || action.actionType === 'double_click' || action.actionType === 'right_click')
  )
    state.aim = await handle.evaluateHandle(aimAtCentre, HOVERABLE, { timeout }).catch(() => null)
  switch (action.actionType) {
    case 'type':
      if (await handle.evaluate((el) => el.localName === 'select').catch(() => false)) {
        // a DevTools `change` on a <select> (its tag unknown at import): the option with that value, or label
        await handle
          .selectOption(text ?? '', { timeout })
          .catch(() => handle.selectOption({ label: text ?? '' }, { timeout }))
        break
      }
      await handle.fill(text ?? '', { timeout })
      await rememberSecretField(ctx, action)
      break
    case 'select':
      await handle
        .selectOption({ label: action.value ?? '' }, { timeout })
        .catch(() => handle.selectOption(action.value ?? '', { timeout }))
      if (state.nativeListOpen) {
        // the person's pick in the list the previous click opened closed it; a pick made in the page does not,
        // and the list the browser draws apart from the page would stay over it (in a headless screenshot, and
        // in the way of the next click): the select loses the focus and takes it back, which closes it
        await handle.evaluate((el) => {
          if (el !== document.activeElement) return
          ;(el as HTMLElement).blur()
          ;(el as HTMLElement).focus()
        })
      }
      break
    case 'right_click':
      await handle.click({ button: 'right', timeout, ...modifiersOf(action), ...(await aimOf(ctx, action, found)) })
      break
    case 'double_click':
      await handle.dblclick({ timeout, ...modifiersOf(action), ...(await aimOf(ctx, action, found)) })
      break
    default: {
      if (action.button === 'back' || action.button === 'forward') {
        await handle.scrollIntoViewIfNeeded({ timeout })
        const box = await handle.boundingBox({ timeout })
        if (!box) throw new Error(`${targetLabel(action)} has no box to click.`)
        await clickSideButton(
          page,
          box.x + box.width / 2,
          box.y + box.height / 2,
          action.button,
          action.modifiers ?? [],
        )
        break
      }
      // a styled checkbox/radio/switch covered by its own label: click the label, as the person did
      await clickAsAPerson(handle, {
        timeout,
        ...(action.button ? { button: action.button } : {}),
        ...(action.modifiers?.length ? { modifiers: action.modifiers } : {}),
        ...offsetOf(action, found),
      })
    }
  }
  return found
}

/**
 * The found target scrolled into view when part of it was out of it (`scrollIntoViewWhenOut`), its box and point
 * where they are now; the step's `onScrolledIntoView` is told. Unchanged when nothing scrolled.
 */
async function scrolledIntoView(
  ctx: StepContext,
  found: LocateResult<PlaywrightCandidate> & { point: { x: number; y: number } },
): Promise<LocateResult<PlaywrightCandidate> & { point: { x: number; y: number } }> {
  const handle = found.element?.handle
  if (!handle || !(await handle.evaluate(scrollIntoViewWhenOut).catch(() => false))) return found
  const box = await handle.boundingBox({ timeout: ctx.timeout }).catch(() => null)
  await ctx.state.onScrolledIntoView?.()
  const was = found.element?.boundingBox
  if (!box || !was || !found.element) return found
  const dx = box.x - was.x
  const dy = box.y - was.y
  return {
    ...found,
    point: { x: found.point.x + dx, y: found.point.y + dy },
    element: { ...found.element, boundingBox: box },
  }
}

/** `offsetOf`, else a point that reaches the element itself when its centre is a control nested in it. */
async function aimOf(
  ctx: StepContext,
  action: Action,
  found: LocateResult<PlaywrightCandidate>,
): Promise<{ position?: { x: number; y: number } }> {
  const { timeout } = ctx
  const offset = offsetOf(action, found)
  if (offset.position || !found.element?.handle) return offset
  const position = await pointOnTheElement(found.element.handle, timeout)
  return position ? { position } : {}
}

/**
 * Where in the element a DevTools click lands: the recorded offset from its top-left corner (the reference
 * clicks there), when the element the recording's selectors named is still that large; else its centre.
 */
function offsetOf(action: Action, found: LocateResult<PlaywrightCandidate>): { position?: { x: number; y: number } } {
  if (found.attempts[0]?.strategy !== 'devtools_selectors') return {}
  const box = found.element?.boundingBox
  const kept = action.extra?.devtools as { offsetX?: unknown; offsetY?: unknown } | undefined
  const x = typeof kept?.offsetX === 'number' ? kept.offsetX : null
  const y = typeof kept?.offsetY === 'number' ? kept.offsetY : null
  if (!box || x === null || y === null || x < 0 || y < 0 || x >= box.width || y >= box.height) return {}
  return { position: { x, y } }
}

function modifiersOf(action: Action): { modifiers?: KeyModifier[] } {
  return action.modifiers?.length ? { modifiers: [...action.modifiers] } : {}
}

/**
 * A scroll of an element (located like a click's target) or of the window, by the recorded distance: the
 * element itself scrolls, not whatever stands under a point.
 */
export async function scrollTarget(
  ctx: StepContext,
  action: Action,
  result: ReplayResult,
): Promise<LocateResult<PlaywrightCandidate> | null> {
  const { page, opts } = ctx
  const dx = action.scrollDx ?? 0
  const dy = action.scrollDy ?? 0
  if (!action.identity) {
    result.method = 'none'
    await page.evaluate(([x, y]) => window.scrollBy(x as number, y as number), [dx, dy])
    return null
  }
  const identity = action.identity
  const found = await locate(identity, playwrightCandidateSource(page, { framePath: identity.framePath ?? null }), {
    selectors: action.selectors ?? null,
    coordinates: null,
    ...opts.locate,
  })
  result.strategiesTried = found.attempts
  result.matchConfidence = found.confidence
  const handle: Locator | undefined =
    found.status === 'found' && !found.coordinateFallback ? found.element?.handle : undefined
  if (!handle) {
    result.method = 'failed'
    throw new WebError(
      'WEB_ELEMENT_NOT_FOUND',
      `Element to scroll not found: ${targetLabel(action)} (tried ${describeAttempts(found.attempts)}).`,
    )
  }
  result.method = found.strategy
  await handle.evaluate((el, [x, y]) => el.scrollBy(x as number, y as number), [dx, dy])
  return found
}

/**
 * A drag from the located source to the drop target, located by the same cascade from `drop_identity` (else the
 * recorded end point, moved as the source moved). Playwright's mouse drives both mouse drags and HTML5 drag and
 * drop.
 */
export async function dragBetween(
  ctx: StepContext,
  action: Action,
  from: { x: number; y: number },
  source?: Locator,
): Promise<void> {
  const { page, opts, timeout } = ctx
  const moved = { x: from.x - action.x, y: from.y - action.y }
  let to = { x: (action.endX ?? action.x) + moved.x, y: (action.endY ?? action.y) + moved.y }
  const drop = action.dropIdentity
  if (drop && !recordedTargetObjection(drop)) {
    const found = await locate(drop, playwrightCandidateSource(page, { framePath: drop.framePath ?? null }), {
      selectors: action.dropSelectors ?? null,
      coordinates: { x: action.endX ?? action.x, y: action.endY ?? action.y },
      ...opts.locate,
    })
    if (found.status !== 'found' || !found.point)
      throw new WebError(
        'WEB_ELEMENT_NOT_FOUND',
        `Drop target not found: ${drop.axRole ?? drop.tagName} "${(drop.axName || drop.textContent || '').slice(0, 50)}" (tried ${describeAttempts(found.attempts)}).`,
      )
    to = found.point
    // where in the drop target it was dropped (a slider's track, a list between two items), kept in proportion
    const recorded = drop.boundingBox
    const box = found.coordinateFallback ? null : await found.element?.handle?.boundingBox().catch(() => null)
    if (box && recorded && recorded.width > 0 && recorded.height > 0 && action.endX != null && action.endY != null) {
      const fx = Math.min(1, Math.max(0, (action.endX - recorded.x) / recorded.width))
      const fy = Math.min(1, Math.max(0, (action.endY - recorded.y) / recorded.height))
      to = { x: box.x + fx * box.width, y: box.y + fy * box.height }
    }
  }
  if (source) {
    await source.hover({ timeout })
    const box = await source.boundingBox()
    if (box) from = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  }
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(from.x + (to.x - from.x) / 3, from.y + (to.y - from.y) / 3, { steps: 4 })
  await page.mouse.move(to.x, to.y, { steps: 8 })
  await page.mouse.up()
}

export async function clickAt(ctx: StepContext, action: Action, x: number, y: number) {
  const { page } = ctx
  if (action.actionType === 'hover') {
    await page.mouse.move(x, y)
    return
  }
  if (action.button === 'back' || action.button === 'forward') {
    await clickSideButton(page, x, y, action.button, action.modifiers ?? [])
    return
  }
  const button = action.actionType === 'right_click' ? 'right' : (action.button ?? 'left')
  const held = action.modifiers ?? []
  for (const m of held) await page.keyboard.down(m)
  try {
    await page.mouse.click(x, y, { button, clickCount: action.actionType === 'double_click' ? 2 : 1 })
  } finally {
    for (const m of [...held].reverse()) await page.keyboard.up(m)
  }
}

/** The field a secret was typed into stays painted over in every later screenshot ("show password"). */
export async function rememberSecretField(ctx: StepContext, action: Action): Promise<void> {
  const { page } = ctx
  if (action.actionType === 'type' && action.secretEnv)
    await secretFieldsOf(page)
      .rememberFocused()
      .catch(() => null)
}

export function secretOrText(ctx: StepContext, action: Action): string {
  const { env } = ctx
  if (!action.secretEnv) return action.text ?? ''
  const value = env[action.secretEnv]
  if (value === undefined) {
    throw new WebError('WEB_SECRET_MISSING', `The password step needs the environment variable ${action.secretEnv}.`, {
      hint: `Set ${action.secretEnv} to the secret before replaying; it is never stored in the case file.`,
    })
  }
  return value
}
