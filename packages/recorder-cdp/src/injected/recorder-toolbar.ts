/**
 * The recorder's toolbar in the page a person records in: a small "Recording… Stop" bar in a closed shadow root,
 * in the top frame only, created by the recorder's isolated world (`cdp-recorder-world.ts`): the page's scripts
 * reach neither its functions nor its state nor the closed root's content (the editor's text), and events a page
 * script dispatches (`isTrusted` false) never press its buttons, pick or type. Its input is never recorded and never reaches the page's own listeners (a window capture
 * listener added before any page script ends those events), and screenshots hide it (`TOOLBAR_SCREENSHOT_STYLE`).
 * Every frame below the top one (same-origin or not, nested as deep as it goes) gets a small part of it that only
 * listens: while an assert mode waits for its pick, a click in that frame picks the element there (the frame's page
 * never sees it), and while the editor is open that frame's clicks and keys wait, as the top page's do. The top
 * frame tells its frames the mode through Node (`frames-state`; Node sets it in every frame's world), and a frame
 * tells the top one of Escape, Enter or a click there the same way (`frame-signal`): no message a page can post
 * or read.
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

/** How an edited text or value assertion compares: the toolbar offers these two. */
export type ToolbarAssertOp = 'equals' | 'contains'

/**
 * The requests the toolbar sends to Node: stop; an assertion about the element at a point (viewport CSS pixels)
 * that the person picked in an assert mode (the page never saw that click); and, for text and value, the answer
 * to the editor Node opened with the current text or value (`ToolbarEditRequest`): what the person confirmed, or
 * that they cancelled it.
 */
export type ToolbarRequest =
  | { kind: 'stop' }
  | {
      kind: 'assert'
      assert: ToolbarAssertKind
      x: number
      y: number
      /**
       * A pick in a frame below a cross-origin parent: how many frames up its script could walk; the point is in
       * the viewport of that frame (the recorder moves it to the top one, as the input reporter's events).
       */
      inFrame?: number
    }
  | {
      /**
       * The pointer moved while an assert mode waits for its pick (at most every 40 ms): Node answers with the
       * highlight of what a pick there would assert on (`showToolbarHighlightInPage`). Point and `inFrame` as a pick's.
       */
      kind: 'hover'
      assert: ToolbarAssertKind
      x: number
      y: number
      inFrame?: number
    }
  | { kind: 'assert-confirm'; id: number; op: ToolbarAssertOp; expected: string }
  | { kind: 'assert-cancel'; id: number }
  /** The top frame's assert mode and editor changed: Node tells every frame below (`TOOLBAR_FRAME_STATE_KEY`). */
  | { kind: 'frames-state'; mode: ToolbarAssertKind | null; editing: boolean }
  /** Escape, Enter or a click in a frame below while a mode or the editor is on: Node tells the top frame. */
  | { kind: 'frame-signal'; signal: ToolbarFrameSignal }

/** What a frame below tells the top frame's toolbar (`TOOLBAR_FRAME_SIGNAL_KEY`). */
export type ToolbarFrameSignal = 'escape' | 'focus' | 'enter'

/** The toolbar's state in a frame below, as Node sets it there. */
export interface ToolbarFrameState {
  mode: ToolbarAssertKind | null
  editing: boolean
}

/** A frame's function that takes the top frame's mode and editor state (a `Symbol.for` key). */
export const TOOLBAR_FRAME_STATE_KEY = 'qa.recorderToolbar.frameState'

/** The top frame's function that takes a frame's Escape, Enter or click (a `Symbol.for` key). */
export const TOOLBAR_FRAME_SIGNAL_KEY = 'qa.recorderToolbar.frameSignal'

/** The toolbar's closed shadow root, kept in the recorder's world for its own reads (a `Symbol.for` key). */
export const TOOLBAR_ROOT_KEY = 'qa.recorderToolbar.root'

