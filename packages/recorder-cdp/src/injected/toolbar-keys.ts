/**
 * The protocol between Node and the recorder's toolbar in the page a person records in: a small "Recording… Stop"
 * bar in a closed shadow root, in the top frame only, created by the recorder's isolated world
 * (`cdp-recorder-world.ts`): the page's scripts reach neither its functions nor its state nor the closed root's
 * content (the editor's text), and events a page script dispatches (`isTrusted` false) never press its buttons, pick
 * or type. Its input is never recorded and never reaches the page's own listeners (a window capture listener added
 * before any page script ends those events), and screenshots hide it (`TOOLBAR_SCREENSHOT_STYLE`). Every frame below
 * the top one (same-origin or not, nested as deep as it goes) gets a small part of it that only listens: while an
 * assert mode waits for its pick, a click in that frame picks the element there (the frame's page never sees it),
 * and while the editor is open that frame's clicks and keys wait, as the top page's do. The top frame tells its
 * frames the mode through Node (`frames-state`; Node sets it in every frame's world), and a frame tells the top one
 * of Escape, Enter or a click there the same way (`frame-signal`): no message a page can post or read. Page code and
 * Node both import this module.
 */

/** The toolbar's host element; a custom tag, so that one CSS rule hides it in screenshots. */
export const TOOLBAR_TAG = 'qa-recorder-toolbar'

/** Page binding the toolbar calls with `{ kind: 'stop' }`. */
export const TOOLBAR_BINDING = '__qaRecorderToolbar'

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

/** What the toolbar's editor holds now: the draft it edits, equals or contains, and the text in its field. */
export interface ToolbarDraft {
  id: number
  op: ToolbarAssertOp
  expected: string
}

/** The toolbar's host element in the top frame (a `Symbol.for` key): the input reporter tells its events apart. */
export const TOOLBAR_HOST_KEY = 'qa.recorderToolbar'

/** Set in a frame below the top one once its listening part is installed (a `Symbol.for` key). */
export const TOOLBAR_FRAME_KEY = 'qa.recorderToolbar.frame'
