import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import type { MaskRect, QaConfig, TestCase } from '@qa/model'
import { MAX_TEXT_FILE_BYTES, readInputFile } from '@qa/model/node'
import type { VisionReverifier } from '@qa/verifier'
import type { WebReplayOutcome, WebStepEvent } from '@qa/recorder-cdp'
import type { Browser, Page } from 'playwright-core'
import type { SuiteReplayFn } from './run-types'

type Size = { width: number; height: number }
/** The web cascade's tuning (`replayWebCase`'s `locate`). */
export type LocateOptions = NonNullable<Parameters<typeof import('@qa/recorder-cdp').replayWebCase>[1]['locate']>

export interface WebReplayerOptions {
  /** Chromium binary (the CLI passes QA_CHROMIUM); default /usr/bin/chromium. */
  executablePath?: string
  headless?: boolean
  /**
   * Every recorded URL on a case's recorded origin moves onto this base (its origin, and its path as a prefix),
   * e.g. the sample app of `--demo` (`planUrls` of @qa/recorder-cdp).
   */
  baseUrl?: string
  /** @deprecated the older name of `baseUrl`. */
  url?: string
  /** Compare each step with its recorded screenshot (default true). */
  verify?: boolean
  /** Similarity 0–1 a step needs to pass (default 0.95). */
  passSimilarity?: number
  /** Where `secret_env` steps read their secrets. */
  env?: Readonly<Record<string, string | undefined>>
  /** Time an element gets to become actionable (default 5000). */
  actionTimeoutMs?: number
  /** Below passSimilarity and without a vision answer: warning at or above this (default: the verifier's). */
  fallbackSimilarity?: number
  /** Ignore-masks for dynamic regions, in screenshot pixels (config `verify.masks`). */
  masks?: readonly MaskRect[]
  /** The vision second opinion on steps below passSimilarity (null: none). */
  reverifier?: VisionReverifier | null
  /** Every case in this viewport (`--viewport`), whatever it was recorded in. */
  viewport?: Size
  /** The viewport of a case that recorded none (config `browser.viewport`). */
  defaultViewport?: Size | null
  /** The folder with the files steps choose in a file chooser (default: each case's folder). */
  filesDir?: string | null
  /** Stop a case once this many steps failed; the rest are reported as not run (config `replay.maxFailures`). */
  maxFailures?: number | null
  /**
   * A step imported from DevTools that none of its selectors finds is acted on at its recorded point (config
   * `replay.allowCoordinates`, `--allow-coordinates`); default off: it fails.
   */
  allowCoordinates?: boolean
}

/**
 * The web replayer options one resolved config gives — the same keys `qa replay <case>` honours — plus what only
 * the caller knows (`--verify`, `--headed`, `--viewport`, `--base-url`, the vision reverifier, the environment).
 */
export function webReplayerOptionsOf(
  config: QaConfig,
  run: Pick<WebReplayerOptions, 'verify' | 'baseUrl' | 'env' | 'reverifier' | 'viewport'> & { headed?: boolean },
): WebReplayerOptions {
  return {
    executablePath: config.browser.chromiumPath,
    headless: !run.headed && config.browser.headless,
    defaultViewport: config.browser.viewport,
    passSimilarity: config.verify.passSimilarity,
    fallbackSimilarity: config.verify.fallbackSimilarity,
    masks: config.verify.masks,
    actionTimeoutMs: config.replay.actionTimeoutMs,
    filesDir: config.replay.filesDir,
    maxFailures: config.replay.maxFailures,
    allowCoordinates: config.replay.allowCoordinates,
    ...(run.verify !== undefined ? { verify: run.verify } : {}),
    ...(run.baseUrl ? { baseUrl: run.baseUrl } : {}),
    ...(run.env ? { env: run.env } : {}),
    ...(run.reverifier ? { reverifier: run.reverifier } : {}),
    ...(run.viewport ? { viewport: run.viewport } : {}),
  }
}

/** One web suite to replay: the case, where it lives, where its screenshots go. */
export interface WebSuiteInput {
  testCase: TestCase
  caseDir: string
  caseFile: string
  artifactDir: string | null
  signal?: AbortSignal
  /** The run's base URL (a queued job's); a replayer's own `baseUrl` wins. */
  baseUrl?: string | null
  onStep?: (event: WebStepEvent) => void
  onStepStart?: (event: { index: number; total: number; action: TestCase['actions'][number] }) => void
}

/** The web replayer's options and what one replay adds: the exact start URL, the page or browser to use. */
export interface WebSuiteOptions extends WebReplayerOptions {
  /** The start URL exactly as given (`--url` of one case). */
  startUrl?: string
  verifyRegion?: boolean
  locate?: LocateOptions
  /** Keep what `qa accept` needs in the report (with `verify`; default true). */
  acceptance?: boolean
  /** Replay on this page as it is. */
  page?: Page
  /** Open the case's context in this browser; else launch one (and close it after). */
  browser?: Browser
}

/**
 * Replays one web case, the same for one case and for the runner's pool: the case's viewport (`--viewport`, else
 * the recorded one, else the config's), a fresh context of the given browser (or the page given, or a browser of
 * its own), the config's thresholds, masks, timeouts, files folder and limits, every step's screen kept, and the
 * case's hash and each step's evidence for `qa accept`.
 */
