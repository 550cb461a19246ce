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
 * The guard is Playwright's own, registered earlier: until the click is over, the window's capture listeners stop
 * the press (pointer and mouse events) when its first event does not reach the element (something moved over it in
 * between), before the page sees it, and the caller then clicks the usual way. A replay installs those listeners
 * at the start of every document (`installPressGuardInPage`), before any script of the page, so a stopped press
 * reaches none of the page's listeners, not even its own on the window (Playwright's interceptor comes after them).
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

/** The event the press listeners answer to say they are there. */
const PING = 'qa-replay-press-guard-ping'

/** How many lookups' elements the page keeps (a step's cascade runs a few; a later step's replaces them). */
const KEPT_LOOKUPS = 8

/** How long a guard stays armed at most when no click and no disarm come (the caller failed in between). */
const GUARD_MS = 10_000

interface FoundRegistry {
  next: number
  lookups: Map<number, Element[]>
  /** The window listens for presses (at the document's start when the replay could, else from the first arm on). */
  listening: boolean
  /** Set by the listeners' ping (`listening`). */
  answered: boolean
  /** The click under way: its element, what its press did so far, and the timer that ends it. */
  armed: { el: Element; outcome: DirectClickOutcome; timer: ReturnType<typeof setTimeout> } | null
  /**
   * An input under way (a direct click, a key): the navigation to another document it asked for (a link, a form sent,
   * a script moving `location`), with the history entry current then.
   */
  watch: { navigation: { event: Event; entry: unknown } | null } | null
}

/** Whether the click's press reached the element (`hit`), was stopped (`blocked`), or no press was seen. */
export type DirectClickOutcome = 'hit' | 'blocked' | 'none'

/**
 * What the click did: its press's outcome, and whether the page is leaving for another document the click asked for
 * (not yet there): the caller waits for it, as Playwright's click waits for the navigations its input started.
 */
export interface DirectClickEnd {
  outcome: DirectClickOutcome
  leaving: boolean
}

/** The Navigation API's parts the click reads (Chromium has it; typed here for lib.dom versions without it). */
interface NavigateEventLike extends Event {
  destination: { sameDocument: boolean }
  downloadRequest: string | null
}
const navigationOf = (win: Window): (EventTarget & { currentEntry: unknown }) | undefined =>
  (win as unknown as { navigation?: EventTarget & { currentEntry: unknown } }).navigation

/** Where a lookup's element is kept in the page: the lookup's token and the element's index among its elements. */
export interface DirectClickTarget {
  token: number
  index: number
}

const registryOf = (win: Window): FoundRegistry => {
  const holder = win as unknown as Record<symbol, FoundRegistry | undefined>
  let registry = holder[FOUND]
  if (!registry) {
    registry = { next: 1, lookups: new Map(), listening: false, answered: false, armed: null, watch: null }
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
  endClick(registry)
  const el = registry.lookups.get(args.target.token)?.[args.target.index]
  if (!el?.isConnected || disabled(el)) return null
  let r = el.getBoundingClientRect()
  if (!centreInView(r)) {
    el.scrollIntoView({ block: 'center', inline: 'nearest' })
    r = el.getBoundingClientRect()
  }
  if (!centreOwn(el, r, args.nested)) return null
  listenForPresses(registry)
  registry.armed = { el, outcome: 'none', timer: setTimeout(() => endClick(registry), GUARD_MS) }
  registry.watch = { navigation: null }
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 }
}

/**
 * Page function: ends the guard and says whether the click's press reached the element, and whether the page is
 * leaving for a document the click asked for: a navigation to another document, not cancelled, and not turned into
 * one within the page (`intercept()` moves the current history entry at once).
 */
export function disarmDirectClickInPage(): DirectClickEnd {
  const registry = registryOf(window)
  return { outcome: endClick(registry), leaving: endWatch(registry) }
}

/**
 * Page function, before an input the replay gives otherwise (a key): from now on, a navigation to another document
 * it asks for is noted (`leavingInPage` says whether the page is leaving for it).
 */
export function watchNavigationInPage(): void {
  if (window !== window.top) return
  const registry = registryOf(window)
  listenForPresses(registry)
  registry.watch = { navigation: null }
}

/** Page function, after the input: whether the page is leaving for a document it asked for (`disarmDirectClickInPage`). */
export function leavingInPage(): boolean {
  return endWatch(registryOf(window))
}

/**
 * Ends the watch for a navigation: whether one to another document was asked for, not cancelled, and not turned into
 * one within the page (`intercept()` moves the current history entry at once).
 */
function endWatch(registry: FoundRegistry): boolean {
  const navigation = registry.watch?.navigation
  registry.watch = null
  return (
    navigation !== null &&
    navigation !== undefined &&
    !navigation.event.defaultPrevented &&
    navigationOf(window)?.currentEntry === navigation.entry
  )
}

/**
 * Page function, run at the start of every document of a replay (an init script): the window listens for presses
 * before any script of the page does, so a press the guard stops reaches none of the page's own listeners, not even
 * those on the window. Without it the guard listens from the first click on, after the page's window listeners.
 */
export function installPressGuardInPage(): void {
  if (typeof window !== 'undefined' && window === window.top) listenForPresses(registryOf(window))
}

/**
 * The window's press listeners, once: they act only while a click is armed, on the browser's own (trusted) events.
 * `document.open()` (Playwright's `setContent`, a page writing itself anew) erases the window's listeners but keeps
 * the window and so this registry: an untrusted ping the listeners answer says whether they are still there.
 */
function listenForPresses(registry: FoundRegistry): void {
  if (registry.listening && listening(registry)) return
  registry.listening = true
  window.addEventListener(PING, () => {
    registry.answered = true
  })
  const guard = (event: Event) => {
    const armed = registry.armed
    // the page's own synthetic events are not the click's (the mouse events the browser sends are trusted)
    if (!armed || !event.isTrusted) return
    if (armed.outcome === 'none') armed.outcome = event.composedPath().includes(armed.el) ? 'hit' : 'blocked'
    if (armed.outcome !== 'blocked') return
    event.preventDefault()
    event.stopImmediatePropagation()
  }
  for (const type of PRESS_EVENTS) window.addEventListener(type, guard, true)
  // a navigation the input asks for: the Navigation API's event comes as it starts, before the old document goes;
  // a form sent into this window asks for one too, though Chromium starts it a task later
  const navigation = navigationOf(window)
  window.addEventListener(
    'submit',
    (event) => {
      const watch = registry.watch
      const form = event.target as HTMLFormElement
      const target = ((event as SubmitEvent).submitter?.getAttribute('formtarget') ?? form.target) || '_self'
      if (!watch || watch.navigation || form.method === 'dialog' || !['_self', '_top'].includes(target)) return
      watch.navigation = { event, entry: navigation?.currentEntry }
    },
    true,
  )
  navigation?.addEventListener('navigate', (event) => {
    const watch = registry.watch
    const navigate = event as NavigateEventLike
    if (!watch || watch.navigation || navigate.destination.sameDocument || navigate.downloadRequest !== null) return
    watch.navigation = { event, entry: navigation.currentEntry }
  })
}

/** Whether the window's press listeners still answer (not erased by `document.open()`). */
function listening(registry: FoundRegistry): boolean {
  registry.answered = false
  window.dispatchEvent(new Event(PING))
  return registry.answered
}

/** Ends the click under way, if any: what its press did. */
function endClick(registry: FoundRegistry): DirectClickOutcome {
  const armed = registry.armed
  if (!armed) return 'none'
  clearTimeout(armed.timer)
  registry.armed = null
  return armed.outcome
}
