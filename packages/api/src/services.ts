import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_CONFIG, type Platform, type QaConfig } from '@qa/model'
import {
  type ArtifactStore,
  createRunner,
  createSuiteCatalog,
  fileRunStore,
  type JobRunner,
  openArtifactStore,
  type ReplayerTable,
  type RunStore,
  type SuiteCatalog,
  type SuiteReplayFn,
  webReplayer,
  type WebReplayerOptions,
  webReplayerOptionsOf,
} from '@qa/runner'

/** The bundled example cases `--demo` serves (they run against @qa/sample-app). */
export const DEMO_CASES_DIR = fileURLToPath(new URL('../demo-cases/', import.meta.url))

export interface RunnerServicesOptions {
  /**
   * The one resolved config (`loadConfig` of the CLI): browser, viewport, verification policy, masks, timeouts and
   * the report folder reach web suites through the runner's `webReplayerOptionsOf`, as in `qa replay`. Default:
   * the defaults. The options below that name the same thing (`reportDir`, `passSimilarity`, `actionTimeoutMs`,
   * `executablePath`) override it.
   */
  config?: QaConfig
  /** Show the browser window (`--headed`). */
  headed?: boolean
  /** Every web case in this viewport (`--viewport`), whatever it was recorded in. */
  viewport?: { width: number; height: number }
  /** The vision second opinion on web steps below the threshold (the CLI builds it from the config's vision). */
  reverifier?: WebReplayerOptions['reverifier']
  /** Folder of the test cases (each `*.json` case is a suite). Default: the current folder. */
  dir?: string
  /** Reports and run files (default: the config's `replay.reportDir`, else `qa-reports`). */
  reportDir?: string
  /** Suites replayed at the same time (default 1). */
  concurrency?: number
  /** Serve the bundled example cases against the bundled sample app (started on a free loopback port). */
  demo?: boolean
  /** Every recorded URL on a web case's recorded origin moves onto this base (`--base-url`). */
  baseUrl?: string
  /** @deprecated the older name of `baseUrl`. */
  url?: string
  /** Compare steps with their recorded screenshots (default true). */
  verify?: boolean
  /** Similarity 0–1 a step needs to pass. */
  passSimilarity?: number
  executablePath?: string
  /** Where `secret_env` steps read their secrets (the CLI passes process.env). */
  env?: Readonly<Record<string, string | undefined>>
  actionTimeoutMs?: number
  suiteTimeoutMs?: number
  /** Replace or add platform replayers (desktop plugs in here: `{ desktop: desktopReplayer(...) }`). */
  replayers?: Partial<Record<Platform, SuiteReplayFn>>
  store?: RunStore
  /** `redis://host:port`: run suites as BullMQ jobs for `qa worker` processes instead of in-process. */
  queue?: string
  /** Queued runs: where workers read cases and write reports — a folder (default: reportDir) or `s3://…`. */
  artifacts?: string | ArtifactStore
  /** Queued runs: attempts per suite (default 3). */
  attempts?: number
  /** Queued runs: retry failed suites, reporting a pass on retry as flaky (default true). */
  retryFailed?: boolean
}

export interface RunnerServices {
  catalog: SuiteCatalog
  runner: JobRunner
  reportDir: string
  /** The artifact store of queued runs (null in-process: reports are files under reportDir). */
  artifacts: ArtifactStore | null
  /** URL of the sample app when `demo` is on. */
  demoAppUrl: string | null
  close(): Promise<void>
}

/** Catalogue + runner (+ the demo sample app): shared by `qa serve` and `qa mcp`. */
export async function createRunnerServices(opts: RunnerServicesOptions = {}): Promise<RunnerServices> {
  let demoApp: { url: string; close(): Promise<void> } | null = null
  if (opts.demo) {
    const { startSampleApp } = await import('@qa/sample-app')
    demoApp = await startSampleApp({ version: 'v1', requireLogin: false })
  }
  try {
    const dir = resolve(opts.demo && !opts.dir ? DEMO_CASES_DIR : (opts.dir ?? '.'))
    const config = configOf(opts)
    const reportDir = resolve(config.replay.reportDir)
    const catalog = createSuiteCatalog(dir, { excludeDirs: [reportDir] })
    await catalog.list({ maxAgeMs: 0 })
    const store = opts.store ?? fileRunStore(reportDir)
    const baseUrl = opts.baseUrl ?? opts.url ?? demoApp?.url
    // the same options as `qa replay`: one resolved config, the same flags
    const web = webReplayer(
      webReplayerOptionsOf(config, {
        verify: opts.verify ?? true,
        ...(opts.headed ? { headed: true } : {}),
        ...(opts.viewport ? { viewport: opts.viewport } : {}),
        ...(baseUrl ? { baseUrl } : {}),
        ...(opts.env ? { env: opts.env } : {}),
        ...(opts.reverifier ? { reverifier: opts.reverifier } : {}),
      }),
    )
    const replayers: ReplayerTable = { web, ...opts.replayers }
    let artifacts: ArtifactStore | null = null
    let runner: JobRunner
    if (opts.queue) {
      artifacts =
        typeof opts.artifacts === 'object' ? opts.artifacts : await openArtifactStore(opts.artifacts, reportDir)
      const { createBullmqJobRunner } = await import('@qa/runner')
      runner = await createBullmqJobRunner({
        url: opts.queue,
        store,
        artifacts,
        initialRuns: await store.loadAll(),
        ...(opts.attempts ? { attempts: opts.attempts } : {}),
        ...(opts.retryFailed !== undefined ? { retryFailed: opts.retryFailed } : {}),
        ...(opts.suiteTimeoutMs ? { suiteTimeoutMs: opts.suiteTimeoutMs } : {}),
        // the workers learn where the app is (the demo's sample app, --base-url) from each job
        ...(baseUrl ? { baseUrl } : {}),
      })
    } else {
      runner = createRunner({
        replayers,
        reportDir,
        store,
        initialRuns: await store.loadAll(),
        ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
        ...(opts.suiteTimeoutMs ? { suiteTimeoutMs: opts.suiteTimeoutMs } : {}),
      })
    }
    return {
      catalog,
      runner,
      reportDir,
      artifacts,
      demoAppUrl: demoApp?.url ?? null,
      async close() {
        await runner.close()
        await web.close()
        await demoApp?.close()
      },
    }
  } catch (error) {
    await demoApp?.close()
    throw error
  }
}

/** The config with the options that name the same keys laid over it (they come from flags). */
function configOf(opts: RunnerServicesOptions): QaConfig {
  const config = opts.config ?? DEFAULT_CONFIG
  return {
    ...config,
    browser: { ...config.browser, ...(opts.executablePath ? { chromiumPath: opts.executablePath } : {}) },
    verify: {
      ...config.verify,
      ...(opts.passSimilarity !== undefined ? { passSimilarity: opts.passSimilarity } : {}),
    },
    replay: {
      ...config.replay,
      ...(opts.reportDir !== undefined ? { reportDir: opts.reportDir } : {}),
      ...(opts.actionTimeoutMs ? { actionTimeoutMs: opts.actionTimeoutMs } : {}),
    },
  }
}
