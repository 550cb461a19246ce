/**
 * The click straight at a located element (page code: bundled into the page functions, imports page code only).
 *
 * Playwright's `locator.click` resolves its selector again, waits for the element's states, scrolls, checks the hit
 * target and installs an interceptor: about a dozen protocol messages, and on a new document its injected script
 * built in a world of its own. The lookup has already seen the element and whether a click at its centre reaches it
 * (`centreOwn`). The lookup remembers the elements it described in the page (`rememberFound`); the click then
 * asks the page once for the element's centre, judged again and guarded (`armDirectClickInPage`), sends the
 * person's three mouse events there, and asks once whether they reached it (`disarmDirectClickInPage`).
 *
 * The guard is Playwright's own: until the click is over, the page's window listens first (capture) to the pointer
 * and mouse events of the press; when the first of them does not reach the element (something moved over it in
 * between), it and the rest of the click are stopped before the page sees them, and the caller clicks the usual way.
 */
import { centreInView } from './geometry'

/** The window property the lookup's elements are kept under, between the lookup and the click. */
const FOUND = Symbol.for('qa.replay.found')

/** Mouse and pointer events of a press: the first says whether the click reaches the element. */
const PRESS_EVENTS = [
  'pointerdown',
  'mousedown',
  'pointerup',
  'mouseup',
  'click',
  'auxclick',
  'contextmenu',
  'dblclick',
]

/** How many lookups' elements the page keeps (a step's cascade runs a few; a later step's replaces them). */
const KEPT_LOOKUPS = 8

/** How long a guard stays armed at most when no click and no disarm come (the caller failed in between). */
const GUARD_MS = 10_000

interface FoundRegistry {
  next: number
  lookups: Map<number, Element[]>
  armed?: { disarm: () => DirectClickOutcome }
}

/** Whether the click's press reached the element (`hit`), was stopped (`blocked`), or no press was seen. */
export type DirectClickOutcome = 'hit' | 'blocked' | 'none'

/** Where a lookup's element is kept in the page: the lookup's token and the element's index among its elements. */
export interface DirectClickTarget {
  token: number
  index: number
}

const registryOf = (win: Window): FoundRegistry => {
  const holder = win as unknown as Record<symbol, FoundRegistry | undefined>
  let registry = holder[FOUND]
  if (!registry) {
    registry = { next: 1, lookups: new Map() }
    Object.defineProperty(win, FOUND, { value: registry, enumerable: false, configurable: true })
  }
  return registry
}

/**
 * Whether a click at the element's centre reaches it or a plain part of it (text, an icon, its own label's
 * control), not another control nested in it (`nested`: the selector of such controls, as `ownClickPoint` judges
 * them) and nothing over it: the test `clickAsAPerson` would make with more round trips.
 */
export const centreOwn = (el: Element, r: DOMRect, nested: string): boolean => {
  if (!centreInView(r)) return false
  const hit = (el.getRootNode() as Document | ShadowRoot).elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
  if (hit === null || !(hit === el || el.contains(hit))) return false
  const own = (c: Element) => (el as HTMLLabelElement).control === c
  for (let part: Element | null = hit; part && part !== el; part = part.parentElement) {
    if (own(part)) continue
    if (part.matches(nested)) return false
    if (Array.from(part.querySelectorAll(nested)).some((c) => !own(c))) return false
  }
  return true
}

/**
 * Keeps a lookup's elements in the page for a direct click, and returns the lookup's token; null inside a frame (a
 * point there is not a point of the page's viewport: such an element is clicked the usual way).
 */
export function rememberFound(elements: Element[]): number | null {
  if (typeof window === 'undefined' || window !== window.top) return null
  const registry = registryOf(window)
  const token = registry.next++
  registry.lookups.set(token, elements)
  for (const oldest of registry.lookups.keys()) {
    if (registry.lookups.size <= KEPT_LOOKUPS) break
    registry.lookups.delete(oldest)
  }
  return token
}

/** Disabled as Playwright's click sees it (it waits for such an element to be enabled). */
const disabled = (el: Element): boolean => el.matches(':disabled') || el.closest('[aria-disabled="true"]') !== null

/**
 * Page function: the viewport point to click the lookup's element at, with the guard armed; null when the element
 * is gone, disabled, or its centre (scrolled into view when out of it, as a click does) does not reach it now.
 */
export function armDirectClickInPage(args: { target: DirectClickTarget; nested: string }): {
  x: number
  y: number
} | null {
  const registry = registryOf(window)
  registry.armed?.disarm()
  const el = registry.lookups.get(args.target.token)?.[args.target.index]
  if (!el?.isConnected || disabled(el)) return null
  let r = el.getBoundingClientRect()
  if (!centreInView(r)) {
    el.scrollIntoView({ block: 'center', inline: 'nearest' })
    r = el.getBoundingClientRect()
  }
  if (!centreOwn(el, r, args.nested)) return null
  let outcome: DirectClickOutcome = 'none'
  const guard = (event: Event) => {
    // the page's own synthetic events are not the click's (the mouse events the browser sends are trusted)
    if (!event.isTrusted) return
    if (outcome === 'none') outcome = event.composedPath().includes(el) ? 'hit' : 'blocked'
    if (outcome !== 'blocked') return
    event.preventDefault()
    event.stopImmediatePropagation()
  }
  const timer = setTimeout(() => disarm(), GUARD_MS)
  const disarm = (): DirectClickOutcome => {
    clearTimeout(timer)
    for (const type of PRESS_EVENTS) window.removeEventListener(type, guard, true)
    registry.armed = undefined
    return outcome
  }
  for (const type of PRESS_EVENTS) window.addEventListener(type, guard, true)
  registry.armed = { disarm }
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 }
}

/** Page function: ends the guard and says whether the click's press reached the element. */
export function disarmDirectClickInPage(): DirectClickOutcome {
  return registryOf(window).armed?.disarm() ?? 'none'
}
