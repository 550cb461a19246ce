/**
 * Interactive recording: a script injected in every frame reports the kind of input and its coordinates
 * (seed 003 Task 5); Node resolves the element over CDP, exactly as for scripted recording. A pointer-down
 * also carries what the page looked like under the pointer at that moment (`PointerDownSnapshot`): the page
 * reacts to mousedown before Node can ask (swagger-ui turns "Try it out" into "Cancel"), so what the person
 * pressed is described synchronously, in the page, by the same page scripts the recorder uses over CDP.
 */
import type { HitChainNode } from '@qa/matcher'
import {
  describeElementsInPage,
  describeHitChainInPage,
  hitChainInPage,
  type PageElementDescription,
} from './page-scripts'

/**
 * The element chain under the pointer as the DOM was at pointer-down: `nodes` from the hit element up to the
 * document (`describeHitChainInPage`, for `chooseClickTarget`), `descriptions` of the first of them, up to and
 * including the first one interactive by its markup (`describeElementsInPage`), and the password fields of the
 * frame then (viewport boxes, painted over in the before-screenshot).
 */
export interface PointerDownSnapshot {
  nodes: HitChainNode[]
  descriptions: PageElementDescription[]
  passwords: { x: number; y: number; width: number; height: number }[]
}

/** What the injected script reports. Coordinates are top-level viewport CSS pixels. */
export type PageInputEvent =
  | {
      kind: 'pointerdown'
      x: number
      y: number
      button: number
      detail: number
      /** When the pointer went down: milliseconds since the epoch (the event's own time stamp). */
      at?: number
      /** Absent where the page cannot be described from the top (a cross-origin frame) or describing failed. */
      snapshot?: PointerDownSnapshot | null
    }
  | { kind: 'input'; value: string; isPassword: boolean; x: number; y: number }
  | { kind: 'select'; label: string; x: number; y: number }
  | { kind: 'key'; key: string }
  | { kind: 'scroll'; dx: number; dy: number; x: number; y: number }

export const RECORD_BINDING = '__qaRecordInput'

/** The page functions the reporter describes a pointer-down with (sent along, as source text). */
export interface ReporterHelpers {
  hitChain: typeof hitChainInPage
  describeChain: typeof describeHitChainInPage
  describe: typeof describeElementsInPage
}

/** The reporter as a script for every frame (`addInitScript`, `frame.evaluate`), its page helpers included. */
export function inputReporterSource(binding: string): string {
  const helpers = `{ hitChain: ${hitChainInPage.toString()}, describeChain: ${describeHitChainInPage.toString()}, describe: ${describeElementsInPage.toString()} }`
  return `(${installInputReporterInPage.toString()})(${JSON.stringify(binding)}, ${helpers})`
}

