/**
 * The toolbar's listening part in a frame below the top one: while an assert mode waits for its pick, a click here
 * picks the element here (this frame's page never sees it); while the editor is open, this frame's clicks and keys
 * wait. The top frame's state comes through Node (`TOOLBAR_FRAME_STATE_KEY`), and Escape, Enter or a click here goes
 * back the same way (`frame-signal`). Page code: bundled into the page functions, imports page code only.
 */
import { frameOffset } from './geometry'
import { KEY_EVENTS, LISTENED, PICK_EVENTS } from './toolbar-events'
import { TOOLBAR_FRAME_KEY, TOOLBAR_FRAME_STATE_KEY, TOOLBAR_PICKING_KEY } from './toolbar-keys'

/** Installs the listening part in this frame (once); `call` sends a request to Node. */
export function listenInFrame(call: (request: unknown) => void): void {
  const store = window as unknown as Record<symbol, unknown>
  const flags = store
  const pickingKey = Symbol.for(TOOLBAR_PICKING_KEY)
  // A frame below the top one: the assert mode and the editor's state come from the parent frame.
  const frameKey = Symbol.for(TOOLBAR_FRAME_KEY)
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
  store[Symbol.for(TOOLBAR_FRAME_STATE_KEY)] = (next: { mode: string | null; editing: boolean }) =>
    setState({ mode: typeof next?.mode === 'string' ? next.mode : null, editing: next?.editing === true })
  const toTop = (signal: 'escape' | 'focus' | 'enter') => call({ kind: 'frame-signal', signal })
  // where this frame's viewport is in the highest frame its script can reach (the top one, unless a parent of
  // another origin stops the walk: the recorder places the point from there)
  const offset = () => frameOffset(window)
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
}
