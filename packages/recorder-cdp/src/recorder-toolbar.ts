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

/** The request the toolbar sends to Node. */
export type ToolbarRequest = { kind: 'stop' }

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
  </style><div role="toolbar" aria-label="qa recorder"><i></i><span>Recording</span>
    <button type="button" title="Stop recording and save the case">Stop</button></div>`
  // The page never sees the toolbar's input: this listener, added at document start before any page script, is the
  // first of every dispatch, and ends the ones aimed at the toolbar there. The Stop button is hit-tested here
  // (its own listeners never run).
  const label = root.querySelector('span')
  const button = root.querySelector('button')
  let stopping = false
  const onButton = (e: MouseEvent) => {
    const r = button?.getBoundingClientRect()
    return !!r && e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom
  }
  const swallow = (e: Event) => {
    if (!e.composedPath().includes(host)) return
    e.stopImmediatePropagation()
    if (e.cancelable && e.type !== 'wheel') e.preventDefault()
    if (e.type !== 'click' || stopping || !onButton(e as MouseEvent)) return
    const fn = (window as unknown as Record<string, ((r: unknown) => void) | undefined>)[args.binding]
    if (typeof fn !== 'function') return
    stopping = true
    if (label) label.textContent = 'Saving…'
    if (button) button.disabled = true
    fn({ kind: 'stop' })
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
