import type { KeyModifier } from '@qa/model'
import type { ElementHandle, Locator } from 'playwright-core'
import { centreSeenOwn, directClickTargetOf, pageWideLocatorOf } from '../replay/candidate-source'
import type { ClickAim } from '../injected/click-point'
import type { DirectClickTarget } from '../injected/direct-click'
import {
  armDirectClickInPage,
  clickAimInPage,
  clickAimOfOneInPage,
  coveringPartInPage,
  disarmDirectClickInPage,
} from '../injected/page-scripts'
import { NESTED_CONTROL, type OwnClickPoint, ownClickPoint } from './own-click-point'
import { documentArrival } from './document-arrival'

/**
 * Clicks a located element as a person would. Styled checkboxes, radios and switches
 * (Bootstrap custom-control / form-switch / btn-group-toggle, iCheck, Material switches) keep the real
 * `<input>` under its label or under a styled sibling, so Playwright's click waits until it times out for the
 * input to receive pointer events ("<label …> intercepts pointer events"). Before clicking, the element at
 * the control's centre is looked up (as `elementFromPoint`, what Playwright's hit-target check sees); when it
 * is the control's own label, or a part of the control's own small wrapper, that element is clicked instead,
 * exactly what the person's click hit. Anything else in the way (a dialog, a toast, a backdrop) gets the
 * ordinary click, which waits for it to go away or fails. Never `force: true`. (Playwright's
 * `click({ trial: true })` is no test for this: on a submit button it dispatched a real click.)
 */
export async function clickAsAPerson(
  handle: Locator,
  opts: {
    timeout: number
    button?: 'left' | 'right' | 'middle'
    modifiers?: readonly KeyModifier[]
    /** Where in the element to click (from its top-left corner); default its centre. */
    position?: { x: number; y: number }
  },
): Promise<{ clicked: 'element' | 'label' | 'wrapper'; note: string | null }> {
  const click = {
    timeout: opts.timeout,
    ...(opts.button ? { button: opts.button } : {}),
    ...(opts.modifiers?.length ? { modifiers: [...opts.modifiers] } : {}),
  }
  // a plain click of an element the lookup kept in the page: straight at its centre, when that still reaches it
  const direct = directClickTargetOf(handle)
  if (direct && !opts.position && !opts.modifiers?.length && (opts.button ?? 'left') === 'left') {
    if (await clickedDirectly(handle, direct, opts.timeout)) return { clicked: 'element', note: null }
  }
  // the lookup that found the element saw its centre reach it and no control nested in it: nothing of its own
  // covers it and the centre is its own point (ten round trips saved)
  const centreOwn = centreSeenOwn(handle)
  // else one look says both whether a part of the control covers it and where a click reaches it (scrolled into
  // view first); the covering part's handle is asked for only when there is one
  const aim = centreOwn ? null : await clickAimOf(handle, Math.min(opts.timeout, 2_000))
  const cover = aim?.covered ? await coveringPartOf(handle, Math.min(opts.timeout, 2_000)).catch(() => null) : null
  if (cover) {
    try {
      await cover.handle.click(click)
    } finally {
      await cover.handle.dispose().catch(() => undefined)
    }
    return {
      clicked: cover.relation,
      note: `the control is covered by its ${cover.relation === 'label' ? 'label' : 'styled wrapper'} ${cover.what}; clicked that, as a person does`,
    }
  }
  // the cover's look failed or it is gone: the own point is looked for as before
  const point = aim && !aim.covered ? aim.point : null
  const position =
    opts.position ?? (centreOwn ? undefined : point ? positionOf(point) : await pointOnTheElement(handle, opts.timeout))
  await clickOrLookAgain(handle, { ...click, ...(position ? { position } : {}) })
  return { clicked: 'element', note: null }
}

/**
 * The person's click (the mouse moved there, pressed, released) at the centre of the element the lookup kept in
 * the page, judged again and guarded there (`direct-click.ts`): three mouse events and two page calls, where
 * `locator.click` takes about a dozen messages. False when nothing was clicked: the element is gone, disabled or
 * covered now, or the guard stopped a press that did not reach it (the page saw no press, only the pointer
 * passing); the caller then clicks the usual way, which waits for the element or fails. A click that asked for
 * another document (a link, a form sent) returns once it is there, as Playwright's click does, so the next step
 * acts on it: at most `timeout`, after which the replay's settle takes over.
 */
