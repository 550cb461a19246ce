import type { SuiteReplayFn } from './run-types'

export interface WebReplayerOptions {
  /** Chromium binary (the CLI passes QA_CHROMIUM); default /usr/bin/chromium. */
  executablePath?: string
  headless?: boolean
  /** Moves every case's recorded origin to this URL's origin (same paths), e.g. the sample app of `--demo`. */
  url?: string
  /** Compare each step with its recorded screenshot (default true). */
  verify?: boolean
  /** Similarity 0–1 a step needs to pass (default 0.95). */
  passSimilarity?: number
  /** Where `secret_env` steps read their secrets. */
  env?: Readonly<Record<string, string | undefined>>
  /** Time an element gets to become actionable (default 5000). */
  actionTimeoutMs?: number
}

/**
 * The web replay function: one fresh Chromium per suite (no state leaks between suites), @qa/recorder-cdp's
 * self-healing replay, closed on abort so a canceled or hung suite releases its browser.
 */
export function webReplayer(opts: WebReplayerOptions = {}): SuiteReplayFn {
  return async ({ testCase, caseDir, caseFile, artifactDir, signal, onStep }) => {
    const { openBrowser, replayWebCase } = await import('@qa/recorder-cdp')
    const viewport = testCase.viewport ?? undefined
    const session = await openBrowser({
      headless: opts.headless ?? true,
      ...(opts.executablePath ? { executablePath: opts.executablePath } : {}),
      ...(viewport ? { viewport: { width: viewport.width, height: viewport.height } } : {}),
    })
    const onAbort = () => {
      void session.close().catch(() => undefined)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    try {
      if (signal.aborted) throw new Error('The run was canceled.')
      const outcome = await replayWebCase(testCase, {
        page: session.page,
        caseDir,
        caseFile,
        ...(opts.url ? { url: opts.url } : {}),
        verify: opts.verify ?? true,
        ...(opts.passSimilarity !== undefined ? { policy: { passSimilarity: opts.passSimilarity } } : {}),
        artifactDir,
        ...(opts.actionTimeoutMs ? { actionTimeoutMs: opts.actionTimeoutMs } : {}),
        env: opts.env ?? {},
        onStep,
      })
      return { report: outcome.report, passed: outcome.passed }
    } finally {
      signal.removeEventListener('abort', onAbort)
      await session.close().catch(() => undefined)
    }
  }
}
