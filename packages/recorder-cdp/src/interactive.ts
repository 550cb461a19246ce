/**
 * Interactive recording: a script injected in every frame reports only the kind of input and its coordinates
 * (seed 003 Task 5); Node resolves the element over CDP, exactly as for scripted recording.
 */

/** What the injected script reports. Coordinates are top-level viewport CSS pixels. */
export type PageInputEvent =
  | { kind: 'pointerdown'; x: number; y: number; button: number; detail: number }
  | { kind: 'input'; value: string; isPassword: boolean; x: number; y: number }
  | { kind: 'select'; label: string; x: number; y: number }
  | { kind: 'key'; key: string }
  | { kind: 'scroll'; dx: number; dy: number; x: number; y: number }

export const RECORD_BINDING = '__qaRecordInput'

/** Runs in every frame at document start. Self-contained: it is sent to the page as source text. */
export function installInputReporterInPage(binding: string): void {
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
  // Offset of this frame's viewport inside the top-level viewport (same-origin frames).
  const offset = () => {
    let dx = 0
    let dy = 0
    let win: Window = window
    while (win !== win.parent) {
      let frameEl: Element | null = null
      try {
        frameEl = win.frameElement
      } catch {
        break
      }
      if (!frameEl) break
      const r = frameEl.getBoundingClientRect()
      dx += r.left + (frameEl as HTMLElement).clientLeft
      dy += r.top + (frameEl as HTMLElement).clientTop
      win = win.parent
    }
    return { dx, dy }
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
  addEventListener(
    'pointerdown',
    (e) => {
      if (fromToolbar(e)) return
      const { dx, dy } = offset()
      send({ kind: 'pointerdown', x: e.clientX + dx, y: e.clientY + dy, button: e.button, detail: e.detail })
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
