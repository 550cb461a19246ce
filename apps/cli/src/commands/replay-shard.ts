import { join, resolve } from 'node:path'
import { type QaConfig, serializeReplayReport } from '@qa/model'
import { loadTestCase, saveReplayReport, writeFileAtomic } from '@qa/model/node'
import {
  rebaseReport,
  replayFolder,
  type SuiteCatalogSnapshot,
  scanSuites,
  type ShardSpec,
  webReplayer,
  webReplayerOptionsOf,
} from '@qa/runner'
import { renderReport } from '@qa/verifier'
import { desktopSuitesOf } from '../desktop-suites'
import { caseInputs, guardOutputs } from '../output-guard'
import { reverifierOf } from '../reverifier'
import { EXIT_PASS, EXIT_TEST_FAILED } from '../exit-codes'
import { UsageError } from '../usage-error'

export interface ReplayFolderCliOptions {
  /** The folder of cases (`qa replay` checked it is one). */
  dir: string
  /** Shard k of n (`--shard`, parsed by `qa replay`); default every case. */
  shard?: ShardSpec
  /** Every recorded URL on a case's recorded origin moves onto this base. */
  baseUrl?: string
  /** The resolved config (`loadConfig`): report folder, verification policy, masks, vision, browser, timeouts. */
  config: QaConfig
  verify: boolean
  headed: boolean
  /** Every case in this viewport (`--viewport`). */
  viewport?: { width: number; height: number }
  /** The flag or config key that named `config.replay.reportDir`, for messages (default `--report-dir`). */
  reportDirFlag?: string
  /** Also write the merged report as JUnit XML here (checked before any work). */
  junit?: string
  /** Replace an existing --junit file. */
  force: boolean
  json: boolean
  out: (line: string) => void
  err: (line: string) => void
}

/**
 * A case with no action replays when it is a web case with a page to open (its start URL, or `--base-url`): the
 * page loading is the test, as `qa replay <case>` replays it alone (a DevTools recording that only navigates).
 */
async function hasNothingToReplay(path: string, baseUrl: string | undefined): Promise<boolean> {
  const tc = (await loadTestCase(path)).testCase
  return tc.actions.length === 0 && !(tc.platform === 'web' && (tc.startUrl || baseUrl))
}

/**
 * Before any work: every case of the folder loads and has something to replay, and there is at least one. A
 * case that cannot run is never dropped silently (every shard sees the same folder, so every shard refuses it).
 */
async function assertRunnableFolder(
  dir: string,
  reportDir: string,
  baseUrl: string | undefined,
): Promise<SuiteCatalogSnapshot> {
  const snap = await scanSuites(dir, { excludeDirs: [reportDir] })
  const empty = snap.suites.filter((s) => s.steps.length === 0)
  const nothing = await Promise.all(empty.map((s) => hasNothingToReplay(s.path, baseUrl)))
  const problems = [
    ...snap.invalid.map((c) => c.message.replace(/^/gm, '  ').trimStart()),
    ...empty
      .filter((_, i) => nothing[i])
      .map((s) => `${s.file} has no actions and no page to open; there is nothing to replay.`),
  ]
  if (problems.length > 0) {
    throw new UsageError(
      `${problems.length} case${problems.length === 1 ? '' : 's'} under ${snap.dir} cannot be replayed; nothing was replayed:\n${problems.map((p) => `  ${p}`).join('\n')}`,
      'Fix or move the files listed above (qa validate <file> lists every problem).',
    )
  }
  if (snap.suites.length === 0) {
    throw new UsageError(
      `No test case (*.json with "actions") under ${snap.dir}; nothing was replayed.`,
      'Pass the folder holding your recorded cases, or record one with qa record web.',
    )
  }
  return snap
}

/**
 * `qa replay <folder> [--shard k/n]`: replays the shard's cases with the server's in-process runner (the same
 * replay function as `qa serve`), one report per case under `<report-dir>/runs/`, and one merged shard report
 * `<report-dir>/shard-<k>-of-<n>.json` for `qa report merge`.
 */
export async function replayFolderFromCli(o: ReplayFolderCliOptions): Promise<number> {
  const shard = o.shard ?? { k: 1, n: 1 }
  const reportDir = resolve(o.config.replay.reportDir)
  const snap = await assertRunnableFolder(o.dir, reportDir, o.baseUrl)
  // every case of the folder, its screenshots and their folders are inputs: the shard report goes into the report
  // folder and each case's reports and artifacts under its runs/, never into a folder of a case's screenshots
  const reportDirFlag = o.reportDirFlag ?? '--report-dir'
  const inputs = await Promise.all(
    snap.suites.map(async (s) =>
      caseInputs(await loadTestCase(s.path)).map((i) => ({ ...i, what: `${i.what} ${s.file}` })),
    ),
  )
  await guardOutputs({
    outputs: [
      { path: reportDir, flag: reportDirFlag, shared: true },
      { path: join(reportDir, 'runs'), flag: reportDirFlag, shared: true },
      o.junit && { path: o.junit, flag: '--junit' },
    ],
    inputs: inputs.flat(),
    force: o.force,
    nothing: 'nothing was replayed',
  })
  const log = (line: string) => {
    if (!o.json) o.err(line)
  }
  // the same options as `qa replay <case>`: one resolved config, the same flags
  const web = webReplayer(
    webReplayerOptionsOf(o.config, {
      verify: o.verify,
      headed: o.headed,
      env: process.env,
      reverifier: reverifierOf(o.config, o.verify),
      ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
      ...(o.viewport ? { viewport: o.viewport } : {}),
    }),
  )
  const desktop = desktopSuitesOf(o.config, { verify: o.verify })
  const outcome = await replayFolder({
    dir: o.dir,
    shard,
    reportDir,
    // web suites run in the pool; desktop suites one at a time on the display
    replayers: { web, desktop },
    onEvent: (e) => {
      if (e.type === 'run-queued') log(`Shard ${shard.k}/${shard.n}: ${e.run.suites.length} case(s)`)
      if (e.type === 'suite-finished') {
        const ok = e.suite.steps.filter((s) => s.passed).length
        log(
          `  ${e.suite.passed ? 'PASS' : 'FAIL'} ${e.suite.name} (${e.suite.file}) ${ok}/${e.suite.steps.length} steps` +
            (e.suite.error ? ` — ${e.suite.error}` : ''),
        )
      }
    },
  }).finally(() => Promise.all([web.close(), desktop.close()]))
  if (!outcome.merged) {
    log(`Shard ${shard.k}/${shard.n} has no cases (more shards than cases); nothing to replay.`)
    if (o.json) o.out('null')
    return EXIT_PASS
  }
  const file = join(reportDir, `shard-${shard.k}-of-${shard.n}.json`)
  const report = rebaseReport(outcome.merged, reportDir, reportDir)
  await saveReplayReport(file, report, { overwrite: true })
  if (o.junit) await writeFileAtomic(o.junit, await renderReport(report, 'junit'), { overwrite: o.force })
  if (o.json) o.out(JSON.stringify(serializeReplayReport(report)))
  else {
    o.out(report.summary)
    o.out(`Report: ${file}`)
  }
  return outcome.passed ? EXIT_PASS : EXIT_TEST_FAILED
}