/**
 * What Node asks the toolbar to show after a text or value pick (`window[Symbol.for(TOOLBAR_EDIT_KEY)]`): an
 * editable field pre-filled with `expected`, equals/contains, Add and Cancel; or, with `error`, why nothing can be
 * asserted there (the pick ends).
 */
export type ToolbarEditRequest =
  | { id: number; assert: 'text' | 'value'; expected: string; op: ToolbarAssertOp }
  | { id: number; error: string }

/** Set on the window (under this symbol) while an assert mode waits for its pick: the input reporter stays quiet. */
export const TOOLBAR_PICKING_KEY = 'qa.recorderToolbar.picking'

/** The toolbar's function that opens the editor of a picked text or value assertion (a `Symbol.for` key). */
export const TOOLBAR_EDIT_KEY = 'qa.recorderToolbar.edit'

/** The toolbar's function that takes a pick made in a frame below the top one (a `Symbol.for` key). */
export const TOOLBAR_PICKED_KEY = 'qa.recorderToolbar.picked'

/** The toolbar's function that answers what its open editor holds now (a `Symbol.for` key). */
export const TOOLBAR_DRAFT_KEY = 'qa.recorderToolbar.draft'

/** The toolbar's function that shows (or, with null, hides) the assert mode's highlight (a `Symbol.for` key). */
export const TOOLBAR_HIGHLIGHT_KEY = 'qa.recorderToolbar.highlight'

/**
 * What the assert mode's highlight shows: an outline around the element a pick would assert on (top-level viewport
 * CSS pixels) and the name the assertion will use (`heading "Ready to Leave?"`), for the mode it was asked in.
 */
export interface ToolbarHighlight {
  assert: ToolbarAssertKind
  box: { x: number; y: number; width: number; height: number }
  label: string
}

/**
 * Shows the assert mode's highlight in the toolbar (run with `page.evaluate` in the top frame); null hides it. A
 * highlight for a mode that is no longer on is not shown. False when there is no toolbar there.
 */
export function showToolbarHighlightInPage(highlight: ToolbarHighlight | null): boolean {
  const show = (window as unknown as Record<symbol, ((h: ToolbarHighlight | null) => void) | undefined>)[
    Symbol.for('qa.recorderToolbar.highlight')
  ]
  if (typeof show !== 'function') return false
  show(highlight)
  return true
}

/** What the toolbar's editor holds now: the draft it edits, equals or contains, and the text in its field. */
export interface ToolbarDraft {
  id: number
  op: ToolbarAssertOp
  expected: string
}

/**
 * Tells the toolbar (run with `page.evaluate` in the top frame) that a frame below took the assert mode's pick:
 * the mode ends there too, and a text or value pick waits for its editor (`openToolbarEditorInPage`).
 */
export function markToolbarPickedInPage(assert: ToolbarAssertKind): boolean {
  const picked = (window as unknown as Record<symbol, ((a: ToolbarAssertKind) => void) | undefined>)[
    Symbol.for('qa.recorderToolbar.picked')
  ]
  if (typeof picked !== 'function') return false
  picked(assert)
  return true
}

/** What the toolbar's open editor holds now (run with `page.evaluate`); null when no editor is open. */
export function readToolbarEditorInPage(): ToolbarDraft | null {
  const read = (window as unknown as Record<symbol, (() => ToolbarDraft | null) | undefined>)[
    Symbol.for('qa.recorderToolbar.draft')
  ]
  return typeof read === 'function' ? read() : null
}

/** Opens the toolbar's editor in the page (run with `page.evaluate`); false when there is no toolbar there. */
export function openToolbarEditorInPage(request: ToolbarEditRequest): boolean {
  const open = (window as unknown as Record<symbol, ((r: ToolbarEditRequest) => void) | undefined>)[
    Symbol.for('qa.recorderToolbar.edit')
  ]
  if (typeof open !== 'function') return false
  open(request)
  return true
}

/**
 * Runs in every frame at document start: the toolbar in the top frame, its listening part in the others (an assert
 * mode's pick, and the wait while the editor is open). Self-contained: it is sent to the page as source text. The host is published under `Symbol.for('qa.recorderToolbar')` so that the
 * input reporter can tell the toolbar's events apart.
 */