async function clickedDirectly(handle: Locator, target: DirectClickTarget, timeout: number): Promise<boolean> {
  const page = handle.page()
  const point = await page.evaluate(armDirectClickInPage, { target, nested: NESTED_CONTROL }).catch(() => null)
  if (!point) return false
  const arrival = documentArrival(page)
  try {
    try {
      await page.mouse.click(point.x, point.y)
    } catch (error) {
      await page.evaluate(disarmDirectClickInPage).catch(() => undefined)
      throw error
    }
    // a document the click replaced (a link, a form sent) was reached by it: a stopped press sends nothing
    const end = await page.evaluate(disarmDirectClickInPage).catch(() => null)
    if (end === null || end.leaving) await arrival.within(timeout)
    return end?.outcome !== 'blocked'
  } finally {
    arrival.dispose()
  }
}

/**
 * `clickAimInPage` of the located element: for a locator first in one query and one call (`evaluateAll`), else (no
 * element reached yet, or an element handle, which DevTools selectors give) the way that waits for it. A failed look
 * is answered "covered by its label", which makes the caller look for the covering part by its handle.
 */
async function clickAimOf(handle: Locator, timeout: number): Promise<ClickAim> {
  const failed = (): ClickAim => ({ covered: { relation: 'label', what: '' }, point: { kind: 'centre' } })
  const atOnce =
    typeof handle.evaluateAll === 'function'
      ? await handle.evaluateAll(clickAimOfOneInPage, NESTED_CONTROL).catch(() => null)
      : null
  return atOnce ?? (await handle.evaluate(clickAimInPage, NESTED_CONTROL, { timeout }).catch(failed))
}

/**
 * Where to click the element when its centre is another control nested in it (`ownClickPoint`): a point that
 * reaches the element itself, or undefined for its centre. Throws when no point does: never click an inner control.
 */
export async function pointOnTheElement(
  handle: Locator,
  timeout: number,
): Promise<{ x: number; y: number } | undefined> {
  return positionOf(await ownClickPoint(handle, Math.min(timeout, 2_000)).catch(() => ({ kind: 'centre' }) as const))
}

/** The position to click for an own click point: undefined for the centre; throws when no point reaches the element. */
function positionOf(aim: OwnClickPoint): { x: number; y: number } | undefined {
  if (aim.kind === 'centre') return undefined
  if (aim.kind === 'point') return aim.position
  throw new Error(
    `every point of the found element reaches another control inside it (its centre is ${aim.centreHit}): not clicked, as that control is not the recorded one`,
  )
}

/** The element at the control's centre when it is the control's own label or a part of its own wrapper. */
async function coveringPartOf(
  handle: Locator,
  timeout: number,
): Promise<{ handle: ElementHandle<Element>; relation: 'label' | 'wrapper'; what: string } | null> {
  const found = await handle.evaluateHandle(coveringPartInPage, undefined, { timeout })
  const props = await found.getProperties()
  const el = props.get('el')?.asElement() as ElementHandle<Element> | null | undefined
  const relation = (await props.get('relation')?.jsonValue()) as 'label' | 'wrapper' | undefined
  const what = (await props.get('what')?.jsonValue()) as string | undefined
  await found.dispose()
  if (!el || !relation) return null
  return { handle: el, relation, what: what ?? '' }
}

/**
 * `locator.click`; for a lookup narrowed to the element's parent that reaches nothing any more (the page moved that
 * parent after the lookup), the same click by the page-wide lookup, which finds the element by role and name
 * wherever it is now.
 */
async function clickOrLookAgain(handle: Locator, options: Parameters<Locator['click']>[0]): Promise<void> {
  const wide = pageWideLocatorOf(handle)
  if (!wide) return handle.click(options)
  try {
    await handle.click(options)
  } catch (error) {
    if ((await handle.count().catch(() => 1)) !== 0) throw error
    await wide.click(options)
  }
}