export async function replayWebSuite(
  input: WebSuiteInput,
  opts: WebSuiteOptions,
  onProgress?: (line: string) => void,
): Promise<WebReplayOutcome> {
  const { openBrowser, replayWebCase } = await import('@qa/recorder-cdp')
  const { testCase, caseDir, caseFile, signal } = input
  const verify = opts.verify ?? true
  const viewport = opts.viewport ?? testCase.viewport ?? opts.defaultViewport ?? undefined
  const session = opts.page
    ? null
    : await openBrowser({
        ...(opts.browser
          ? { browser: opts.browser }
          : {
              headless: opts.headless ?? true,
              ...(opts.executablePath ? { executablePath: opts.executablePath } : {}),
            }),
        ...(viewport ? { viewport: { width: viewport.width, height: viewport.height } } : {}),
      })
  const page = opts.page ?? (session?.page as Page)
  const onAbort = () => {
    void session?.close().catch(() => undefined)
  }
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    if (signal?.aborted) throw new Error('The run was canceled.')
    // the case as this replay reads it: a report names it by hash, so `qa accept` refuses a case changed since
    const caseBytes =
      verify && (opts.acceptance ?? true) && caseFile
        ? await readInputFile(caseFile, { what: 'test case file', maxBytes: MAX_TEXT_FILE_BYTES }).catch(() => null)
        : null
    onProgress?.(`Replaying ${testCase.name} (${testCase.actions.length} steps)${verify ? ' with verification' : ''}`)
    const baseUrl = opts.baseUrl ?? opts.url ?? input.baseUrl ?? undefined
    const outcome = await replayWebCase(testCase, {
      page,
      caseDir,
      caseFile,
      ...(opts.startUrl ? { url: opts.startUrl } : {}),
      // this replayer's own base first (a worker's --base-url: where the app is seen from this host), else the run's
      ...(baseUrl ? { baseUrl } : {}),
      verify,
      ...(opts.passSimilarity !== undefined || opts.fallbackSimilarity !== undefined
        ? {
            policy: {
              ...(opts.passSimilarity !== undefined ? { passSimilarity: opts.passSimilarity } : {}),
              ...(opts.fallbackSimilarity !== undefined ? { fallbackSimilarity: opts.fallbackSimilarity } : {}),
            },
          }
        : {}),
      ...(opts.masks?.length ? { compareIgnore: [...opts.masks] } : {}),
      ...(opts.reverifier ? { reverifier: opts.reverifier } : {}),
      ...(opts.filesDir ? { filesDir: resolve(opts.filesDir) } : {}),
      ...(opts.verifyRegion !== undefined ? { verifyRegion: opts.verifyRegion } : {}),
      ...(opts.locate ? { locate: opts.locate } : {}),
      artifactDir: input.artifactDir,
      // every step's actual screen is kept: the report shows what the page looked like, passed steps too
      keepActual: 'always',
      ...(opts.actionTimeoutMs ? { actionTimeoutMs: opts.actionTimeoutMs } : {}),
      ...(opts.maxFailures ? { maxFailures: opts.maxFailures } : {}),
      ...(opts.allowCoordinates ? { allowCoordinates: true } : {}),
      env: opts.env ?? {},
      ...(input.onStepStart ? { onStepStart: input.onStepStart } : {}),
      ...(input.onStep ? { onStep: input.onStep } : {}),
    })
    // what `qa accept` needs: the case's hash now and the steps' evidence (absolute paths)
    if (caseBytes && caseFile)
      outcome.report.acceptance = {
        caseFile: resolve(caseFile),
        caseSha256: createHash('sha256').update(caseBytes).digest('hex'),
        steps: outcome.acceptanceSteps,
      }
    return outcome
  } finally {
    signal?.removeEventListener('abort', onAbort)
    await session?.close().catch(() => undefined)
  }
}

/** A replay function that owns a browser: close it when the runner is done. */
export type WebSuiteReplayFn = SuiteReplayFn & { close(): Promise<void> }

/**
 * The web replay function: @qa/recorder-cdp's self-healing replay, each suite in a fresh browser context (own
 * cookies, storage and cache: no state leaks between suites) of one Chromium the replayer launches on first
 * use and shares between its concurrent suites (a pool of contexts, not of browsers: a launch costs ~1 s of
 * CPU per suite otherwise). A context is closed on abort, so a canceled or hung suite releases it; a browser
 * that crashed is launched again for the next suite. `close()` ends the browser.
 */
export function webReplayer(opts: WebReplayerOptions = {}): WebSuiteReplayFn {
  let shared: Promise<Browser> | null = null
  const browser = async (): Promise<Browser> => {
    const current = shared ? await shared.catch(() => null) : null
    if (current?.isConnected()) return current
    const { openBrowser } = await import('@qa/recorder-cdp')
    shared = openBrowser({
      headless: opts.headless ?? true,
      ...(opts.executablePath ? { executablePath: opts.executablePath } : {}),
    }).then(async (session) => {
      // keep the browser, not the session's own context
      await session.context.close().catch(() => undefined)
      return session.browser
    })
    return shared
  }
  const replay: SuiteReplayFn = async ({ testCase, caseDir, caseFile, artifactDir, signal, onStep, baseUrl }) => {
    const outcome = await replayWebSuite(
      { testCase, caseDir, caseFile, artifactDir, signal, onStep, ...(baseUrl ? { baseUrl } : {}) },
      { ...opts, browser: await browser() },
    )
    return { report: outcome.report, passed: outcome.passed }
  }
  return Object.assign(replay, {
    async close() {
      const current = shared
      shared = null
      const b = current ? await current.catch(() => null) : null
      await b?.close().catch(() => undefined)
    },
  })
}