export function installRecorderToolbarInPage(args: { binding: string; tag: string }): void {
  const store = window as unknown as Record<symbol, unknown>
  const flags = store
  const pickingKey = Symbol.for('qa.recorderToolbar.picking')
  const PICK_EVENTS = new Set(['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'dblclick', 'auxclick'])
  const KEY_EVENTS = new Set(['keydown', 'keyup', 'keypress', 'beforeinput', 'input', 'change'])
  const LISTENED = [...PICK_EVENTS, 'contextmenu', ...KEY_EVENTS]
  const call = (request: unknown) => {
    const fn = (window as unknown as Record<string, ((r: unknown) => void) | undefined>)[args.binding]
    if (typeof fn === 'function') fn(request)
  }
  if (window !== window.top) {
    // A frame below the top one: the assert mode and the editor's state come from the parent frame.
    const frameKey = Symbol.for('qa.recorderToolbar.frame')
    if (store[frameKey]) return
    store[frameKey] = true
    let mode: string | null = null
    let editing = false
    const setState = (next: { mode: string | null; editing: boolean }) => {
      mode = next.mode
      editing = next.editing
      flags[pickingKey] = mode !== null || editing
    }
    // Node sets the top frame's state here (and in a frame that loads while a mode is on)
    store[Symbol.for('qa.recorderToolbar.frameState')] = (next: { mode: string | null; editing: boolean }) =>
      setState({ mode: typeof next?.mode === 'string' ? next.mode : null, editing: next?.editing === true })
    const toTop = (signal: 'escape' | 'focus' | 'enter') => call({ kind: 'frame-signal', signal })
    // where this frame's viewport is in the highest frame its script can reach (the top one, unless a parent of
    // another origin stops the walk: the recorder places the point from there)
    const offset = () => {
      let dx = 0
      let dy = 0
      let hops = 0
      let win: Window = window
      let top = true
      while (win !== win.parent) {
        let frameEl: Element | null = null
        try {
          frameEl = win.frameElement
        } catch {
          frameEl = null
        }
        if (!frameEl) {
          top = false
          break
        }
        const r = frameEl.getBoundingClientRect()
        dx += r.left + (frameEl as HTMLElement).clientLeft
        dy += r.top + (frameEl as HTMLElement).clientTop
        win = win.parent
        hops++
      }
      return { dx, dy, top, hops }
    }
    const swallowInFrame = (e: Event) => {
      // what a page script dispatches is no pick, no key and no click of the person's
      if (!e.isTrusted) return
      if (e.type === 'keydown' && (e as KeyboardEvent).key === 'Escape' && (mode !== null || editing)) {
        e.stopImmediatePropagation()
        e.preventDefault()
        setState({ mode: null, editing: false })
        toTop('escape')
        return
      }
      if (editing && (PICK_EVENTS.has(e.type) || KEY_EVENTS.has(e.type))) {
        e.stopImmediatePropagation()
        if (e.cancelable) e.preventDefault()
        // a click there, or a key typed there (the focus went to this frame), sends the focus back to the editor;
        // Enter adds the assertion, as in the editor
        if (e.type === 'click') toTop('focus')
        else if (e.type === 'keydown') toTop((e as KeyboardEvent).key === 'Enter' ? 'enter' : 'focus')
        return
      }
      if (mode === null || !PICK_EVENTS.has(e.type)) return
      e.stopImmediatePropagation()
      if (e.cancelable) e.preventDefault()
      if (e.type !== 'click') return
      const m = e as MouseEvent
      const kind = mode
      const { dx, dy, top, hops } = offset()
      // the next clicks wait until the editor of a text or value pick is closed (the top frame says when)
      setState({ mode: null, editing: kind === 'text' || kind === 'value' })
      call({ kind: 'assert', assert: kind, x: m.clientX + dx, y: m.clientY + dy, ...(top ? {} : { inFrame: hops }) })
    }
    for (const type of LISTENED) addEventListener(type, swallowInFrame, true)
    // while an assert mode waits, the pointer's place goes to Node (the top frame's toolbar draws the highlight)
    let lastHover = 0
    let hoverTimer: ReturnType<typeof setTimeout> | null = null
    let hoverAt: { x: number; y: number } | null = null
    const sendHover = () => {
      hoverTimer = null
      if (mode === null || !hoverAt) return
      lastHover = Date.now()
      const { dx, dy, top, hops } = offset()
      call({ kind: 'hover', assert: mode, x: hoverAt.x + dx, y: hoverAt.y + dy, ...(top ? {} : { inFrame: hops }) })
    }
    const onHover = () => {
      if (mode === null || !hoverAt || hoverTimer) return
      const wait = Math.max(0, 40 - (Date.now() - lastHover))
      hoverTimer = setTimeout(sendHover, wait)
    }
    addEventListener(
      'mousemove',
      (e) => {
        if (!e.isTrusted) return
        hoverAt = { x: e.clientX, y: e.clientY }
        onHover()
      },
      true,
    )
    addEventListener('scroll', onHover, true)
    return
  }
  const key = Symbol.for('qa.recorderToolbar')
  if (store[key]) return
  const host = document.createElement(args.tag)
  store[key] = host
  const root = host.attachShadow({ mode: 'closed' })
  store[Symbol.for('qa.recorderToolbar.root')] = root
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
  store[Symbol.for('qa.recorderToolbar.highlight')] = (
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
  store[Symbol.for('qa.recorderToolbar.edit')] = (request: ToolbarEditRequest) => {
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
  store[Symbol.for('qa.recorderToolbar.picked')] = (kind: string) => {
    if (stopping) return
    setMode(null)
    if (kind === 'text' || kind === 'value') {
      editing = 'waiting'
      setPicking()
      setLabel('Reading…')
    }
  }
  store[Symbol.for('qa.recorderToolbar.draft')] = () =>
    typeof editing === 'number' ? { id: editing, op, expected: field?.value ?? '' } : null
  // a frame below tells of the person's Escape, Enter or click there (through Node)
  store[Symbol.for('qa.recorderToolbar.frameSignal')] = (signal: string) => {
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

/**
 * Removes the toolbar (a person's own browser, attached with --cdp, is left as it was); Node leaves no assert mode on
 * in its frames either (`setToolbarFrameStateInPage`).
 */
export function removeRecorderToolbarInPage(): void {
  const store = window as unknown as Record<symbol, unknown>
  ;(store[Symbol.for('qa.recorderToolbar')] as Element | undefined)?.remove()
  delete store[Symbol.for('qa.recorderToolbar.edit')]
  delete store[Symbol.for('qa.recorderToolbar.picked')]
  delete store[Symbol.for('qa.recorderToolbar.draft')]
  delete store[Symbol.for('qa.recorderToolbar.highlight')]
  delete store[Symbol.for('qa.recorderToolbar.frameSignal')]
  delete store[Symbol.for('qa.recorderToolbar.root')]
  store[Symbol.for('qa.recorderToolbar.picking')] = false
}

/** Sets the top frame's mode and editor state in a frame below (run in that frame's recorder world). */
export function setToolbarFrameStateInPage(state: ToolbarFrameState): boolean {
  const set = (window as unknown as Record<symbol, ((s: ToolbarFrameState) => void) | undefined>)[
    Symbol.for('qa.recorderToolbar.frameState')
  ]
  if (typeof set !== 'function') return false
  set(state)
  return true
}

/** Gives the top frame's toolbar a frame's Escape, Enter or click (run in the top frame's recorder world). */
export function signalToolbarInPage(signal: ToolbarFrameSignal): boolean {
  const take = (window as unknown as Record<symbol, ((s: ToolbarFrameSignal) => void) | undefined>)[
    Symbol.for('qa.recorderToolbar.frameSignal')
  ]
  if (typeof take !== 'function') return false
  take(signal)
  return true
}
