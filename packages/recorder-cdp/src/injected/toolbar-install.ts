/**
 * The recorder's toolbar, installed in every frame at document start. Page code: bundled into the page functions
 * (see `page-bundle.generated.ts`), imports page code only.
 */
import { callBinding } from './toolbar-events'
import { listenInFrame } from './toolbar-frame'
import { installToolbarInTop } from './toolbar-top'

/**
 * Runs in every frame at document start: the toolbar in the top frame, its listening part in the others (an assert
 * mode's pick, and the wait while the editor is open). The host is published under `Symbol.for(TOOLBAR_HOST_KEY)`
 * so that the input reporter can tell the toolbar's events apart.
 */
export function installRecorderToolbarInPage(args: { binding: string; tag: string }): void {
  const call = callBinding(args.binding)
  if (window !== window.top) listenInFrame(call)
  else installToolbarInTop(args.tag, call)
}