/** Runs in every frame at document start. Self-contained: it is sent to the page as source text. */
export function installInputReporterInPage(binding: string, helpers?: ReporterHelpers): void {
  const w = window as unknown as Record<string, unknown> & { __qaReporterInstalled?: boolean }
  if (w.__qaReporterInstalled) return
  w.__qaReporterInstalled = true
  // the recorder's own toolbar (recorder-toolbar.ts) is never recorded
  const toolbarKey = Symbol.for('qa.recorderToolbar')
  const fromToolbar = (e: Event) => {
    const host = (window as unknown as Record<symbol, Element | undefined>)[toolbarKey]
    return host !== undefined && e.composedPath().includes(host)
  }
  const send = (event: unknown) => {
    const fn = (window as unknown as Record<string, ((e: unknown) => void) | undefined>)[binding]
    if (typeof fn === 'function') fn(event)
  }
  // Offset of this frame's viewport inside the top-level viewport (same-origin frames); `top`: it reached the top.
  const offset = () => {
    let dx = 0
    let dy = 0
    let win: Window = window
    let top = true
    while (win !== win.parent) {
      let frameEl: Element | null = null
      try {
        frameEl = win.frameElement
      } catch {
        top = false
        break
      }
      if (!frameEl) {
        top = false
        break
      }
      const r = frameEl.getBoundingClientRect()
      dx += r.left + (frameEl as HTMLElement).clientLeft
      dy += r.top + (frameEl as HTMLElement).clientTop
      win = win.parent
    }
    return { dx, dy, top }
  }
  const centre = (el: Element) => {
    const r = el.getBoundingClientRect()
    const { dx, dy } = offset()
    return { x: r.left + r.width / 2 + dx, y: r.top + r.height / 2 + dy }
  }
  const SPECIAL_KEYS = new Set([
    'Enter',
    'Tab',
    'Escape',
    'ArrowUp',
    'ArrowDown',
    'ArrowLeft',
    'ArrowRight',
    'PageUp',
    'PageDown',
    'Home',
    'End',
    'Backspace',
    'Delete',
    'F1',
    'F2',
    'F3',
    'F4',
    'F5',
    'F6',
    'F7',
    'F8',
    'F9',
    'F11',
    'F12',
  ])
  // markup that makes an element a click target by itself (a superset of chooseClickTarget's signs): the chain is
  // described up to the first such element, the one a click on it is recorded on unless a listener says otherwise
  const INTERACTIVE =
    'a[href],area[href],button,input,select,textarea,summary,option,label,[role],[onclick],[tabindex],[contenteditable]'
  // what the person pressed, described now: the page's own listeners run after this one (added at document start,
  // capture phase, on window) and may replace or remove the element, or navigate away
  const snapshotAt = (e: PointerEvent, top: boolean, dx: number, dy: number) => {
    if (!helpers || !top) return null
    try {
      const hit = e.composedPath()[0]
      if (!(hit instanceof Node)) return null
      const chain = helpers.hitChain(hit, e.clientX + dx, e.clientY + dy)
      const nodes = helpers.describeChain.call(chain)
      let end = 0
      while (end < chain.length && end < 12) {
        const el = chain[end] as Element
        if (el.localName === 'body' || el.localName === 'html') break
        end++
        if (el.matches(INTERACTIVE)) break
      }
      const descriptions = helpers.describe(chain.slice(0, end))
      const passwords = Array.from(document.querySelectorAll('input[type="password" i]')).map((el) => {
        const r = el.getBoundingClientRect()
        return { x: r.left + dx, y: r.top + dy, width: r.width, height: r.height }
      })
      for (const n of nodes) {
        n.box.x += dx
        n.box.y += dy
      }
      return { nodes, descriptions, passwords }
    } catch {
      return null
    }
  }
  addEventListener(
    'pointerdown',
    (e) => {
      if (fromToolbar(e)) return
      const { dx, dy, top } = offset()
      send({
        kind: 'pointerdown',
        x: e.clientX + dx,
        y: e.clientY + dy,
        button: e.button,
        detail: e.detail,
        at: performance.timeOrigin + e.timeStamp,
        snapshot: snapshotAt(e, top, dx, dy),
      })
    },
    true,
  )
  const secretFields = new WeakSet<Element>()
  addEventListener(
    'input',
    (e) => {
      const el = e.composedPath()[0] as HTMLInputElement | undefined
      if (!el || !('value' in el)) return
      if (el.localName === 'select') return
      const type = (el.getAttribute?.('type') ?? '').toLowerCase()
      if (type === 'checkbox' || type === 'radio') return
      // a field that was a password field stays one after a "show password" toggle made it type=text
      const autocomplete = (el.getAttribute?.('autocomplete') ?? '').toLowerCase()
      if (type === 'password' || /\b(current|new)-password\b/.test(autocomplete)) secretFields.add(el)
      const isPassword = secretFields.has(el)
      send({ kind: 'input', value: isPassword ? '' : String(el.value), isPassword, ...centre(el) })
    },
    true,
  )
  addEventListener(
    'change',
    (e) => {
      const el = e.composedPath()[0] as HTMLSelectElement | undefined
      if (el?.localName !== 'select') return
      send({ kind: 'select', label: el.selectedOptions[0]?.label ?? el.value, ...centre(el) })
    },
    true,
  )
  addEventListener(
    'keydown',
    (e) => {
      if (!SPECIAL_KEYS.has(e.key) || fromToolbar(e)) return
      const mods = [
        e.ctrlKey && 'Control',
        e.altKey && 'Alt',
        e.metaKey && 'Meta',
        e.shiftKey && e.key !== 'Tab' && 'Shift',
      ].filter(Boolean)
      send({ kind: 'key', key: [...mods, e.key].join('+') })
    },
    true,
  )
  let pending: { dx: number; dy: number; x: number; y: number } | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  addEventListener(
    'wheel',
    (e) => {
      if (fromToolbar(e)) return
      const { dx, dy } = offset()
      pending = pending ?? { dx: 0, dy: 0, x: e.clientX + dx, y: e.clientY + dy }
      pending.dx += e.deltaX
      pending.dy += e.deltaY
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => {
        if (pending) send({ kind: 'scroll', ...pending })
        pending = null
      }, 250)
    },
    { capture: true, passive: true },
  )
}
