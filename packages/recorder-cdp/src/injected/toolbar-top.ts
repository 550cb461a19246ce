/**
 * The toolbar in the top frame: a small "Recording… Stop" bar in a closed shadow root, with the assert modes, the
 * editor of a picked text or value and the highlight of what a pick would assert on. Page code: bundled into the
 * page functions, imports page code only.
 */
import { KEY_EVENTS, LISTENED, PICK_EVENTS } from './toolbar-events'
import {
  TOOLBAR_DRAFT_KEY,
  TOOLBAR_EDIT_KEY,
  TOOLBAR_FRAME_SIGNAL_KEY,
  TOOLBAR_HIGHLIGHT_KEY,
  TOOLBAR_HOST_KEY,
  TOOLBAR_PICKED_KEY,
  TOOLBAR_PICKING_KEY,
  TOOLBAR_ROOT_KEY,
  type ToolbarEditRequest,
} from './toolbar-keys'

/** Installs the toolbar in the top frame (once), as `tag`; `call` sends a request to Node. */
export function installToolbarInTop(tag: string, call: (request: unknown) => void): void {
  const store = window as unknown as Record<symbol, unknown>
  const flags = store
  const pickingKey = Symbol.for(TOOLBAR_PICKING_KEY)
  const key = Symbol.for(TOOLBAR_HOST_KEY)
  if (store[key]) return
  const host = document.createElement(tag)
  store[key] = host
  const root = host.attachShadow({ mode: 'closed' })
  store[Symbol.for(TOOLBAR_ROOT_KEY)] = root
  root.innerHTML = `<style>
    :host { all: initial; position: fixed; right: 8px; bottom: 8px; z-index: 2147483647; }
    div { display: flex; gap: 8px; align-items: center; padding: 4px 6px 4px 10px; border-radius: 6px;
      background: #202124; color: #fff; font: 13px/1.2 system-ui, sans-serif; box-shadow: 0 2px 6px #0006; }
    i { width: 8px; height: 8px; border-radius: 50%; background: #e53935; }
    button { font: inherit; padding: 3px 10px; border: 0; border-radius: 4px; background: #e53935; color: #fff;
      cursor: pointer; }
    button.mode, button.op, button.cancel { background: #3c4043; }
    button.mode[aria-pressed="true"], button.op[aria-pressed="true"] { background: #1a73e8; }
    button.ok { background: #188038; }
    [hidden] { display: none !important; }
    input { font: inherit; width: 220px; padding: 3px 6px; border: 1px solid #5f6368; border-radius: 4px;
      background: #fff; color: #202124; }
    p.hl, p.hl-label { position: fixed; margin: 0; pointer-events: none; box-sizing: border-box; }
    p.hl { border: 2px solid #1a73e8; background: #1a73e826; border-radius: 2px; }
    p.hl-label { padding: 2px 6px; border-radius: 3px; background: #1a73e8; color: #fff;
      font: 12px/16px system-ui, sans-serif; white-space: nowrap; max-width: 60vw; overflow: hidden;
      text-overflow: ellipsis; box-shadow: 0 1px 3px #0005; }
  </style><p class="hl" hidden></p><p class="hl-label" role="status" hidden></p><div role="toolbar" aria-label="qa recorder"><i></i><span class="label">Recording</span>
    <button type="button" class="mode" data-assert="visible" aria-pressed="false"
      title="Assert that the element you click next is visible (the page is not clicked)">Assert visible</button>
    <button type="button" class="mode" data-assert="text" aria-pressed="false"
      title="Assert the text of the element you click next; you can edit it before it is added (the page is not clicked)">Assert text</button>
    <button type="button" class="mode" data-assert="value" aria-pressed="false"
      title="Assert the value of the field you click next; you can edit it before it is added (the page is not clicked)">Assert value</button>
    <span class="edit" hidden>
      <button type="button" class="op" data-op="equals" aria-pressed="true" title="The text must be exactly this">equals</button>
      <button type="button" class="op" data-op="contains" aria-pressed="false" title="The text must contain this">contains</button>
      <input type="text" class="expected" aria-label="Expected" spellcheck="false" autocomplete="off">
      <button type="button" class="ok" title="Add the assertion (Enter)">Add</button>
      <button type="button" class="cancel" title="Do not add it (Escape)">Cancel</button>
    </span>
    <button type="button" class="stop" title="Stop recording and save the case">Stop</button></div>`
  // The page never sees the toolbar's input: this listener, added at document start before any page script, is the
  // first of every dispatch, and ends the ones aimed at the toolbar there. The buttons are hit-tested here (their
  // own listeners never run). In an assert mode, the next click on the page picks the element to assert on: that
  // click, its press and release end here too, and the input reporter does not record them (`TOOLBAR_PICKING_KEY`).
  // A text or value pick opens an editor in the toolbar, pre-filled by Node with what the element shows now: the
  // person types into it (its key events end here too, after the browser has typed them: only their propagation is
  // stopped), chooses equals or contains, and adds it with Enter or Add. Escape cancels a mode or an open editor;
  // nothing is recorded then.
  const label = root.querySelector('span.label')
  const stopButton = root.querySelector('button.stop') as HTMLButtonElement | null
  const modeButtons = Array.from(root.querySelectorAll('button.mode')) as HTMLButtonElement[]
  const editor = root.querySelector('span.edit') as HTMLElement | null
  const opButtons = Array.from(root.querySelectorAll('button.op')) as HTMLButtonElement[]
  const field = root.querySelector('input.expected') as HTMLInputElement | null
  const okButton = root.querySelector('button.ok') as HTMLButtonElement | null
  const cancelButton = root.querySelector('button.cancel') as HTMLButtonElement | null
  const highlightBox = root.querySelector('p.hl') as HTMLElement | null
  const highlightLabel = root.querySelector('p.hl-label') as HTMLElement | null
  let stopping = false
  let mode: string | null = null
  /** The assert mode's highlight: what a pick under the pointer would assert on, and the name it will use. */
  const hideHighlight = () => {
    if (highlightBox) highlightBox.hidden = true
    if (highlightLabel) highlightLabel.hidden = true
  }
  store[Symbol.for(TOOLBAR_HIGHLIGHT_KEY)] = (
    h: { assert: string; box: { x: number; y: number; width: number; height: number }; label: string } | null,
  ) => {
    if (!h || mode === null || h.assert !== mode || !highlightBox || !highlightLabel) {
      hideHighlight()
      return
    }
    const { x, y, width, height } = h.box
    Object.assign(highlightBox.style, { left: `${x}px`, top: `${y}px`, width: `${width}px`, height: `${height}px` })
    highlightBox.hidden = false
    highlightLabel.textContent = h.label
    highlightLabel.hidden = false
    // above the element, or below it when there is no room above (as codegen's picker places its label)
    const labelHeight = highlightLabel.offsetHeight || 20
    const above = y - labelHeight - 4
    const maxLeft = Math.max(0, innerWidth - highlightLabel.offsetWidth - 4)
    Object.assign(highlightLabel.style, {
      left: `${Math.min(Math.max(0, x), maxLeft)}px`,
      top: `${above >= 0 ? above : Math.min(y + height + 4, innerHeight - labelHeight)}px`,
    })
  }
  /** The open editor's request id; `waiting` while Node reads the picked element. */
  let editing: number | 'waiting' | null = null
  let op = 'equals'
  const hits = (b: Element | null, e: MouseEvent) => {
    const r = b?.getBoundingClientRect()
    return !!r && e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom
  }
  const setLabel = (text: string) => {
    if (label) label.textContent = text
  }
  const setPicking = () => {
    flags[pickingKey] = mode !== null || editing !== null
    // the frames below pick and wait as this page does
    call({ kind: 'frames-state', mode, editing: editing !== null })
  }
  const setMode = (next: string | null) => {
    mode = next
    hideHighlight()
    if (next !== null && hoverAt && !overToolbar) sendHover()
    setPicking()
    for (const b of modeButtons) b.setAttribute('aria-pressed', String(b.dataset.assert === next))
    setLabel(next ? `Click the element to assert (${next})` : 'Recording')
  }
  const setOp = (next: string) => {
    op = next
    for (const b of opButtons) b.setAttribute('aria-pressed', String(b.dataset.op === next))
  }
  const closeEditor = (message = 'Recording') => {
    editing = null
    setPicking()
    if (editor) editor.hidden = true
    for (const b of modeButtons) b.hidden = false
    if (field) {
      field.blur()
      field.value = ''
    }
    setLabel(message)
  }
  const confirmEdit = () => {
    if (typeof editing !== 'number') return
    call({ kind: 'assert-confirm', id: editing, op, expected: field?.value ?? '' })
    closeEditor()
  }
  const cancelEdit = () => {
    if (typeof editing === 'number') call({ kind: 'assert-cancel', id: editing })
    closeEditor()
  }
  store[Symbol.for(TOOLBAR_EDIT_KEY)] = (request: ToolbarEditRequest) => {
    if (stopping) return
    // the pick was cancelled (Escape) while Node read the element: that draft is dropped
    if (editing !== 'waiting') {
      if (!('error' in request)) call({ kind: 'assert-cancel', id: request.id })
      return
    }
    if ('error' in request) {
      closeEditor(request.error)
      return
    }
    editing = request.id
    setPicking()
    setOp(request.op)
    for (const b of modeButtons) b.hidden = true
    if (editor) editor.hidden = false
    setLabel(`Assert ${request.assert}`)
    if (field) {
      field.setAttribute('aria-label', `Expected ${request.assert}`)
      field.value = request.expected
      field.focus()
      field.select()
    }
    // After a pick inside a frame of another process, the browser may give that frame the focus after this: the
    // field takes it back for a moment (its text still selected while untouched), so that typing goes into it.
    const id = request.id
    let checks = 15
    const holdFocus = () => {
      if (editing !== id || !field || checks-- <= 0) return
      if (document.activeElement !== host) {
        field.focus()
        if (field.value === request.expected) field.select()
      }
      setTimeout(holdFocus, 100)
    }
    setTimeout(holdFocus, 100)
  }
  // a pick in a frame below: the recorder reads the element there, as for a pick in this page
  store[Symbol.for(TOOLBAR_PICKED_KEY)] = (kind: string) => {
    if (stopping) return
    setMode(null)
    if (kind === 'text' || kind === 'value') {
      editing = 'waiting'
      setPicking()
      setLabel('Reading…')
    }
  }
  store[Symbol.for(TOOLBAR_DRAFT_KEY)] = () =>
    typeof editing === 'number' ? { id: editing, op, expected: field?.value ?? '' } : null
  // a frame below tells of the person's Escape, Enter or click there (through Node)
  store[Symbol.for(TOOLBAR_FRAME_SIGNAL_KEY)] = (signal: string) => {
    if (signal === 'escape' && (mode || editing !== null)) {
      // Escape in a frame: as in this page
      setMode(null)
      if (editing !== null) cancelEdit()
    } else if (signal === 'focus' && typeof editing === 'number') field?.focus()
    // Enter pressed in a frame while the editor is open: the editor's Enter (Add)
    else if (signal === 'enter' && typeof editing === 'number') confirmEdit()
  }
  const swallow = (e: Event) => {
    // what a page script dispatches (`isTrusted` false) never presses a button, picks or types: it goes on to the
    // page's own listeners as any of its events (it is the page's, and tells it nothing of the toolbar)
    if (!e.isTrusted) return
    const onToolbar = e.composedPath().includes(host)
    if (!onToolbar) {
      // Escape ends an assert mode (or an editor that lost focus): the page never sees that key
      if (e.type === 'keydown' && (e as KeyboardEvent).key === 'Escape' && (mode || editing !== null)) {
        e.stopImmediatePropagation()
        e.preventDefault()
        setMode(null)
        if (editing !== null) cancelEdit()
        return
      }
      // while an editor is open (or Node reads the picked element), the page's clicks and keys wait
      if (editing !== null && (PICK_EVENTS.has(e.type) || KEY_EVENTS.has(e.type))) {
        e.stopImmediatePropagation()
        if (e.cancelable) e.preventDefault()
        if (e.type === 'click' && typeof editing === 'number') field?.focus()
        return
      }
      // an assert mode's pick: the page never sees it; the click names the element
      if (!mode || !PICK_EVENTS.has(e.type)) return
      e.stopImmediatePropagation()
      if (e.cancelable) e.preventDefault()
      if (e.type !== 'click') return
      const m = e as MouseEvent
      const kind = mode
      call({ kind: 'assert', assert: kind, x: m.clientX, y: m.clientY })
      setMode(null)
      if (kind === 'text' || kind === 'value') {
        // Node reads the element and opens the editor with its text or value
        editing = 'waiting'
        setPicking()
        setLabel('Reading…')
      }
      return
    }
    e.stopImmediatePropagation()
    if (KEY_EVENTS.has(e.type)) {
      // typing into the editor: the browser types it, the page never hears of it
      if (e.type !== 'keydown') return
      const k = (e as KeyboardEvent).key
      if (k === 'Enter') {
        e.preventDefault()
        confirmEdit()
      } else if (k === 'Escape') {
        e.preventDefault()
        setMode(null)
        cancelEdit()
      }
      return
    }
    // a press in the field places the caret there (its default action); everything else on the toolbar is inert
    const inField = e instanceof MouseEvent && !editor?.hidden && hits(field, e)
    if (e.cancelable && e.type !== 'wheel' && !inField) e.preventDefault()
    if (e.type !== 'click' || stopping) return
    const m = e as MouseEvent
    if (typeof editing === 'number') {
      const opButton = opButtons.find((b) => hits(b, m))
      if (opButton) {
        setOp(opButton.dataset.op ?? 'equals')
        field?.focus()
        return
      }
      if (hits(okButton, m)) {
        confirmEdit()
        return
      }
      if (hits(cancelButton, m)) {
        cancelEdit()
        return
      }
    }
    const modeButton = editing === null ? modeButtons.find((b) => hits(b, m)) : undefined
    if (modeButton) {
      setMode(mode === modeButton.dataset.assert ? null : (modeButton.dataset.assert ?? null))
      return
    }
    if (!hits(stopButton, m)) return
    stopping = true
    // an open editor stays as it is: the recorder keeps that assertion as the editor holds it, marked as not
    // confirmed, as when recording stops any other way (a person never loses an edit without being told)
    setMode(null)
    setLabel('Saving…')
    if (stopButton) stopButton.disabled = true
    call({ kind: 'stop' })
  }
  for (const type of LISTENED) addEventListener(type, swallow, true)
  // while an assert mode waits, the pointer's place goes to Node (at most every 40 ms, the last one always), which
  // answers with the highlight of what a pick there would assert on; the page still sees its own moves
  let hoverAt: { x: number; y: number } | null = null
  let overToolbar = false
  let lastHover = 0
  let hoverTimer: ReturnType<typeof setTimeout> | null = null
  function sendHover() {
    hoverTimer = null
    if (mode === null || !hoverAt || overToolbar) return
    lastHover = Date.now()
    call({ kind: 'hover', assert: mode, x: hoverAt.x, y: hoverAt.y })
  }
  const onHover = () => {
    if (mode === null || !hoverAt || hoverTimer) return
    hoverTimer = setTimeout(sendHover, Math.max(0, 40 - (Date.now() - lastHover)))
  }
  addEventListener(
    'mousemove',
    (e) => {
      if (!e.isTrusted) return
      hoverAt = { x: e.clientX, y: e.clientY }
      overToolbar = e.composedPath().includes(host)
      // on the toolbar, or into a frame (whose own part reports from there): no highlight from here
      if (overToolbar) hideHighlight()
      else onHover()
    },
    true,
  )
  // the element under a still pointer moves with the page
  addEventListener('scroll', onHover, true)
  const mount = () => {
    if (!host.isConnected) document.documentElement?.appendChild(host)
  }
  if (document.documentElement) mount()
  document.addEventListener('DOMContentLoaded', mount)
  // a page that rewrites its whole document (document.write, a framework taking over <html>) gets it back
  addEventListener('load', mount)
}
