import type { Page } from 'playwright-core'
import type { RecordedStep, WebRecorder } from './recorder'

/** How a recording by hand ended; every way keeps the steps recorded so far. */
export type HandStopReason = 'toolbar' | 'signal' | 'window-closed' | 'browser-closed' | 'page-crashed'

export interface RecordByHandOptions {
  /**
   * Opens this URL (`recorder.start`) once the recorder listens, so that the toolbar is in place before the page's
   * own scripts run; without one the flow starts on the page as it is (a person's own tab).
   */
  startUrl?: string
  /** Every new step, as soon as it is recorded (the live list in the terminal). */
  onStep?: (step: RecordedStep) => void
  /** Called once the page is open and recording. */
  onStarted?: () => void
  /** Aborted when the person stops from outside the page (Ctrl-C in the terminal). */
  signal?: AbortSignal
  /** How long the last steps may take to finish (identity, screenshots) once stopped; default 10 s. */
  drainTimeoutMs?: number
}

export interface RecordByHandResult {
  reason: HandStopReason
  /** In words, for the terminal: "the Stop button of the recorder's toolbar was clicked". */
  why: string
}

const WHY: Record<HandStopReason, string> = {
  toolbar: 'the Stop button of the recorder toolbar was clicked',
  signal: 'recording was interrupted from the terminal',
  'window-closed': 'the browser window was closed',
  'browser-closed': 'the browser closed or crashed',
  'page-crashed': 'the page crashed',
}

/**
 * Records what a person does in the recorder's page until they stop: the toolbar's Stop button, the signal
 * (Ctrl-C), closing the page's window, or the browser going away (closed, killed, crashed). Resolves once the
 * steps in flight are finished (or given up after `drainTimeoutMs`); the caller saves the case.
 */
export async function recordByHand(recorder: WebRecorder, opts: RecordByHandOptions = {}): Promise<RecordByHandResult> {
  let stop!: (reason: HandStopReason) => void
  const stopped = new Promise<HandStopReason>((resolve) => {
    stop = resolve
  })
  const offs: Array<() => void> = []
  const on = <T extends { on(e: string, f: () => void): unknown; off(e: string, f: () => void): unknown }>(
    target: T,
    event: string,
    reason: HandStopReason,
  ) => {
    const handler = () => stop(reason)
    target.on(event, handler)
    offs.push(() => target.off(event, handler))
  }
  const first = recorder.page
  const context = first.context()
  const browser = context.browser()
  if (browser) on(browser as never, 'disconnected', 'browser-closed')
  const watchPage = (p: Page) => on(p as never, 'crash', 'page-crashed')
  watchPage(first)
  const onPage = (p: Page) => watchPage(p)
  context.on('page', onPage)
  offs.push(() => context.off('page', onPage))
  if (opts.signal?.aborted) stop('signal')
  const onAbort = () => stop('signal')
  opts.signal?.addEventListener('abort', onAbort)
  offs.push(() => opts.signal?.removeEventListener('abort', onAbort))
  // the page the flow is in changes when a click opens a new one: closing whichever it is now ends the recording
  const closedPoll = setInterval(() => {
    if (recorder.page.isClosed()) stop('window-closed')
  }, 200)
  offs.push(() => clearInterval(closedPoll))

  const cleanUp = () => {
    for (const off of offs.splice(0)) off()
  }
  let listening: { stop(): Promise<void> }
  try {
    listening = await recorder.listen({
      ...(opts.onStep ? { onStep: opts.onStep } : {}),
      onStopRequest: () => stop('toolbar'),
    })
    await recorder.start(opts.startUrl)
  } catch (error) {
    cleanUp()
    throw error
  }
  opts.onStarted?.()
  const reason = await stopped
  cleanUp()
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([
    listening.stop(),
    new Promise((resolve) => {
      timer = setTimeout(resolve, opts.drainTimeoutMs ?? 10_000)
    }),
  ])
  clearTimeout(timer)
  return { reason, why: WHY[reason] }
}
