/**
 * What Node asks of the toolbar in a frame (run with `evaluate` in the recorder's world): show a highlight, open or
 * read the editor, tell of a pick or a signal, set a frame's state, remove it. Page code: bundled into the page
 * functions (see `page-bundle.generated.ts`), imports page code only.
 */
import {
  TOOLBAR_DRAFT_KEY,
  TOOLBAR_EDIT_KEY,
  TOOLBAR_FRAME_SIGNAL_KEY,
  TOOLBAR_FRAME_STATE_KEY,
  TOOLBAR_HIGHLIGHT_KEY,
  TOOLBAR_HOST_KEY,
  TOOLBAR_PICKED_KEY,
  TOOLBAR_PICKING_KEY,
  TOOLBAR_ROOT_KEY,
  type ToolbarAssertKind,
  type ToolbarDraft,
  type ToolbarEditRequest,
  type ToolbarFrameSignal,
  type ToolbarFrameState,
  type ToolbarHighlight,
} from './toolbar-keys'

/**
 * Shows the assert mode's highlight in the toolbar (run with `page.evaluate` in the top frame); null hides it. A
 * highlight for a mode that is no longer on is not shown. False when there is no toolbar there.
 */
export function showToolbarHighlightInPage(highlight: ToolbarHighlight | null): boolean {
  const show = (window as unknown as Record<symbol, ((h: ToolbarHighlight | null) => void) | undefined>)[
    Symbol.for(TOOLBAR_HIGHLIGHT_KEY)
  ]
  if (typeof show !== 'function') return false
  show(highlight)
  return true
}

/**
 * Tells the toolbar (run with `page.evaluate` in the top frame) that a frame below took the assert mode's pick:
 * the mode ends there too, and a text or value pick waits for its editor (`openToolbarEditorInPage`).
 */
export function markToolbarPickedInPage(assert: ToolbarAssertKind): boolean {
  const picked = (window as unknown as Record<symbol, ((a: ToolbarAssertKind) => void) | undefined>)[
    Symbol.for(TOOLBAR_PICKED_KEY)
  ]
  if (typeof picked !== 'function') return false
  picked(assert)
  return true
}

/** What the toolbar's open editor holds now (run with `page.evaluate`); null when no editor is open. */
export function readToolbarEditorInPage(): ToolbarDraft | null {
  const read = (window as unknown as Record<symbol, (() => ToolbarDraft | null) | undefined>)[
    Symbol.for(TOOLBAR_DRAFT_KEY)
  ]
  return typeof read === 'function' ? read() : null
}

/** Opens the toolbar's editor in the page (run with `page.evaluate`); false when there is no toolbar there. */
export function openToolbarEditorInPage(request: ToolbarEditRequest): boolean {
  const open = (window as unknown as Record<symbol, ((r: ToolbarEditRequest) => void) | undefined>)[
    Symbol.for(TOOLBAR_EDIT_KEY)
  ]
  if (typeof open !== 'function') return false
  open(request)
  return true
}

/**
 * Removes the toolbar (a person's own browser, attached with --cdp, is left as it was); Node leaves no assert mode on
 * in its frames either (`setToolbarFrameStateInPage`).
 */
export function removeRecorderToolbarInPage(): void {
  const store = window as unknown as Record<symbol, unknown>
  ;(store[Symbol.for(TOOLBAR_HOST_KEY)] as Element | undefined)?.remove()
  delete store[Symbol.for(TOOLBAR_EDIT_KEY)]
  delete store[Symbol.for(TOOLBAR_PICKED_KEY)]
  delete store[Symbol.for(TOOLBAR_DRAFT_KEY)]
  delete store[Symbol.for(TOOLBAR_HIGHLIGHT_KEY)]
  delete store[Symbol.for(TOOLBAR_FRAME_SIGNAL_KEY)]
  delete store[Symbol.for(TOOLBAR_ROOT_KEY)]
  store[Symbol.for(TOOLBAR_PICKING_KEY)] = false
}

/** Sets the top frame's mode and editor state in a frame below (run in that frame's recorder world). */
export function setToolbarFrameStateInPage(state: ToolbarFrameState): boolean {
  const set = (window as unknown as Record<symbol, ((s: ToolbarFrameState) => void) | undefined>)[
    Symbol.for(TOOLBAR_FRAME_STATE_KEY)
  ]
  if (typeof set !== 'function') return false
  set(state)
  return true
}

/** Gives the top frame's toolbar a frame's Escape, Enter or click (run in the top frame's recorder world). */
export function signalToolbarInPage(signal: ToolbarFrameSignal): boolean {
  const take = (window as unknown as Record<symbol, ((s: ToolbarFrameSignal) => void) | undefined>)[
    Symbol.for(TOOLBAR_FRAME_SIGNAL_KEY)
  ]
  if (typeof take !== 'function') return false
  take(signal)
  return true
}
