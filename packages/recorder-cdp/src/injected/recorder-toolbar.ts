/**
 * The recorder's toolbar as Node hands it to the page: its protocol (`toolbar-keys.ts`) and its page functions,
 * each the bundled source of the page module it names (see `page-function.ts`). The toolbar itself is
 * `toolbar-top.ts` (top frame) and `toolbar-frame.ts` (frames below).
 */
import { pageFunction } from './page-function'
import type {
  markToolbarPickedInPage as markToolbarPicked,
  openToolbarEditorInPage as openToolbarEditor,
  readToolbarEditorInPage as readToolbarEditor,
  removeRecorderToolbarInPage as removeRecorderToolbar,
  setToolbarFrameStateInPage as setToolbarFrameState,
  showToolbarHighlightInPage as showToolbarHighlight,
  signalToolbarInPage as signalToolbar,
} from './toolbar-calls'
import type { installRecorderToolbarInPage as installRecorderToolbar } from './toolbar-install'
import { TOOLBAR_TAG } from './toolbar-keys'

export {
  TOOLBAR_BINDING,
  TOOLBAR_DRAFT_KEY,
  TOOLBAR_EDIT_KEY,
  TOOLBAR_FRAME_SIGNAL_KEY,
  TOOLBAR_FRAME_STATE_KEY,
  TOOLBAR_HIGHLIGHT_KEY,
  TOOLBAR_PICKED_KEY,
  TOOLBAR_PICKING_KEY,
  TOOLBAR_ROOT_KEY,
  TOOLBAR_TAG,
  type ToolbarAssertKind,
  type ToolbarAssertOp,
  type ToolbarDraft,
  type ToolbarEditRequest,
  type ToolbarFrameSignal,
  type ToolbarFrameState,
  type ToolbarHighlight,
  type ToolbarRequest,
} from './toolbar-keys'

/**
 * Stylesheet applied while a screenshot is taken: the toolbar is never in one. Transparent, not removed: a click
 * on Stop while a screenshot is being taken still reaches the toolbar (with display: none it fell through to the
 * page under it, and was recorded as a click there).
 */
export const TOOLBAR_SCREENSHOT_STYLE = `${TOOLBAR_TAG}{opacity:0!important}`

/** Runs in every frame at document start: the toolbar in the top frame, its listening part in the others. */
export const installRecorderToolbarInPage = pageFunction<typeof installRecorderToolbar>('installRecorderToolbar')

/** Shows the assert mode's highlight in the toolbar (top frame); null hides it. False when there is no toolbar. */
export const showToolbarHighlightInPage = pageFunction<typeof showToolbarHighlight>('showToolbarHighlight')

/** Tells the toolbar (top frame) that a frame below took the assert mode's pick. */
export const markToolbarPickedInPage = pageFunction<typeof markToolbarPicked>('markToolbarPicked')

/** What the toolbar's open editor holds now; null when no editor is open. */
export const readToolbarEditorInPage = pageFunction<typeof readToolbarEditor>('readToolbarEditor')

/** Opens the toolbar's editor in the page; false when there is no toolbar there. */
export const openToolbarEditorInPage = pageFunction<typeof openToolbarEditor>('openToolbarEditor')

/** Removes the toolbar; Node leaves no assert mode on in its frames either (`setToolbarFrameStateInPage`). */
export const removeRecorderToolbarInPage = pageFunction<typeof removeRecorderToolbar>('removeRecorderToolbar')

/** Sets the top frame's mode and editor state in a frame below (run in that frame's recorder world). */
export const setToolbarFrameStateInPage = pageFunction<typeof setToolbarFrameState>('setToolbarFrameState')

/** Gives the top frame's toolbar a frame's Escape, Enter or click (run in the top frame's recorder world). */
export const signalToolbarInPage = pageFunction<typeof signalToolbar>('signalToolbar')
