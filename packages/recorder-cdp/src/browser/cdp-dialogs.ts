import type { DialogAnswer, DialogType } from '@qa/model'
import type { Dialog, Page } from 'playwright-core'

/**
 * JavaScript dialogs (alert, confirm, prompt, beforeunload) in a recording by hand and in its replay. Playwright
 * dismisses every dialog at once unless someone listens for them: the recorder listens (and leaves the dialog to
 * the person, who answers it in the browser), and reads the answer from CDP's `Page.javascriptDialogClosed`.
 */

/** A dialog the person answered: when it opened (ms since the epoch, Node's clock) and the answer. */
export interface AnsweredDialog {
  openedAt: number
  answer: DialogAnswer
}

const TYPES = new Set<string>(['alert', 'confirm', 'prompt', 'beforeunload'])

/** Watches a page's dialogs while a person records; `onAnswered` gets each one once it is closed. */
export async function watchDialogs(
  page: Page,
  onAnswered: (dialog: AnsweredDialog) => void,
): Promise<{ dispose(): Promise<void> }> {
  // a listener of our own keeps Playwright from dismissing the dialog before the person sees it
  const leaveToPerson = (_dialog: Dialog) => undefined
  page.on('dialog', leaveToPerson)
  const session = await page.context().newCDPSession(page)
  let open: { type: DialogType; message: string; openedAt: number } | null = null
  session.on('Page.javascriptDialogOpening', (e) => {
    const type = TYPES.has(e.type) ? (e.type as DialogType) : 'alert'
    open = { type, message: e.message, openedAt: Date.now() }
  })
  session.on('Page.javascriptDialogClosed', (e) => {
    if (!open) return
    const answer: DialogAnswer = { type: open.type, message: open.message, accept: e.result }
    if (open.type === 'prompt' && e.result) answer.promptText = e.userInput
    onAnswered({ openedAt: open.openedAt, answer })
    open = null
  })
  await session.send('Page.enable')
  return {
    async dispose() {
      page.off('dialog', leaveToPerson)
      await session.detach().catch(() => undefined)
    },
  }
}

/**
 * Answers the dialog a replayed step opens as it was answered when recorded. `seen()` tells whether one opened;
 * a dialog of another type is dismissed (as Playwright does by default), and does not count.
 */
export function answerDialogs(page: Page, recorded: DialogAnswer): { seen(): boolean; dispose(): void } {
  let seen = false
  const onDialog = (dialog: Dialog) => {
    if (dialog.type() !== recorded.type) {
      dialog.dismiss().catch(() => undefined)
      return
    }
    seen = true
    const answered = recorded.accept ? dialog.accept(recorded.promptText ?? undefined) : dialog.dismiss()
    answered.catch(() => undefined)
  }
  page.on('dialog', onDialog)
  return { seen: () => seen, dispose: () => page.off('dialog', onDialog) }
}
