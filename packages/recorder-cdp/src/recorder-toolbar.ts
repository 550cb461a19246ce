/**
 * The recorder's toolbar in the page a person records in: a small "Recording… Stop" bar in a closed shadow root,
 * in the top frame only. Its input is never recorded and never reaches the page's own listeners (a window capture
 * listener added before any page script ends those events), and screenshots hide it (`TOOLBAR_SCREENSHOT_STYLE`).
 */

/** The toolbar's host element; a custom tag, so that one CSS rule hides it in screenshots. */
export const TOOLBAR_TAG = 'qa-recorder-toolbar'

/** Page binding the toolbar calls with `{ kind: 'stop' }`. */
export const TOOLBAR_BINDING = '__qaRecorderToolbar'

/**
 * Stylesheet applied while a screenshot is taken: the toolbar is never in one. Transparent, not removed: a click
 * on Stop while a screenshot is being taken still reaches the toolbar (with display: none it fell through to the
 * page under it, and was recorded as a click there).
 */
export const TOOLBAR_SCREENSHOT_STYLE = `${TOOLBAR_TAG}{opacity:0!important}`

/** What an assert mode of the toolbar records about the element the person picks next. */
export type ToolbarAssertKind = 'visible' | 'text' | 'value'

/**
 * The requests the toolbar sends to Node: stop, or an assertion about the element at a point (viewport CSS pixels)
 * that the person picked in an assert mode (the page never saw that click).
 */
export type ToolbarRequest = { kind: 'stop' } | { kind: 'assert'; assert: ToolbarAssertKind; x: number; y: number }

/** Set on the window (under this symbol) while an assert mode waits for its pick: the input reporter stays quiet. */
export const TOOLBAR_PICKING_KEY = 'qa.recorderToolbar.picking'

/**
 * Runs in every frame at document start (it returns at once in frames other than the top one). Self-contained: it
 * is sent to the page as source text. The host is published under `Symbol.for('qa.recorderToolbar')` so that the
 * input reporter can tell the toolbar's events apart.
 */
export function installRecorderToolbarInPage(args: { binding: string; tag: string }): void {
  if (window !== window.top) return
  const store = window as unknown as Record<symbol, Element | undefined>
  const key = Symbol.for('qa.recorderToolbar')
  if (store[key]) return
  const host = document.createElement(args.tag)
  store[key] = host
  const root = host.attachShadow({ mode: 'closed' })
  root.innerHTML = `<style>
    :host { all: initial; position: fixed; right: 8px; bottom: 8px; z-index: 2147483647; }
    div { display: flex; gap: 8px; align-items: center; padding: 4px 6px 4px 10px; border-radius: 6px;
      background: #202124; color: #fff; font: 13px/1.2 system-ui, sans-serif; box-shadow: 0 2px 6px #0006; }
    i { width: 8px; height: 8px; border-radius: 50%; background: #e53935; }
    button { font: inherit; padding: 3px 10px; border: 0; border-radius: 4px; background: #e53935; color: #fff;
      cursor: pointer; }
    button.mode { background: #3c4043; }
    button.mode[aria-pressed="true"] { background: #1a73e8; }
  </style><div role="toolbar" aria-label="qa recorder"><i></i><span>Recording</span>
    <button type="button" class="mode" data-assert="visible" aria-pressed="false"
      title="Assert that the element you click next is visible (the page is not clicked)">Assert visible</button>
    <button type="button" class="mode" data-assert="text" aria-pressed="false"
      title="Assert the text of the element you click next, as it is now (the page is not clicked)">Assert text</button>
    <button type="button" class="mode" data-assert="value" aria-pressed="false"
      title="Assert the value of the field you click next, as it is now (the page is not clicked)">Assert value</button>
    <button type="button" class="stop" title="Stop recording and save the case">Stop</button></div>`
  // The page never sees the toolbar's input: this listener, added at document start before any page script, is the
  // first of every dispatch, and ends the ones aimed at the toolbar there. The buttons are hit-tested here (their
  // own listeners never run). In an assert mode, the next click on the page picks the element to assert on: that
  // click, its press and release end here too, and the input reporter does not record them (`TOOLBAR_PICKING_KEY`).
  const label = root.querySelector('span')
  const stopButton = root.querySelector('button.stop') as HTMLButtonElement | null
  const modeButtons = Array.from(root.querySelectorAll('button.mode')) as HTMLButtonElement[]
  const pickingKey = Symbol.for('qa.recorderToolbar.picking')
  const flags = window as unknown as Record<symbol, unknown>
  let stopping = false
  let mode: string | null = null
  const hits = (b: Element | null, e: MouseEvent) => {
    const r = b?.getBoundingClientRect()
    return !!r && e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom
  }
  const call = (request: unknown) => {
    const fn = (window as unknown as Record<string, ((r: unknown) => void) | undefined>)[args.binding]
    if (typeof fn === 'function') fn(request)
  }
  const setMode = (next: string | null) => {
    mode = next
    flags[pickingKey] = next !== null
    for (const b of modeButtons) b.setAttribute('aria-pressed', String(b.dataset.assert === next))
    if (label) label.textContent = next ? `Click the element to assert (${next})` : 'Recording'
  }
  const PICK_EVENTS = new Set(['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'dblclick', 'auxclick'])
  const swallow = (e: Event) => {
    const onToolbar = e.composedPath().includes(host)
    if (!onToolbar) {
      // an assert mode's pick: the page never sees it; the click names the element
      if (!mode || !PICK_EVENTS.has(e.type)) return
      e.stopImmediatePropagation()
      if (e.cancelable) e.preventDefault()
      if (e.type !== 'click') return
      const m = e as MouseEvent
      call({ kind: 'assert', assert: mode, x: m.clientX, y: m.clientY })
      setMode(null)
      return
    }
    e.stopImmediatePropagation()
    if (e.cancelable && e.type !== 'wheel') e.preventDefault()
    if (e.type !== 'click' || stopping) return
    const m = e as MouseEvent
    const modeButton = modeButtons.find((b) => hits(b, m))
    if (modeButton) {
      setMode(mode === modeButton.dataset.assert ? null : (modeButton.dataset.assert ?? null))
      return
    }
    if (!hits(stopButton, m)) return
    stopping = true
    setMode(null)
    if (label) label.textContent = 'Saving…'
    if (stopButton) stopButton.disabled = true
    call({ kind: 'stop' })
  }
  for (const type of [
    'pointerdown',
    'pointerup',
    'mousedown',
    'mouseup',
    'click',
    'dblclick',
    'auxclick',
    'contextmenu',
    'keydown',
    'keyup',
  ])
    addEventListener(type, swallow, true)
  const mount = () => {
    if (!host.isConnected) document.documentElement?.appendChild(host)
  }
  if (document.documentElement) mount()
  document.addEventListener('DOMContentLoaded', mount)
  // a page that rewrites its whole document (document.write, a framework taking over <html>) gets it back
  addEventListener('load', mount)
}

/** Removes the toolbar (a person's own browser, attached with --cdp, is left as it was). */
export function removeRecorderToolbarInPage(): void {
  const store = window as unknown as Record<symbol, Element | undefined>
  store[Symbol.for('qa.recorderToolbar')]?.remove()
}
